// Which rank holds which cell of the process grid (--placement), computed
// once for the run: rank order (linear), a compact sub-block of the grid per
// node (nodes), or the coordinates MPI_Cart_create gives (cart, made by the
// platform layer). Pure: the node of each rank in, a map of ranks to cells out.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/plan/grid.hpp"

namespace halobw {

struct RankMap {
  RankPlacement asked = RankPlacement::linear;
  RankPlacement used = RankPlacement::linear;
  Dims3 node_grid{1, 1, 1};       // nodes: the grid of nodes
  Dims3 per_node{1, 1, 1};        // nodes: the sub-block each node holds
  std::vector<int> cell_of_rank;  // empty: rank order
  std::string note;  // what the header says of it (why `nodes` fell back, whether MPI moved ranks)
};

// The most compact sub-block of `per_node` cells that tiles `grid`: the least
// surface (a*b + b*c + a*c for a sub-block of a x b x c ranks), ties to the
// most along z, then along y. nullopt where none tiles it.
[[nodiscard]] std::optional<Dims3> node_block(const Dims3& grid, int per_node);

// --placement nodes for `node_of_rank` (nodes numbered in order of their
// first rank): node n holds the n-th sub-block of the node grid (x fastest),
// its ranks, in rank order, the sub-block's cells (x fastest). Falls back to
// rank order, saying why, where the nodes hold different numbers of ranks or
// their count does not tile the grid.
[[nodiscard]] RankMap nodes_placement(const Dims3& grid, const std::vector<int>& node_of_rank);

// The map of each placement in `asked`; `cart` makes the cart one (from MPI,
// or as planned without a launch).
[[nodiscard]] std::vector<RankMap> rank_maps(const std::vector<RankPlacement>& asked, const Dims3& grid,
                                             const std::vector<int>& node_of_rank,
                                             const std::function<RankMap()>& cart);

// The grid with the map's cells.
[[nodiscard]] ProcGrid placed(const ProcGrid& grid, const RankMap& map);

}  // namespace halobw
