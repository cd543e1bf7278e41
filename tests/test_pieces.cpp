#include <gtest/gtest.h>

#include "shapes.hpp"

#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "halobw/cli/settings.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/rank_map.hpp"
#include "halobw/plan/routes.hpp"
#include "halobw/plan/rows.hpp"

using namespace halobw;
using halobw::testing::cube;

namespace {
constexpr AxisSet kX{true, false, false};
constexpr AxisSet kZ{false, false, true};
constexpr AxisSet kAll{true, true, true};

RankPlan plan(const ProcGrid& g, std::int64_t n, int halo, const AxisSet& axes, int rank,
              const std::vector<std::string>& hosts = {}) {
  return make_rank_plan(g, cube(n, halo, axes), rank, node_ids(hosts));
}
}  // namespace

TEST(Faces, SeedExampleTwoRanksZ) {
  // 001: N = 64 on 1x1x2, each rank owns 64x64x32; Send_B = 2 * 8 * 64 * 64.
  const ProcGrid g({1, 1, 2});
  for (int r = 0; r < 2; ++r) {
    const RankPlan p = plan(g, 64, 1, kZ, r);
    EXPECT_EQ(p.brick.extent, (Index3{64, 64, 32}));
    EXPECT_EQ(p.remote_bytes, 65536u);
    EXPECT_EQ(p.counts.remote_faces, 2);
    EXPECT_EQ(p.counts.self_faces, 0);
    ASSERT_EQ(p.pieces.size(), 2u);
    for (const Piece& f : p.pieces) {
      EXPECT_EQ(f.send_peer, 1 - r);
      EXPECT_EQ(f.recv_peer, 1 - r);
      EXPECT_FALSE(f.self);
    }
    // Same pair, two messages per piece: tags differ by direction.
    const MessageTable t = make_message_table(p, SelfMode::copy, Messages::aggregated);
    ASSERT_EQ(t.messages.size(), 2u);
    EXPECT_NE(t.messages[0].tag, t.messages[1].tag);
    // One message per peer (the default): both faces, one after the other.
    const MessageTable one = make_message_table(p, SelfMode::copy);
    ASSERT_EQ(one.messages.size(), 1u);
    EXPECT_EQ(one.messages[0].parts.size(), 2u);
    EXPECT_EQ(one.messages[0].count, t.buffer_values);
  }
}

// --messages auto on the datatype path: a piece over the rule's 64 KiB goes
// alone, smaller ones share their peer's struct; the kernel path keeps one
// message per peer at every size.
TEST(Faces, AutoSplitsLargePiecesOnTheDatatypePath) {
  const ProcGrid g({1, 1, 2});
  for (const std::int64_t n : {64, 128}) {  // faces of 32 KiB (shared) and 128 KiB (alone)
    const RankPlan p = plan(g, n, 1, kZ, 0);
    ASSERT_EQ(p.pieces.size(), 2u);
    const bool alone = StructRule{}.alone(piece_bytes(p.pieces[0]));
    EXPECT_EQ(alone, n == 128);
    const MessageTable dt = make_message_table(p, SelfMode::copy, Messages::automatic, PackMode::datatype);
    EXPECT_EQ(dt.messages.size(), alone ? 2u : 1u);
    EXPECT_EQ(dt.buffer_values, static_cast<std::size_t>(2 * n * n));
    const MessageTable kernel = make_message_table(p, SelfMode::copy, Messages::automatic, PackMode::kernel);
    EXPECT_EQ(kernel.messages.size(), 1u);
    const MessageTable peer = make_message_table(p, SelfMode::copy, Messages::peer, PackMode::datatype);
    EXPECT_EQ(peer.messages.size(), 1u);
  }
  // Intel MPI's rule: the faces of 128 KiB and 2 MiB share their peer's struct, those of 512 KiB
  // go alone; on the kernel path its rule changes nothing.
  for (const std::int64_t n : {128, 256, 512}) {
    const RankPlan p = plan(g, n, 1, kZ, 0);
    EXPECT_EQ(piece_bytes(p.pieces[0]), static_cast<std::uint64_t>(n * n * 8));
    const auto messages = [&](PackMode pack) {
      return make_message_table(p, SelfMode::copy, Messages::automatic, pack, kStructRuleIntelMpi)
          .messages.size();
    };
    EXPECT_EQ(messages(PackMode::datatype), n == 256 ? 2u : 1u) << n;
    EXPECT_EQ(messages(PackMode::kernel), 1u) << n;
  }
  // Three fields: a 32 KiB face carries 96 KiB, over the limit, so it goes alone.
  Shape s = cube(64, 1, kZ);
  s.fields = 3;
  const RankPlan three = make_rank_plan(g, s, 0);
  ASSERT_EQ(three.fields, 3);
  EXPECT_EQ(
      make_message_table(three, SelfMode::copy, Messages::automatic, PackMode::datatype).messages.size(), 2u);
  // Mixed: the box on 2x2x2, halo 3, 3 fields: each face (32x32x3 cells, 72 KiB) alone, the
  // edges (9 KiB) and corners shared per peer: 6 + 3 + 1 messages, every piece in one of them
  // and the offsets one after another.
  Shape box = cube(64, 3, kAll);
  box.dirs = box_directions();
  box.fields = 3;
  const RankPlan b = make_rank_plan(ProcGrid({2, 2, 2}), box, 0);
  const MessageTable t = make_message_table(b, SelfMode::copy, Messages::automatic, PackMode::datatype);
  ASSERT_EQ(t.messages.size(), 10u);
  std::set<int> seen;
  std::size_t offset = 0;
  for (const Message& m : t.messages) {
    EXPECT_EQ(m.offset, offset);
    for (const Part& part : m.parts) {
      EXPECT_TRUE(seen.insert(part.piece).second);
      const bool face = b.pieces[static_cast<std::size_t>(part.piece)].kind() == PieceKind::face;
      EXPECT_EQ(m.parts.size() == 1, face);
    }
    offset += m.count;
  }
  EXPECT_EQ(seen.size(), 26u);
  EXPECT_EQ(offset, t.buffer_values);
}

