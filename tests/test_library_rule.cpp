// --messages auto's rule is chosen when the build is compiled (the MPI
// headers it sees); the library that runs says what it is at run time.
// The two must name the same library.
#include <gtest/gtest.h>

#include "halobw/platform/mpi.hpp"

using namespace halobw;

TEST(StructRule, TheCompiledRuleIsTheRunningLibrarys) {
  const std::string library = mpi_library_version();
  const StructRule rule = struct_rule_of_library();
  const StructRule expected =
      library.find("Intel(R) MPI Library") != std::string::npos ? kStructRuleIntelMpi : StructRule{};
  EXPECT_EQ(rule.alone_above, expected.alone_above) << library;
  EXPECT_EQ(rule.alone_up_to, expected.alone_up_to) << library;
}
