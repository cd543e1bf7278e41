// The memory preflight: before anything is allocated, each row's need (the
// plans' own count, plan/memory.hpp) against what the node and its devices
// have, so that a row that cannot fit is refused with exit code 2.
#pragma once

#include <string>
#include <vector>

#include "halobw/base/failure.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

struct PreflightInput {
  const Options& opt;
  const std::vector<RowPlan>& rows;
  Transport transport;
  NodeRank node;
  int visible_devices = 0;
  std::string host;  // this rank's host name
};

// The agreed failure naming the row that does not fit. `summary` gets the
// header's account of what the run allocates. Collective.
[[nodiscard]] Status memory_preflight(const Comm& comm, const PreflightInput& in, std::string& summary);

}  // namespace halobw
