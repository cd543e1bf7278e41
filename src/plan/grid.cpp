#include "halobw/plan/grid.hpp"

#include <stdexcept>
#include <string>

namespace halobw {

ProcGrid::ProcGrid(Dims3 dims, std::vector<int> cell_of_rank)
    : dims_(dims), cell_of_rank_(std::move(cell_of_rank)) {
  for (int d : dims_) {
    if (d < 1) throw std::invalid_argument("process grid dimensions must be positive");
  }
  if (cell_of_rank_.empty()) return;
  if (static_cast<int>(cell_of_rank_.size()) != size())
    throw std::invalid_argument("a rank map of the wrong size");
  rank_of_cell_.assign(cell_of_rank_.size(), kNoRank);
  for (std::size_t r = 0; r < cell_of_rank_.size(); ++r) {
    const int cell = cell_of_rank_[r];
    if (cell < 0 || cell >= size() || rank_of_cell_[static_cast<std::size_t>(cell)] != kNoRank) {
      throw std::invalid_argument("a rank map that is no permutation");
    }
    rank_of_cell_[static_cast<std::size_t>(cell)] = static_cast<int>(r);
  }
}

Dims3 ProcGrid::coords(int rank) const {
  const int cell = cell_of_rank_.empty() ? rank : cell_of_rank_[static_cast<std::size_t>(rank)];
  return {cell % dims_[0], (cell / dims_[0]) % dims_[1], cell / (dims_[0] * dims_[1])};
}

int ProcGrid::rank_of(const Dims3& c) const {
  const int cell = c[0] + dims_[0] * (c[1] + dims_[1] * c[2]);
  return rank_of_cell_.empty() ? cell : rank_of_cell_[static_cast<std::size_t>(cell)];
}

int ProcGrid::neighbour_at(int rank, const std::array<int, 3>& d, const AxisSet& periodic) const {
  Dims3 c = coords(rank);
  for (int a = 0; a < 3; ++a) {
    const int g = dims_[a];
    const int moved = c[a] + d[a];
    if (!periodic[a] && (moved < 0 || moved >= g)) return kNoRank;
    c[a] = (moved % g + g) % g;
  }
  return rank_of(c);
}

std::string ProcGrid::str() const { return dims_string(dims_); }

ProcGrid auto_grid(int nranks, const Index3& box) {
  if (nranks < 1) throw std::invalid_argument("rank count must be positive");
  Dims3 best{1, 1, nranks};
  // The face area per brick times the rank count, NX NY gz + NY NZ gx + NX NZ gy:
  // whole numbers, compared exactly where they fit a long double's 64-bit mantissa.
  long double best_area = -1;
  const auto nx = static_cast<long double>(box[0]);
  const auto ny = static_cast<long double>(box[1]);
  const auto nz = static_cast<long double>(box[2]);
  // Strict < keeps the first found, and the loops run gx then gy upwards.
  for (int gx = 1; gx <= nranks; ++gx) {
    if (nranks % gx != 0) continue;
    for (int gy = 1; gy <= nranks / gx; ++gy) {
      if ((nranks / gx) % gy != 0) continue;
      const int gz = nranks / gx / gy;
      const long double area = nx * ny * gz + ny * nz * gx + nx * nz * gy;
      if (best_area < 0 || area < best_area) {
        best_area = area;
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
