#include "halobw/benchmark.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#include <exception>
#include <memory>
#include <optional>

#include "halobw/check.hpp"
#include "halobw/clock.hpp"
#include "halobw/exchanger.hpp"
#include "halobw/faces.hpp"
#include "halobw/limits.hpp"
#include "halobw/memory.hpp"
#include "halobw/peer.hpp"
#include "halobw/test_hooks.hpp"

namespace halobw {

namespace {

void print_error(const Comm& comm, const RunSetup& s, const std::string& text) {
  if (comm.rank() != 0) return;
  if (s.progress) s.progress->clear();
  std::fputs(text.c_str(), s.err);
  std::fflush(s.err);
}

void show(const RunSetup& s, const std::string& text) {
  if (s.progress) s.progress->show(text);
}

// Each phase with the same clock as the exchange, slowest rank.
template <class Ex>
Phases time_phases(const Comm& comm, const Options& opt, Ex& ex) {
  auto timed = [&](auto&& work) { return reduce_max(comm, time_calls(comm, opt.warmup, opt.iters, work)); };
  // A phase the transport does not have is 0, not the cost of an empty timed loop.
  const Transport t = ex.config().transport;
  Phases p;
  if (packs(t)) p.pack = timed([&ex] { ex.pack_faces(); });
  if (t == Transport::staged) {
    p.stage = timed([&ex] {
      ex.stage_out();
      ex.stage_in();
    });
  }
  p.xfer = timed([&ex] { ex.transfer(); });
  p.unpack = timed([&ex] { ex.unpack_faces(); });
  return p;
}

// The neighbour pair of the peer copy: along the first selected cut axis, this
// rank writes into its + neighbour and is written into by its - neighbour.
PeerPair peer_pair(const RankPlan& plan, const std::vector<std::string>& hosts) {
  PeerPair pair;
  for (const Face& f : plan.faces) {
    if (f.self || side_of(f.dir) < 0) continue;
    pair.up = f.send_peer;
    pair.down = f.recv_peer;
    const auto& me = hosts[static_cast<std::size_t>(plan.rank)];
    pair.same_node = hosts[static_cast<std::size_t>(f.send_peer)] == me &&
                     hosts[static_cast<std::size_t>(f.recv_peer)] == me;
    break;
  }
  return pair;
}

// --check for one size: fill, exchange once, verify. Returns false, having
// reported the first wrong cell, when any rank found one. Collective.
template <class Ex>
bool run_check(const Comm& comm, const RunSetup& s, Ex& ex, std::int64_t n) {
  ex.set_phase(fmt::format("N={} --check exchange", n));
  fill_field(ex.exec(), ex.field(), ex.plan());
  ex.exchange();
  if (TestHooks::from_environment().corrupt_rank == comm.rank() && !ex.plan().faces.empty()) {
    const Box& b = ex.plan().faces.front().recv_box;  // test hook: one wrong ghost cell
    Kokkos::deep_copy(Kokkos::subview(ex.field(), b.lo[0], b.lo[1], b.lo[2]), 12345.0);
  }
  const CheckOutcome outcome = verify_field(ex.field(), ex.plan());
  const Verdict v = agree(comm, !outcome.failure, outcome.failure.value_or(""), 1);
  if (!v.ok) {
    print_error(comm, s, fmt::format("halo-bandwidth: check N={} failed: {}\n", n, v.message));
    return false;
  }
  unsigned long long cells = outcome.ghost_cells;
  unsigned long long total = 0;
  check_mpi(MPI_Reduce(&cells, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm.get()), "MPI_Reduce");
  if (s.output) s.output->note(fmt::format("# check N={} passed {} ghost cells", n, total));
  return true;
}

// --limit for one size: the copy limit where the field lives, and the peer
// copy between neighbouring GPUs where it can be measured. Collective.
template <class Copy>
void measure_limits(const Comm& comm, const RunSetup& s, Copy& copy, const RankPlan& plan, Row& row) {
  const Options& opt = *s.options;
  const double t = reduce_max(comm, time_calls(comm, opt.warmup, opt.iters, [&copy] { copy.copy(); }));
  if (row.send_max > 0) row.copy_gbps = uni_gbps(row.send_max, t);
  std::string why;
  const auto peer = time_peer_copy(comm, opt.backend, peer_pair(plan, s.hosts), plan.remote_bytes, opt.warmup,
                                   opt.iters, why);
  if (peer) row.peer_gbps = uni_gbps(row.send_max, *peer);
  if (!peer && opt.backend != Backend::host && s.output) {
    s.output->note(fmt::format("# Peer_GBps n/a at N={}: {}", row.n, why));
  }
}

template <class ExecSpace, class MemSpace>
int run_sizes(const Comm& comm, const RunSetup& s) {
  const Options& opt = *s.options;
  using Ex = Exchanger<ExecSpace, MemSpace>;
  const ExchangerConfig config{s.transport, opt.self, opt.schedule, opt.breakdown, opt.timeout};
  const std::size_t count = opt.sizes.size();
  for (std::size_t index = 0; index < count; ++index) {
    const std::int64_t n = opt.sizes[index];
    const std::string step = fmt::format("size {} of {}, N={}", index + 1, count, n);
    show(s, step + ": setting up");
    RankPlan plan = make_rank_plan(s.grid, n, opt.halo, opt.axes, comm.rank(), s.hosts);
    RankFigures mine{{}, plan.remote_bytes, plan.remote_faces, plan.self_faces, plan.offnode_faces};
    std::unique_ptr<Ex> ex;
    std::unique_ptr<CopyLimit<ExecSpace, MemSpace>> copy;
    std::string error;
    try {
      ex = std::make_unique<Ex>(comm, std::move(plan), config);
      if (opt.limit) copy = std::make_unique<CopyLimit<ExecSpace, MemSpace>>(mine.remote_bytes);
    } catch (const std::exception& e) {
      error = e.what();
    }
    Verdict v =
        agree(comm, error.empty(),
              fmt::format("N={}: rank {} could not set up the exchange: {}", n, comm.rank(), error), 3);
    if (!v.ok) {
      print_error(comm, s, "halo-bandwidth: error: " + v.message + "\n");
      return v.code;
    }
    if (opt.check) {
      show(s, step + ": checking");
      if (!run_check(comm, s, *ex, n)) return 1;
    }
    show(s, fmt::format("{}: {} x {} timed exchanges after {} warm-up", step, opt.repeats, opt.iters,
                        opt.warmup));
    ex->set_phase(fmt::format("N={} warm-up and timed exchanges", n));
    comm.set_phase(fmt::format("N={} barrier of the clock", n));
    mine.seconds = time_blocks(comm, opt.warmup, opt.iters, opt.repeats, [&ex] { ex->exchange(); });
    Row row = reduce_row(comm, n, mine);
    if (opt.breakdown) {
      show(s, step + ": breakdown");
      ex->set_phase(fmt::format("N={} breakdown", n));
      row.phases = time_phases(comm, opt, *ex);
    }
    if (opt.limit) {
      show(s, step + ": copy limit");
      measure_limits(comm, s, *copy, ex->plan(), row);
    }
    if (s.progress) s.progress->clear();
    if (s.output) s.output->row(row);
  }
  // What the ranks really held, beside the preflight's count in the header.
  unsigned long long peak = peak_resident_bytes().value_or(0);
  unsigned long long most = 0;
  check_mpi(MPI_Reduce(&peak, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, comm.get()), "MPI_Reduce");
  if (s.output) s.output->note(fmt::format("# peak resident memory per rank at most {} B (VmHWM)", most));
  return 0;
}

}  // namespace

int run_benchmark(const Comm& comm, const RunSetup& setup) {
  switch (setup.options->backend) {
#if defined(KOKKOS_ENABLE_CUDA)
    case Backend::cuda:
      return run_sizes<Kokkos::Cuda, Kokkos::CudaSpace>(comm, setup);
#endif
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
    case Backend::hip:
      return run_sizes<Kokkos::HIP, Kokkos::HIPSpace>(comm, setup);
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
