// Which rank holds which cell of the process grid (--placement), computed
// once for the run: rank order (linear), a sub-block of the grid per node,
// the one that sends the fewest bytes off the nodes (nodes), or the coordinates MPI_Cart_create gives (cart,
// made by the platform layer). Pure: the node of each rank in, a map of ranks to cells out.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/plan/grid.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

struct RankMap {
  RankPlacement asked = RankPlacement::linear;
  RankPlacement used = RankPlacement::linear;
  Dims3 node_grid{1, 1, 1};       // nodes: the grid of nodes
  Dims3 per_node{1, 1, 1};        // nodes: the sub-block each node holds
  std::vector<int> cell_of_rank;  // empty: rank order
  std::string note;  // what the header says of it (why `nodes` fell back, whether MPI moved ranks)
};

// What a row sends off the nodes: the most the ranks of one node send to
// other nodes together (NodeOut_B) and the most one rank sends (OffNode_B),
// counted by the row's own plan (plan/pieces.hpp: faces, and with a box
// stencil edges and corners, all fields).
struct OffNodeBytes {
  std::uint64_t node_out = 0;
  std::uint64_t rank_most = 0;
};

// A block of ranks per node and what the row sends off the nodes with it.
struct NodeBlock {
  Dims3 block{1, 1, 1};
  OffNodeBytes sends;
};

// Of the sub-blocks a x b x c of `per_node` cells that tile `grid` (a | gx,
// b | gy, c | gz), the one whose nodes send the fewest bytes off them in the
// row `shape` (the run's largest: placement_shape in plan/layout.hpp): the
// least NodeOut_B, then the least OffNode_B, then the least surface in ranks
// (a*b + b*c + a*c), then the most along z, then along y. nullopt where none
// tiles it. Each block is counted from the plans of one rank of each kind
// (along each axis, ranks alike in their extent, their walls and their place
// in their node send alike), each node's sum from how many of each it holds:
// a few plans a block, not one per rank of the job or of a node.
[[nodiscard]] std::optional<NodeBlock> node_block(const Dims3& grid, const Shape& shape, int per_node);

// What the row sends off the nodes with rank r on cell r (linear), the nodes
// `node_of_rank`: from every rank's plan.
[[nodiscard]] OffNodeBytes rank_order_bytes(const Dims3& grid, const Shape& shape,
                                            const std::vector<int>& node_of_rank);

// --placement nodes for `node_of_rank` (nodes numbered in order of their
// first rank): node n holds the n-th sub-block (node_block for `shape`) of
// the node grid (x fastest), its ranks, in rank order, the sub-block's cells
// (x fastest). Falls back to rank order, saying why, where the nodes hold
// different numbers of ranks, their count does not tile the grid, or the
// best block would send more off a node than rank order does: the placement
// exists to send less off the nodes, and where it cannot, the run measures
// the better one under its own name rather than a worse one under `nodes`.
[[nodiscard]] RankMap nodes_placement(const Dims3& grid, const Shape& shape,
                                      const std::vector<int>& node_of_rank);

// The map of each placement in `asked` (nodes chooses its block for the row
// `shape`); `cart` makes the cart one (from MPI, or as planned without a launch).
[[nodiscard]] std::vector<RankMap> rank_maps(const std::vector<RankPlacement>& asked, const Dims3& grid,
                                             const Shape& shape, const std::vector<int>& node_of_rank,
                                             const std::function<RankMap()>& cart);

// The grid with the map's cells.
[[nodiscard]] ProcGrid placed(const ProcGrid& grid, const RankMap& map);

}  // namespace halobw
