#include "halobw/app/job.hpp"

#include <algorithm>

#include "halobw/app/summary.hpp"
#include "halobw/platform/cart.hpp"

namespace halobw {

JobPlan plan_job(const Comm& comm, const Options& opt, const Layout& layout) {
  JobPlan j;
  j.hosts = gather_hostnames(comm);
  j.node_of_rank = node_of_ranks(comm);
  j.node = node_rank(comm);
  j.maps = rank_maps(opt.placements, layout.grid.dims(), layout.placement, j.node_of_rank,
                     [&] { return cart_placement(comm, layout.grid.dims(), opt.periodic); });
  j.grid = placed(layout.grid, j.maps.front());
  j.rows = plan_own_rows(opt, layout.rows, j.grid, comm.rank(), j.node_of_rank);
  reduce_summaries(comm, j.rows);
  return j;
}

int nodes_of(const std::vector<int>& node_of_rank) {
  return node_of_rank.empty() ? 1 : 1 + *std::max_element(node_of_rank.begin(), node_of_rank.end());
}

}  // namespace halobw
