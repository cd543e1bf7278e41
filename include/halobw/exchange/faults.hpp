// Faults the tests inject to prove that a hang becomes a message, an MPI
// error becomes a named failure and a wrong cell is found. Read once at
// start-up from the environment (not a user option, not in --help). The send
// faults and the slow rank act by wrapping the run's MPI method at each row's
// set-up, the corrupt cell in --check's untimed exchange, so the timed loop of
// a normal run never tests for them.
//   HALOBW_TEST_HOOK_SKIP_SENDS=R  rank R posts its receives but never sends (with --method shm, nor
//                                  says that its boundary is written)
//   HALOBW_TEST_HOOK_BAD_PEER=R    rank R sends to a rank that does not exist
//   HALOBW_TEST_HOOK_CORRUPT=R     rank R spoils one ghost cell before --check verifies
//   HALOBW_TEST_HOOK_SLOW=R        rank R sleeps kSlowHookSleep after each exchange's messages have all
//                                  completed, so that it ends its K exchanges last (Slowest names it)
//   HALOBW_TEST_HOOK_UNSYNCED=R    --method shm copies without waiting on its flags, and rank R fills
//                                  its fields for --check kSlowHookSleep late, so that its neighbours
//                                  read its boundary before it is written (the check must fail)
//   HALOBW_TEST_HOOK_FROM_ROW=K    the faults act from the K-th row of the table on (default 1)
#pragma once

#include <chrono>
#include <cstddef>

#include "halobw/cli/options.hpp"
#include "halobw/exchange/method.hpp"
#include "halobw/exchange/node_sync.hpp"

namespace halobw {

// HALOBW_TEST_HOOK_SLOW: long enough to stand above the scheduling noise of
// eight ranks oversubscribed on two cores, short enough for a test of a few exchanges.
constexpr std::chrono::milliseconds kSlowHookSleep{100};

struct FaultPlan {
  int skip_sends_rank = -1;
  int bad_peer_rank = -1;
  int corrupt_rank = -1;
  int slow_rank = -1;
  int unsynced_rank = -1;
  int from_row = 1;

  [[nodiscard]] static FaultPlan from_environment(const EnvLookup& env);
  // The faults that act at row `index` (0-based): none before from_row.
  [[nodiscard]] FaultPlan at_row(std::size_t index) const;
  // The direct method's synchronisation on `rank` under these faults.
  [[nodiscard]] NodeSync::Hooks sync_hooks(int rank) const {
    return {unsynced_rank < 0, skip_sends_rank != rank};
  }
};

// `base`, wrapped where `plan` has a send fault or a slow rank for `rank`.
[[nodiscard]] MethodFactory with_faults(MethodFactory base, const FaultPlan& plan, int rank, int comm_size);

}  // namespace halobw
