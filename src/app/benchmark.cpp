#include "halobw/app/benchmark.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>

#include "halobw/exchange/exchanger.hpp"
#include "halobw/exchange/fields.hpp"
#include "halobw/exchange/node_home.hpp"
#include "halobw/measure/check.hpp"
#include "halobw/measure/clock.hpp"
#include "halobw/measure/limits.hpp"
#include "halobw/measure/overlap.hpp"
#include "halobw/measure/peer.hpp"
#include "halobw/measure/stencil.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/memory.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/placement.hpp"
#include "halobw/platform/gpu_runtime.hpp"
#include "halobw/platform/huge_pages.hpp"
#include "halobw/platform/process.hpp"
#include "halobw/platform/reduce.hpp"

namespace halobw {

namespace {

// The agreed failure of --check at row `n`: the first wrong cell.
Status check_failure(const std::string& n, const std::string& cell) {
  return fail(fmt::format("check {} failed: {}", n, cell), ExitCode::check_failed);
}

// --overlap times its three steps in at least this many interleaved rounds,
// so that Hidden has a spread to be judged against.
constexpr int kOverlapRounds = 3;

// A row's clock: K, the timed exchanges of each block (--iters, or chosen by
// time with --iters auto), and the warm-up still to run before the first
// block (none once --iters auto has run it to choose K). --breakdown's
// reference, --limit and --overlap time the same K.
struct RowClock {
  int iters = 0;
  int warmup = 0;
};

void show(const RunSetup& s, const std::string& text) {
  if (s.progress) s.progress->show(text);
}

void set_phase(const Comm& comm, std::string phase) {
  if (comm.watchdog() != nullptr) comm.watchdog()->set_phase(std::move(phase));
}

// The timed blocks of one row, K exchanges each: the plain exchange, or, with
// --breakdown, the same exchanges with a phase clock inside them. This rank's
// times per exchange per block, and, with --breakdown, its phases in each
// block (the median block is known once the blocks are reduced, so all are kept).
template <class Ex, class ExecSpace>
std::vector<BlockTime> time_exchanges(const Comm& comm, const Options& opt, const RowClock& k, Ex& ex,
                                      const ExecSpace& exec, std::vector<PhaseSeconds>& phases) {
  if (!opt.breakdown) {
    return time_blocks(comm, k.warmup, k.iters, opt.repeats, [&] { ex.exchange(exec); });
  }
  PhaseClock clock;
  phases.assign(static_cast<std::size_t>(opt.repeats), PhaseSeconds{});
  return time_blocks(
      comm, k.warmup, k.iters, opt.repeats, [&] { ex.exchange(exec, clock); },
      [&](int) {
        clock.clear();
        clock.restart();
      },
      [&](int r) {
        for (int p = 0; p < kPhases; ++p) {
          phases[static_cast<std::size_t>(r)][static_cast<std::size_t>(p)] =
              clock.sums()[static_cast<std::size_t>(p)] / k.iters;
        }
      });
}

// --breakdown: the phases of the median block's busiest rank, and the isolated
// transfer as a reference, timed with the same clock and the row's K. Collective.
template <class Ex>
Phases breakdown(const Comm& comm, const Options& opt, const RowClock& k, Ex& ex, const PhaseSeconds& mine) {
  Phases p;
  p.pack = mine[static_cast<std::size_t>(Phase::pack)];
  p.mpi = mine[static_cast<std::size_t>(Phase::mpi)];
  p.stage = mine[static_cast<std::size_t>(Phase::stage)];
  p.unpack = mine[static_cast<std::size_t>(Phase::unpack)];
  p.xfer = reduce_max(comm, time_calls(comm, opt.warmup, k.iters, [&ex] { ex.transfer(); }));
  return reduce_phases(comm, p);
}

// --hugepages: what the kernel gave the fields, over the ranks. Collective.
template <class Fields>
HugeFigures huge_figures(const Comm& comm, const Fields& fields) {
  std::uint64_t bytes = 0;
  std::uint64_t huge = 0;
  for (const Allocation& a : fields.allocations()) {
    bytes += a.bytes();
    huge += Process::huge_page_bytes(a.data(), a.bytes()).value_or(0);
  }
  return reduce_huge(comm, bytes, huge);
}

// --overlap --check: the overlapped step must give the blocking step's result
// bit for bit, and the blocking result must be the stencil of the exchanged
// fields (computed here on the host, to a relative 1e-12: a device may fuse
// multiply and add). Both start from a fresh fill and outputs spoiled first, so
// a cell no launch writes is found. Collective; the agreed failure, if any.
template <class Ex, class Step, class Out, class ExecSpace>
Status check_overlap(const Comm& comm, const RunSetup& s, Ex& ex, Step& step, const Out& out,
                     const StencilMath& math, const StencilBoxes& boxes, const ExecSpace& exec,
                     const std::string& n) {
  set_phase(comm, fmt::format("{} --check of --overlap", n));
  auto spoil = [&] {
    for (const auto& f : out.views()) Kokkos::deep_copy(exec, f, kGhostSentinel);
    fill_fields(exec, ex.fields(), ex.plan());
  };
  spoil();
  step.blocking();
  std::vector<std::vector<double>> blocking;
  std::vector<std::vector<double>> fields;
  for (int k = 0; k < out.size(); ++k) {
    const auto o = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out[k]);
    const auto f =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ex.fields()[static_cast<std::size_t>(k)]);
    blocking.emplace_back(o.data(), o.data() + o.size());
    fields.emplace_back(f.data(), f.data() + f.size());
  }
  spoil();
  step.overlapped();
  std::string failure;
  const Box& b = boxes.owned;
  const std::int64_t sy = ex.plan().padded[0];
  const std::int64_t sz = sy * ex.plan().padded[1];
  for (int k = 0; k < out.size() && failure.empty(); ++k) {
    const auto o = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out[k]);
    const std::string field = out.size() > 1 ? fmt::format("field {} ", k) : std::string();
    for (std::int64_t z = b.lo[2]; z < b.hi[2] && failure.empty(); ++z) {
      for (std::int64_t y = b.lo[1]; y < b.hi[1] && failure.empty(); ++y) {
        for (std::int64_t x = b.lo[0]; x < b.hi[0]; ++x) {
          const std::int64_t idx = x + y * sy + z * sz;
          const double want = blocking[static_cast<std::size_t>(k)][static_cast<std::size_t>(idx)];
          const double ref = math.at(fields[static_cast<std::size_t>(k)].data(), idx);
          if (o.data()[idx] != want) {
            failure = fmt::format("rank {} {}overlap cell ({},{},{}) expected {} (blocking) found {}",
                                  comm.rank(), field, x, y, z, want, o.data()[idx]);
            break;
          }
          if (!(std::abs(want - ref) <= 1e-12 * std::max(1.0, std::abs(ref)))) {
            failure = fmt::format("rank {} {}stencil cell ({},{},{}) expected {} found {}", comm.rank(),
                                  field, x, y, z, ref, want);
            break;
          }
        }
      }
    }
  }
  Status v = agree(comm, failure.empty() ? Status{} : check_failure(n, failure));
  if (!v && s.output)
    s.output->note(fmt::format("# check {} --overlap: overlapped equals blocking, bit for bit", n));
  return v;
}

