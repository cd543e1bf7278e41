// What the reference programs in bench/ share: a timer, host memory placed
// as halo-bandwidth --hugepages places it, and the plain strided loop that
// copies face boxes of a padded field (x fastest) to and from a contiguous
// buffer. Not part of the benchmark: scripts/bench_host.py runs these.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "halobw/pieces.hpp"

namespace halobw::bench {

template <class F>
double seconds_per_call(int iters, F&& f) {
  f();  // warm-up
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
}

// Rank 0's pieces for a side-N grid on `grid`, faces of `axis` (x, y, z or all).
inline RankPlan rank0_plan(std::int64_t n, const ProcGrid& grid, const std::string& axis, int halo) {
  const AxisSet axes{axis == "x" || axis == "all", axis == "y" || axis == "all",
                     axis == "z" || axis == "all"};
  Shape shape;
  shape.global = {n, n, n};
  shape.halo = halo;
  shape.dirs = star_directions(axes);
  return make_rank_plan(grid, shape, 0);
}

// `count` doubles, 2 MiB aligned and advised to huge pages when `huge`, touched.
inline double* values(std::size_t count, bool huge, double fill) {
  const std::size_t page = std::size_t{2} << 20;
  const std::size_t bytes = (count * sizeof(double) + page - 1) / page * page;
  auto* p = static_cast<double*>(std::aligned_alloc(huge ? page : 64, bytes));
  if (huge) madvise(p, bytes, MADV_HUGEPAGE);
  std::fill(p, p + count, fill);
  return p;
}

// Copies the send boxes of `pieces` into `buffer` (pack) or `buffer` into
// their receive boxes (unpack), one value at a time, x fastest.
inline void strided_walk(const RankPlan& p, double* field, double* buffer, bool pack) {
  const std::int64_t px = p.padded[0];
  const std::int64_t py = p.padded[1];
  double* b = buffer;
  for (const auto& f : p.pieces) {
    const Box& box = pack ? f.send_box : f.recv_box;
    for (std::int64_t k = box.lo[2]; k < box.hi[2]; ++k) {
      for (std::int64_t j = box.lo[1]; j < box.hi[1]; ++j) {
        double* row = field + px * (j + py * k);
        for (std::int64_t i = box.lo[0]; i < box.hi[0]; ++i, ++b) {
          if (pack) {
            *b = row[i];
          } else {
            row[i] = *b;
          }
        }
      }
    }
  }
}

}  // namespace halobw::bench
