#include "halobw/plan/rank_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "halobw/plan/rows.hpp"

namespace halobw {

namespace {

// Along one axis of `n` cells cut in `g` blocks, `per` to a node: the kinds
// of cell, a cell of each, and for each kind of node how many cells of each
// kind it holds. What a rank sends off its node depends, along each axis, on
// its cell's kind alone: its extent, the walls it lies at (an open axis), and
// whether it is the first or the last of its node (wrapping around a periodic
// axis leaves the node exactly when more than one node lies along it, as any
// crossing between nodes does).
struct AxisKinds {
  std::vector<int> cell;                // a cell of each kind
  std::vector<std::vector<int>> nodes;  // each kind of node: its cells of each kind
};

AxisKinds axis_kinds(std::int64_t n, int g, int per, bool periodic) {
  AxisKinds k;
  std::map<std::array<std::int64_t, 3>, int> kind_of;  // (extent, walls, place in its node) -> kind
  std::vector<int> kind(static_cast<std::size_t>(g));
  for (int c = 0; c < g; ++c) {
    const std::int64_t walls = periodic ? 0 : (c == 0 ? 1 : 0) + (c == g - 1 ? 2 : 0);
    const std::int64_t place = (c % per == 0 ? 1 : 0) + (c % per == per - 1 ? 2 : 0);
    const auto [it, added] = kind_of.emplace(
        std::array<std::int64_t, 3>{block_of(n, g, c).extent, walls, place}, static_cast<int>(k.cell.size()));
    if (added) k.cell.push_back(c);
    kind[static_cast<std::size_t>(c)] = it->second;
  }
  std::set<std::vector<int>> seen;
  for (int node = 0; node < g / per; ++node) {
    std::vector<int> count(k.cell.size(), 0);
    for (int c = node * per; c < (node + 1) * per; ++c)
      ++count[static_cast<std::size_t>(kind[static_cast<std::size_t>(c)])];
    if (seen.insert(count).second) k.nodes.push_back(std::move(count));
  }
  return k;
}

// The grid of cells cut into nodes of `block`: each cell's node (cells x fastest).
std::vector<int> node_of_cell(const Dims3& grid, const Dims3& block) {
  std::array<std::vector<int>, 3> at;  // along each axis, each cell's node coordinate
  for (std::size_t a = 0; a < 3; ++a) {
    for (int c = 0; c < grid[a]; ++c) at[a].push_back(c / block[a]);
  }
  const int nx = grid[0] / block[0];
  const int ny = grid[1] / block[1];
  std::vector<int> node;
  node.reserve(static_cast<std::size_t>(grid[0]) * static_cast<std::size_t>(grid[1]) *
               static_cast<std::size_t>(grid[2]));
  for (const int z : at[2]) {
    for (const int y : at[1]) {
      for (const int x : at[0]) node.push_back(x + nx * (y + ny * z));
    }
  }
  return node;
}

// Calls f(i, j, k) for every i < n[0], j < n[1], k < n[2], i fastest.
template <class F>
void for_each_of(const std::array<std::size_t, 3>& n, F&& f) {
  for (std::size_t k = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i) f(i, j, k);
    }
  }
}

// What the row sends off the nodes where each holds a `block` of the grid:
// the plan of one rank of each kind (a cell of each kind along each axis),
// each node's sum from how many ranks of each kind it holds.
OffNodeBytes block_bytes(const Dims3& grid, const Shape& shape, const Dims3& block) {
  if (block == grid) return {};  // one node: nothing leaves it (and no plan of every rank)
  const ProcGrid cells(grid);    // rank c on cell c
  const std::vector<int> node = node_of_cell(grid, block);
  std::array<AxisKinds, 3> k;
  for (std::size_t a = 0; a < 3; ++a)
    k[a] = axis_kinds(shape.global[a], grid[a], block[a], shape.periodic[a]);
  const std::array<std::size_t, 3> kinds{k[0].cell.size(), k[1].cell.size(), k[2].cell.size()};
  OffNodeBytes most;
  std::vector<std::uint64_t> sent;  // each kind of rank's bytes off its node
  for_each_of(kinds, [&](std::size_t i, std::size_t j, std::size_t l) {
    const int rank = cells.rank_of({k[0].cell[i], k[1].cell[j], k[2].cell[l]});
    sent.push_back(make_rank_plan(cells, shape, rank, node).offnode_bytes);
    most.rank_most = std::max(most.rank_most, sent.back());
  });
  for_each_of({k[0].nodes.size(), k[1].nodes.size(), k[2].nodes.size()},
              [&](std::size_t ni, std::size_t nj, std::size_t nl) {
                std::uint64_t out = 0;
                std::size_t s = 0;
                for_each_of(kinds, [&](std::size_t i, std::size_t j, std::size_t l) {
                  const auto ranks = static_cast<std::uint64_t>(k[0].nodes[ni][i]) *
                                     static_cast<std::uint64_t>(k[1].nodes[nj][j]) *
                                     static_cast<std::uint64_t>(k[2].nodes[nl][l]);
                  out += ranks * sent[s++];
                });
                most.node_out = std::max(most.node_out, out);
              });
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
