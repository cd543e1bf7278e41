#include <gtest/gtest.h>

#include <set>

#include "halobw/messages.hpp"
#include "halobw/pieces.hpp"

using namespace halobw;

namespace {
constexpr AxisSet kX{true, false, false};
constexpr AxisSet kZ{false, false, true};
constexpr AxisSet kAll{true, true, true};

Shape cube(std::int64_t n, int halo, const AxisSet& axes, int fields = 1) {
  Shape s;
  s.global = {n, n, n};
  s.halo = halo;
  s.dirs = star_directions(axes);
  s.fields = fields;
  return s;
}

RankPlan plan(const ProcGrid& g, std::int64_t n, int halo, const AxisSet& axes, int rank,
              const std::vector<std::string>& hosts = {}) {
  return make_rank_plan(g, cube(n, halo, axes), rank, hosts);
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
    // Same pair, two messages: tags differ by direction.
    const MessageTable t = make_message_table(p, SelfMode::copy);
    ASSERT_EQ(t.messages.size(), 2u);
    EXPECT_NE(t.messages[0].tag, t.messages[1].tag);
  }
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
    EXPECT_EQ(f.send_peer, g.neighbour(5, a, side_of(f.dir)));
    EXPECT_EQ(f.recv_peer, g.neighbour(5, a, -side_of(f.dir)));
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
  const SendRange even = send_range(g, cube(16, 1, kZ));
  EXPECT_EQ(even.min, even.max);
  // 17 on 1x2x2, all faces: the 9x9 brick sends 16*17*9*2*2, the 8x8 brick 16*17*8*2*2.
  const SendRange r = send_range(ProcGrid({1, 2, 2}), cube(17, 2, kAll));
  EXPECT_EQ(r.max, 2u * 8 * 2 * 17 * 9 * 2);
  EXPECT_EQ(r.min, 2u * 8 * 2 * 17 * 8 * 2);
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
  const MessageTable copy = make_message_table(p, SelfMode::copy);
  ASSERT_EQ(copy.messages.size(), 2u);  // +-z go to rank 1
  EXPECT_EQ(copy.copies, (std::vector<int>{0, 1, 2, 3}));
  const std::size_t z_cells = 2u * 16 * 16;
  std::size_t offset = 0;
  for (const Message& m : copy.messages) {
    EXPECT_EQ(m.fields, 3);
    EXPECT_EQ(m.count, 3 * z_cells);
    EXPECT_EQ(m.offset, offset);
    EXPECT_EQ(m.tag, p.pieces[static_cast<std::size_t>(m.piece)].dir);
    offset += m.count;
  }
  EXPECT_EQ(copy.buffer_values, offset);
  EXPECT_EQ(p.remote_bytes, 8u * 3 * 2 * z_cells);
  const MessageTable mpi = make_message_table(p, SelfMode::mpi);
  EXPECT_TRUE(mpi.copies.empty());
  EXPECT_EQ(mpi.messages.size(), 6u);
  EXPECT_EQ(mpi.buffer_values, 3 * (2 * z_cells + 4u * 2 * 16 * 8));
  EXPECT_EQ(buffer_sizes(copy, Transport::datatype, false).packed, 0u);
  EXPECT_EQ(buffer_sizes(copy, Transport::datatype, true).packed, copy.buffer_values);
  EXPECT_EQ(buffer_sizes(copy, Transport::direct, false).packed, copy.buffer_values);
  EXPECT_EQ(buffer_sizes(copy, Transport::direct, false).staging, 0u);
  EXPECT_EQ(buffer_sizes(copy, Transport::staged, false).staging, copy.buffer_values);
}
