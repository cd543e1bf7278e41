// The sweep over rows on one backend: plan, fields, exchanger, --check,
// clock, breakdown and limits, reduce, print one row as each finishes.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "halobw/columns.hpp"
#include "halobw/faults.hpp"
#include "halobw/grid.hpp"
#include "halobw/mpi.hpp"
#include "halobw/options.hpp"
#include "halobw/output.hpp"
#include "halobw/settings.hpp"

namespace halobw {

struct RunSetup {
  const Options* options = nullptr;
  ProcGrid grid{{1, 1, 1}};
  std::vector<std::string> hosts;  // per rank
  Transport transport = Transport::datatype;
  Groups groups;
  FaultPlan faults;
  Output* output = nullptr;      // rank 0's results; null elsewhere
  Progress* progress = nullptr;  // rank 0's progress line; null elsewhere
  std::FILE* err = stderr;       // rank 0's errors
};

// Runs every row on the backend of setup.options; returns the exit code
// (ok, check_failed, or runtime_error when a rank could not set up). Collective.
[[nodiscard]] ExitCode run_benchmark(const Comm& comm, const RunSetup& setup);

}  // namespace halobw