TEST(Faces, UndividedAxisIsSelf) {
  const ProcGrid g({1, 1, 2});
  const RankPlan p = plan(g, 64, 1, kX, 0);
  EXPECT_EQ(p.remote_bytes, 0u);
  EXPECT_EQ(p.counts.self_faces, 2);
  EXPECT_EQ(p.counts.remote_faces, 0);
  const RankPlan all = plan(g, 64, 1, kAll, 0);
  EXPECT_EQ(all.counts.remote_faces, 2);
  EXPECT_EQ(all.counts.self_faces, 4);
  EXPECT_EQ(all.remote_bytes, 65536u);
}

TEST(Faces, BytesFollowTheOtherExtents) {
  // One rank owning 10x20x30: a face normal to a carries h times the two other extents.
  Shape s;
  s.global = {10, 20, 30};
  s.dirs = star_directions(kAll);
  for (int h = 1; h <= 3; ++h) {
    s.halo = h;
    const RankPlan p = make_rank_plan(ProcGrid({1, 1, 1}), s, 0);
    EXPECT_EQ(piece_bytes(p.pieces[0]), 8u * h * 20 * 30);
    EXPECT_EQ(piece_bytes(p.pieces[2]), 8u * h * 10 * 30);
    EXPECT_EQ(piece_bytes(p.pieces[4]), 8u * h * 10 * 20);
  }
  // No overflow in 32 bits: 2048^2 * 8 * 3 > 2^32.
  const RankPlan big = plan(ProcGrid({2, 1, 1}), 4096, 3, kX, 0);
  EXPECT_EQ(piece_bytes(big.pieces[0]), 8ull * 3 * 4096 * 4096);
  EXPECT_EQ(big.remote_bytes, 2 * 8ull * 3 * 4096 * 4096);
}

TEST(Faces, BoxesAreOwnedLayersAndOppositeGhosts) {
  const ProcGrid g({2, 2, 2});
  const int h = 2;
  const RankPlan p = plan(g, 17, h, kAll, 5);
  ASSERT_EQ(p.pieces.size(), 6u);
  for (const Piece& f : p.pieces) {
    const int a = axis_of(f.dir);
    const std::int64_t n = p.brick.extent[a];
    EXPECT_EQ(f.send_box.extent(a), h);
    EXPECT_EQ(f.recv_box.extent(a), h);
    for (int b = 0; b < 3; ++b) {
      if (b == a) continue;
      EXPECT_EQ(f.send_box.lo[b], h);
      EXPECT_EQ(f.send_box.hi[b], h + p.brick.extent[b]);
      EXPECT_EQ(f.recv_box.lo[b], h);
    }
    if (side_of(f.dir) > 0) {
      EXPECT_EQ(f.send_box.hi[a], h + n);  // the last owned layers
      EXPECT_EQ(f.recv_box.lo[a], 0);      // land in the low ghosts
    } else {
      EXPECT_EQ(f.send_box.lo[a], h);
      EXPECT_EQ(f.recv_box.hi[a], n + 2 * h);
    }
    EXPECT_EQ(piece_bytes(f), static_cast<std::uint64_t>(f.send_box.cells()) * 8);
    EXPECT_EQ(f.send_box.cells(), f.recv_box.cells());
    EXPECT_EQ(f.kind(), PieceKind::face);
    const Offset3& d = offset_of(f.dir);
    EXPECT_EQ(f.send_peer, g.neighbour_at(5, d, kAll));
    EXPECT_EQ(f.recv_peer, g.neighbour_at(5, {-d[0], -d[1], -d[2]}, kAll));
  }
}

TEST(Faces, OffNodeFromHostNames) {
  const ProcGrid g({4, 1, 1});
  const std::vector<std::string> hosts{"a", "a", "b", "b"};
  // rank 1 = x coordinate 1: -x to rank 0 (same host), +x to rank 2 (other host).
  const RankPlan p = plan(g, 16, 1, kX, 1, hosts);
  EXPECT_EQ(p.counts.remote_faces, 2);
  EXPECT_EQ(p.counts.offnode_faces, 1);
  const RankPlan q = plan(g, 16, 1, kX, 0, hosts);  // -x wraps to rank 3 on b
  EXPECT_EQ(q.counts.offnode_faces, 1);
  const RankPlan all_local = plan(g, 16, 1, kX, 1, {"a", "a", "a", "a"});
  EXPECT_EQ(all_local.counts.offnode_faces, 0);
  // Self faces are never off-node.
  const RankPlan s = plan(ProcGrid({1, 1, 1}), 16, 1, kAll, 0, {"a"});
  EXPECT_EQ(s.counts.offnode_faces, 0);
  EXPECT_EQ(s.counts.self_faces, 6);
}

TEST(Faces, SendRangeOfUnevenSplit) {
  const ProcGrid g({1, 1, 2});
  const RowSummary even = summarize(g, cube(16, 1, kZ), {});
  EXPECT_EQ(even.send_min, even.send_max);
  // 17 on 1x2x2, all faces: the 9x9 brick sends 16*17*9*2*2, the 8x8 brick 16*17*8*2*2.
  const RowSummary r = summarize(ProcGrid({1, 2, 2}), cube(17, 2, kAll), {});
  EXPECT_EQ(r.send_max, 2u * 8 * 2 * 17 * 9 * 2);
  EXPECT_EQ(r.send_min, 2u * 8 * 2 * 17 * 8 * 2);
  EXPECT_EQ(r.most.remote_faces, 4);
  EXPECT_EQ(r.most.self_faces, 2);
}

