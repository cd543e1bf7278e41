// The rows of a run, each planned once: what it exchanges, this rank's
// pieces and messages, and what every rank sends. The last comes from every
// rank's plan, made once each in one process (plan_rows: --dry-run plans its
// rows for every rank with summarize; the tests), or in a job from each rank's
// own plan reduced over the ranks (plan_own_rows, then app/summary.hpp): each
// of P ranks planning all P would cost the job O(P^2). Pure: no MPI, no global
// state. The memory preflight, the header, the measurement and the report
// read these plans; none of them plans a row again.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/plan/direct.hpp"
#include "halobw/plan/grid.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

// One row over every rank: the least and the most remote bytes sent, the most
// sent off a rank's node and off a node as a whole, the most of each piece
// count on any rank, and the least and the most of each brick extent.
struct RowSummary {
  std::uint64_t send_min = 0;
  std::uint64_t send_max = 0;
  std::uint64_t offnode_max = 0;   // OffNode_B
  std::uint64_t node_out_max = 0;  // the node whose ranks send the most to other nodes, all of it
  PieceCounts most;
  Index3 brick_min{0, 0, 0};
  Index3 brick_max{0, 0, 0};
};
// `node_of_rank[r]` is the node of rank r (empty: one node for all). `each`,
// where given, sees every rank's plan as it is made.
[[nodiscard]] RowSummary summarize(const ProcGrid& grid, const Shape& shape,
                                   const std::vector<int>& node_of_rank,
                                   const std::function<void(const RankPlan&)>& each = {});

// One rank's figures as a summary over that rank alone (node_out_max: its own
// off-node bytes, which a reduction sums over its node).
[[nodiscard]] RowSummary summary_of(const RankPlan& p);
// `into` widened by `one` (least and most of each figure; node_out_max the most).
void merge(RowSummary& into, const RowSummary& one);

struct RowPlan {
  RowSpec spec;
  std::string label;  // "N=64", "L=32 H=2": how notes and messages name the row
  Shape shape;
  RankPlan mine;       // this rank's pieces
  MessageTable table;  // this rank's messages (with --method shm, those to and from other nodes)
  std::optional<DirectPlan> direct;  // --method shm: the pieces copied from neighbours on the node
  RowSummary all;                    // every rank's
};

// Every row of the table (`specs`, from plan_layout) for `rank` on `grid`, `all`
// from every rank's plan. `each`, where given, sees every rank's plan of every
// row as it is made (tests count them). Pure.
[[nodiscard]] std::vector<RowPlan> plan_rows(const Options& opt, const std::vector<RowSpec>& specs,
                                             const ProcGrid& grid, int rank,
                                             const std::vector<int>& node_of_rank,
                                             const std::function<void(const RankPlan&)>& each = {});
// The same with one plan per row, this rank's: `all` is summary_of(mine),
// until the job reduces it over its ranks (app/summary.hpp). Pure.
[[nodiscard]] std::vector<RowPlan> plan_own_rows(const Options& opt, const std::vector<RowSpec>& specs,
                                                 const ProcGrid& grid, int rank,
                                                 const std::vector<int>& node_of_rank);

// What the rows' plans say before anything is allocated.
struct RowFacts {
  bool uneven = false;    // ranks send different amounts in some row
  bool all_cubes = true;  // every row's size is a cube (N or L), not extents
};
[[nodiscard]] RowFacts row_facts(const std::vector<RowPlan>& rows);

// The node of each rank from its host name: nodes numbered in the order of their first rank.
[[nodiscard]] std::vector<int> node_ids(const std::vector<std::string>& rank_host);

}  // namespace halobw
