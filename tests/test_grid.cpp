#include <gtest/gtest.h>

#include <numeric>

#include "halobw/plan/grid.hpp"

using halobw::auto_grid;
using halobw::block_of;
using halobw::brick_of;
using halobw::Dims3;
using halobw::kNoRank;
using halobw::ProcGrid;

TEST(AutoGrid, SeedLayouts) {
  EXPECT_EQ(auto_grid(1).dims(), (Dims3{1, 1, 1}));
  EXPECT_EQ(auto_grid(2).dims(), (Dims3{1, 1, 2}));
  EXPECT_EQ(auto_grid(4).dims(), (Dims3{1, 2, 2}));
  EXPECT_EQ(auto_grid(6).dims(), (Dims3{1, 2, 3}));
  EXPECT_EQ(auto_grid(8).dims(), (Dims3{2, 2, 2}));
  EXPECT_EQ(auto_grid(9).dims(), (Dims3{1, 3, 3}));
  EXPECT_EQ(auto_grid(12).dims(), (Dims3{2, 2, 3}));
  EXPECT_EQ(auto_grid(7).dims(), (Dims3{1, 1, 7}));
}

// Against an independent brute force over every factorisation for 1..16 ranks:
// least face area per brick of a cube, ties to the smallest gx, then gy.
TEST(AutoGrid, LeastAreaWithTieRulesUpTo16) {
  for (int r = 1; r <= 16; ++r) {
    double best_area = 1e300;
    Dims3 best{};
    for (int gx = 1; gx <= r; ++gx) {
      for (int gy = 1; gy <= r; ++gy) {
        for (int gz = 1; gz <= r; ++gz) {
          if (gx * gy * gz != r) continue;
          const double n = 360360.0;  // divisible by 1..16: b = N/g exact
          const double bx = n / gx, by = n / gy, bz = n / gz;
          const double area = bx * by + by * bz + bz * bx;
          if (area < best_area * (1 - 1e-12)) {
            best_area = area;
            best = {gx, gy, gz};
          }
        }
      }
    }
    EXPECT_EQ(auto_grid(r).dims(), best) << "ranks " << r;
    EXPECT_EQ(auto_grid(r).size(), r);
  }
}

TEST(ProcGrid, RankNumberingIsXFastest) {
  const ProcGrid g({2, 3, 4});
  EXPECT_EQ(g.rank_of({1, 0, 0}), 1);
  EXPECT_EQ(g.rank_of({0, 1, 0}), 2);
  EXPECT_EQ(g.rank_of({0, 0, 1}), 6);
  for (int r = 0; r < g.size(); ++r) EXPECT_EQ(g.rank_of(g.coords(r)), r);
  EXPECT_EQ(g.str(), "2x3x4");
}

// The neighbour one step along `axis` towards `side`, every axis periodic.
int step(const ProcGrid& g, int rank, int axis, int side,
         const halobw::AxisSet& periodic = {true, true, true}) {
  std::array<int, 3> d{0, 0, 0};
  d[static_cast<std::size_t>(axis)] = side;
  return g.neighbour_at(rank, d, periodic);
}

TEST(ProcGrid, PeriodicNeighbours) {
  const ProcGrid g({2, 3, 4});
  // rank 0 = (0,0,0)
  EXPECT_EQ(step(g, 0, 0, +1), 1);
  EXPECT_EQ(step(g, 0, 0, -1), 1);  // two blocks: both x neighbours are the same rank
  EXPECT_EQ(step(g, 0, 1, -1), g.rank_of({0, 2, 0}));
  EXPECT_EQ(step(g, 0, 2, -1), g.rank_of({0, 0, 3}));
  EXPECT_EQ(step(g, 0, 2, +1), g.rank_of({0, 0, 1}));
  for (int r = 0; r < g.size(); ++r) {
    for (int a = 0; a < 3; ++a) {
      EXPECT_EQ(step(g, step(g, r, a, +1), a, -1), r);
      const Dims3 c = g.coords(r);
      const Dims3 n = g.coords(step(g, r, a, +1));
      for (int b = 0; b < 3; ++b) {
        if (b != a) EXPECT_EQ(c[b], n[b]);
      }
      EXPECT_EQ(n[a], (c[a] + 1) % g.dim(a));
    }
  }
  const ProcGrid one({1, 1, 1});
  EXPECT_EQ(step(one, 0, 1, +1), 0);
  EXPECT_EQ(one.neighbour_at(0, {1, 1, -1}, {true, true, true}), 0);
}

