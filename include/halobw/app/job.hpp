// Where the job runs and what it exchanges, planned once for the dry run and
// the measured run alike: the hosts, the nodes (MPI_Comm_split_type), the
// placement of the ranks on the grid, and this rank's plan of every row.
#pragma once

#include <string>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/rank_map.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

struct JobPlan {
  std::vector<std::string> hosts;
  std::vector<int> node_of_rank;
  NodeRank node;
  std::vector<RankMap> maps;  // one per --placement; a measured run has one
  ProcGrid grid{{1, 1, 1}};   // the layout's grid with the first map's cells
  std::vector<RowPlan> rows;  // every row on `grid`, this rank's plan and the job's summary
};

// The plan of the job on `layout`. Collective.
[[nodiscard]] JobPlan plan_job(const Comm& comm, const Options& opt, const Layout& layout);

// The nodes of the job: one more than the largest node number.
[[nodiscard]] int nodes_of(const std::vector<int>& node_of_rank);

}  // namespace halobw
