// Faults the tests inject to prove that a hang becomes a message, an MPI
// error becomes a named failure and a wrong cell is found. Read once at
// start-up from the environment (not a user option, not in --help); they act
// by replacing the run's MPI method once at set-up, so the timed loop of a
// normal run never tests for them.
//   HALOBW_TEST_HOOK_SKIP_SENDS=R  rank R posts its receives but never sends
//   HALOBW_TEST_HOOK_BAD_PEER=R    rank R sends to a rank that does not exist
//   HALOBW_TEST_HOOK_CORRUPT=R     rank R spoils one ghost cell before --check verifies
#pragma once

#include "halobw/method.hpp"
#include "halobw/options.hpp"

namespace halobw {

struct FaultPlan {
  int skip_sends_rank = -1;
  int bad_peer_rank = -1;
  int corrupt_rank = -1;

  [[nodiscard]] static FaultPlan from_environment(const EnvLookup& env);
};

// `base`, wrapped where `plan` has a send fault for `rank`.
[[nodiscard]] MethodFactory with_faults(MethodFactory base, const FaultPlan& plan, int rank, int comm_size);

}  // namespace halobw
