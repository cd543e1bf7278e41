// What the reference programs in bench/ share: a timer, host memory placed
// by the allocation function halo-bandwidth --hugepages uses (huge_alloc),
// and the plain strided loops that copy face boxes of a padded field (x
// fastest) to and from a contiguous buffer, face by face or in one pass over
// the rows the faces share. Not part of the benchmark: scripts/bench_host.py
// runs these.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "halobw/plan/pieces.hpp"
#include "halobw/plan/placement.hpp"
#include "halobw/platform/huge_pages.hpp"

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

// `count` doubles filled with `fill`: with `huge`, placed as halo-bandwidth
// --hugepages on places a host field (whole 2 MiB pages advised to huge
// pages from kHugeThreshold up), else cache-line aligned.
class Values {
 public:
  Values(std::size_t count, bool huge, double fill)
      : bytes_(placed_bytes(count * sizeof(double), huge ? Placement::huge_pages : Placement::standard)),
        huge_(huge && bytes_ >= kHugeThreshold),
        p_(static_cast<double*>(huge_ ? huge_alloc(bytes_)
                                      : std::aligned_alloc(64, (bytes_ + 63) / 64 * 64))) {
    std::fill(p_, p_ + count, fill);
  }
  ~Values() {
    if (huge_) {
      huge_free(p_, bytes_);
    } else {
      std::free(p_);
    }
  }
  Values(const Values&) = delete;
  Values& operator=(const Values&) = delete;
  [[nodiscard]] double* get() const { return p_; }

 private:
  std::size_t bytes_;
  bool huge_;
  double* p_;
};

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

// Whether `p` exchanges the two x faces alone (-x, then +x), as rank0_plan gives for axis x.
inline bool x_faces(const RankPlan& p) {
  return p.pieces.size() == 2 && p.pieces[0].dir == 0 && p.pieces[1].dir == 1;
}

// The same copies as strided_walk for the two x faces, to and from the same
// places in the buffer, in one pass over their rows: the cells at the left
// end of row r, those at its right end, then row r+1. Needs x_faces(p).
template <bool kPack>
void x_faces_walk(const RankPlan& p, double* field, double* buffer) {
  const Box& minus = kPack ? p.pieces[0].send_box : p.pieces[0].recv_box;  // first in the buffer
  const Box& plus = kPack ? p.pieces[1].send_box : p.pieces[1].recv_box;
  const bool minus_left = minus.lo[0] < plus.lo[0];
  const std::int64_t left = minus_left ? minus.lo[0] : plus.lo[0];
  const std::int64_t right = minus_left ? plus.lo[0] : minus.lo[0];
  const std::int64_t h = minus.extent(0);
  double* bl = buffer + (minus_left ? 0 : minus.cells());
  double* br = buffer + (minus_left ? minus.cells() : 0);
  const std::int64_t px = p.padded[0];
  const std::int64_t py = p.padded[1];
  for (std::int64_t k = minus.lo[2]; k < minus.hi[2]; ++k) {
    for (std::int64_t j = minus.lo[1]; j < minus.hi[1]; ++j, bl += h, br += h) {
      double* row = field + px * (j + py * k);
      for (std::int64_t i = 0; i < h; ++i) {
        if (kPack) {
          bl[i] = row[left + i];
        } else {
          row[left + i] = bl[i];
        }
      }
      for (std::int64_t i = 0; i < h; ++i) {
        if (kPack) {
          br[i] = row[right + i];
        } else {
          row[right + i] = br[i];
        }
      }
    }
  }
}

}  // namespace halobw::bench