// --overlap for one row: the stencil's own fields and boxes, the three steps
// timed like the exchange. Collective; the agreed failure of --check, if any.
template <class ExecSpace, class MemSpace, class Ex>
Status measure_overlap(const Comm& comm, const RunSetup& s, Ex& ex, const FieldSet<MemSpace>& out,
                       const ExecSpace& exec, const std::string& label, Row& row) {
  const int iters = row.iters;
  const Options& opt = *s.options;
  const RankPlan& plan = ex.plan();
  const AxisSet reach = opt.stencil == StencilKind::box ? AxisSet{true, true, true} : opt.axes;
  const StencilBoxes boxes = stencil_boxes(plan, reach);
  constexpr int kPollSlabs = 8;
  const Stencil<ExecSpace, MemSpace> stencil(plan, boxes, opt.stencil == StencilKind::box, reach, ex.fields(),
                                             out.views(), kPollSlabs);
  OverlapStep<Ex, ExecSpace, MemSpace> step(ex, stencil, exec, interior_instance(exec, opt.streams),
                                            opt.progress);
  if (opt.check) {
    if (Status v = check_overlap(comm, s, ex, step, out, stencil.math(), boxes, exec, label)) return v;
  }
  set_phase(comm, fmt::format("{} --overlap", label));
  // The three steps interleaved, round after round, so that drifts of the
  // machine reach all three alike; each round is one timed block of each.
  const int rounds = std::max(opt.repeats, kOverlapRounds);
  std::array<std::vector<double>, 3> mine;
  for (int r = 0; r < rounds; ++r) {
    const int warm = r == 0 ? opt.warmup : 0;
    mine[0].push_back(time_calls(comm, warm, iters, [&] { step.compute(); }));
    mine[1].push_back(time_calls(comm, warm, iters, [&] { step.blocking(); }));
    mine[2].push_back(time_calls(comm, warm, iters, [&] { step.overlapped(); }));
  }
  OverlapFigures f;
  f.rounds = rounds;
  std::array<double*, 3> medians{&f.comp, &f.blocking, &f.overlapped};
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const Spread s = reduce_spread_max(comm, mine[k]);
    *medians[k] = s.median;
    f.noise = std::max(f.noise, s.max - s.min);
  }
  f.stencil_bytes = reduce_max_bytes(comm, stencil.bytes());  // the busiest rank's, as Send_B
  row.overlap = f;
  const HiddenVerdict hidden = hidden_share(f);
  if (!hidden.share && s.output) s.output->note(fmt::format("# Hidden {}: none: {}", label, hidden.why_not));
  return {};
}