// Notes and messages name a row by the table's size column: N or L for cubes,
// Global or Local (extents, cubes too) as soon as one size is not a cube.
TEST(Rows, LabelsFollowTheSizeColumn) {
  Options o;
  const ProcGrid g({1, 2, 2});
  o.sizes = {{12, 12, 12}};
  EXPECT_STREQ(size_column(o), "N");
  EXPECT_EQ(row_label(o, row_specs(o, g)[0]), "N=12");
  o.sizes = {{16, 12, 8}, {12, 12, 12}};
  EXPECT_STREQ(size_column(o), "Global");
  EXPECT_EQ(row_label(o, row_specs(o, g)[0]), "Global=16x12x8");
  EXPECT_EQ(row_label(o, row_specs(o, g)[1]), "Global=12x12x12");
  o.local = true;
  o.halos = {1, 2};
  EXPECT_STREQ(size_column(o), "Local");
  EXPECT_EQ(row_label(o, row_specs(o, g)[3]), "Local=12x12x12 H=2");
  o.sizes = {{8, 8, 8}};
  EXPECT_STREQ(size_column(o), "L");
  EXPECT_EQ(row_label(o, row_specs(o, g)[0]), "L=8 H=1");
}

TEST(Layout, CrossesRanksAsThePlansSay) {
  // The layout's rule (a piece crosses where it meets no wall and some step
  // of it crosses a cut) against every rank's plan, on grids that cut none,
  // one or all axes, with walls and without, for the star and the box.
  for (const Dims3& dims : {Dims3{1, 1, 1}, Dims3{1, 1, 2}, Dims3{2, 1, 1}, Dims3{1, 2, 2}, Dims3{2, 2, 2}}) {
    for (const bool box : {false, true}) {
      for (const AxisSet& periodic : {kAll, AxisSet{false, true, true}, AxisSet{true, false, false}}) {
        for (const AxisSet& axes : {AxisSet{true, false, false}, AxisSet{false, false, true}, kAll}) {
          Options o;
          o.sizes = {{8, 8, 8}};
          o.axes = axes;
          o.all_faces = axes == kAll;
          o.stencil = box ? StencilKind::box : StencilKind::star;
          o.periodic = periodic;
          const ProcGrid g(dims);
          const RowSpec row = row_specs(o, g).front();
          EXPECT_EQ(crosses_ranks(g, row.shape), summarize(g, row.shape, {}).send_max > 0)
              << "grid " << g.str() << (box ? " box" : " star") << " periodic " << periodic[0] << periodic[1]
              << periodic[2] << " axes " << axes[0] << axes[1] << axes[2];
        }
      }
    }
  }
}

TEST(Rows, EachRowPlannedOnce) {
  // Two sizes times two halo widths on 4 ranks: every rank's plan of every
  // row, made once, holds all that the run needs of it.
  Options o;
  o.sizes = {{12, 12, 12}, {13, 13, 13}};
  o.halos = {1, 2};
  o.all_faces = true;
  o.axes = kAll;
  const ProcGrid g({1, 2, 2});
  std::vector<int> plans_of_rank(4, 0);
  const std::vector<RowPlan> rows = plan_rows(o, row_specs(o, g), g, 3, node_ids({"a", "a", "b", "b"}),
                                              [&](const RankPlan& p) { ++plans_of_rank.at(p.rank); });
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(plans_of_rank, std::vector<int>(4, 4));  // each rank's plan once a row, this rank's among them
  EXPECT_EQ(rows[3].mine.brick.extent, make_rank_plan(g, rows[3].shape, 3).brick.extent);
  EXPECT_EQ(rows[1].label, "N=12 H=2");
  EXPECT_EQ(rows[1].mine.rank, 3);
  EXPECT_EQ(rows[1].mine.halo, 2);
  // 4 remote faces, in a message per peer (the x pair, the y pair); 2 self faces copied.
  EXPECT_EQ(rows[1].table.messages.size(), 2u);
  EXPECT_EQ(rows[2].all.send_max, 2u * 8 * 1 * 13 * 7 * 2);
  EXPECT_EQ(rows[2].all.send_min, 2u * 8 * 1 * 13 * 6 * 2);
  EXPECT_EQ(rows[2].all.most.offnode_faces, 2);
  const RowFacts f = row_facts(rows);
  EXPECT_TRUE(f.uneven);
  // In a job, one plan per row: this rank's, its own figures as the summary
  // until the ranks reduce them (tests/test_exchange.cpp, Rows.ReducedOverRanks).
  const std::vector<RowPlan> own = plan_own_rows(o, row_specs(o, g), g, 3, node_ids({"a", "a", "b", "b"}));
  ASSERT_EQ(own.size(), 4u);
  EXPECT_EQ(own[3].mine.brick.extent, rows[3].mine.brick.extent);
  EXPECT_EQ(own[1].table.messages.size(), 2u);
  EXPECT_EQ(own[2].all.send_max, own[2].mine.remote_bytes);
  EXPECT_EQ(own[2].all.send_min, own[2].mine.remote_bytes);
  EXPECT_EQ(own[2].all.node_out_max, own[2].mine.offnode_bytes);
  EXPECT_EQ(own[2].mine.remote_bytes, rows[2].mine.remote_bytes);
}

TEST(Faces, DirectionNames) {
  std::set<std::string> names;
  for (int d = 0; d < kFaceDirections; ++d) {
    names.insert(direction_name(d));
    EXPECT_EQ(direction(axis_of(d), side_of(d)), d);
  }
  EXPECT_EQ(names.size(), 6u);
  EXPECT_EQ(direction_name(direction(2, +1)), "+z");
  EXPECT_EQ(direction_name(0), "-x");
}

