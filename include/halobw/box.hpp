// Geometry as values: a half-open box of cell indices and its extents.
#pragma once

#include <array>
#include <cstdint>

namespace halobw {

using Index3 = std::array<std::int64_t, 3>;

// Cells [lo, hi) along each axis, x = 0 fastest in memory.
struct Box {
  Index3 lo{0, 0, 0};
  Index3 hi{0, 0, 0};

  [[nodiscard]] std::int64_t extent(int axis) const { return hi[axis] - lo[axis]; }
  [[nodiscard]] std::int64_t cells() const { return extent(0) * extent(1) * extent(2); }
  [[nodiscard]] bool contains(const Index3& p) const {
    for (int a = 0; a < 3; ++a) {
      if (p[a] < lo[a] || p[a] >= hi[a]) return false;
    }
    return true;
  }
  friend bool operator==(const Box& l, const Box& r) { return l.lo == r.lo && l.hi == r.hi; }
  friend bool operator!=(const Box& l, const Box& r) { return !(l == r); }
};

}  // namespace halobw
