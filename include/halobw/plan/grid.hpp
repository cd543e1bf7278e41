// The process grid: automatic factorisation, rank <-> coordinates (rank
// order, or a placement's map: plan/rank_map.hpp), neighbours and the local
// brick of each rank (remainders included).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"

namespace halobw {

// A rank that is not there: the neighbour across an open boundary.
constexpr int kNoRank = -1;

class ProcGrid {
 public:
  // Cells numbered x fastest, cell = cx + gx * (cy + gy * cz); rank r holds
  // cell r, or cell_of_rank[r] where a placement gives a map.
  explicit ProcGrid(Dims3 dims, std::vector<int> cell_of_rank = {});

  [[nodiscard]] const Dims3& dims() const { return dims_; }
  [[nodiscard]] int dim(int axis) const { return dims_[axis]; }
  [[nodiscard]] int size() const { return dims_[0] * dims_[1] * dims_[2]; }
  [[nodiscard]] Dims3 coords(int rank) const;
  [[nodiscard]] int rank_of(const Dims3& c) const;
  // The neighbour of `rank` at offset `d`: across a periodic axis it wraps,
  // across an open one it is kNoRank.
  [[nodiscard]] int neighbour_at(int rank, const std::array<int, 3>& d, const AxisSet& periodic) const;
  // Whether ranks hold their cells in rank order (no placement map).
  [[nodiscard]] bool in_rank_order() const { return cell_of_rank_.empty(); }
  // "GXxGYxGZ", as printed in the header.
  [[nodiscard]] std::string str() const;

 private:
  Dims3 dims_;
  std::vector<int> cell_of_rank_;  // empty: rank order
  std::vector<int> rank_of_cell_;
};

// Among gx*gy*gz = nranks, the least face area per brick of the box `box`
// (NX/gx*NY/gy + NY/gy*NZ/gz + NX/gx*NZ/gz; of a cube, N^2 (gx+gy+gz)/nranks);
// ties go to the smallest gx, then the smallest gy, so z gets the most cuts.
[[nodiscard]] ProcGrid auto_grid(int nranks, const Index3& box = {1, 1, 1});

// Block `c` of `n` cells split in `g` blocks: the first n mod g blocks get one more.
struct Block {
  std::int64_t offset;
  std::int64_t extent;
};
[[nodiscard]] Block block_of(std::int64_t n, int g, int c);

// The owned cells of one rank of a box of `global` cells: global offset and
// extent per axis.
struct Brick {
  Index3 offset;
  Index3 extent;
};
[[nodiscard]] Brick brick_of(const ProcGrid& grid, const Index3& global, int rank);

}  // namespace halobw
