// The data-moving kernels: one strided-box copy serves pack (field -> buffer),
// unpack (buffer -> field) and the self copy (field -> field), plus the fill
// that --check uses. Templated on the Kokkos execution space.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "halobw/box.hpp"

namespace halobw {

template <class ExecSpace>
constexpr bool runs_on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// A box of `extent` cells in memory: x has stride 1, y stride sy, z stride sz.
// A face in the padded field has sy = Px, sz = Px*Py; in a packed buffer,
// sy = ex, sz = ex*ey (x fastest, so a buffer is the face in field order).
struct StridedBox {
  double* ptr = nullptr;
  std::int64_t sy = 0;
  std::int64_t sz = 0;
};

// Index mapping, chosen per kind of execution space:
// - Device: one thread per cell, the flat index t running x fastest. Threads
//   t and t+1 touch neighbouring addresses in both the field and the buffer
//   wherever the face allows: a whole x-run for z and y faces, and the h
//   layers of an x face, which are the only contiguous cells that face has.
// - Host: one work item per x-run (a row of ex cells), copied with a plain
//   inner loop the compiler vectorises like memcpy; no division per cell.
template <class ExecSpace>
struct BoxCopy {
  StridedBox dst;
  StridedBox src;
  std::int64_t ex;
  std::int64_t ey;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    if constexpr (runs_on_host<ExecSpace>) {
      const std::int64_t j = t % ey;
      const std::int64_t k = t / ey;
      double* __restrict__ d = dst.ptr + j * dst.sy + k * dst.sz;
      const double* __restrict__ s = src.ptr + j * src.sy + k * src.sz;
      for (std::int64_t i = 0; i < ex; ++i) d[i] = s[i];
    } else {
      const std::int64_t i = t % ex;
      const std::int64_t r = t / ex;
      const std::int64_t j = r % ey;
      const std::int64_t k = r / ey;
      dst.ptr[i + j * dst.sy + k * dst.sz] = src.ptr[i + j * src.sy + k * src.sz];
    }
  }
};

template <class ExecSpace>
void copy_box(const ExecSpace& exec, const StridedBox& dst, const StridedBox& src,
              const Index3& extent, const char* label) {
  const std::int64_t items = runs_on_host<ExecSpace> ? extent[1] * extent[2]
                                                     : extent[0] * extent[1] * extent[2];
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, items),
                       BoxCopy<ExecSpace>{dst, src, extent[0], extent[1]});
}

// The value --check expects at global cell (gx, gy, gz) of a cube of side n:
// distinct for every cell and exact in a double for n < 2^17.
KOKKOS_INLINE_FUNCTION double check_value(std::int64_t gx, std::int64_t gy, std::int64_t gz,
                                          std::int64_t n) {
  return 1.0 + static_cast<double>(gx + n * (gy + n * gz));
}
constexpr double kGhostSentinel = -1.0;

// Owned cells get check_value of their global coordinates, ghosts the sentinel.
// Plain arrays, not std::array, so that device code needs no relaxed constexpr.
template <class Field>
struct FillField {
  Field f;
  std::int64_t offset[3];  // global index of the first owned cell
  std::int64_t extent[3];  // owned cells
  std::int64_t h;
  std::int64_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j,
                                         const std::int64_t k) const {
    const bool owned = i >= h && i < h + extent[0] && j >= h && j < h + extent[1] && k >= h &&
                       k < h + extent[2];
    f(i, j, k) = owned ? check_value(offset[0] + i - h, offset[1] + j - h, offset[2] + k - h, n)
                       : kGhostSentinel;
  }
};

}  // namespace halobw
