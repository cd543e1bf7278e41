// The sweep over rows on one backend: for each row as planned (plan/rows.hpp),
// the fields, the exchanger, --check, the clock, breakdown and limits, the
// reduction, and the row printed as soon as it finishes.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/exchange/faults.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/terminal.hpp"
#include "halobw/report/columns.hpp"
#include "halobw/report/output.hpp"

namespace halobw {

struct RunSetup {
  const Options* options = nullptr;
  const std::vector<RowPlan>* rows = nullptr;  // every row, planned once
  std::vector<std::string> hosts;              // per rank on rank 0; elsewhere only its own
  Transport transport = Transport::datatype;
  Groups groups;
  FaultPlan faults;
  Output* output = nullptr;      // rank 0's results; null elsewhere
  Progress* progress = nullptr;  // rank 0's progress line; null elsewhere
};

// Runs every row on the backend of setup.options. Collective; the agreed
// failure that ended the run early, if any: --check found a wrong cell, a
// rank could not set up a row, or rank 0 could not write a result.
[[nodiscard]] Status run_benchmark(const Comm& comm, const RunSetup& setup);

}  // namespace halobw
