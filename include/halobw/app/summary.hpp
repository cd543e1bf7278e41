// What every rank sends in each row, reduced over the ranks of a job from
// each rank's own plan (plan_own_rows): two MPI_Allreduce over the job and one
// over each node, O(log P) for every rank, where each rank planning all P
// ranks (plan_rows) costs the job O(P^2): a minute of a 4,096-rank simulation.
#pragma once

#include <vector>

#include "halobw/plan/rows.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

// Each row's `all`, from summary_of(mine) on every rank, to the summary over
// every rank, as summarize() makes it in one process. Collective.
void reduce_summaries(const Comm& comm, std::vector<RowPlan>& rows);

}  // namespace halobw
