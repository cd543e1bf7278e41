// Faults the tests inject to prove that a hang becomes a message and an MPI
// error becomes a named failure. Read once from the environment; not a user
// option, not documented in --help.
//   HALOBW_TEST_HOOK_SKIP_SENDS=R  rank R posts its receives but never sends
//   HALOBW_TEST_HOOK_BAD_PEER=R    rank R sends to a rank that does not exist
//   HALOBW_TEST_HOOK_CORRUPT=R     rank R spoils one ghost cell before --check verifies
#pragma once

#include <cstdlib>
#include <string>

namespace halobw {

struct TestHooks {
  int skip_sends_rank = -1;
  int bad_peer_rank = -1;
  int corrupt_rank = -1;

  static TestHooks from_environment() {
    TestHooks h;
    h.skip_sends_rank = read("HALOBW_TEST_HOOK_SKIP_SENDS");
    h.bad_peer_rank = read("HALOBW_TEST_HOOK_BAD_PEER");
    h.corrupt_rank = read("HALOBW_TEST_HOOK_CORRUPT");
    return h;
  }

 private:
  static int read(const char* name) {
    const char* v = std::getenv(name);
    return v == nullptr ? -1 : std::atoi(v);
  }
};

}  // namespace halobw
