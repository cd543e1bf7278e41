// Geometry as values: index triples, process-grid dimensions, a selection of
// axes, and a half-open box of cell indices. No MPI, no Kokkos.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace halobw {

using Index3 = std::array<std::int64_t, 3>;
using Dims3 = std::array<int, 3>;
using AxisSet = std::array<bool, 3>;

// "2x1x1": a grid or a box's extents as the header prints them.
template <class T>
[[nodiscard]] std::string dims_string(const std::array<T, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

// Cells [lo, hi) along each axis, x = 0 fastest in memory.
struct Box {
  Index3 lo{0, 0, 0};
  Index3 hi{0, 0, 0};

  [[nodiscard]] std::int64_t extent(int axis) const { return hi[axis] - lo[axis]; }
  [[nodiscard]] Index3 extents() const { return {extent(0), extent(1), extent(2)}; }
  [[nodiscard]] std::int64_t cells() const { return extent(0) * extent(1) * extent(2); }
  [[nodiscard]] bool empty() const { return extent(0) <= 0 || extent(1) <= 0 || extent(2) <= 0; }
  friend bool operator==(const Box& l, const Box& r) { return l.lo == r.lo && l.hi == r.hi; }
  friend bool operator!=(const Box& l, const Box& r) { return !(l == r); }
};

// Box b of an array of `padded` extents, x fastest, as MPI_Type_create_subarray
// takes it: sizes[3], subsizes[3], starts[3]. All zero: no subarray.
using Subarray = std::array<int, 9>;
[[nodiscard]] inline Subarray subarray_of(const Index3& padded, const Box& b) {
  Subarray s{};
  for (std::size_t a = 0; a < 3; ++a) {
    s[a] = static_cast<int>(padded[a]);
    s[3 + a] = static_cast<int>(b.hi[a] - b.lo[a]);
    s[6 + a] = static_cast<int>(b.lo[a]);
  }
  return s;
}

}  // namespace halobw