std::string huge_note(const std::string& n, const HugeFigures& h) {
  auto range = [](double lo, double hi) {
    const std::string a = fmt::format("{:.1f}", lo);
    const std::string b = fmt::format("{:.1f}", hi);
    return a == b ? a : a + "-" + b;
  };
  constexpr double kMiB = 1024.0 * 1024.0;
  if (h.field_max < static_cast<double>(kHugeThreshold) / kMiB) {
    return fmt::format("# hugepages {}: the field ({}) is below {}: ordinary pages", n,
                       bytes_text(static_cast<std::uint64_t>(h.field_max * kMiB)),
                       bytes_text(kHugeThreshold));
  }
  return fmt::format("# hugepages {}: {} of {} MiB of the field in huge pages", n,
                     range(h.huge_min, h.huge_max), range(h.field_min, h.field_max));
}

// The neighbour pair of the peer copy: along the first selected cut axis, this
// rank writes into its + neighbour and is written into by its - neighbour;
// both on this rank's node when neither face of the axis leaves it (the plan's
// classification: no rank holds every rank's host).
PeerPair peer_pair(const RankPlan& plan) {
  PeerPair pair;
  for (const Piece& f : plan.pieces) {
    if (f.self || f.kind() != PieceKind::face || side_of(f.dir) < 0) continue;
    pair.up = f.send_peer;
    pair.down = f.recv_peer;
    pair.same_node = std::none_of(plan.pieces.begin(), plan.pieces.end(), [&](const Piece& p) {
      return (p.dir == f.dir || p.dir == opposite(f.dir)) && p.off_node;
    });
    break;
  }
  return pair;
}

// --check for one row: fill, exchange once, verify. The agreed failure
// naming the first wrong cell, when any rank found one. Collective.
template <class Ex, class ExecSpace>
Status run_check(const Comm& comm, const FaultPlan& faults, Ex& ex, const ExecSpace& exec,
                 const std::string& n, Output* output) {
  set_phase(comm, fmt::format("{} --check exchange", n));
  if (faults.unsynced_rank == comm.rank()) Process::pause(kSlowHookSleep);  // test hook: a late fill
  fill_fields(exec, ex.fields(), ex.plan());
  ex.exchange(exec);
  if (faults.corrupt_rank == comm.rank() && !ex.plan().pieces.empty()) {
    const Box& b = ex.plan().pieces.front().recv_box;  // test hook: one wrong ghost cell
    Kokkos::deep_copy(Kokkos::subview(ex.fields().front(), b.lo[0], b.lo[1], b.lo[2]), 12345.0);
  }
  const CheckOutcome outcome = verify_fields(ex.fields(), ex.plan());
  if (Status v = agree(comm, outcome.failure ? check_failure(n, *outcome.failure) : Status{})) return v;
  unsigned long long cells = outcome.ghost_cells;
  unsigned long long total = 0;
  {
    const auto armed = comm.guard("MPI_Reduce");
    check_mpi(MPI_Reduce(&cells, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm.get()), "MPI_Reduce");
  }
  if (output) output->note(fmt::format("# check {} passed {} ghost cells", n, total));
  return {};
}

