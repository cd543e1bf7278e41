// The data-moving kernels: one strided-box copy serves pack (field -> buffer),
// unpack (buffer -> field) and the self copy (field -> field), plus the fill
// that --check uses. Templated on the Kokkos execution space.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

#include "halobw/box.hpp"

namespace halobw {

template <class ExecSpace>
constexpr bool runs_on_host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

// Selects RowCopy's plane-walking operator.
struct PlaneTag {};

// A box of `extent` cells in memory: x has stride 1, y stride sy, z stride sz.
// A face in the padded field has sy = Px, sz = Px*Py; in a packed buffer,
// sy = ex, sz = ex*ey (x fastest, so a buffer is the face in field order).
struct StridedBox {
  double* ptr = nullptr;
  std::int64_t sy = 0;
  std::int64_t sz = 0;
};

// Index mapping, chosen per kind of execution space:
// - Device (CellCopy): one thread per cell, the flat index t running x
//   fastest. Threads t and t+1 touch neighbouring addresses in both the field
//   and the buffer wherever the face allows: a whole x-run for z and y faces,
//   and the h layers of an x face, which are the only contiguous cells that
//   face has.
// - Host (RowCopy): one work item per x-run (a row of ex cells) copied with
//   memcpy, or, for the short rows of an x face, one work item per plane
//   walking its rows with no division at all. Host-only code, so it carries
//   no KOKKOS_FUNCTION mark.
struct CellCopy {
  StridedBox dst;
  StridedBox src;
  std::int64_t ex;
  std::int64_t ey;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const std::int64_t i = t % ex;
    const std::int64_t r = t / ex;
    const std::int64_t j = r % ey;
    const std::int64_t k = r / ey;
    dst.ptr[i + j * dst.sy + k * dst.sz] = src.ptr[i + j * src.sy + k * src.sz];
  }
};

struct RowCopy {
  StridedBox dst;
  StridedBox src;
  std::int64_t ex;
  std::int64_t ey;

  // Long rows (z and y faces): one item per row, copied by memcpy.
  void operator()(const std::int64_t t) const {
    const std::int64_t j = t % ey;
    const std::int64_t k = t / ey;
    std::memcpy(dst.ptr + j * dst.sy + k * dst.sz, src.ptr + j * src.sy + k * src.sz,
                static_cast<std::size_t>(ex) * sizeof(double));
  }
  // Short rows (x faces, ex = h): one item per plane k, walking its rows.
  void operator()(const PlaneTag, const std::int64_t k) const {
    double* __restrict__ d = dst.ptr + k * dst.sz;
    const double* __restrict__ s = src.ptr + k * src.sz;
    for (std::int64_t j = 0; j < ey; ++j) {
      for (std::int64_t i = 0; i < ex; ++i) d[j * dst.sy + i] = s[j * src.sy + i];
    }
  }
  static constexpr std::int64_t kShortRow = 8;  // below this a memcpy call costs more than it copies
};

template <class ExecSpace>
void copy_box(const ExecSpace& exec, const StridedBox& dst, const StridedBox& src, const Index3& extent,
              const char* label) {
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if constexpr (runs_on_host<ExecSpace>) {
    const RowCopy rows{dst, src, extent[0], extent[1]};
    if (extent[0] < RowCopy::kShortRow) {
      Kokkos::parallel_for(
          label,
          Kokkos::RangePolicy<ExecSpace, PlaneTag, Kokkos::IndexType<std::int64_t>>(exec, 0, extent[2]),
          rows);
    } else {
      Kokkos::parallel_for(label, Policy(exec, 0, extent[1] * extent[2]), rows);
    }
  } else {
    Kokkos::parallel_for(label, Policy(exec, 0, extent[0] * extent[1] * extent[2]),
                         CellCopy{dst, src, extent[0], extent[1]});
  }
}

// The value --check expects in field f of K at global cell (gx, gy, gz) of a
// box of G cells: distinct for every cell and field, and exact in a double
// while K·Gx·Gy·Gz < 2^53 (layout.cpp refuses --check beyond).
KOKKOS_INLINE_FUNCTION double check_value(std::int64_t gx, std::int64_t gy, std::int64_t gz, std::int64_t nx,
                                          std::int64_t ny, std::int64_t fields, std::int64_t f) {
  return 1.0 + static_cast<double>(f + fields * (gx + nx * (gy + ny * gz)));
}
constexpr double kGhostSentinel = -1.0;

// Owned cells get check_value of their global coordinates, ghosts the sentinel.
// Plain arrays, not std::array, so that device code needs no relaxed constexpr.
template <class Field>
struct FillField {
  Field f;
  std::int64_t offset[3];  // global index of the first owned cell
  std::int64_t extent[3];  // owned cells
  std::int64_t global[3];  // cells of the global box
  std::int64_t h;
  std::int64_t fields;
  std::int64_t field;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j,
                                         const std::int64_t k) const {
    const bool owned =
        i >= h && i < h + extent[0] && j >= h && j < h + extent[1] && k >= h && k < h + extent[2];
    f(i, j, k) = owned ? check_value(offset[0] + i - h, offset[1] + j - h, offset[2] + k - h, global[0],
                                     global[1], fields, field)
                       : kGhostSentinel;
  }
};

}  // namespace halobw
