#include "halobw/plan/rank_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <utility>

#include "halobw/plan/rows.hpp"

namespace halobw {

namespace {

// Along one axis of `n` cells cut in `g` blocks, `per` to a node: the first
// node of each kind. Whether a neighbour along the axis is on another node
// depends on the cell's place in its node alone (wrapping around a periodic
// axis leaves the node exactly when more than one node lies along it, as any
// crossing between nodes does), so nodes whose cells have the same extents,
// and the same walls where the axis is open, send the same bytes off them.
std::vector<int> node_kinds(std::int64_t n, int g, int per, bool periodic) {
  std::map<std::vector<std::int64_t>, int> seen;
  std::vector<int> first;
  for (int node = 0; node < g / per; ++node) {
    std::vector<std::int64_t> kind;
    for (int c = node * per; c < (node + 1) * per; ++c) {
      const std::int64_t walls = periodic ? 0 : (c == 0 ? 1 : 0) + (c == g - 1 ? 2 : 0);
      kind.push_back(block_of(n, g, c).extent * 4 + walls);
    }
    if (seen.emplace(std::move(kind), node).second) first.push_back(node);
  }
  return first;
}

// The grid of cells cut into nodes of `block`: each cell's node.
std::vector<int> node_of_cell(const ProcGrid& cells, const Dims3& block) {
  const Dims3& g = cells.dims();
  std::vector<int> node(static_cast<std::size_t>(cells.size()));
  for (int c = 0; c < cells.size(); ++c) {
    const Dims3 at = cells.coords(c);
    node[static_cast<std::size_t>(c)] =
        at[0] / block[0] + g[0] / block[0] * (at[1] / block[1] + g[1] / block[1] * (at[2] / block[2]));
  }
  return node;
}

// What the row sends off the nodes where each holds a `block` of the grid:
// every rank's plan of one node of each kind along each axis (node_kinds).
OffNodeBytes block_bytes(const Dims3& grid, const Shape& shape, const Dims3& block) {
  if (block == grid) return {};  // one node: nothing leaves it (and no plan of every rank)
  const ProcGrid cells(grid);    // rank c on cell c
  const std::vector<int> node = node_of_cell(cells, block);
  std::array<std::vector<int>, 3> kinds;
  for (int a = 0; a < 3; ++a) {
    kinds[static_cast<std::size_t>(a)] = node_kinds(shape.global[static_cast<std::size_t>(a)], grid[a],
                                                    block[a], shape.periodic[static_cast<std::size_t>(a)]);
  }
  OffNodeBytes most;
  for (const int nz : kinds[2]) {
    for (const int ny : kinds[1]) {
      for (const int nx : kinds[0]) {
        std::uint64_t out = 0;
        for (int i = 0; i < block[0] * block[1] * block[2]; ++i) {
          const Dims3 at{nx * block[0] + i % block[0], ny * block[1] + i / block[0] % block[1],
                         nz * block[2] + i / (block[0] * block[1])};
          const std::uint64_t b = make_rank_plan(cells, shape, cells.rank_of(at), node).offnode_bytes;
          out += b;
          most.rank_most = std::max(most.rank_most, b);
        }
        most.node_out = std::max(most.node_out, out);
      }
    }
  }
  return most;
}

// The order of choice: the fewest bytes off a node, then off a rank, then the
// least surface in ranks (the most compact block, as cubes always chose),
// then the longest along z, then y.
auto choice_key(const NodeBlock& n) {
  const Dims3& b = n.block;
  const long surface =
      static_cast<long>(b[0]) * b[1] + static_cast<long>(b[1]) * b[2] + static_cast<long>(b[0]) * b[2];
  return std::make_tuple(n.sends.node_out, n.sends.rank_most, surface, -b[2], -b[1]);
}

}  // namespace

std::optional<NodeBlock> node_block(const Dims3& grid, const Shape& shape, int per_node) {
  std::optional<NodeBlock> best;
  for (int c = per_node; c >= 1; --c) {
    if (per_node % c != 0 || grid[2] % c != 0) continue;
    for (int b = per_node / c; b >= 1; --b) {
      if ((per_node / c) % b != 0 || grid[1] % b != 0) continue;
      const int a = per_node / c / b;
      if (grid[0] % a != 0) continue;
      NodeBlock n{{a, b, c}, block_bytes(grid, shape, {a, b, c})};
      if (!best || choice_key(n) < choice_key(*best)) best = n;
    }
  }
  return best;
}

OffNodeBytes rank_order_bytes(const Dims3& grid, const Shape& shape, const std::vector<int>& node_of_rank) {
  const RowSummary s = summarize(ProcGrid(grid), shape, node_of_rank);
  return {s.node_out_max, s.offnode_max};
}

namespace {

RankMap linear_because(std::string why) {
  RankMap m;
  m.asked = RankPlacement::nodes;
  m.note = "placement nodes fell back to linear: " + std::move(why);
  return m;
}

// The block that runs of `per_node` consecutive cells (x fastest) make, where
// they make one: a piece of an x row, whole x rows, or whole x-y layers.
std::optional<Dims3> run_block(const Dims3& grid, int per_node) {
  if (grid[0] % per_node == 0) return Dims3{per_node, 1, 1};
  if (per_node % grid[0] == 0 && grid[1] % (per_node / grid[0]) == 0)
    return Dims3{grid[0], per_node / grid[0], 1};
  const int layer = grid[0] * grid[1];
  if (per_node % layer == 0 && grid[2] % (per_node / layer) == 0)
    return Dims3{grid[0], grid[1], per_node / layer};
  return std::nullopt;
}

// What rank order sends off the nodes. Where every node holds a run of
// consecutive ranks that is a block of the grid, that block's count (a few
// nodes' plans); else (a ragged run, or a node's ranks scattered) every rank's
// plan, made on every rank: P plans, and only there.
OffNodeBytes linear_bytes(const Dims3& grid, const Shape& shape, const std::vector<int>& node_of_rank,
                          const std::map<int, std::vector<int>>& ranks_of, int per_node) {
  const auto block = run_block(grid, per_node);
  const bool runs = std::all_of(ranks_of.begin(), ranks_of.end(), [&](const auto& node) {
    return node.second.front() % per_node == 0 && node.second.back() == node.second.front() + per_node - 1;
  });
  return block && runs ? block_bytes(grid, shape, *block) : rank_order_bytes(grid, shape, node_of_rank);
}

// Node n (in the order of `ranks_of`) holds the n-th `block` of the node grid
// (x fastest), its ranks, in rank order, the block's cells (x fastest).
RankMap place_blocks(const Dims3& grid, const Dims3& block, const std::map<int, std::vector<int>>& ranks_of,
                     std::size_t ranks) {
  RankMap m;
  m.asked = m.used = RankPlacement::nodes;
  m.per_node = block;
  m.node_grid = {grid[0] / block[0], grid[1] / block[1], grid[2] / block[2]};
  m.cell_of_rank.assign(ranks, 0);
  int n = 0;
  for (const auto& [node, on_node] : ranks_of) {
    const Dims3 at{n % m.node_grid[0], n / m.node_grid[0] % m.node_grid[1],
                   n / (m.node_grid[0] * m.node_grid[1])};
    for (std::size_t l = 0; l < on_node.size(); ++l) {
      const int i = static_cast<int>(l);
      const Dims3 in{i % block[0], i / block[0] % block[1], i / (block[0] * block[1])};
      Dims3 c{};
      for (int a = 0; a < 3; ++a) c[a] = at[a] * block[a] + in[a];
      m.cell_of_rank[static_cast<std::size_t>(on_node[l])] = c[0] + grid[0] * (c[1] + grid[1] * c[2]);
    }
    ++n;
  }
  return m;
}

// "256x512x256 halo 1": the row a choice was made for.
std::string row_named(const Shape& shape) {
  return fmt::format("{} halo {}", dims_string(shape.global), shape.halo);
}

}  // namespace

RankMap nodes_placement(const Dims3& grid, const Shape& shape, const std::vector<int>& node_of_rank) {
  std::map<int, std::vector<int>> ranks_of;  // node -> its ranks, in rank order
  for (std::size_t r = 0; r < node_of_rank.size(); ++r)
    ranks_of[node_of_rank[r]].push_back(static_cast<int>(r));
  if (ranks_of.empty()) return linear_because("no ranks");
  const int per_node = static_cast<int>(ranks_of.begin()->second.size());
  for (const auto& [node, ranks] : ranks_of) {
    if (static_cast<int>(ranks.size()) != per_node) {
      return linear_because(
          fmt::format("the nodes hold different numbers of ranks ({} and {})", per_node, ranks.size()));
    }
  }
  const auto best = node_block(grid, shape, per_node);
  if (!best) {
    return linear_because(
        fmt::format("no sub-block of {} ranks tiles the grid {}", per_node, dims_string(grid)));
  }
  const OffNodeBytes linear = linear_bytes(grid, shape, node_of_rank, ranks_of, per_node);
  const std::string figures =
      fmt::format("NodeOut_B {}, OffNode_B {}; rank order {}, {}", best->sends.node_out,
                  best->sends.rank_most, linear.node_out, linear.rank_most);
  if (std::make_pair(linear.node_out, linear.rank_most) <
      std::make_pair(best->sends.node_out, best->sends.rank_most)) {
    return linear_because(
        fmt::format("at {} the best block of {} ranks, {}, sends more off a node than rank order ({})",
                    row_named(shape), per_node, dims_string(best->block), figures));
  }
  RankMap m = place_blocks(grid, best->block, ranks_of, node_of_rank.size());
  m.note = fmt::format(
      "placement nodes: {} node{} as a {} grid, each holding a {} block of ranks (of the blocks that "
      "tile the grid, the fewest bytes off a node at {}: {})",
      ranks_of.size(), ranks_of.size() == 1 ? "" : "s", dims_string(m.node_grid), dims_string(m.per_node),
      row_named(shape), figures);
  return m;
}

std::vector<RankMap> rank_maps(const std::vector<RankPlacement>& asked, const Dims3& grid, const Shape& shape,
                               const std::vector<int>& node_of_rank, const std::function<RankMap()>& cart) {
  std::vector<RankMap> maps;
  for (const RankPlacement p : asked) {
    switch (p) {
      case RankPlacement::linear:
        maps.emplace_back();
        break;
      case RankPlacement::nodes:
        maps.push_back(nodes_placement(grid, shape, node_of_rank));
        break;
      case RankPlacement::cart:
        maps.push_back(cart());
        break;
    }
  }
  return maps;
}

ProcGrid placed(const ProcGrid& grid, const RankMap& map) { return ProcGrid(grid.dims(), map.cell_of_rank); }

}  // namespace halobw