// The 26 directions: each offset once, faces first in the seed's order, each
// with its opposite, and names that say the offset.
TEST(Pieces, TwentySixDirections) {
  std::set<Offset3> seen;
  int kinds[4] = {0, 0, 0, 0};
  for (int d = 0; d < kDirections; ++d) {
    const Offset3& o = offset_of(d);
    seen.insert(o);
    EXPECT_EQ(direction_of(o), d);
    const Offset3& back = offset_of(opposite(d));
    EXPECT_EQ(back, (Offset3{-o[0], -o[1], -o[2]}));
    EXPECT_EQ(opposite(opposite(d)), d);
    ++kinds[std::abs(o[0]) + std::abs(o[1]) + std::abs(o[2])];
  }
  EXPECT_EQ(seen.size(), 26u);
  EXPECT_EQ(kinds[1], 6);
  EXPECT_EQ(kinds[2], 12);
  EXPECT_EQ(kinds[3], 8);
  for (int d = 0; d < kFaceDirections; ++d) EXPECT_EQ(opposite(d), d ^ 1);
  EXPECT_EQ(direction_of({0, 0, 0}), -1);
  EXPECT_EQ(direction_name(direction_of({1, -1, 0})), "+x-y");
  EXPECT_EQ(direction_name(direction_of({-1, 1, 1})), "-x+y+z");
  EXPECT_EQ(box_directions().size(), 26u);
  EXPECT_EQ(star_directions(kZ), (std::vector<int>{4, 5}));
}

// The message table: self pieces copied (or sent with --self mpi), offsets
// packed back to back, counts of cells times fields, and the buffers it
// implies on each transport.
TEST(Messages, TableFromPieces) {
  const ProcGrid g({1, 1, 2});
  Shape s = cube(16, 2, kAll, 3);
  const RankPlan p = make_rank_plan(g, s, 0);  // 16x16x8 owned, h = 2, 3 fields
  const MessageTable copy = make_message_table(p, SelfMode::copy, Messages::aggregated);
  ASSERT_EQ(copy.messages.size(), 2u);  // +-z go to rank 1
  EXPECT_EQ(copy.copies, (std::vector<int>{0, 1, 2, 3}));
  const std::size_t z_cells = 2u * 16 * 16;
  std::size_t offset = 0;
  for (const Message& m : copy.messages) {
    EXPECT_EQ(m.fields, 3);
    EXPECT_EQ(m.count, 3 * z_cells);
    EXPECT_EQ(m.offset, offset);
    EXPECT_EQ(m.tag, p.pieces[static_cast<std::size_t>(m.piece())].dir);
    offset += m.count;
  }
  EXPECT_EQ(copy.buffer_values, offset);
  EXPECT_EQ(p.remote_bytes, 8u * 3 * 2 * z_cells);
  const MessageTable mpi = make_message_table(p, SelfMode::mpi, Messages::aggregated);
  EXPECT_TRUE(mpi.copies.empty());
  EXPECT_EQ(mpi.messages.size(), 6u);
  EXPECT_EQ(mpi.buffer_values, 3 * (2 * z_cells + 4u * 2 * 16 * 8));
  EXPECT_EQ(buffer_sizes(copy, Transport::datatype, false).packed, 0u);
  EXPECT_EQ(buffer_sizes(copy, Transport::datatype, true).packed, copy.buffer_values);
  EXPECT_EQ(buffer_sizes(copy, Transport::direct, false).packed, copy.buffer_values);
  EXPECT_EQ(buffer_sizes(copy, Transport::direct, false).staging, 0u);
  EXPECT_EQ(buffer_sizes(copy, Transport::staged, false).staging, copy.buffer_values);
}

// Box (--stencil box): 26 pieces with the bytes of the formulas, and
// on 2 ranks over 1x1x2 each rank sends 16 h (N + 2h)^2 bytes per field.
TEST(Pieces, BoxPiecesAndTheirBytes) {
  for (int h = 1; h <= 3; ++h) {
    Shape s;
    s.global = {12, 12, 12};
    s.halo = h;
    s.dirs = box_directions();
    s.fields = 2;
    const RankPlan p = make_rank_plan(ProcGrid({1, 1, 2}), s, 0);  // 12x12x6 owned
    ASSERT_EQ(p.pieces.size(), 26u);
    for (const Piece& piece : p.pieces) {
      const Offset3& d = offset_of(piece.dir);
      std::uint64_t want = 8;  // one field: 8 h^k times the extents along the axes not crossed
      for (int a = 0; a < 3; ++a)
        want *= d[a] != 0 ? static_cast<std::uint64_t>(h) : static_cast<std::uint64_t>(p.brick.extent[a]);
      EXPECT_EQ(piece_bytes(piece), want) << direction_name(piece.dir);
      EXPECT_EQ(piece.self, d[2] == 0) << direction_name(piece.dir);  // only z is cut
    }
    EXPECT_EQ(p.remote_bytes, 2ull * 16 * h * (12 + 2 * h) * (12 + 2 * h));
    EXPECT_EQ(p.counts.remote_faces, 2);
    EXPECT_EQ(p.counts.self_faces, 4);
    EXPECT_EQ(p.counts.remote_edges, 8);    // the edges that cross z
    EXPECT_EQ(p.counts.remote_corners, 8);  // every corner crosses z
  }
  // 2x2x2: every piece remote; 1x1x3: a grid dimension of 3 sends the two z sides to different ranks.
  Shape s;
  s.global = {8, 8, 8};
  s.dirs = box_directions();
  const RankPlan all = make_rank_plan(ProcGrid({2, 2, 2}), s, 0);
  EXPECT_EQ(all.counts.remote_faces + all.counts.remote_edges + all.counts.remote_corners, 26);
  s.global = {9, 9, 9};
  const RankPlan three = make_rank_plan(ProcGrid({1, 1, 3}), s, 1);
  for (const Piece& piece : three.pieces) {
    const Offset3& d = offset_of(piece.dir);
    if (d[2] != 0) EXPECT_EQ(piece.send_peer, d[2] > 0 ? 2 : 0) << direction_name(piece.dir);
  }
}

