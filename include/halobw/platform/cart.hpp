// --placement cart: the grid coordinates MPI_Cart_create, asked to reorder,
// gives each rank, as a map of the ranks of the job's communicator to cells
// (plan/rank_map.hpp). The exchange itself stays on that communicator.
#pragma once

#include "halobw/base/box.hpp"
#include "halobw/plan/rank_map.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

// Collective.
[[nodiscard]] RankMap cart_placement(const Comm& comm, const Dims3& grid, const AxisSet& periodic);

}  // namespace halobw