// --limit for one row: the copy limit where the field lives, and the peer
// copy between neighbouring GPUs where it can be measured. Collective.
template <class Copy, class ExecSpace>
void measure_limits(const Comm& comm, const RunSetup& s, Copy& copy, const ExecSpace& exec,
                    const RankPlan& plan, const std::string& label, Row& row) {
  const Options& opt = *s.options;
  const double t = reduce_max(comm, time_calls(comm, opt.warmup, row.iters, [&] { copy.copy(exec); }));
  if (row.send_max > 0) row.copy_gbps = uni_gbps(row.send_max, t);
  std::string why;
  const auto peer =
      time_peer_copy(comm, opt.backend, peer_pair(plan), plan.remote_bytes, opt.warmup, row.iters, why);
  if (peer) row.peer_gbps = uni_gbps(row.send_max, *peer);
  if (!peer && opt.backend != Backend::host && s.output) {
    s.output->note(fmt::format("# Peer_GBps n/a at {}: {}", label, why));
  }
}

// The direct method's row, as rank 0 sees it: what it copies on its node and what it sends beyond.
std::string direct_note(const RowPlan& plan) {
  return fmt::format(
      "# shm {}: rank 0 copies {} pieces out of the fields of {} ranks on its node, read by {}; {} "
      "messages to and from other nodes",
      plan.label, plan.direct->reads.size(), plan.direct->sources.size(), plan.direct->readers.size(),
      plan.table.messages.size());
}

// What one row allocates: the fields, the exchanger, and what --limit and
// --overlap need besides.
template <class ExecSpace, class MemSpace, class TransportPolicy>
struct RowRig {
  using Ex = Exchanger<ExecSpace, MemSpace, TransportPolicy>;
  std::shared_ptr<FieldHome> home;  // where the method placed the fields (null: nowhere special); freed last
  std::unique_ptr<FieldSet<MemSpace>> fields;
  std::unique_ptr<FieldSet<MemSpace>> out;  // --overlap: the stencil's outputs
  std::unique_ptr<Exchanger<ExecSpace, MemSpace, TransportPolicy>> ex;
  std::unique_ptr<CopyLimit<ExecSpace, MemSpace>> copy;
};

// The direct method's copies of a row, out of the neighbours' fields in the node's windows; none for
// any other method.
template <class Rig>
std::unique_ptr<typename Rig::Ex::Direct> make_direct(const ExchangeSetup& setup, const RowPlan& row,
                                                      NodeSync::Hooks hooks, const Rig& rig) {
  if (!row.direct) return nullptr;
  std::vector<double*> fields;
  for (const auto& f : rig.fields->views()) fields.push_back(f.data());
  return std::make_unique<typename Rig::Ex::Direct>(std::dynamic_pointer_cast<const NodeHome>(rig.home),
                                                    row.mine, *row.direct, fields, setup.watchdog, hooks);
}

// Allocates one row's rig on every rank. Collective; the agreed failure, if
// any rank could not (a method the MPI library cannot do here is bad input).
template <class ExecSpace, class MemSpace, class TransportPolicy>
Status set_up_row(const Comm& comm, const Options& opt, const ExchangeSetup& setup, const RowPlan& row,
                  NodeSync::Hooks hooks, RowRig<ExecSpace, MemSpace, TransportPolicy>& rig) {
  using Ex = Exchanger<ExecSpace, MemSpace, TransportPolicy>;
  const Placement placement = buffer_placement<MemSpace>(setup.host_placement);
  const RankPlan& plan = row.mine;
  const std::string& label = row.label;
  Status mine;
  try {
    ExchangeSetup placed = setup;
    placed.home = rig.home = field_home(opt.method, comm, opt.backend);
    rig.fields = std::make_unique<FieldSet<MemSpace>>(plan.padded, plan.fields, placement, "halobw::field",
                                                      rig.home.get());
    rig.ex = std::make_unique<Ex>(comm, plan, row.table, rig.fields->views(), placed,
                                  make_direct(setup, row, hooks, rig));
    if (opt.limit)
      rig.copy = std::make_unique<CopyLimit<ExecSpace, MemSpace>>(plan.remote_bytes, setup.host_placement);
    if (opt.overlap) {
      rig.out =
          std::make_unique<FieldSet<MemSpace>>(plan.padded, plan.fields, placement, "halobw::stencil_out");
    }
  } catch (const MethodUnavailable& e) {
    mine = fail(fmt::format("{}: rank {} could not set up the exchange: {}", label, comm.rank(), e.what()));
  } catch (const std::exception& e) {
    mine = fail(fmt::format("{}: rank {} could not set up the exchange: {}", label, comm.rank(), e.what()),
                ExitCode::runtime_error);
  }
  return agree(comm, mine);
}