// The stencil's boxes: interior and border are disjoint and cover the owned cells; the interior needs no
// ghost cell along the axes the stencil reaches; too thin a brick is all border.
TEST(Pieces, StencilBoxesCoverTheOwnedCells) {
  for (const AxisSet reach :
       {AxisSet{false, false, true}, AxisSet{true, false, false}, AxisSet{true, true, true}}) {
    for (int h = 1; h <= 3; ++h) {
      const RankPlan p = plan(ProcGrid({1, 1, 1}), 11, h, reach, 0);
      const StencilBoxes b = stencil_boxes(p, reach);
      std::int64_t cells = b.interior.cells();
      for (const Box& x : b.border) cells += x.cells();
      EXPECT_EQ(cells, b.owned.cells());
      for (int a = 0; a < 3; ++a) {
        if (reach[static_cast<std::size_t>(a)]) {
          EXPECT_EQ(b.interior.lo[a], 2 * h);  // a stencil of reach h there reads owned cells only
          EXPECT_EQ(b.interior.hi[a], 11);
        } else {
          EXPECT_EQ(b.interior.extent(a), 11);
        }
      }
      // Disjoint: no two boxes share a cell.
      std::vector<Box> all = b.border;
      all.push_back(b.interior);
      for (std::size_t i = 0; i < all.size(); ++i) {
        for (std::size_t j = i + 1; j < all.size(); ++j) {
          bool overlap = true;
          for (int a = 0; a < 3; ++a) {
            overlap = overlap && all[i].lo[a] < all[j].hi[a] && all[j].lo[a] < all[i].hi[a];
          }
          EXPECT_FALSE(overlap) << i << " " << j;
        }
      }
    }
  }
  const RankPlan thin = plan(ProcGrid({1, 1, 1}), 3, 2, kZ, 0);
  const StencilBoxes b = stencil_boxes(thin, kZ);
  EXPECT_TRUE(b.interior.empty());
  ASSERT_EQ(b.border.size(), 1u);
  EXPECT_EQ(b.border[0], b.owned);
}

// --messages separate: one message per piece and field, tagged apart.
TEST(Messages, SeparateMessagesPerField) {
  Shape s = cube(16, 1, kZ, 3);
  const RankPlan p = make_rank_plan(ProcGrid({1, 1, 2}), s, 0);
  const MessageTable t = make_message_table(p, SelfMode::copy, Messages::separate);
  ASSERT_EQ(t.messages.size(), 6u);
  std::set<int> tags;
  for (const Message& m : t.messages) {
    EXPECT_EQ(m.fields, 1);
    EXPECT_EQ(m.tag, p.pieces[static_cast<std::size_t>(m.piece())].dir + kDirections * m.first_field);
    tags.insert(m.tag);
  }
  EXPECT_EQ(tags.size(), 6u);
  EXPECT_EQ(t.buffer_values, make_message_table(p, SelfMode::copy).buffer_values);
}

TEST(Routes, PeersTagsAndTheWatchdogsWords) {
  // 16^3 on 1x1x2, ±z, 2 fields sent separately: four messages from rank 0 to rank 1.
  Shape s = cube(16, 1, kZ, 2);
  const RankPlan p = make_rank_plan(ProcGrid({1, 1, 2}), s, 0);
  const MessageTable t = make_message_table(p, SelfMode::copy, Messages::separate);
  const std::vector<Route> routes = plan_routes(p, t);
  ASSERT_EQ(routes.size(), 4u);
  const Route& first = routes[0];  // -z, field 0
  EXPECT_EQ(first.send_peer, 1);
  EXPECT_EQ(first.recv_peer, 1);
  EXPECT_EQ(first.tag, t.messages[0].tag);
  EXPECT_EQ(first.what_recv, "the +z ghost face field 0 from rank 1 (receive, tag 4)");
  EXPECT_EQ(first.what_send, "rank 1 to take the face field 0 sent -z (send, tag 4)");
  EXPECT_EQ(routes[3].what_recv, "the -z ghost face field 1 from rank 1 (receive, tag 31)");
  // Aggregated: no field named.
  const std::vector<Route> one = plan_routes(p, make_message_table(p, SelfMode::copy, Messages::aggregated));
  EXPECT_EQ(one[1].what_send, "rank 1 to take the face sent +z (send, tag 5)");
}

TEST(Walls, PiecesAtAWallAreNeitherSentNorFilled) {
  // 16^3 on 1x1x2, all faces, z open: each rank has one z neighbour, on one side.
  Shape s = cube(16, 1, kAll);
  s.periodic = {true, true, false};
  const ProcGrid g({1, 1, 2});
  const RankPlan low = make_rank_plan(g, s, 0);
  for (const Piece& p : low.pieces) {
    const Offset3& d = offset_of(p.dir);
    if (d[2] == -1) {  // towards the low wall: nothing to send; filled from rank 1 above
      EXPECT_FALSE(p.sends());
      EXPECT_EQ(p.recv_peer, 1);
    } else if (d[2] == +1) {  // towards rank 1; its ghosts face the wall below: never filled
      EXPECT_EQ(p.send_peer, 1);
      EXPECT_FALSE(p.receives());
    } else {
      EXPECT_TRUE(p.self);  // x and y are periodic and undivided
    }
  }
  EXPECT_EQ(low.counts.boundary_faces, 1);
  EXPECT_EQ(low.counts.remote_faces, 1);
  EXPECT_EQ(low.counts.self_faces, 4);
  EXPECT_EQ(low.remote_bytes, 8u * 16 * 16);  // one face of 16x16 cells, h = 1
  // One rank with every axis open: nothing wraps to itself, every face is at a wall.
  Shape closed = cube(16, 1, kAll);
  closed.periodic = {false, false, false};
  const RankPlan alone = make_rank_plan(ProcGrid({1, 1, 1}), closed, 0);
  EXPECT_EQ(alone.counts.boundary_faces, 6);
  EXPECT_EQ(alone.counts.self_faces, 0);
  EXPECT_EQ(alone.remote_bytes, 0u);
  // Box stencil on 2x2x2, all open: a corner rank sends 7 of its 26 pieces (3 faces, 3 edges, 1 corner).
  Shape box = cube(16, 1, kAll);
  box.dirs = box_directions();
  box.periodic = {false, false, false};
  const RankPlan corner = make_rank_plan(ProcGrid({2, 2, 2}), box, 0);
  int sent = 0;
  for (const Piece& p : corner.pieces) sent += p.sends() ? 1 : 0;
  EXPECT_EQ(sent, 7);
  EXPECT_EQ(corner.counts.boundary_faces, 3);
  EXPECT_EQ(corner.counts.remote_edges, 3);
  EXPECT_EQ(corner.counts.remote_corners, 1);
  // The row: ranks send different amounts only where the walls make them; here every rank is a corner.
  const RowSummary r = summarize(ProcGrid({2, 2, 2}), box, {});
  EXPECT_EQ(r.send_min, r.send_max);
  EXPECT_EQ(r.most.boundary_faces, 3);
}

