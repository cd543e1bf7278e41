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

RowSummary summary_of(const RankPlan& p) {
  RowSummary s;
  s.send_min = p.remote_bytes;
  s.send_max = p.remote_bytes;
  s.offnode_max = p.offnode_bytes;
  s.node_out_max = p.offnode_bytes;
  s.most = p.counts;
  s.brick_min = p.brick.extent;
  s.brick_max = p.brick.extent;
  return s;
}

void merge(RowSummary& into, const RowSummary& one) {
  into.send_min = std::min(into.send_min, one.send_min);
  into.send_max = std::max(into.send_max, one.send_max);
  into.offnode_max = std::max(into.offnode_max, one.offnode_max);
  into.node_out_max = std::max(into.node_out_max, one.node_out_max);
  most_of(into.most, one.most);
  for (std::size_t a = 0; a < 3; ++a) {
    into.brick_min[a] = std::min(into.brick_min[a], one.brick_min[a]);
    into.brick_max[a] = std::max(into.brick_max[a], one.brick_max[a]);
  }
}

RowSummary summarize(const ProcGrid& grid, const Shape& shape, const std::vector<int>& node_of_rank,
                     const std::function<void(const RankPlan&)>& each) {
  RowSummary s;
  std::vector<std::uint64_t> node_out;
  for (int rank = 0; rank < grid.size(); ++rank) {
    const RankPlan p = make_rank_plan(grid, shape, rank, node_of_rank);
    if (each) each(p);
    RowSummary one = summary_of(p);
    one.node_out_max = 0;  // the nodes' sums, below
    if (rank == 0) {
      s = one;
    } else {
      merge(s, one);
    }
    const std::size_t node =
        node_of_rank.empty() ? 0 : static_cast<std::size_t>(node_of_rank[static_cast<std::size_t>(rank)]);
    if (node >= node_out.size()) node_out.resize(node + 1, 0);
    node_out[node] += p.offnode_bytes;
  }
  for (const std::uint64_t b : node_out) s.node_out_max = std::max(s.node_out_max, b);
  return s;
}

namespace {

// Each row of `specs` with its label, shape and messages; `plan` sets this
// rank's plan (mine) and the summary over the ranks (all).
template <class Plan>
std::vector<RowPlan> make_rows(const Options& opt, const std::vector<RowSpec>& specs, const ProcGrid& grid,
                               const std::vector<int>& node_of_rank, Plan&& plan) {
  std::vector<RowPlan> rows;
  rows.reserve(specs.size());
  for (const RowSpec& spec : specs) {
    RowPlan r;
    r.spec = spec;
    r.label = spec.label;
    r.shape = spec.shape;
    plan(r);
    if (opt.method == MethodKind::shm) {
      r.direct = plan_direct(r.mine, grid, r.shape, node_of_rank, opt.self, opt.messages);
      r.table = r.direct->table;
    } else {
      r.table = make_message_table(r.mine, opt.self, opt.messages, opt.pack, opt.struct_rule);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

std::vector<RowPlan> plan_rows(const Options& opt, const std::vector<RowSpec>& specs, const ProcGrid& grid,
                               int rank, const std::vector<int>& node_of_rank,
                               const std::function<void(const RankPlan&)>& each) {
  return make_rows(opt, specs, grid, node_of_rank, [&](RowPlan& r) {
    r.all = summarize(grid, r.shape, node_of_rank, [&](const RankPlan& p) {
      if (p.rank == rank) r.mine = p;  // this rank's plan is the summary's, not made again
      if (each) each(p);
    });
  });
}

std::vector<RowPlan> plan_own_rows(const Options& opt, const std::vector<RowSpec>& specs,
                                   const ProcGrid& grid, int rank, const std::vector<int>& node_of_rank) {
  return make_rows(opt, specs, grid, node_of_rank, [&](RowPlan& r) {
    r.mine = make_rank_plan(grid, r.shape, rank, node_of_rank);
    r.all = summary_of(r.mine);
  });
}

RowFacts row_facts(const std::vector<RowPlan>& rows) {
  RowFacts f;
  for (const RowPlan& r : rows) {
    f.uneven = f.uneven || r.all.send_min != r.all.send_max;
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
