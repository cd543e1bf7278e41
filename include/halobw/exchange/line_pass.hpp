// The host's mapping of a copy list: one pass over the lines its boxes share.
//
// A strided piece (an x face, and every edge and corner along x) holds h
// cells at one end of each line of the brick. The line pass cuts each field's
// lines into slabs of planes and runs of lines that the same boxes hold, and
// visits each line once, copying its cells of every box that holds it, left
// to right. The -x and +x faces share their lines, so both cost one walk over
// the brick. Long lines (y and z faces) are copied with memcpy.
//
// Built once at set-up from a CopyList's boxes, host-only (no KOKKOS_FUNCTION).
// One work item is one plane of one run of at most kLinesPerRun lines, so a
// threaded host space gets enough items on a thin face; on one thread (Serial)
// the runs go in order with no search. A run of one or two boxes of the same
// few cells (LineRun::short_cells) goes through copy_short_lines, a loop with
// the width known at compile time: the loop a plain C program would write
// (docs/results/host.md, "The host copy against the best plain program").
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

// One box's cells in each line of a run: [x, x + ex) of the line, and the
// other side's first cell at the run's first line and plane, with its strides.
struct LineSegment {
  std::int64_t x = 0;
  std::int64_t ex = 0;
  double* other = nullptr;
  std::int64_t sy = 0;
  std::int64_t sz = 0;
};

// Lines [j0, j0 + lines) of every plane of its slab, and the segments each line holds.
struct LineRun {
  std::int64_t j0 = 0;
  std::int64_t lines = 0;
  int first = 0;  // into the pass's segments
  int count = 0;
  // The cells of each segment where the run has one or two (the x faces, or
  // one at a wall) of the same few cells, at most kShortCells; else 0.
  int short_cells = 0;
  // Whether each segment's lines lie ex cells apart on its other side (a packed buffer).
  bool packed = false;
  // On the first run of a band: the lines of the whole band, which one thread
  // copies as one run (no set-up every kLinesPerRun lines); 0 on the others.
  std::int64_t band_lines = 0;
};

// The widest x face (halo) the lines of one or two x faces are copied for.
constexpr int kShortCells = 4;

// Planes [k0, k0 + planes) of one field, over which the same runs repeat.
struct LineSlab {
  double* field = nullptr;
  std::int64_t k0 = 0;
  std::int64_t planes = 0;
  int first_run = 0;  // into the pass's runs
  int runs = 0;
  std::int64_t first = 0;  // the pass's index of its first work item (planes x runs of them)
};