// What the row sends off the nodes when each holds a `block` of the grid,
// counted from every rank's plan (cell c on rank c, nodes the blocks).
OffNodeBytes every_rank(const Dims3& grid, const Shape& shape, const Dims3& block) {
  const ProcGrid cells(grid);
  std::vector<int> node;
  for (int c = 0; c < cells.size(); ++c) {
    const Dims3 at = cells.coords(c);
    node.push_back(at[0] / block[0] +
                   grid[0] / block[0] * (at[1] / block[1] + grid[1] / block[1] * (at[2] / block[2])));
  }
  const RowSummary s = summarize(cells, shape, node);
  return {s.node_out_max, s.offnode_max};
}

// The choice by every rank's plan: the least NodeOut_B, then OffNode_B, then
// the least surface in ranks, then the longest along z, then y.
std::optional<NodeBlock> by_every_rank(const Dims3& grid, const Shape& shape, int per_node) {
  std::optional<NodeBlock> best;
  auto key = [](const NodeBlock& n) {
    const Dims3& b = n.block;
    return std::make_tuple(n.sends.node_out, n.sends.rank_most, b[0] * b[1] + b[1] * b[2] + b[0] * b[2],
                           -b[2], -b[1]);
  };
  for (int a = 1; a <= per_node; ++a) {
    for (int b = 1; a * b <= per_node; ++b) {
      const int c = per_node / (a * b);
      if (a * b * c != per_node || grid[0] % a != 0 || grid[1] % b != 0 || grid[2] % c != 0) continue;
      const NodeBlock n{{a, b, c}, every_rank(grid, shape, {a, b, c})};
      if (!best || key(n) < key(*best)) best = n;
    }
  }
  return best;
}

// Cubes keep the block of least surface, which also sends the fewest bytes
// off a node; bricks far from cubes do not.
TEST(Placement, TheBlockThatSendsTheFewestBytesOffANode) {
  const Shape cube16 = cube(16, 1, kAll);
  EXPECT_EQ(node_block({4, 4, 4}, cube16, 8)->block, (Dims3{2, 2, 2}));
  // Bricks 4x4x4, faces 128 B: a rank at a block's corner sends 3 faces off the node, the node 8 x 3.
  EXPECT_EQ(node_block({4, 4, 4}, cube16, 8)->sends.rank_most, 3u * 128);
  EXPECT_EQ(node_block({4, 4, 4}, cube16, 8)->sends.node_out, 8u * 3 * 128);
  EXPECT_EQ(node_block({3, 2, 2}, cube16, 4)->block, (Dims3{1, 2, 2}));  // 2 does not divide 3
  EXPECT_EQ(node_block({2, 2, 2}, cube16, 4)->block,
            (Dims3{1, 2, 2}));  // equal bytes: the longest along z, then y
  EXPECT_EQ(node_block({1, 1, 8}, cube16, 2)->block, (Dims3{1, 1, 2}));
  EXPECT_FALSE(node_block({3, 3, 1}, cube16, 2).has_value());  // 2 ranks tile no 3x3x1
  // 256x512x256 on 2x2x1 (bricks 128x256x256): an x face (256x256) is twice a
  // y face (128x256). The least surface in ranks (a tie, to the longest along
  // y) was 1x2x1, whose nodes send x faces; 2x1x1 sends the y faces.
  Shape slab = cube16;
  slab.global = {256, 512, 256};
  const auto chosen = node_block({2, 2, 1}, slab, 2);
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->block, (Dims3{2, 1, 1}));
  EXPECT_EQ(chosen->sends.rank_most, 2u * 8 * 128 * 256);
  EXPECT_EQ(every_rank({2, 2, 1}, slab, {1, 2, 1}).rank_most, 2u * 8 * 256 * 256);  // the old choice: twice
  // Only the exchanged faces count: along z alone, 1x1x2 on 1x1x4 keeps one z face of each rank on the node.
  Shape z = cube(16, 1, {false, false, true});
  EXPECT_EQ(node_block({2, 1, 4}, z, 2)->block, (Dims3{1, 1, 2}));
  z.dirs = star_directions({true, false, false});  // along x alone: 2x1x1 keeps an x face
  EXPECT_EQ(node_block({2, 1, 4}, z, 2)->block, (Dims3{2, 1, 1}));
}

