// The data-moving kernels: strided-box copies serve pack (field -> buffer),
// unpack (buffer -> field) and the self copy (field -> field), as one fused
// launch on a device (the host's mapping is line_pass.hpp; copy_plan.hpp's
// CopyList picks one), plus the fill that --check uses. Templated on the
// Kokkos execution space.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"

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

// One copy of a box of cells from src to dst, both strided. Pack (field ->
// buffer), unpack (buffer -> field) and the self copy (field -> field) are
// all lists of these.
struct CopyJob {
  StridedBox dst;
  StridedBox src;
  std::uint32_t ex = 0;  // cells along x, y, z
  std::uint32_t ey = 0;
  std::uint32_t ez = 0;
  std::int64_t first = 0;  // the launch's index of the job's first cell (ex * ey * ez below 2^32)
};

// A cell's coordinates within its job from its index c, x fastest, in 32-bit
// arithmetic: two 32-bit divisions instead of two 64-bit ones.
struct Cell3 {
  std::uint32_t i;
  std::uint32_t j;
  std::uint32_t k;
};
KOKKOS_INLINE_FUNCTION Cell3 cell_of(std::uint32_t c, std::uint32_t ex, std::uint32_t ey) {
  const std::uint32_t r = c / ex;
  const std::uint32_t k = r / ey;
  return {c - r * ex, r - k * ey, k};
}

// Index mapping, chosen per kind of execution space:
// - Device (FusedCopy): one thread per cell of every job of one launch, so a
//   list of 26 pieces times K fields is one kernel, not 26·K. Thread t finds
//   its job by a binary search of the jobs' first cells, then its cell with
//   cell_of. Threads t and t+1 touch neighbouring addresses in both the field
//   and the buffer wherever the box allows: a whole x-run for z and y faces,
//   and the h layers of an x face, which are the only contiguous cells that
//   face has.
// - Host (LinePass, line_pass.hpp): one pass over the lines the jobs share,
//   each line's cells of every job copied before the next line.
// The job that launch index t falls in: the last whose first cell is at or
// before t (a list's jobs are in the order of their first cells).
template <class Jobs>
KOKKOS_INLINE_FUNCTION int job_of(const Jobs& jobs, const int count, const std::int64_t t) {
  int lo = 0;
  int hi = count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (jobs(mid).first <= t) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// Jobs fixed at set-up, their cells numbered one after another across the
// list: the host keeps them, a device reads a copy made by commit().
template <class Job, class ExecSpace, class MemSpace>
class JobList {
 public:
  using Jobs = Kokkos::View<Job*, MemSpace>;

  void add(Job job, const std::int64_t cells) {
    job.first = total_;
    total_ += cells;
    host_.push_back(job);
  }
  void commit(const std::string& label) {  // a string: Kokkos 4 takes a char* as memory to wrap
    if constexpr (!runs_on_host<ExecSpace>) {
      device_ = Jobs(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), host_.size());
      const auto mirror = Kokkos::create_mirror_view(device_);
      for (std::size_t n = 0; n < host_.size(); ++n) mirror(n) = host_[n];
      Kokkos::deep_copy(device_, mirror);
    }
  }
  [[nodiscard]] const std::vector<Job>& jobs() const { return host_; }
  [[nodiscard]] const Jobs& device() const { return device_; }
  [[nodiscard]] int count() const { return static_cast<int>(host_.size()); }
  [[nodiscard]] std::int64_t cells() const { return total_; }

 private:
  std::vector<Job> host_;
  Jobs device_;
  std::int64_t total_ = 0;
};

template <class Jobs>
struct FusedCopy {
  Jobs jobs;  // a View of CopyJob, in memory the execution space reads
  int count;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const CopyJob& job = jobs(job_of(jobs, count, t));
    const Cell3 c = cell_of(static_cast<std::uint32_t>(t - job.first), job.ex, job.ey);
    job.dst.ptr[c.i + c.j * job.dst.sy + c.k * job.dst.sz] =
        job.src.ptr[c.i + c.j * job.src.sy + c.k * job.src.sz];
  }
};

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
