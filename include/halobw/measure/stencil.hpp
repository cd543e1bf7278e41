// The stencil of --overlap: a real arithmetic update of reach h that reads
// each field and writes a second field of the same shape (Jacobi style, so
// the result does not depend on the order of work). Star: along each axis it
// reaches (the exchanged ones), out = w0·f + Σ_a Σ_r w_r·(f(+r) + f(−r)),
// w_r = 1/r². Box (--stencil box): the 26 points at distance h in every
// direction, corners and edges of the ghost region included. It knows
// nothing of MPI: it runs on boxes (the owned cells, the interior, the
// border) that the plan computes (pieces.hpp: stencil_boxes).
//
// Mapping: on the host, one work item per tile of lines of one plane of a box
// (per plane of a thin box), each line updated in passes over whole lines
// (each pass one weight, vectorisable); on a device, one thread per cell of
// every box of a list (one launch). Both add the terms
// in the same order, so a cell's value does not depend on which list computed
// it: the overlapped step equals the blocking one bit for bit (--check).
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "halobw/exchange/allocation.hpp"
#include "halobw/exchange/kernels.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

// The weights and strides of one stencil; the arithmetic of one cell.
struct StencilMath {
  std::int64_t sy = 0;  // strides of y and z in the padded field
  std::int64_t sz = 0;
  int reach[3] = {0, 0, 0};  // 1 where the star reaches along the axis
  int h = 1;
  int box = 0;  // 1: the 26 points at distance h
  double w0 = 0;
  double w[kMaxReach] = {};

  KOKKOS_INLINE_FUNCTION std::int64_t stride(int a) const { return a == 0 ? 1 : a == 1 ? sy : sz; }

  // out(idx) from in: the same terms, in the same order, as the line passes below.
  KOKKOS_INLINE_FUNCTION double at(const double* in, std::int64_t idx) const {
    double v = w0 * in[idx];
    if (box) {
      for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0 && dz == 0) continue;
            v = v + w[0] * in[idx + h * (dx + dy * sy + dz * sz)];
          }
        }
      }
      return v;
    }
    for (int a = 0; a < 3; ++a) {
      if (!reach[a]) continue;
      const std::int64_t s = stride(a);
      for (int r = 1; r <= h; ++r) v = v + w[r - 1] * (in[idx + r * s] + in[idx - r * s]);
    }
    return v;
  }
};

// One box of one field.
struct StencilJob {
  const double* in = nullptr;
  double* out = nullptr;
  std::int64_t base = 0;  // padded index of the box's first cell
  std::uint32_t ex = 0;
  std::uint32_t ey = 0;
  std::uint32_t ez = 0;
  std::int64_t first = 0;  // the launch's index of the box's first cell (device)
};

// Device mapping: one thread per cell of all jobs.
template <class Jobs>
struct FusedStencil {
  Jobs jobs;
  int count;
  StencilMath m;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const StencilJob& job = jobs(job_of(jobs, count, t));
    const Cell3 c = cell_of(static_cast<std::uint32_t>(t - job.first), job.ex, job.ey);
    const std::int64_t idx = job.base + c.i + c.j * m.sy + c.k * m.sz;
    job.out[idx] = m.at(job.in, idx);
  }
};

// Host mapping: each line is updated in whole-line passes.
// Work item t is a tile of `tile` lines of one plane: tiles of y outermost,
// then the planes, so the lines a z reach reads again (the same tile of the
// planes k - h .. k + h) are still in cache when the next plane needs them.
struct LineStencil {
  StencilJob job;
  StencilMath m;
  std::int64_t tile;  // lines per work item

  // The lines of a tile that keep 2h + 2 planes of it within about 256 KiB,
  // where the stencil reaches along z; else whole planes, in memory order.
  static std::int64_t tile_lines(const StencilJob& j, const StencilMath& m) {
    if (!m.box && !m.reach[2]) return std::max<std::int64_t>(1, j.ey);
    const std::int64_t line_bytes = std::int64_t{j.ex} * static_cast<std::int64_t>(sizeof(double));
    const std::int64_t lines = (std::int64_t{256} << 10) / (line_bytes * (2 * m.h + 2));
    return std::max<std::int64_t>(1, std::min<std::int64_t>(lines, j.ey));
  }
  [[nodiscard]] std::int64_t items() const { return (job.ey + tile - 1) / tile * job.ez; }