// The choice from a few nodes' plans is the choice from every rank's plan:
// uneven bricks, walls, the box stencil's edges and corners, fields.
TEST(Placement, TheBlockFromAFewNodesIsTheBlockFromEveryRank) {
  Shape s = cube(13, 1, kAll, 2);
  for (const Index3& global : {Index3{13, 10, 7}, Index3{40, 9, 11}, Index3{12, 30, 30}}) {
    for (const AxisSet& periodic : {AxisSet{true, true, true}, AxisSet{false, true, false}}) {
      for (const int halo : {1, 2}) {
        s.global = global;
        s.periodic = periodic;
        s.halo = halo;
        for (const bool box : {false, true}) {
          s.dirs = box ? box_directions() : star_directions(kAll);
          for (const auto& [grid, per_node] : {std::pair<Dims3, int>{{4, 2, 2}, 4},
                                               {{6, 1, 3}, 3},
                                               {{4, 3, 2}, 6},
                                               {{6, 4, 4}, 8},
                                               {{8, 1, 4}, 4}}) {
            const auto few = node_block(grid, s, per_node);
            const auto all = by_every_rank(grid, s, per_node);
            ASSERT_TRUE(few && all);
            EXPECT_EQ(few->block, all->block) << dims_string(global) << " on " << dims_string(grid);
            EXPECT_EQ(few->sends.node_out, all->sends.node_out);
            EXPECT_EQ(few->sends.rank_most, all->sends.rank_most);
          }
        }
      }
    }
  }
}

// The case as a job: 4 ranks as 2 nodes of 2, 256x512x256 on 2x2x1.
// Rank order puts each node on an x pair already, the block nodes now chooses.
TEST(Placement, NodesSendsNoMoreOffTheNodesThanRankOrder) {
  Options o;
  o.sizes = {{256, 512, 256}};
  o.all_faces = true;
  o.axes = kAll;
  const ProcGrid g({2, 2, 1});
  const std::vector<int> nodes{0, 0, 1, 1};
  const RankMap map = nodes_placement(g.dims(), placement_shape(o, row_specs(o, g)), nodes);
  ASSERT_EQ(map.used, RankPlacement::nodes) << map.note;
  EXPECT_EQ(map.per_node, (Dims3{2, 1, 1}));
  const RowPlan linear = plan_rows(o, row_specs(o, g), g, 0, nodes).front();
  const ProcGrid on_nodes = placed(g, map);
  const RowPlan compact = plan_rows(o, row_specs(o, on_nodes), on_nodes, 0, nodes).front();
  EXPECT_LE(compact.all.offnode_max, linear.all.offnode_max);
  EXPECT_LE(compact.all.node_out_max, linear.all.node_out_max);
  EXPECT_EQ(compact.all.offnode_max, 2u * 8 * 128 * 256);
  // The note names the row and both counts; rank order's is every rank's plan.
  const OffNodeBytes order = rank_order_bytes(g.dims(), placement_shape(o, row_specs(o, g)), nodes);
  EXPECT_NE(map.note.find("at 256x512x256 halo 1: NodeOut_B " + std::to_string(compact.all.node_out_max) +
                          ", OffNode_B " + std::to_string(compact.all.offnode_max) + "; rank order " +
                          std::to_string(order.node_out) + ", " + std::to_string(order.rank_most)),
            std::string::npos)
      << map.note;
}

// The row the block is chosen for: the largest global box, at the widest halo.
TEST(Placement, TheLargestRowChooses) {
  Options o;
  o.sizes = {{64, 64, 64}, {256, 512, 256}, {512, 256, 256}, {32, 32, 32}};
  o.halos = {1, 3, 2};
  const ProcGrid g({2, 2, 1});
  const Shape s = placement_shape(o, row_specs(o, g));
  EXPECT_EQ(s.global, (Index3{256, 512, 256}));  // the first of the two largest
  EXPECT_EQ(s.halo, 3);
  o.local = true;  // per-rank bricks: the global box is the brick times the grid
  EXPECT_EQ(placement_shape(o, row_specs(o, g)).global, (Index3{512, 1024, 256}));
}

