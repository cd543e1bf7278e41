// The host's mapping of a copy list: one pass over the rows its boxes share.
//
// A strided piece (an x face, and every edge and corner along x) gives each
// row of the brick its h cells at one end. Run piece by piece, every piece
// walks all of its rows again: a cache line per row each time, and without
// huge pages a TLB walk. The row pass cuts the rows of each field into slabs
// of planes and runs of rows that the same boxes hold, and visits each row
// once, copying its cells of every box that holds it, left to right, before
// the next row. The rows of the -x and +x faces are the same rows, and the end
// of one row lies next to the start of the next, so the two faces cost one
// walk over the brick instead of two. Long rows (y and z faces) are copied
// with memcpy, as before.
//
// Built once at set-up from the boxes a CopyList is given (the copy plan
// says which cells go where; this is another way to run the same list), and
// host-only, so nothing here carries a KOKKOS_FUNCTION mark. One work item
// is one plane of one run of at most kRowsPerRun rows: no division per row,
// and enough items for a threaded host space on a thin face. On one thread
// (Serial) each band of a plane is one run, in order, with no search for its
// slab. Most rows hold the two x faces alone; a run of one or two boxes of
// the same few cells (RowRun::short_cells) goes through copy_short_rows, a
// loop with their width known at compile time, which counts the instructions
// of a plain C loop (docs/results/host.md section 12).
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/exchange/kernels.hpp"