TEST(ProcGrid, WallsHaveNoNeighbour) {
  const ProcGrid g({2, 3, 4});
  const halobw::AxisSet open_y{true, false, true};
  const int low = g.rank_of({1, 0, 2});   // on the low y wall
  const int high = g.rank_of({1, 2, 2});  // on the high y wall
  EXPECT_EQ(step(g, low, 1, -1, open_y), kNoRank);
  EXPECT_EQ(step(g, low, 1, +1, open_y), g.rank_of({1, 1, 2}));
  EXPECT_EQ(step(g, high, 1, +1, open_y), kNoRank);
  EXPECT_EQ(step(g, high, 0, +1, open_y), g.rank_of({0, 2, 2}));  // x still wraps
  // A corner across the wall has no neighbour, whatever the other axes do.
  EXPECT_EQ(g.neighbour_at(low, {1, -1, 1}, open_y), kNoRank);
  EXPECT_EQ(g.neighbour_at(low, {1, 1, 1}, open_y), g.rank_of({0, 1, 3}));
  // One rank on an open axis: no neighbour at all along it (not itself).
  const ProcGrid one({1, 1, 1});
  EXPECT_EQ(step(one, 0, 2, +1, {true, true, false}), kNoRank);
}

TEST(ProcGrid, APlacementMapsRanksToCells) {
  // 2x2x1 with ranks 0..3 holding cells 3, 0, 2, 1.
  const ProcGrid g({2, 2, 1}, {3, 0, 2, 1});
  EXPECT_FALSE(g.in_rank_order());
  EXPECT_EQ(g.coords(0), (Dims3{1, 1, 0}));
  EXPECT_EQ(g.coords(1), (Dims3{0, 0, 0}));
  for (int r = 0; r < g.size(); ++r) EXPECT_EQ(g.rank_of(g.coords(r)), r);
  EXPECT_EQ(step(g, 1, 0, +1), 3);                                         // cell 0 -> cell 1, held by rank 3
  EXPECT_THROW(ProcGrid({2, 2, 1}, {0, 0, 1, 2}), std::invalid_argument);  // not a permutation
  EXPECT_THROW(ProcGrid({2, 2, 1}, {0, 1, 2}), std::invalid_argument);
}

TEST(Grid, AutoGridLeastFaceAreaOfTheBox) {
  // A cube: the least gx + gy + gz, as ever.
  EXPECT_EQ(halobw::auto_grid(8, {64, 64, 64}).dims(), (Dims3{2, 2, 2}));
  // 128x512x512 (seed 004's phase space) on 8 ranks: cut the long axes, not x.
  EXPECT_EQ(halobw::auto_grid(8, {128, 512, 512}).dims(), (Dims3{1, 2, 4}));
  // A slab thin along z: the cuts go to x and y.
  EXPECT_EQ(halobw::auto_grid(4, {512, 512, 16}).dims(), (Dims3{2, 2, 1}));
  // Every factorisation costs the same per brick: the tie goes to z.
  EXPECT_EQ(halobw::auto_grid(2, {64, 64, 64}).dims(), (Dims3{1, 1, 2}));
}

TEST(ProcGrid, RejectsZeroDimension) { EXPECT_THROW(ProcGrid({0, 1, 1}), std::invalid_argument); }

TEST(Blocks, RemainderGoesToTheFirstBlocks) {
  for (std::int64_t n : {7, 16, 17, 31, 100}) {
    for (int g = 1; g <= 8; ++g) {
      std::int64_t next = 0;
      for (int c = 0; c < g; ++c) {
        const auto b = block_of(n, g, c);
        EXPECT_EQ(b.offset, next);
        EXPECT_EQ(b.extent, n / g + (c < n % g ? 1 : 0));
        next += b.extent;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(Blocks, BrickOfUnevenSplit) {
  const ProcGrid g({1, 2, 3});
  const auto b = brick_of(g, {17, 17, 17}, g.rank_of({0, 1, 2}));
  EXPECT_EQ(b.extent, (halobw::Index3{17, 8, 5}));
  EXPECT_EQ(b.offset, (halobw::Index3{0, 9, 12}));
}