// 12 ranks as 3 nodes of 4 on 3x2x2, bricks 4x4x4, the six faces (128 B each).
// Counted by hand: in rank order, rank 4 at (1,1,0) on node 1 sends -x to
// rank 3 (node 0), both y faces to rank 1 (node 0) and both z faces to rank 10
// (node 2): 5 faces, 640 B; node 1's four ranks send 640 each. With a 1x2x2
// block per node, only the two x faces of every rank leave its node.
TEST(Placement, OffNodeBytesOfTwelveRanksOnThreeNodes) {
  Options o;
  o.sizes = {{12, 8, 8}};
  o.all_faces = true;
  o.axes = kAll;
  const ProcGrid g({3, 2, 2});
  const std::vector<int> nodes{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
  const RowPlan linear = plan_rows(o, row_specs(o, g), g, 4, nodes).front();
  EXPECT_EQ(linear.mine.offnode_bytes, 640u);
  EXPECT_EQ(linear.mine.counts.offnode_faces, 5);
  EXPECT_EQ(linear.all.offnode_max, 640u);
  EXPECT_EQ(linear.all.node_out_max, 4u * 640);
  EXPECT_EQ(linear.all.send_max, 6u * 128);
  const RankMap map = nodes_placement(g.dims(), placement_shape(o, row_specs(o, g)), nodes);
  ASSERT_EQ(map.used, RankPlacement::nodes);
  EXPECT_EQ(map.node_grid, (Dims3{3, 1, 1}));
  EXPECT_EQ(map.per_node, (Dims3{1, 2, 2}));
  const ProcGrid on_nodes = placed(g, map);
  for (int r = 0; r < 12; ++r) EXPECT_EQ(on_nodes.coords(r)[0], nodes[static_cast<std::size_t>(r)]);
  const RowPlan compact = plan_rows(o, row_specs(o, on_nodes), on_nodes, 4, nodes).front();
  EXPECT_EQ(compact.all.offnode_max, 2u * 128);
  EXPECT_EQ(compact.all.node_out_max, 4u * 2 * 128);
  EXPECT_EQ(compact.all.send_max, linear.all.send_max);  // the same bytes, fewer of them off-node
}

// 8 ranks as 2 nodes of 4 on 2x2x2, N = 16 (bricks 8x8x8, faces 512 B): in
// rank order node 0 holds the z = 0 layer, and every rank's two z faces leave
// the node; the compact placement gives each node an x half, and the two x
// faces leave it instead: the same bytes either way.
TEST(Placement, OffNodeBytesOfEightRanksOnTwoNodes) {
  Options o;
  o.sizes = {{16, 16, 16}};
  o.all_faces = true;
  o.axes = kAll;
  const ProcGrid g({2, 2, 2});
  const std::vector<int> nodes{0, 0, 0, 0, 1, 1, 1, 1};
  for (const ProcGrid& grid :
       {g, placed(g, nodes_placement(g.dims(), placement_shape(o, row_specs(o, g)), nodes))}) {
    const RowPlan row = plan_rows(o, row_specs(o, grid), grid, 0, nodes).front();
    EXPECT_EQ(row.all.offnode_max, 2u * 512);
    EXPECT_EQ(row.all.node_out_max, 4u * 2 * 512);
    EXPECT_EQ(row.mine.counts.offnode_faces, 2);
  }
}

TEST(Placement, FallsBackToRankOrderAndSaysWhy) {
  const Shape s = cube(16, 1, kAll);
  const RankMap uneven = nodes_placement({2, 2, 2}, s, {0, 0, 0, 1, 1, 1, 1, 1});
  EXPECT_EQ(uneven.asked, RankPlacement::nodes);
  EXPECT_EQ(uneven.used, RankPlacement::linear);
  EXPECT_TRUE(uneven.cell_of_rank.empty());
  EXPECT_NE(uneven.note.find("different numbers of ranks"), std::string::npos) << uneven.note;
  const RankMap untiled = nodes_placement({3, 3, 1}, s, {0, 0, 1, 1, 2, 2, 3, 3, 4});
  EXPECT_EQ(untiled.used, RankPlacement::linear);
  const RankMap odd = nodes_placement({3, 1, 1}, s, {0, 0, 0});  // one node: its block is the grid
  EXPECT_EQ(odd.used, RankPlacement::nodes);
  EXPECT_EQ(odd.per_node, (Dims3{3, 1, 1}));
}

// 12 ranks as 3 nodes of 4 on 3x2x2, bricks 1x1000x1000: an x face is 1000
// times a y or z face. The only block of 4 that tiles the grid, 1x2x2, sends
// both x faces of every rank off its node; rank order's ragged runs (node 0:
// cells 0-3) keep most x faces on the node. nodes falls back and says why.
TEST(Placement, FallsBackWhereRankOrderSendsLessOffTheNodes) {
  Shape s = cube(16, 1, kAll);
  s.global = {3, 2000, 2000};
  const std::vector<int> nodes{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
  const auto best = node_block({3, 2, 2}, s, 4);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->block, (Dims3{1, 2, 2}));
  EXPECT_EQ(best->sends.node_out, 4u * 2 * 8 * 1000 * 1000);
  const OffNodeBytes order = rank_order_bytes({3, 2, 2}, s, nodes);
  EXPECT_LT(order.node_out, best->sends.node_out);
  const RankMap map = nodes_placement({3, 2, 2}, s, nodes);
  EXPECT_EQ(map.asked, RankPlacement::nodes);
  EXPECT_EQ(map.used, RankPlacement::linear);
  EXPECT_TRUE(map.cell_of_rank.empty());
  EXPECT_NE(
      map.note.find("at 3x2000x2000 halo 1 the best block of 4 ranks, 1x2x2, sends more off a node than "
                    "rank order"),
      std::string::npos)
      << map.note;
}

// The messages the host packs (or unpacks) in one pass: those whose boxes
// share a row of a field, directly or through others.
TEST(Messages, RowGroupsShareRowsOfOneField) {
  using Groups = std::vector<std::vector<int>>;
  // ±x on 2x1x1: both faces hold every owned row, sent and received.
  const RankPlan x = plan(ProcGrid({2, 1, 1}), 16, 1, kX, 0);
  const MessageTable tx = make_message_table(x, SelfMode::copy, Messages::aggregated);
  EXPECT_EQ(line_groups(x, tx, BoxSide::send), (Groups{{0, 1}}));
  EXPECT_EQ(line_groups(x, tx, BoxSide::recv), (Groups{{0, 1}}));
  // ±z on 1x1x2: no row in common.
  const RankPlan z = plan(ProcGrid({1, 1, 2}), 16, 2, kZ, 0);
  const MessageTable tz = make_message_table(z, SelfMode::copy, Messages::aggregated);
  EXPECT_EQ(line_groups(z, tz, BoxSide::send), (Groups{{0}, {1}}));
  EXPECT_EQ(line_groups(z, tz, BoxSide::recv), (Groups{{0}, {1}}));
  // All faces on 2x2x1 (±z are self copies): the y faces send rows the x
  // faces send too, but fill ghost rows of their own.
  const RankPlan all = plan(ProcGrid({2, 2, 1}), 16, 1, kAll, 0);
  const MessageTable ta = make_message_table(all, SelfMode::copy, Messages::aggregated);
  ASSERT_EQ(ta.messages.size(), 4u);
  EXPECT_EQ(line_groups(all, ta, BoxSide::send), (Groups{{0, 1, 2, 3}}));
  EXPECT_EQ(line_groups(all, ta, BoxSide::recv), (Groups{{0, 1}, {2}, {3}}));
  // Separate messages of two fields: each field's rows are its own.
  const RankPlan two = make_rank_plan(ProcGrid({2, 1, 1}), cube(16, 1, kX, 2), 0);
  const MessageTable ts = make_message_table(two, SelfMode::copy, Messages::separate);
  ASSERT_EQ(ts.messages.size(), 4u);  // -x field 0, -x field 1, +x field 0, +x field 1
  EXPECT_EQ(line_groups(two, ts, BoxSide::send), (Groups{{0, 2}, {1, 3}}));
  // Aggregated, one message carries both fields: the same groups as one field.
  const MessageTable tg = make_message_table(two, SelfMode::copy, Messages::aggregated);
  EXPECT_EQ(line_groups(two, tg, BoxSide::recv), (Groups{{0, 1}}));
}
