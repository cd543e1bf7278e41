#include "halobw/plan/rank_map.hpp"

#include <fmt/format.h>

#include <map>

namespace halobw {

std::optional<Dims3> node_block(const Dims3& grid, int per_node) {
  std::optional<Dims3> best;
  long best_surface = 0;
  // c, then b, from the largest down: on equal surfaces the first found keeps z, then y, longest.
  for (int c = per_node; c >= 1; --c) {
    if (per_node % c != 0 || grid[2] % c != 0) continue;
    for (int b = per_node / c; b >= 1; --b) {
      if ((per_node / c) % b != 0 || grid[1] % b != 0) continue;
      const int a = per_node / c / b;
      if (grid[0] % a != 0) continue;
      const long surface = static_cast<long>(a) * b + static_cast<long>(b) * c + static_cast<long>(a) * c;
      if (!best || surface < best_surface) {
        best = Dims3{a, b, c};
        best_surface = surface;
      }
    }
  }
  return best;
}

namespace {

RankMap linear_because(std::string why) {
  RankMap m;
  m.asked = RankPlacement::nodes;
  m.note = "placement nodes fell back to linear: " + std::move(why);
  return m;
}

}  // namespace

RankMap nodes_placement(const Dims3& grid, const std::vector<int>& node_of_rank) {
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
  const auto block = node_block(grid, per_node);
  if (!block) {
    return linear_because(
        fmt::format("no sub-block of {} ranks tiles the grid {}", per_node, dims_string(grid)));
  }
  RankMap m;
  m.asked = m.used = RankPlacement::nodes;
  m.per_node = *block;
  m.node_grid = {grid[0] / (*block)[0], grid[1] / (*block)[1], grid[2] / (*block)[2]};
  m.cell_of_rank.assign(node_of_rank.size(), 0);
  int n = 0;
  for (const auto& [node, ranks] : ranks_of) {
    const Dims3 at{n % m.node_grid[0], n / m.node_grid[0] % m.node_grid[1],
                   n / (m.node_grid[0] * m.node_grid[1])};
    for (std::size_t l = 0; l < ranks.size(); ++l) {
      const int i = static_cast<int>(l);
      const Dims3 in{i % (*block)[0], i / (*block)[0] % (*block)[1], i / ((*block)[0] * (*block)[1])};
      Dims3 c{};
      for (int a = 0; a < 3; ++a) c[a] = at[a] * (*block)[a] + in[a];
      m.cell_of_rank[static_cast<std::size_t>(ranks[l])] = c[0] + grid[0] * (c[1] + grid[1] * c[2]);
    }
    ++n;
  }
  m.note = fmt::format("placement nodes: {} node{} as a {} grid, each holding a {} block of ranks",
                       ranks_of.size(), ranks_of.size() == 1 ? "" : "s", dims_string(m.node_grid),
                       dims_string(m.per_node));
  return m;
}

std::vector<RankMap> rank_maps(const std::vector<RankPlacement>& asked, const Dims3& grid,
                               const std::vector<int>& node_of_rank, const std::function<RankMap()>& cart) {
  std::vector<RankMap> maps;
  for (const RankPlacement p : asked) {
    switch (p) {
      case RankPlacement::linear:
        maps.emplace_back();
        break;
      case RankPlacement::nodes:
        maps.push_back(nodes_placement(grid, node_of_rank));
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
