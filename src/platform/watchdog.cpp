#include "halobw/platform/watchdog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string_view>

#include "halobw/base/failure.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

Awaited::Awaited(std::vector<std::string> items)
    : items_(std::move(items)), pending_(std::make_unique<std::atomic<bool>[]>(items_.size())) {
  set_all_pending(true);
}

void Awaited::set_all_pending(bool pending) {
  for (std::size_t i = 0; i < items_.size(); ++i) set_pending(i, pending);
}

std::string Awaited::describe() const {
  std::string out;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (pending_[i].load(std::memory_order_relaxed)) out += (out.empty() ? "" : "; ") + items_[i];
  }
  if (out.empty()) {
    for (const auto& item : items_) out += (out.empty() ? "" : "; ") + item;
  }
  return out;
}

Watchdog::Watchdog(double timeout_s, int rank) : timeout_(timeout_s), rank_(rank) {
  if (timeout_ > 0) thread_ = std::thread([this] { run(); });
}

Watchdog::~Watchdog() {
  {
    const std::lock_guard<std::mutex> lock(stop_mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

double Watchdog::limit(Kind kind) const {
  // A collective waits on every rank, a wait of an exchange on its neighbours
  // only: the latter expires first, and names the fault.
  return kind == Kind::wait ? timeout_ : timeout_ + std::min(0.5 * timeout_, 10.0);
}

void Watchdog::set_phase(std::string phase) {
  const std::lock_guard<std::mutex> lock(phase_mutex_);
  phase_ = std::move(phase);
}

void Watchdog::on_expire(std::function<void(const std::string&)> last_word) {
  const std::lock_guard<std::mutex> lock(phase_mutex_);
  last_word_ = std::move(last_word);
}

Watchdog::Guard::Guard(Watchdog* w, const char* call, const Awaited* awaited, Kind kind) noexcept
    : w_(w != nullptr && w->timeout_ > 0 ? w : nullptr) {
  if (w_ == nullptr) return;
  w_->call_.store(call, std::memory_order_relaxed);
  w_->awaited_.store(awaited, std::memory_order_relaxed);
  w_->kind_.store(static_cast<int>(kind), std::memory_order_relaxed);
  w_->armed_.store(++w_->next_, std::memory_order_release);
}

Watchdog::Guard::~Guard() {
  if (w_ != nullptr) w_->armed_.store(0, std::memory_order_release);
}

std::string Watchdog::message(int rank, double timeout, const char* call, const std::string& phase,
                              const std::string& awaited, Kind kind) {
  if (kind == Kind::collective) {
    return fmt::format("halo-bandwidth: timeout on rank {} after {} s in {}: {}: {}", rank, timeout, call,
                       phase, awaited.empty() ? "waiting for ranks that did not arrive" : awaited);
  }
  return fmt::format("halo-bandwidth: timeout on rank {} after {} s in {}: {}: waiting for {}", rank, timeout,
                     call, phase, awaited.empty() ? "(nothing named)" : awaited);
}

void Watchdog::run() {
  using clock = Process::WatchClock;
  // A twentieth of the timeout, from 0.05 to 5 s: the deadline is kept to 5%,
  // and a sleeping thread that wakes rarely costs an oversubscribed node nothing.
  const auto poll = std::chrono::duration<double>(std::clamp(timeout_ / 20, 0.05, 5.0));
  std::uint64_t seen = 0;
  auto since = clock::now();
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(stop_mutex_);
      if (stop_cv_.wait_for(lock, poll, [this] { return stop_; })) return;
    }
    const std::uint64_t seq = armed_.load(std::memory_order_acquire);
    if (seq == 0 || seq != seen) {
      seen = seq;
      since = clock::now();
      continue;
    }
    const auto kind = static_cast<Kind>(kind_.load(std::memory_order_relaxed));
    if (std::chrono::duration<double>(clock::now() - since).count() > limit(kind)) expire(seq);
  }
}

void Watchdog::expire(std::uint64_t seq) {
  (void)seq;
  const char* call = call_.load(std::memory_order_relaxed);
  const Awaited* awaited = awaited_.load(std::memory_order_relaxed);
  const auto kind = static_cast<Kind>(kind_.load(std::memory_order_relaxed));
  std::string phase;
  std::function<void(const std::string&)> last_word;
  {
    const std::lock_guard<std::mutex> lock(phase_mutex_);
    phase = phase_;
    last_word = last_word_;
  }
  const std::string line = message(rank_, timeout_, call != nullptr ? call : "MPI", phase,
                                   awaited != nullptr ? awaited->describe() : std::string(), kind);
  constexpr std::string_view kProgram = "halo-bandwidth: ";
  // The ranks stuck on the same fault expire within moments of each other:
  // the grace gives them time to name what they wait for before the job ends.
  Process::end_job(line, ExitCode::timeout, std::chrono::duration<double>(std::min(1.0, 0.25 * timeout_)),
                   [&] {
                     if (last_word)
                       last_word(line.rfind(kProgram, 0) == 0 ? line.substr(kProgram.size()) : line);
                   });
}

}  // namespace halobw
