#include "halobw/plan/rows.hpp"

#include <algorithm>
#include <map>

namespace halobw {

namespace {

void most_of(PieceCounts& m, const PieceCounts& c) {
  m.remote_faces = std::max(m.remote_faces, c.remote_faces);
  m.self_faces = std::max(m.self_faces, c.self_faces);
  m.offnode_faces = std::max(m.offnode_faces, c.offnode_faces);
  m.boundary_faces = std::max(m.boundary_faces, c.boundary_faces);
  m.remote_edges = std::max(m.remote_edges, c.remote_edges);
  m.remote_corners = std::max(m.remote_corners, c.remote_corners);
}

}  // namespace

RowSummary summarize(const ProcGrid& grid, const Shape& shape, const std::vector<int>& node_of_rank,
                     const std::function<void(const RankPlan&)>& each) {
  RowSummary s;
  std::vector<std::uint64_t> node_out;
  for (int rank = 0; rank < grid.size(); ++rank) {
    const RankPlan p = make_rank_plan(grid, shape, rank, node_of_rank);
    if (each) each(p);
    s.send_min = rank == 0 ? p.remote_bytes : std::min(s.send_min, p.remote_bytes);
    s.send_max = std::max(s.send_max, p.remote_bytes);
    s.offnode_max = std::max(s.offnode_max, p.offnode_bytes);
    most_of(s.most, p.counts);
    for (int a = 0; a < 3; ++a) {
      const std::int64_t e = p.brick.extent[static_cast<std::size_t>(a)];
      s.brick_min[static_cast<std::size_t>(a)] =
          rank == 0 ? e : std::min(s.brick_min[static_cast<std::size_t>(a)], e);
      s.brick_max[static_cast<std::size_t>(a)] = std::max(s.brick_max[static_cast<std::size_t>(a)], e);
    }
    const std::size_t node =
        node_of_rank.empty() ? 0 : static_cast<std::size_t>(node_of_rank[static_cast<std::size_t>(rank)]);
    if (node >= node_out.size()) node_out.resize(node + 1, 0);
    node_out[node] += p.offnode_bytes;
  }
  for (const std::uint64_t b : node_out) s.node_out_max = std::max(s.node_out_max, b);
  return s;
}

std::vector<RowPlan> plan_rows(const Options& opt, const std::vector<RowSpec>& specs, const ProcGrid& grid,
                               int rank, const std::vector<int>& node_of_rank,
                               const std::function<void(const RankPlan&)>& each) {
  std::vector<RowPlan> rows;
  rows.reserve(specs.size());
  for (const RowSpec& spec : specs) {
    RowPlan r;
    r.spec = spec;
    r.label = row_label(opt, spec);
    r.shape = shape_of(opt, spec);
    r.all = summarize(grid, r.shape, node_of_rank, [&](const RankPlan& p) {
      if (p.rank == rank) r.mine = p;  // this rank's plan is the summary's, not made again
      if (each) each(p);
    });
    r.table = make_message_table(r.mine, opt.self, opt.messages);
    rows.push_back(std::move(r));
  }
  return rows;
}

RowFacts row_facts(const std::vector<RowPlan>& rows) {
  RowFacts f;
  for (const RowPlan& r : rows) {
    f.uneven = f.uneven || r.all.send_min != r.all.send_max;
    f.any_remote = f.any_remote || r.all.send_max > 0;
    f.all_cubes = f.all_cubes && r.spec.cube() > 0;
  }
  return f;
}

std::vector<int> node_ids(const std::vector<std::string>& rank_host) {
  std::vector<int> ids;
  ids.reserve(rank_host.size());
  std::map<std::string, int> index;
  for (const std::string& h : rank_host) {
    ids.push_back(index.emplace(h, static_cast<int>(index.size())).first->second);
  }
  return ids;
}

}  // namespace halobw
