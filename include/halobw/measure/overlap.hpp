// --overlap: the three steps a stencil code chooses between, each one call so
// that the clock can time it like an exchange (warm-up, barrier, K calls,
// barrier, the slowest rank):
//   compute:    the stencil over the owned cells, no exchange (Comp_us);
//   blocking:   the exchange, then the stencil (Blocking_us);
//   overlapped: start the exchange, the interior, finish it, the border (Overlap_us).
// The interior runs on the exchange's execution-space instance (--streams 1)
// or on a second one (--streams 2); while it runs the host makes no MPI call
// (--progress wait) or calls MPI_Testall between slabs of it on the host, and
// in a loop while a device runs it (--progress poll).
#pragma once

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/exchange/kernels.hpp"
#include "halobw/measure/stencil.hpp"
#include "halobw/platform/gpu_runtime.hpp"

namespace halobw {

// The instance the interior runs on (the header's overlap note says which).
// A host space runs each launch to its end in the calling thread: a second
// instance could only split the threads, and hides nothing; Kokkos 3 has no
// partition_space.
template <class ExecSpace>
ExecSpace interior_instance(const ExecSpace& exec, int streams) {
#if KOKKOS_VERSION >= 40000
  if constexpr (!runs_on_host<ExecSpace>) {
    if (streams > 1) return Kokkos::Experimental::partition_space(exec, 1, 1)[1];
  }
#endif
  (void)streams;
  return exec;
}

template <class Ex, class ExecSpace, class MemSpace>
class OverlapStep {
 public:
  OverlapStep(Ex& ex, const Stencil<ExecSpace, MemSpace>& stencil, const ExecSpace& exec,
              const ExecSpace& interior, ProgressMode progress)
      : ex_(ex), stencil_(stencil), exec_(exec), interior_(interior), progress_(progress) {}

  void compute() {
    stencil_.whole(exec_);
    exec_.fence();
  }

  void blocking() {
    ex_.exchange(exec_);
    stencil_.whole(exec_);
    exec_.fence();
  }

  void overlapped() {
    ex_.start(exec_);
    if (progress_ == ProgressMode::wait) {
      stencil_.interior(interior_);
      interior_.fence();
    } else if constexpr (runs_on_host<ExecSpace>) {
      for (std::size_t s = 0; s < stencil_.slabs(); ++s) {
        stencil_.interior_slab(interior_, s);
        ex_.progress();
      }
    } else {
      stencil_.interior(interior_);
      while (!gpu::instance_idle(interior_)) ex_.progress();
      interior_.fence();
    }
    ex_.finish(exec_);
    stencil_.border(exec_);
    exec_.fence();
  }

 private:
  Ex& ex_;
  const Stencil<ExecSpace, MemSpace>& stencil_;
  ExecSpace exec_;
  ExecSpace interior_;
  ProgressMode progress_;
};

}  // namespace halobw