namespace halobw {

// Which way a copy goes: out of the field box (pack), or into it (unpack, self copy).
enum class Flow { out_of_field, into_field };

// One copy as both mappings read it: the cells `box` of the padded field at
// `field`, and as many cells at `other` (a packed buffer, or for the self
// copy the owned box of a field that fills this ghost box).
struct BoxCopy {
  double* field = nullptr;
  Box box;
  StridedBox other;
};

// One box's cells in each row of a run: [x, x + ex) of the row, and the
// other side's first cell at the run's first row and plane, with its strides.
struct RowSegment {
  std::int64_t x = 0;
  std::int64_t ex = 0;
  double* other = nullptr;
  std::int64_t sy = 0;
  std::int64_t sz = 0;
};

// Rows [j0, j0 + rows) of every plane of its slab, and the segments each row holds.
struct RowRun {
  std::int64_t j0 = 0;
  std::int64_t rows = 0;
  int first = 0;  // into the pass's segments
  int count = 0;
  // The cells of each segment where the run has one or two (the x faces, or
  // one at a wall) of the same few cells, at most kShortCells; else 0.
  int short_cells = 0;
  // Whether each segment's rows lie ex cells apart on its other side (a packed buffer).
  bool packed = false;
  // On the first run of a band: the rows of the whole band, which one thread
  // copies as one run (no set-up every kRowsPerRun rows); 0 on the others.
  std::int64_t band_rows = 0;
};

// The widest x face (halo) the rows of one or two x faces are copied for.
constexpr int kShortCells = 4;

// Planes [k0, k0 + planes) of one field, over which the same runs repeat.
struct RowSlab {
  double* field = nullptr;
  std::int64_t k0 = 0;
  std::int64_t planes = 0;
  int first_run = 0;  // into the pass's runs
  int runs = 0;
  std::int64_t first = 0;  // the pass's index of its first work item (planes x runs of them)
};

// Copies ex cells between a field row and the other side, in direction
// kFlow: long runs (y and z faces) with memcpy, the few cells of an x face,
// edge or corner one by one. Those are spelled out: a loop over ex cells is
// turned by the compiler into a memmove call per row. Always inlined, so
// that each segment of copy_rows has loads and stores of its own (in a large
// translation unit GCC otherwise calls one out-of-line copy for all).
template <Flow kFlow>
[[gnu::always_inline]] inline void copy_cells(double* __restrict__ row, double* __restrict__ other,
                                              const std::int64_t ex) {
  double* __restrict__ d = kFlow == Flow::into_field ? row : other;
  const double* __restrict__ s = kFlow == Flow::into_field ? other : row;
  constexpr std::int64_t kShortRow = 8;  // below this a memcpy call costs more than it copies
  if (ex >= kShortRow) {
    std::memcpy(d, s, static_cast<std::size_t>(ex) * sizeof(double));
    return;
  }
  switch (ex) {  // cells ex - 1 down to 0
    case 7:
      d[6] = s[6];
      [[fallthrough]];
    case 6:
      d[5] = s[5];
      [[fallthrough]];
    case 5:
      d[4] = s[4];
      [[fallthrough]];
    case 4:
      d[3] = s[3];
      [[fallthrough]];
    case 3:
      d[2] = s[2];
      [[fallthrough]];
    case 2:
      d[1] = s[1];
      [[fallthrough]];
    case 1:
      d[0] = s[0];
      break;
    default:  // no cells
      break;
  }
}

// The rows of one run, each row's segments in turn. With the segments known
// at compile time (kSegments), each segment's copy is an instruction of its
// own, so the hardware's stride prefetcher follows each face down the rows
// (one loop over the segments would give every face's strides to the same
// instruction and lose it), and with the segments held in locals the
// compiler keeps the loop to the copies themselves; docs/results/host.md,
// section 10, measures what this is worth.
template <Flow kFlow, std::size_t... kSegments>
inline void copy_rows(double* first_row, const std::int64_t sy, const RowSegment* seg, const std::int64_t dk,
                      const std::int64_t rows, std::index_sequence<kSegments...> /*segments*/) {
  const std::int64_t x[] = {seg[kSegments].x...};
  const std::int64_t ex[] = {seg[kSegments].ex...};
  const std::int64_t other_sy[] = {seg[kSegments].sy...};
  double* const other[] = {(seg[kSegments].other + dk * seg[kSegments].sz)...};
  for (std::int64_t dj = 0; dj < rows; ++dj) {
    double* row = first_row + dj * sy;
    (copy_cells<kFlow>(row + x[kSegments], other[kSegments] + dj * other_sy[kSegments], ex[kSegments]), ...);
  }
}

// Exactly kCells cells, a number known at compile time: their loads and
// stores, with no test of the count.
template <Flow kFlow, int kCells>
[[gnu::always_inline]] inline void copy_fixed(double* __restrict__ row, double* __restrict__ other) {
  for (int i = 0; i < kCells; ++i) {
    if constexpr (kFlow == Flow::into_field) {
      row[i] = other[i];
    } else {
      other[i] = row[i];
    }
  }
}

// The rows of a run of one or two segments of kCells cells each: the x faces
// of a brick, every row of an x face exchange and the middle rows of every
// stencil. This is the loop a C programmer writes for them: per row, the
// loads and stores of both faces and a step of each pointer, nothing else.
// copy_rows, which serves any run, tests each segment's count of cells in
// every row (a jump through a table) and keeps its strides on the stack: on
// ±x at N = 256 the pass took 13.1 instructions a value with it, 5.2 with this
// loop, as the plain program does (callgrind, docs/results/host.md section
// 12). With kPacked (a packed buffer on the other side) the rows follow each
// other there, at a stride known at compile time.
template <Flow kFlow, int kCells, bool kPacked, std::size_t... kSegments>
inline void copy_short_rows(double* first_row, const std::int64_t sy, const RowSegment* seg,
                            const std::int64_t dk, const std::int64_t rows,
                            std::index_sequence<kSegments...> /*segments*/) {
  double* row[] = {(first_row + seg[kSegments].x)...};
  double* other[] = {(seg[kSegments].other + dk * seg[kSegments].sz)...};
  const std::int64_t other_sy[] = {(kPacked ? kCells : seg[kSegments].sy)...};
  for (std::int64_t dj = 0; dj < rows; ++dj) {
    (copy_fixed<kFlow, kCells>(row[kSegments] + dj * sy, other[kSegments] + dj * other_sy[kSegments]), ...);
  }
}

template <Flow kFlow>
struct RowPassCopy {
  const RowSlab* slabs;
  int count;
  const RowRun* runs;
  const RowSegment* segments;
  std::int64_t sy;  // the fields' strides
  std::int64_t sz;

  // Work item t, on a threaded host space.
  void operator()(const std::int64_t t) const {
    // The last slab whose first item is at or before t.
    const RowSlab& s =
        *(std::upper_bound(slabs, slabs + count, t,
                           [](const std::int64_t v, const RowSlab& slab) { return v < slab.first; }) -
          1);
    const std::int64_t item = t - s.first;
    const std::int64_t dk = item / s.runs;
    const RowRun& run = runs[s.first_run + static_cast<int>(item - dk * s.runs)];
    copy_run(s, dk, run, run.rows);
  }

  // Every band in order, on one thread, each as one run: no search, no
  // division and no set-up per item, which at 64 rows an item cost as much as
  // a tenth of a cache-resident copy.
  void all() const {
    for (const RowSlab* s = slabs; s != slabs + count; ++s) {
      for (std::int64_t dk = 0; dk < s->planes; ++dk) {
        for (int r = 0; r < s->runs; ++r) {
          const RowRun& run = runs[s->first_run + r];
          if (run.band_rows > 0) copy_run(*s, dk, run, run.band_rows);
        }
      }
    }
  }