  void operator()(const std::int64_t t) const {
    const std::int64_t k = t % job.ez;
    const std::int64_t j0 = t / job.ez * tile;
    for (std::int64_t j = j0; j < std::min<std::int64_t>(j0 + tile, job.ey); ++j) this->line(j, k);
  }

  void line(const std::int64_t j, const std::int64_t k) const {
    const std::int64_t line = job.base + j * m.sy + k * m.sz;
    const std::int64_t n = job.ex;
    const double* __restrict__ in = job.in + line;
    double* __restrict__ out = job.out + line;
    for (std::int64_t i = 0; i < n; ++i) out[i] = m.w0 * in[i];
    if (m.box) {
      for (int dz = -1; dz <= 1; ++dz) {
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0 && dz == 0) continue;
            const double* __restrict__ p = in + m.h * (dx + dy * m.sy + dz * m.sz);
            const double w = m.w[0];
            for (std::int64_t i = 0; i < n; ++i) out[i] = out[i] + w * p[i];
          }
        }
      }
      return;
    }
    for (int a = 0; a < 3; ++a) {
      if (!m.reach[a]) continue;
      const std::int64_t s = m.stride(a);
      for (int r = 1; r <= m.h; ++r) {
        const double* __restrict__ plus = in + r * s;
        const double* __restrict__ minus = in - r * s;
        const double w = m.w[r - 1];
        for (std::int64_t i = 0; i < n; ++i) out[i] = out[i] + w * (plus[i] + minus[i]);
      }
    }
  }
};

// Host mapping of a thin box (a border slab of an x reach: lines of fewer than
// kThin cells, less than one cache line of doubles): one work item per plane,
// each cell by StencilMath::at, the same terms in the same order as the line
// passes. Why not whole-line passes of h cells: docs/results/host.md, "Overlap
// with a stencil".
struct ThinStencil {
  StencilJob job;
  StencilMath m;
  static constexpr std::uint32_t kThin = 8;

  void operator()(const std::int64_t k) const {
    for (std::int64_t j = 0; j < job.ey; ++j) {
      const std::int64_t line = job.base + j * m.sy + k * m.sz;
      for (std::int64_t i = 0; i < job.ex; ++i) job.out[line + i] = m.at(job.in, line + i);
    }
  }
};

// A list of boxes updated as one unit: one launch on a device, one line loop per box on the host.
template <class ExecSpace, class MemSpace>
class StencilList {
 public:
  void add(const StencilJob& job) {
    if (job.ex == 0 || job.ey == 0 || job.ez == 0) return;
    list_.add(job, std::int64_t{job.ex} * job.ey * job.ez);
  }
  void commit() { list_.commit("halobw::stencil_jobs"); }
  void run(const ExecSpace& exec, const StencilMath& m, const char* label) const {
    if (list_.count() == 0) return;
    if constexpr (runs_on_host<ExecSpace>) {
      for (const StencilJob& j : list_.jobs()) {
        if (j.ex < ThinStencil::kThin) {
          Kokkos::parallel_for(label,
                               Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, j.ez),
                               ThinStencil{j, m});
          continue;
        }
        const LineStencil lines{j, m, LineStencil::tile_lines(j, m)};
        Kokkos::parallel_for(
            label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, lines.items()),
            lines);
      }
    } else {
      Kokkos::parallel_for(
          label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, list_.cells()),
          FusedStencil<typename JobList<StencilJob, ExecSpace, MemSpace>::Jobs>{list_.device(), list_.count(),
                                                                                m});
    }
  }
  [[nodiscard]] std::int64_t cells() const { return list_.cells(); }
  [[nodiscard]] const std::vector<StencilJob>& jobs() const { return list_.jobs(); }

 private:
  JobList<StencilJob, ExecSpace, MemSpace> list_;
};

// The stencil of one rank over K fields: the owned cells whole, the interior
// (whole, or in slabs along z for --progress poll), and the border.
template <class ExecSpace, class MemSpace>
class Stencil {
 public:
  using Field = FieldView<MemSpace>;
  using List = StencilList<ExecSpace, MemSpace>;

