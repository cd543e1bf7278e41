#include "halobw/benchmark.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <exception>
#include <memory>

#include "halobw/check.hpp"
#include "halobw/clock.hpp"
#include "halobw/exchanger.hpp"
#include "halobw/faces.hpp"
#include "halobw/report.hpp"

namespace halobw {

namespace {

void print(const Comm& comm, std::FILE* f, const std::string& text) {
  if (comm.rank() != 0) return;
  std::fputs(text.c_str(), f);
  std::fflush(f);
}

template <class ExecSpace, class MemSpace>
int run_sizes(const Comm& comm, const RunSetup& s) {
  const Options& opt = *s.options;
  using Ex = Exchanger<ExecSpace, MemSpace>;
  for (const std::int64_t n : opt.sizes) {
    RankPlan plan = make_rank_plan(s.grid, n, opt.halo, opt.axes, comm.rank(), s.hosts);
    const RankFigures figures{0.0, plan.remote_bytes, plan.remote_faces, plan.self_faces,
                              plan.offnode_faces};
    std::unique_ptr<Ex> ex;
    std::string error;
    try {
      ex = std::make_unique<Ex>(comm, std::move(plan), s.transport, opt.self);
    } catch (const std::exception& e) {
      error = e.what();
    }
    Verdict v = agree(comm, ex != nullptr,
                      fmt::format("N={}: rank {} could not set up the exchange: {}", n, comm.rank(), error), 3);
    if (!v.ok) {
      print(comm, s.err, "halo-bandwidth: error: " + v.message + "\n");
      return v.code;
    }
    if (opt.check) {
      fill_field(ex->exec(), ex->field(), ex->plan());
      ex->exchange();
      const CheckOutcome outcome = verify_field(ex->field(), ex->plan());
      v = agree(comm, !outcome.failure, outcome.failure.value_or(""), 1);
      if (!v.ok) {
        print(comm, s.err, fmt::format("halo-bandwidth: check N={} failed: {}\n", n, v.message));
        return 1;
      }
      unsigned long long cells = outcome.ghost_cells;
      unsigned long long total = 0;
      check_mpi(MPI_Reduce(&cells, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm.get()), "MPI_Reduce");
      print(comm, s.out, fmt::format("# check N={} passed {} ghost cells\n", n, total));
    }
    RankFigures mine = figures;
    mine.seconds = time_exchanges(comm, opt.warmup, opt.iters, [&ex] { ex->exchange(); });
    const Row row = reduce_row(comm, n, mine);
    print(comm, s.out, format_row(row, s.send_min_column));
  }
  return 0;
}

}  // namespace

int run_benchmark(const Comm& comm, const RunSetup& setup) {
  switch (setup.options->backend) {
#if defined(KOKKOS_ENABLE_CUDA)
    case Backend::cuda: return run_sizes<Kokkos::Cuda, Kokkos::CudaSpace>(comm, setup);
#endif
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
    case Backend::hip: return run_sizes<Kokkos::HIP, Kokkos::HIPSpace>(comm, setup);
#else
    case Backend::hip:
      return run_sizes<Kokkos::Experimental::HIP, Kokkos::Experimental::HIPSpace>(comm, setup);
#endif
#endif
    default:
      return run_sizes<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>(comm, setup);
  }
}

}  // namespace halobw
