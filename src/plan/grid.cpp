#include "halobw/plan/grid.hpp"

#include <stdexcept>
#include <string>

namespace halobw {

ProcGrid::ProcGrid(Dims3 dims) : dims_(dims) {
  for (int d : dims_) {
    if (d < 1) throw std::invalid_argument("process grid dimensions must be positive");
  }
}

Dims3 ProcGrid::coords(int rank) const {
  return {rank % dims_[0], (rank / dims_[0]) % dims_[1], rank / (dims_[0] * dims_[1])};
}

int ProcGrid::rank_of(const Dims3& c) const { return c[0] + dims_[0] * (c[1] + dims_[1] * c[2]); }

int ProcGrid::neighbour(int rank, int axis, int side) const {
  Dims3 c = coords(rank);
  const int g = dims_[axis];
  c[axis] = ((c[axis] + side) % g + g) % g;
  return rank_of(c);
}

std::string ProcGrid::str() const { return dims_string(dims_); }

ProcGrid auto_grid(int nranks) {
  if (nranks < 1) throw std::invalid_argument("rank count must be positive");
  Dims3 best{1, 1, nranks};
  long best_sum = -1;
  // Strict < keeps the first found, and the loops run gx then gy upwards.
  for (int gx = 1; gx <= nranks; ++gx) {
    if (nranks % gx != 0) continue;
    for (int gy = 1; gy <= nranks / gx; ++gy) {
      if ((nranks / gx) % gy != 0) continue;
      const int gz = nranks / gx / gy;
      const long sum = static_cast<long>(gx) + gy + gz;
      if (best_sum < 0 || sum < best_sum) {
        best_sum = sum;
        best = {gx, gy, gz};
      }
    }
  }
  return ProcGrid(best);
}

Block block_of(std::int64_t n, int g, int c) {
  const std::int64_t base = n / g;
  const std::int64_t rem = n % g;
  const std::int64_t extent = base + (c < rem ? 1 : 0);
  const std::int64_t offset = c * base + (c < rem ? c : rem);
  return {offset, extent};
}

Brick brick_of(const ProcGrid& grid, const Index3& global, int rank) {
  const Dims3 c = grid.coords(rank);
  Brick b{};
  for (int a = 0; a < 3; ++a) {
    const Block blk = block_of(global[a], grid.dim(a), c[a]);
    b.offset[a] = blk.offset;
    b.extent[a] = blk.extent;
  }
  return b;
}

}  // namespace halobw