// The row's K: --iters, or with --iters auto the warm-up run here, each
// exchange timed, and K chosen from it and agreed by every rank. Collective.
template <class Ex, class ExecSpace>
RowClock row_clock(const Comm& comm, const RunSetup& s, Ex& ex, const ExecSpace& exec,
                   const std::string& step) {
  const Options& opt = *s.options;
  if (!opt.iters_auto) return {opt.iters, opt.warmup};
  show(s, fmt::format("{}: {} warm-up to choose K", step, std::max(opt.warmup, 1)));
  return {warm_up_and_choose_iters(comm, opt.warmup, opt.min_time, [&] { ex.exchange(exec); }), 0};
}

// The timed exchanges of a row reduced: Time_us over the blocks, then each
// rank's own time in the median block, with its bytes, gathered to name the
// slowest rank. Collective.
template <class Ex, class ExecSpace>
void time_row(const Comm& comm, const RunSetup& s, const RowClock& k, Ex& ex, const ExecSpace& exec,
              std::vector<PhaseSeconds>& phases, Row& row) {
  const Options& opt = *s.options;
  const std::vector<BlockTime> mine = time_exchanges(comm, opt, k, ex, exec, phases);
  std::vector<double> totals(mine.size());
  for (std::size_t b = 0; b < mine.size(); ++b) totals[b] = mine[b].total;
  reduce_times(comm, totals, row);
  row.iters = k.iters;
  reduce_ranks(comm, mine[static_cast<std::size_t>(row.median_block)].own, ex.plan().remote_bytes, s.hosts,
               opt.per_rank, row);
}

// Everything measured of one row, after --check: the timed exchanges, then
// the breakdown, huge pages, limits and overlap. Collective.
template <class ExecSpace, class MemSpace, class TransportPolicy>
Status measure_row(const Comm& comm, const RunSetup& s, const RowPlan& plan, const std::string& step,
                   RowRig<ExecSpace, MemSpace, TransportPolicy>& rig, Row& row) {
  const Options& opt = *s.options;
  const ExecSpace exec;
  const std::string& label = plan.label;
  auto& ex = *rig.ex;
  set_phase(comm, fmt::format("{} warm-up and timed exchanges", label));
  const RowClock k = row_clock(comm, s, ex, exec, step);
  show(s, fmt::format("{}: {} x {} timed exchanges{}", step, opt.repeats, k.iters,
                      k.warmup > 0 ? fmt::format(" after {} warm-up", k.warmup) : std::string()));
  if (plan.direct && s.output) s.output->note(direct_note(plan));
  std::vector<PhaseSeconds> phases;
  row = row_of(plan);
  time_row(comm, s, k, ex, exec, phases, row);
  if (opt.per_rank && s.output) {
    for (const std::string& line : per_rank_lines(row, label)) s.output->note(line);
  }
  if (opt.breakdown) {
    show(s, step + ": breakdown");
    set_phase(comm, fmt::format("{} breakdown: the transfer alone", label));
    row.phases = breakdown(comm, opt, k, ex, phases[static_cast<std::size_t>(row.median_block)]);
    if (plan.direct && s.output) {
      s.output->note(
          fmt::format("# breakdown {}: shm: Mpi_us holds the waits on the neighbours' flags and the "
                      "messages to other nodes, Unpack_us the copy out of the neighbours' fields; "
                      "Xfer_us moves the messages to other nodes alone",
                      label));
    }
  }
  // The group says when (header.hpp, huge_figures_recorded: never under a simulation).
  if (s.groups.has(Group::hugepages) && is_host_memory<MemSpace>) {
    row.huge = huge_figures(comm, *rig.fields);
    if (s.output) s.output->note(huge_note(label, *row.huge));
  }
  if (opt.limit) {
    show(s, step + ": copy limit");
    set_phase(comm, fmt::format("{} limits", label));
    measure_limits(comm, s, *rig.copy, exec, ex.plan(), label, row);
  }
  if (!opt.overlap) return {};
  show(s, step + ": overlap");
  return measure_overlap<ExecSpace, MemSpace>(comm, s, ex, *rig.out, exec, label, row);
}