  // Plane dk of slab s, `rows` rows from the first of `run` (its own, or its band's).
  void copy_run(const RowSlab& s, const std::int64_t dk, const RowRun& run, const std::int64_t rows) const {
    double* first_row = s.field + (s.k0 + dk) * sz + run.j0 * sy;
    const RowSegment* seg = segments + run.first;
    switch (run.short_cells) {
      case 1:
        return copy_short<1>(first_row, seg, dk, run, rows);
      case 2:
        return copy_short<2>(first_row, seg, dk, run, rows);
      case 3:
        return copy_short<3>(first_row, seg, dk, run, rows);
      case 4:
        return copy_short<4>(first_row, seg, dk, run, rows);
      default:  // 0: any other run
        break;
    }
    static_assert(kShortCells == 4, "one case above for each count of cells up to kShortCells");
    copy_long(first_row, seg, dk, run.count, rows);
  }

  // Rows of a run of any segments.
  void copy_long(double* first_row, const RowSegment* seg, const std::int64_t dk, const int segs,
                 const std::int64_t rows) const {
    switch (segs) {  // up to 5 where a y or z face meets the x faces
      case 1:
        return copy_rows<kFlow>(first_row, sy, seg, dk, rows, std::make_index_sequence<1>());
      case 2:
        return copy_rows<kFlow>(first_row, sy, seg, dk, rows, std::make_index_sequence<2>());
      case 3:
        return copy_rows<kFlow>(first_row, sy, seg, dk, rows, std::make_index_sequence<3>());
      case 4:
        return copy_rows<kFlow>(first_row, sy, seg, dk, rows, std::make_index_sequence<4>());
      case 5:
        return copy_rows<kFlow>(first_row, sy, seg, dk, rows, std::make_index_sequence<5>());
      default:  // the few rows where more pieces meet (a box stencil's corners)
        for (std::int64_t dj = 0; dj < rows; ++dj) {
          for (int n = 0; n < segs; ++n) {
            const RowSegment& g = seg[n];
            copy_cells<kFlow>(first_row + dj * sy + g.x, g.other + dk * g.sz + dj * g.sy, g.ex);
          }
        }
    }
  }

  // `rows` rows of a run of one or two segments of kCells cells each.
  template <int kCells>
  void copy_short(double* first_row, const RowSegment* seg, const std::int64_t dk, const RowRun& run,
                  const std::int64_t rows) const {
    if (run.count == 1) {
      copy_short_rows<kFlow, kCells, false>(first_row, sy, seg, dk, rows, std::make_index_sequence<1>());
    } else if (run.packed) {
      copy_short_rows<kFlow, kCells, true>(first_row, sy, seg, dk, rows, std::make_index_sequence<2>());
    } else {
      copy_short_rows<kFlow, kCells, false>(first_row, sy, seg, dk, rows, std::make_index_sequence<2>());
    }
  }
};

class RowPass {
 public:
  static constexpr std::int64_t kRowsPerRun = 64;

  RowPass() = default;
  // `padded`: the extents every field of `copies` has.
  RowPass(Flow flow, const Index3& padded, const std::vector<BoxCopy>& copies);

  template <class ExecSpace>
  void run(const ExecSpace& exec, const char* label) const {
    switch (flow_) {
      case Flow::out_of_field:
        launch<Flow::out_of_field>(exec, label);
        return;
      case Flow::into_field:
        launch<Flow::into_field>(exec, label);
        return;
    }
  }

 private:
  void add_field(double* field, const std::vector<const BoxCopy*>& boxes);
  void add_rows(const std::vector<const BoxCopy*>& boxes, const Box& rows);

  template <Flow kFlow, class ExecSpace>
  void launch(const ExecSpace& exec, const char* label) const {
    if (items_ == 0) return;
    const RowPassCopy<kFlow> copy{
        slabs_.data(), static_cast<int>(slabs_.size()), runs_.data(), segments_.data(), sy_, sz_};
    if (exec.concurrency() == 1) {  // Serial, or one thread: the items in order, in this thread
      exec.fence();
      copy.all();
      return;
    }
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, items_), copy);
  }

  Flow flow_ = Flow::out_of_field;
  std::int64_t sy_ = 0;
  std::int64_t sz_ = 0;
  std::vector<RowSlab> slabs_;
  std::vector<RowRun> runs_;
  std::vector<RowSegment> segments_;
  std::int64_t items_ = 0;
};

}  // namespace halobw