  // `in` and `out` hold the K fields and their outputs; `slabs` the interior's pieces for polling.
  Stencil(const RankPlan& plan, const StencilBoxes& boxes, bool box, const AxisSet& reach,
          const std::vector<Field>& in, const std::vector<Field>& out, int slabs) {
    if (plan.halo > kMaxReach) {
      throw std::invalid_argument("--overlap takes halo widths up to " + std::to_string(kMaxReach));
    }
    m_.sy = plan.padded[0];
    m_.sz = plan.padded[0] * plan.padded[1];
    m_.h = plan.halo;
    m_.box = box ? 1 : 0;
    int terms = 0;
    for (int a = 0; a < 3; ++a) {
      m_.reach[a] = reach[static_cast<std::size_t>(a)] ? 1 : 0;
      terms += m_.reach[a];
    }
    if (box) {
      m_.w[0] = 1.0 / 26.0;
      m_.w0 = -1.0;
    } else {
      double sum = 0;
      for (int r = 1; r <= m_.h; ++r) sum += m_.w[r - 1] = 1.0 / (static_cast<double>(r) * r);
      m_.w0 = -2.0 * terms * sum;
    }
    cells_ = static_cast<std::uint64_t>(boxes.owned.cells()) * in.size();
    add(owned_, boxes.owned, in, out);
    add(interior_, boxes.interior, in, out);
    for (const Box& b : boxes.border) add(border_, b, in, out);
    // The interior in slabs of whole z planes, for --progress poll.
    const std::int64_t z0 = boxes.interior.lo[2];
    const std::int64_t nz = boxes.interior.extent(2);
    const std::int64_t count = std::max<std::int64_t>(1, std::min<std::int64_t>(slabs, nz));
    for (std::int64_t s = 0; s < count && nz > 0; ++s) {
      Box b = boxes.interior;
      b.lo[2] = z0 + nz * s / count;
      b.hi[2] = z0 + nz * (s + 1) / count;
      List l;
      add(l, b, in, out);
      slabs_.push_back(std::move(l));
    }
    for (List* l : {&owned_, &interior_, &border_}) l->commit();
    for (List& l : slabs_) l.commit();
  }

  void whole(const ExecSpace& exec) const { owned_.run(exec, m_, "halobw::stencil"); }
  void interior(const ExecSpace& exec) const { interior_.run(exec, m_, "halobw::stencil_interior"); }
  void border(const ExecSpace& exec) const { border_.run(exec, m_, "halobw::stencil_border"); }
  [[nodiscard]] std::size_t slabs() const { return slabs_.size(); }
  void interior_slab(const ExecSpace& exec, std::size_t s) const {
    slabs_[s].run(exec, m_, "halobw::stencil_slab");
  }
  // Bytes read and written by one update of every field: 16 per owned cell and field.
  [[nodiscard]] std::uint64_t bytes() const { return 16 * cells_; }
  [[nodiscard]] const StencilMath& math() const { return m_; }

 private:
  void add(List& l, const Box& whole, const std::vector<Field>& in, const std::vector<Field>& out) const {
    if (whole.empty()) return;
    // A job's cells are indexed in 32 bits: split a larger box into z chunks.
    const std::int64_t plane = whole.extent(0) * whole.extent(1);
    const std::int64_t per = std::max<std::int64_t>(1, (std::int64_t{1} << 31) / plane);
    for (std::int64_t z = whole.lo[2]; z < whole.hi[2]; z += per) {
      Box b = whole;
      b.lo[2] = z;
      b.hi[2] = std::min(whole.hi[2], z + per);
      add_box(l, b, in, out);
    }
  }

  void add_box(List& l, const Box& b, const std::vector<Field>& in, const std::vector<Field>& out) const {
    for (std::size_t f = 0; f < in.size(); ++f) {
      StencilJob j;
      j.in = in[f].data();
      j.out = out[f].data();
      j.base = b.lo[0] + m_.sy * b.lo[1] + m_.sz * b.lo[2];
      j.ex = static_cast<std::uint32_t>(b.extent(0));
      j.ey = static_cast<std::uint32_t>(b.extent(1));
      j.ez = static_cast<std::uint32_t>(b.extent(2));
      l.add(j);
    }
  }

  StencilMath m_;
  std::uint64_t cells_ = 0;
  List owned_;
  List interior_;
  List border_;
  std::vector<List> slabs_;
};

}  // namespace halobw
