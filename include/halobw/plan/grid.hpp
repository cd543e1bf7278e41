// The process grid: automatic factorisation, rank <-> coordinates, periodic
// neighbours and the local brick of each rank (remainders included).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "halobw/base/box.hpp"

namespace halobw {

class ProcGrid {
 public:
  explicit ProcGrid(Dims3 dims);

  [[nodiscard]] const Dims3& dims() const { return dims_; }
  [[nodiscard]] int dim(int axis) const { return dims_[axis]; }
  [[nodiscard]] int size() const { return dims_[0] * dims_[1] * dims_[2]; }
  // Ranks are numbered x fastest: rank = cx + gx * (cy + gy * cz).
  [[nodiscard]] Dims3 coords(int rank) const;
  [[nodiscard]] int rank_of(const Dims3& c) const;
  // Periodic neighbour of `rank` one step along `axis` towards `side` (-1 or +1).
  [[nodiscard]] int neighbour(int rank, int axis, int side) const;
  // "GXxGYxGZ", as printed in the header.
  [[nodiscard]] std::string str() const;

 private:
  Dims3 dims_;
};

// Among gx*gy*gz = nranks, the least face area per brick of a cube
// (N^2 (gx+gy+gz)/nranks, so the least gx+gy+gz); ties go to the smallest gx,
// then the smallest gy, so z gets the most cuts.
[[nodiscard]] ProcGrid auto_grid(int nranks);

// Block `c` of `n` cells split in `g` blocks: the first n mod g blocks get one more.
struct Block {
  std::int64_t offset;
  std::int64_t extent;
};
[[nodiscard]] Block block_of(std::int64_t n, int g, int c);

// The owned cells of one rank of a periodic box of `global` cells: global
// offset and extent per axis.
struct Brick {
  Index3 offset;
  Index3 extent;
};
[[nodiscard]] Brick brick_of(const ProcGrid& grid, const Index3& global, int rank);

}  // namespace halobw
