// The sweep over sizes on one backend: plan, exchanger, --check, clock,
// breakdown and limits, reduce, print one row per size as it finishes.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "halobw/grid.hpp"
#include "halobw/mpi.hpp"
#include "halobw/options.hpp"
#include "halobw/output.hpp"
#include "halobw/report.hpp"
#include "halobw/transport.hpp"

namespace halobw {

struct RunSetup {
  const Options* options = nullptr;
  ProcGrid grid{{1, 1, 1}};
  std::vector<std::string> hosts;  // per rank
  Transport transport = Transport::datatype;
  Columns columns;
  Output* output = nullptr;      // rank 0's results; null elsewhere
  Progress* progress = nullptr;  // rank 0's progress line; null elsewhere
  std::FILE* err = stderr;       // rank 0's errors
};

// Runs every size on the backend of setup.options; returns the exit code
// (0, 1 when --check found a wrong cell, 3 when a rank could not allocate). Collective.
int run_benchmark(const Comm& comm, const RunSetup& setup);

}  // namespace halobw