// Copies ex cells between a field line and the other side, in direction
// kFlow: long runs (y and z faces) with memcpy, the few cells of an x face,
// edge or corner one by one. Those are spelled out: a loop over ex cells is
// turned by the compiler into a memmove call per line. Always inlined, so
// that each segment of copy_lines has loads and stores of its own (in a large
// translation unit GCC otherwise calls one out-of-line copy for all).
template <Flow kFlow>
[[gnu::always_inline]] inline void copy_cells(double* __restrict__ line, double* __restrict__ other,
                                              const std::int64_t ex) {
  double* __restrict__ d = kFlow == Flow::into_field ? line : other;
  const double* __restrict__ s = kFlow == Flow::into_field ? other : line;
  constexpr std::int64_t kShortLine = 8;  // below this a memcpy call costs more than it copies
  if (ex >= kShortLine) {
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

// The lines of one run, each line's segments in turn. With the segments known
// at compile time (kSegments), each segment's copy is an instruction of its
// own, so the hardware's stride prefetcher follows each face down the lines
// (one loop over the segments would give every face's strides to the same
// instruction and lose it), and with the segments held in locals the
// compiler keeps the loop to the copies themselves (docs/results/host.md,
// "One pass over shared rows", measures what this is worth).
template <Flow kFlow, std::size_t... kSegments>
inline void copy_lines(double* first_line, const std::int64_t sy, const LineSegment* seg,
                       const std::int64_t dk, const std::int64_t lines,
                       std::index_sequence<kSegments...> /*segments*/) {
  const std::int64_t x[] = {seg[kSegments].x...};
  const std::int64_t ex[] = {seg[kSegments].ex...};
  const std::int64_t other_sy[] = {seg[kSegments].sy...};
  double* const other[] = {(seg[kSegments].other + dk * seg[kSegments].sz)...};
  for (std::int64_t dj = 0; dj < lines; ++dj) {
    double* line = first_line + dj * sy;
    (copy_cells<kFlow>(line + x[kSegments], other[kSegments] + dj * other_sy[kSegments], ex[kSegments]), ...);
  }
}

// Exactly kCells cells, a number known at compile time: their loads and
// stores, with no test of the count.
template <Flow kFlow, int kCells>
[[gnu::always_inline]] inline void copy_fixed(double* __restrict__ line, double* __restrict__ other) {
  for (int i = 0; i < kCells; ++i) {
    if constexpr (kFlow == Flow::into_field) {
      line[i] = other[i];
    } else {
      other[i] = line[i];
    }
  }
}

// The lines of a run of one or two segments of kCells cells each: the x faces
// of a brick, every line of an x face exchange and the middle lines of every
// stencil. This is the loop a C programmer writes for them: per line, the
// loads and stores of both faces and a step of each pointer, nothing else.
// copy_lines, which serves any run, tests each segment's count of cells in
// every line (a jump through a table) and keeps its strides on the stack; what
// this loop saves against it, and against the plain program, is counted in
// docs/results/host.md, "The host copy against the best plain program". With kPacked (a packed buffer on the
// other side) the lines follow each other there, at a stride known at compile time.
template <Flow kFlow, int kCells, bool kPacked, std::size_t... kSegments>
inline void copy_short_lines(double* first_line, const std::int64_t sy, const LineSegment* seg,
                             const std::int64_t dk, const std::int64_t lines,
                             std::index_sequence<kSegments...> /*segments*/) {
  double* line[] = {(first_line + seg[kSegments].x)...};
  double* other[] = {(seg[kSegments].other + dk * seg[kSegments].sz)...};
  const std::int64_t other_sy[] = {(kPacked ? kCells : seg[kSegments].sy)...};
  for (std::int64_t dj = 0; dj < lines; ++dj) {
    (copy_fixed<kFlow, kCells>(line[kSegments] + dj * sy, other[kSegments] + dj * other_sy[kSegments]), ...);
  }
}

template <Flow kFlow>
struct LinePassCopy {
  const LineSlab* slabs;
  int count;
  const LineRun* runs;
  const LineSegment* segments;
  std::int64_t sy;  // the fields' strides
  std::int64_t sz;

  // Work item t, on a threaded host space.
  void operator()(const std::int64_t t) const {
    // The last slab whose first item is at or before t.
    const LineSlab& s =
        *(std::upper_bound(slabs, slabs + count, t,
                           [](const std::int64_t v, const LineSlab& slab) { return v < slab.first; }) -
          1);
    const std::int64_t item = t - s.first;
    const std::int64_t dk = item / s.runs;
    const LineRun& run = runs[s.first_run + static_cast<int>(item - dk * s.runs)];
    copy_run(s, dk, run, run.lines);
  }

  // Every band in order, on one thread, each as one run: no search, no
  // division and no set-up per item (what they cost: docs/results/host.md,
  // "One pass over shared rows").
  void all() const {
    for (const LineSlab* s = slabs; s != slabs + count; ++s) {
      for (std::int64_t dk = 0; dk < s->planes; ++dk) {
        for (int r = 0; r < s->runs; ++r) {
          const LineRun& run = runs[s->first_run + r];
          if (run.band_lines > 0) copy_run(*s, dk, run, run.band_lines);
        }
      }
    }
  }

  // Plane dk of slab s, `lines` lines from the first of `run` (its own, or its band's).
  void copy_run(const LineSlab& s, const std::int64_t dk, const LineRun& run,
                const std::int64_t lines) const {
    double* first_line = s.field + (s.k0 + dk) * sz + run.j0 * sy;
    const LineSegment* seg = segments + run.first;
    switch (run.short_cells) {
      case 1:
        return copy_short<1>(first_line, seg, dk, run, lines);
      case 2:
        return copy_short<2>(first_line, seg, dk, run, lines);
      case 3:
        return copy_short<3>(first_line, seg, dk, run, lines);
      case 4:
        return copy_short<4>(first_line, seg, dk, run, lines);
      default:  // 0: any other run
        break;
    }
    static_assert(kShortCells == 4, "one case above for each count of cells up to kShortCells");
    copy_long(first_line, seg, dk, run.count, lines);
  }

  // Lines of a run of any segments, inlined into copy_run: called out of line
  // it costs a call and a spill per run, which callgrind counts as a visible
  // share of a ±y exchange's copy.
  [[gnu::always_inline]] void copy_long(double* first_line, const LineSegment* seg, const std::int64_t dk,
                                        const int segs, const std::int64_t lines) const {
    switch (segs) {  // up to 5 where a y or z face meets the x faces
      case 1:
        return copy_lines<kFlow>(first_line, sy, seg, dk, lines, std::make_index_sequence<1>());
      case 2:
        return copy_lines<kFlow>(first_line, sy, seg, dk, lines, std::make_index_sequence<2>());
      case 3:
        return copy_lines<kFlow>(first_line, sy, seg, dk, lines, std::make_index_sequence<3>());
      case 4:
        return copy_lines<kFlow>(first_line, sy, seg, dk, lines, std::make_index_sequence<4>());
      case 5:
        return copy_lines<kFlow>(first_line, sy, seg, dk, lines, std::make_index_sequence<5>());
      default:  // the few lines where more pieces meet (a box stencil's corners)
        for (std::int64_t dj = 0; dj < lines; ++dj) {
          for (int n = 0; n < segs; ++n) {
            const LineSegment& g = seg[n];
            copy_cells<kFlow>(first_line + dj * sy + g.x, g.other + dk * g.sz + dj * g.sy, g.ex);
          }
        }
    }
  }

  // `lines` lines of a run of one or two segments of kCells cells each.
  template <int kCells>
  void copy_short(double* first_line, const LineSegment* seg, const std::int64_t dk, const LineRun& run,
                  const std::int64_t lines) const {
    if (run.count == 1) {
      copy_short_lines<kFlow, kCells, false>(first_line, sy, seg, dk, lines, std::make_index_sequence<1>());
    } else if (run.packed) {
      copy_short_lines<kFlow, kCells, true>(first_line, sy, seg, dk, lines, std::make_index_sequence<2>());
    } else {
      copy_short_lines<kFlow, kCells, false>(first_line, sy, seg, dk, lines, std::make_index_sequence<2>());
    }
  }
};

class LinePass {
 public:
  static constexpr std::int64_t kLinesPerRun = 64;

  LinePass() = default;
  // `padded`: the extents every field of `copies` has.
  LinePass(Flow flow, const Index3& padded, const std::vector<BoxCopy>& copies);

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
  void add_lines(const std::vector<const BoxCopy*>& boxes, const Box& lines);

  template <Flow kFlow, class ExecSpace>
  void launch(const ExecSpace& exec, const char* label) const {
    if (items_ == 0) return;
    const LinePassCopy<kFlow> copy{
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
  std::vector<LineSlab> slabs_;
  std::vector<LineRun> runs_;
  std::vector<LineSegment> segments_;
  std::int64_t items_ = 0;
};

}  // namespace halobw