// What the ranks really held, beside the preflight's count in the header.
// Under a simulation every rank is this one process, whose peak is the whole
// simulation's: not a rank's, which is n/a, but said as what it is. Collective.
void report_peak_memory(const Comm& comm, const RunSetup& s) {
  unsigned long long peak = Process::peak_resident_bytes().value_or(0);
  unsigned long long most = 0;
  {
    const auto armed = comm.guard("MPI_Reduce");
    check_mpi(MPI_Reduce(&peak, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, comm.get()), "MPI_Reduce");
  }
  if (!s.output) return;
  if (Process::simulation()) {
    s.output->note(fmt::format(
        "# peak resident memory per rank n/a (simulated): the simulation's one process, all {} ranks, at "
        "most {} B (VmHWM)",
        comm.size(), most));
    return;
  }
  s.output->note(fmt::format("# peak resident memory per rank at most {} B (VmHWM)", most));
}

template <class ExecSpace, class MemSpace, class TransportPolicy>
Status run_rows(const Comm& comm, const RunSetup& s) {
  const Options& opt = *s.options;
  ExchangeSetup setup;
  setup.schedule = opt.schedule;
  setup.breakdown = opt.breakdown;
  setup.watchdog = comm.watchdog();
  setup.host_placement = host_placement(opt.hugepages == Toggle::on);
  const std::vector<RowPlan>& rows = *s.rows;
  for (std::size_t index = 0; index < rows.size(); ++index) {
    const RowPlan& plan = rows[index];
    const FaultPlan faults = s.faults.at_row(index);
    setup.method = with_faults(method_factory({opt.method, opt.rma_sync}), faults, comm.rank(), comm.size());
    const std::string step = fmt::format("size {} of {}, {}", index + 1, rows.size(), plan.label);
    show(s, step + ": setting up");
    set_phase(comm, fmt::format("{} set-up", plan.label));
    RowRig<ExecSpace, MemSpace, TransportPolicy> rig;
    if (Status v = set_up_row(comm, opt, setup, plan, faults.sync_hooks(comm.rank()), rig)) return v;
    if (opt.check) {
      show(s, step + ": checking");
      if (Status v = run_check(comm, faults, *rig.ex, ExecSpace(), plan.label, s.output)) return v;
    }
    Row row;
    if (Status v = measure_row(comm, s, plan, step, rig, row)) return v;
    // Rank 0 keeps the row; a write that failed ends the run on every rank.
    if (Status v = agree(comm, s.output ? s.output->row(row) : Status{})) return v;
  }
  report_peak_memory(comm, s);
  return {};
}

// The transport, chosen once: one instantiation of the exchanger each.
template <class ExecSpace, class MemSpace>
Status run_transport(const Comm& comm, const RunSetup& s) {
  switch (s.transport) {
    case Transport::direct:
      return run_rows<ExecSpace, MemSpace, DirectTransport>(comm, s);
    case Transport::staged:
      return run_rows<ExecSpace, MemSpace, StagedTransport>(comm, s);
    case Transport::datatype:
      return run_rows<ExecSpace, MemSpace, DatatypeTransport>(comm, s);
  }
  return run_rows<ExecSpace, MemSpace, DatatypeTransport>(comm, s);
}

// The device backend, where this build has one; the options refuse the others first.
template <class Exec, class Memory>
Status run_device(const Comm& comm, const RunSetup& s) {
  if constexpr (gpu::kAvailable) {
    if (s.options->backend == gpu::kBackend) return run_transport<Exec, Memory>(comm, s);
  }
  (void)comm;
  return fail("backend " + to_string(s.options->backend) + " is not in this build");
}

}  // namespace

Status run_benchmark(const Comm& comm, const RunSetup& setup) {
  switch (setup.options->backend) {
    case Backend::host:
      return run_transport<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>(comm, setup);
    case Backend::cuda:
    case Backend::hip:
      return run_device<gpu::Exec, gpu::Memory>(comm, setup);
  }
  return run_transport<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>(comm, setup);
}

}  // namespace halobw
