// The watchdog, out of band: a timer thread (where Process::helper_threads
// allows one) on Process::WatchClock that calls MPI only to end the job
// (Process::end_job). Before each blocking MPI call the main thread arms it
// with a Guard (a few atomic stores, no clock read, no allocation) that points
// at a description written at set-up; the wait itself is the plain MPI call (MPI_Waitall, MPI_Waitany,
// MPI_Barrier, ...). When one Guard stays armed longer than the timeout, the
// thread prints one line naming the rank, the call, the phase and what is
// awaited, lets the other stuck ranks print theirs, and ends the job through
// Process::end_job with exit code 4 (ExitCode::timeout).
//
// Collectives (barriers, agreements) get a longer deadline than the waits of
// an exchange, so that the ranks stuck nearest a fault speak first.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace halobw {

// What one blocking call waits for: one item per request, written at set-up.
// `pending[i]` says whether item i is still awaited (the main thread clears
// it when it learns the request completed; MPI_Waitall tells nothing).
class Awaited {
 public:
  Awaited() = default;
  explicit Awaited(std::vector<std::string> items);
  [[nodiscard]] std::size_t size() const { return items_.size(); }
  void set_pending(std::size_t i, bool pending) { pending_[i].store(pending, std::memory_order_relaxed); }
  void set_all_pending(bool pending);
  // "item; item; ...", the pending ones only (all of them when none is marked).
  [[nodiscard]] std::string describe() const;

 private:
  std::vector<std::string> items_;
  std::unique_ptr<std::atomic<bool>[]> pending_;
};

class Watchdog {
 public:
  enum class Kind { wait, collective };

  // No thread, and every Guard a no-op, when timeout_s <= 0.
  Watchdog(double timeout_s, int rank);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  [[nodiscard]] double timeout() const { return timeout_; }
  // The deadline of a Kind: the timeout for waits, longer for collectives.
  [[nodiscard]] double limit(Kind kind) const;
  // What the rank is doing, named if a wait expires ("N=64 warm-up and timed exchanges").
  void set_phase(std::string phase);
  // Called from the watchdog's thread with the line it printed (without the
  // program's name) just before the job ends: rank 0 records it with the
  // results. Empty: none.
  void on_expire(std::function<void(const std::string&)> last_word);

  // Armed from construction to destruction, for one blocking call.
  class Guard {
   public:
    Guard(Watchdog* w, const char* call, const Awaited* awaited, Kind kind) noexcept;
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    Watchdog* w_;
  };

  // The text printed on expiry (without the trailing newline); pure, for tests.
  [[nodiscard]] static std::string message(int rank, double timeout, const char* call,
                                           const std::string& phase, const std::string& awaited, Kind kind);

 private:
  void run();
  [[noreturn]] void expire(std::uint64_t seq);

  double timeout_;
  int rank_;
  std::mutex phase_mutex_;
  std::string phase_ = "set-up";
  std::function<void(const std::string&)> last_word_;  // under phase_mutex_
  std::atomic<std::uint64_t> armed_{0};                // the armed wait's sequence number; 0: none
  std::atomic<const char*> call_{nullptr};
  std::atomic<const Awaited*> awaited_{nullptr};
  std::atomic<int> kind_{0};
  std::uint64_t next_ = 0;  // main thread only
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace halobw
