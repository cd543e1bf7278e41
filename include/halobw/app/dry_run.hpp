// --dry-run: the plan of every row, as the real run would report it before
// timing (the grid, the bricks, the bytes and pieces, what leaves the nodes,
// the memory per rank and per node and whether it fits), with nothing
// allocated or timed. With --ranks R it runs as one process without MPI
// (R ranks, --ranks-per-node P in blocks, as srun places them); under a
// launcher without --ranks it plans the job's own ranks and nodes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "halobw/app/job.hpp"
#include "halobw/cli/environment.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

// The options, where the command line asks for a dry run without a launch
// (--dry-run --ranks R): then main() need not start MPI at all; else nullopt.
[[nodiscard]] std::optional<Options> dry_run_alone_requested(const std::vector<std::string>& args,
                                                             const EnvLookup& env);

// The dry run of R ranks in this one process; the exit code.
[[nodiscard]] int dry_run_alone(const Options& opt, const EnvLookup& env);

// Where a dry run is refused: it prints a table, and files describe measured runs.
[[nodiscard]] Status dry_run_refusal(const Options& opt);

// The dry run of the job's own ranks and nodes, as `plan` placed them
// (MPI_Comm_split_type, MPI_Cart_create for --placement cart); rank 0
// prints. The exit code.
[[nodiscard]] int dry_run_job(const Comm& comm, const Options& opt, const Layout& layout, const JobPlan& plan,
                              const EnvLookup& env);

}  // namespace halobw
