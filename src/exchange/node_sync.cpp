#include "halobw/exchange/node_sync.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <string>

namespace halobw {

namespace {

// Reads of a flag before each sched_yield: a neighbour that is running
// publishes within a few hundred nanoseconds; one that is not needs the core.
constexpr int kReadsBeforeYield = 64;

std::uint64_t load(const std::uint64_t* flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }
void store(std::uint64_t* flag, std::uint64_t e) { __atomic_store_n(flag, e, __ATOMIC_RELEASE); }

bool reached(const std::uint64_t* flag, std::uint64_t e) {
  for (int i = 0; i < kReadsBeforeYield; ++i) {
    if (load(flag) >= e) return true;
  }
  return false;
}

}  // namespace

NodeSync::NodeSync(const NodeHome& home, int rank, const std::vector<int>& sources,
                   const std::vector<int>& readers, Watchdog* watchdog, Hooks hooks)
    : mine_(home.flags_of(rank)), watchdog_(watchdog), hooks_(hooks) {
  std::vector<std::string> what;
  for (const int r : sources) {
    sources_.flags.push_back(&home.flags_of(r)->ready);
    what.push_back(fmt::format("rank {}'s flag ready (its boundary written)", r));
  }
  sources_.awaited = Awaited(std::move(what));
  what.clear();
  for (const int r : readers) {
    readers_.flags.push_back(&home.flags_of(r)->copied);
    what.push_back(fmt::format("rank {}'s flag copied (it has read this rank's boundary)", r));
  }
  readers_.awaited = Awaited(std::move(what));
}

void NodeSync::publish_ready(std::uint64_t e) const {
  if (hooks_.publishes) store(&mine_->ready, e);
}
void NodeSync::publish_copied(std::uint64_t e) const { store(&mine_->copied, e); }
void NodeSync::await_sources(std::uint64_t e) { await(sources_, e); }
void NodeSync::await_readers(std::uint64_t e) { await(readers_, e); }

void NodeSync::await(Watched& w, std::uint64_t e) {
  if (!hooks_.waits) return;
  for (std::size_t i = 0; i < w.flags.size(); ++i) {
    if (reached(w.flags[i], e)) continue;
    w.awaited.set_all_pending(false);
    w.awaited.set_pending(i, true);
    const Watchdog::Guard armed(watchdog_, "the shm flag wait", &w.awaited, Watchdog::Kind::wait);
    do {
      sched_yield();
    } while (!reached(w.flags[i], e));
  }
}

}  // namespace halobw
