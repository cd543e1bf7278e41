#include <gtest/gtest.h>

#include <set>

#include "halobw/faces.hpp"

using namespace halobw;

namespace {
constexpr AxisSet kX{true, false, false};
constexpr AxisSet kZ{false, false, true};
constexpr AxisSet kAll{true, true, true};
}  // namespace

TEST(Faces, SeedExampleTwoRanksZ) {
  // 001: N = 64 on 1x1x2, each rank owns 64x64x32; Send_B = 2 * 8 * 64 * 64.
  const ProcGrid g({1, 1, 2});
  for (int r = 0; r < 2; ++r) {
    const RankPlan p = make_rank_plan(g, 64, 1, kZ, r);
    EXPECT_EQ(p.brick.extent, (Index3{64, 64, 32}));
    EXPECT_EQ(p.remote_bytes, 65536u);
    EXPECT_EQ(p.remote_faces, 2);
    EXPECT_EQ(p.self_faces, 0);
    ASSERT_EQ(p.faces.size(), 2u);
    for (const Face& f : p.faces) {
      EXPECT_EQ(f.send_peer, 1 - r);
      EXPECT_EQ(f.recv_peer, 1 - r);
      EXPECT_FALSE(f.self);
    }
    // Same pair, two messages: tags differ by direction.
    EXPECT_NE(p.faces[0].tag, p.faces[1].tag);
  }
}

TEST(Faces, UndividedAxisIsSelf) {
  const ProcGrid g({1, 1, 2});
  const RankPlan p = make_rank_plan(g, 64, 1, kX, 0);
  EXPECT_EQ(p.remote_bytes, 0u);
  EXPECT_EQ(p.self_faces, 2);
  EXPECT_EQ(p.remote_faces, 0);
  const RankPlan all = make_rank_plan(g, 64, 1, kAll, 0);
  EXPECT_EQ(all.remote_faces, 2);
  EXPECT_EQ(all.self_faces, 4);
  EXPECT_EQ(all.remote_bytes, 65536u);
}

TEST(Faces, BytesFollowTheOtherExtents) {
  EXPECT_EQ(face_bytes({10, 20, 30}, 0, 1), 8u * 20 * 30);
  EXPECT_EQ(face_bytes({10, 20, 30}, 1, 2), 8u * 2 * 10 * 30);
  EXPECT_EQ(face_bytes({10, 20, 30}, 2, 3), 8u * 3 * 10 * 20);
  // No overflow in 32 bits: 2048^2 * 8 * 3 > 2^32.
  EXPECT_EQ(face_bytes({2048, 2048, 2048}, 0, 3), 8ull * 3 * 2048 * 2048);
}

TEST(Faces, BoxesAreOwnedLayersAndOppositeGhosts) {
  const ProcGrid g({2, 2, 2});
  const int h = 2;
  const RankPlan p = make_rank_plan(g, 17, h, kAll, 5);
  ASSERT_EQ(p.faces.size(), 6u);
  for (const Face& f : p.faces) {
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
    EXPECT_EQ(f.bytes, static_cast<std::uint64_t>(f.send_box.cells()) * 8);
    EXPECT_EQ(f.send_box.cells(), f.recv_box.cells());
    EXPECT_EQ(f.tag, f.dir);
    EXPECT_EQ(f.send_peer, g.neighbour(5, a, side_of(f.dir)));
    EXPECT_EQ(f.recv_peer, g.neighbour(5, a, -side_of(f.dir)));
  }
}

TEST(Faces, OffNodeFromHostNames) {
  const ProcGrid g({4, 1, 1});
  const std::vector<std::string> hosts{"a", "a", "b", "b"};
  // rank 1 = x coordinate 1: -x to rank 0 (same host), +x to rank 2 (other host).
  const RankPlan p = make_rank_plan(g, 16, 1, kX, 1, hosts);
  EXPECT_EQ(p.remote_faces, 2);
  EXPECT_EQ(p.offnode_faces, 1);
  const RankPlan q = make_rank_plan(g, 16, 1, kX, 0, hosts);  // -x wraps to rank 3 on b
  EXPECT_EQ(q.offnode_faces, 1);
  const RankPlan all_local = make_rank_plan(g, 16, 1, kX, 1, {"a", "a", "a", "a"});
  EXPECT_EQ(all_local.offnode_faces, 0);
  // Self faces are never off-node.
  const RankPlan s = make_rank_plan(ProcGrid({1, 1, 1}), 16, 1, kAll, 0, {"a"});
  EXPECT_EQ(s.offnode_faces, 0);
  EXPECT_EQ(s.self_faces, 6);
}

TEST(Faces, SendRangeOfUnevenSplit) {
  const ProcGrid g({1, 1, 2});
  const SendRange even = send_range(g, 16, 1, kZ);
  EXPECT_EQ(even.min, even.max);
  // 17 on 1x2x2, all faces: the 9x9 brick sends 16*17*9*2*2, the 8x8 brick 16*17*8*2*2.
  const SendRange r = send_range(ProcGrid({1, 2, 2}), 17, 2, kAll);
  EXPECT_EQ(r.max, 2u * 8 * 2 * 17 * 9 * 2);
  EXPECT_EQ(r.min, 2u * 8 * 2 * 17 * 8 * 2);
}

TEST(Faces, DirectionNames) {
  std::set<std::string> names;
  for (int d = 0; d < kDirections; ++d) {
    names.insert(direction_name(d));
    EXPECT_EQ(direction(axis_of(d), side_of(d)), d);
  }
  EXPECT_EQ(names.size(), 6u);
  EXPECT_EQ(direction_name(direction(2, +1)), "+z");
}
