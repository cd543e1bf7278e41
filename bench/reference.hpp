// What the reference programs in bench/ share: a timer, host memory placed
// by the allocation function halo-bandwidth --hugepages uses (huge_alloc),
// and the plain strided loops that copy face boxes of a padded field (x
// fastest) to and from a contiguous buffer, face by face or in one pass over
// the rows the faces share. Not part of the benchmark: scripts/bench_host.py
// runs these.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "halobw/pieces.hpp"
#include "halobw/placement.hpp"

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

// The same copies as strided_walk, to and from the same places in the
// buffer, in one pass over the rows: the pieces whose boxes span the same
// rows (the -x and +x faces of a star) are walked together, row by row (the
// -x value and the +x value of row r, then row r+1), the cells of every such
// piece in a row copied before the next row.
class RowWalk {
 public:
  RowWalk(const RankPlan& p, bool pack) : px_(p.padded[0]), py_(p.padded[1]), pack_(pack) {
    std::size_t offset = 0;
    for (const auto& f : p.pieces) {
      const Box& b = pack ? f.send_box : f.recv_box;
      auto same = [&b](const Group& g) {
        return g.rows.lo[1] == b.lo[1] && g.rows.hi[1] == b.hi[1] && g.rows.lo[2] == b.lo[2] &&
               g.rows.hi[2] == b.hi[2];
      };
      auto g = std::find_if(groups_.begin(), groups_.end(), same);
      if (g == groups_.end()) g = groups_.insert(groups_.end(), Group{b, {}});
      g->cells.push_back({b.lo[0], b.extent(0), offset});
      offset += static_cast<std::size_t>(b.cells());
    }
  }

  void operator()(double* field, double* buffer) const {
    if (pack_) {
      walk<true>(field, buffer);
    } else {
      walk<false>(field, buffer);
    }
  }

 private:
  struct Cells {  // one piece's cells in each row, and its first value in the buffer
    std::int64_t x;
    std::int64_t ex;
    std::size_t offset;
  };
  struct Group {  // pieces over the same rows
    Box rows;
    std::vector<Cells> cells;
  };

  template <bool kPack>
  void walk(double* field, double* buffer) const {
    for (const Group& g : groups_) {
      std::int64_t r = 0;  // the row's index within each piece's box
      for (std::int64_t k = g.rows.lo[2]; k < g.rows.hi[2]; ++k) {
        for (std::int64_t j = g.rows.lo[1]; j < g.rows.hi[1]; ++j, ++r) {
          double* row = field + px_ * (j + py_ * k);
          for (const Cells& c : g.cells) {
            double* v = buffer + c.offset + c.ex * r;
            for (std::int64_t i = 0; i < c.ex; ++i) {
              if (kPack) {
                v[i] = row[c.x + i];
              } else {
                row[c.x + i] = v[i];
              }
            }
          }
        }
      }
    }
  }

  std::int64_t px_;
  std::int64_t py_;
  bool pack_;
  std::vector<Group> groups_;
};

}  // namespace halobw::bench
