#include "halobw/app/header.hpp"

#include <fmt/format.h>

#include <Kokkos_Core.hpp>  // KOKKOS_VERSION: whether partition_space exists
#include <algorithm>
#include <ctime>
#include <map>
#include <set>

#include "halobw/measure/clock.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/platform/gpu_aware.hpp"
#include "halobw/platform/huge_pages.hpp"
#include "halobw/platform/process.hpp"
#include "halobw/version.hpp"

namespace halobw {

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// What --hugepages asked for and what the kernel offers; what it gave each
// row follows the row's measurements. Under a simulation the kernel is the
// simulating machine's, where every rank's memory lies: the model has no
// memory pages, so the simulated nodes' huge pages are n/a, and the rows do
// not count this machine's (Field_MiB, Huge_MiB: groups_of).
std::string hugepage_note(const Options& opt) {
  const auto mode = Process::thp_mode();
  const std::string thp = mode ? "THP " + *mode : std::string("no transparent huge pages");
  if (Process::simulation()) {
    return "hugepages " + to_string(opt.hugepages) +
           ": n/a (simulated): the model has no memory pages; this machine (" + thp +
           "), which holds every rank's memory, allocates as --hugepages says";
  }
  if (opt.hugepages == Toggle::off)
    return "hugepages off (" + thp + "): host memory as the allocator gives it";
  if (opt.backend != Backend::host) {
    return "hugepages on (" + thp + "): staging buffers only; device memory is unaffected";
  }
  if (!huge_pages_available())
    return "hugepages on, but " + thp + " here: host memory as the allocator gives it";
  return "hugepages on (" + thp +
         "): host fields and buffers of 2 MiB or more in whole 2 MiB pages, advised "
         "MADV_HUGEPAGE";
}

// What --overlap computes, where the interior runs and how MPI is driven meanwhile.
std::string overlap_note(const Options& opt) {
  std::string reach;
  for (int a = 0; a < 3; ++a) {
    if (opt.axes[static_cast<std::size_t>(a)]) reach += std::string(reach.empty() ? "" : ", ") + "xyz"[a];
  }
  const std::string what = opt.stencil == StencilKind::box
                               ? std::string("a box stencil: the 26 points at distance h")
                               : fmt::format("a star stencil of reach h along {}", reach);
  std::string where = "the exchange's instance";
  if (opt.streams == 2) {
    where =
        opt.backend == Backend::host
            ? "the exchange's instance (a host space runs synchronously: --streams 2 changes nothing here)"
            : (KOKKOS_VERSION >= 40000 ? "a second instance (Kokkos::Experimental::partition_space)"
                                       : "the exchange's instance (this Kokkos has no partition_space)");
  }
  const std::string how =
      opt.progress == ProgressMode::wait
          ? "wait: no MPI call until the interior is done"
          : (opt.backend == Backend::host ? "poll: MPI_Testall between 8 slabs of the interior"
                                          : "poll: MPI_Testall in a loop while the device runs the interior");
  return fmt::format(
      "overlap: {}, writing a second field; interior on {}; progress {}; the three steps timed in "
      "interleaved "
      "rounds (at least 3), each the median; Exposed_us = Overlap_us - Comp_us; Noise_us = the largest "
      "spread of a step over the rounds; Hidden = (Blocking_us - Overlap_us) / (Blocking_us - Comp_us), "
      "'-' where what it measures lies within Noise_us; Comp_GBps = 16 B per owned cell and field / Comp_us",
      what, where, how);
}

// The notes on what the run measures besides the exchange.
void measurement_notes(const HeaderSources& src, HeaderInfo& h) {
  const Options& opt = src.opt;
  if (src.groups.has(Group::send_min)) {
    h.notes.emplace_back(
        "ranks send different amounts at some sizes: Send_min_B is the least sender's bytes");
  }
  if (opt.iters_auto) {
    h.notes.push_back(fmt::format(
        "iters auto: each row's K (column Iters) from its warm-up{}, so that a timed block lasts at least "
        "{:.3f} s (--min-time): on each rank from its median warm-up exchange, then the most over the "
        "ranks; "
        "K from {} to {}; --breakdown's reference, --limit and --overlap time the same K",
        opt.warmup == 0 ? " (--warmup 0: one exchange, untimed, to estimate from)" : "", opt.min_time,
        kAutoItersLeast, kAutoItersMost));
  }
  if (opt.per_rank) {
    h.notes.emplace_back(
        "per-rank: Rank_us is a rank's time per exchange from the clock's start to the end of its own K-th "
        "exchange, before the trailing barrier, in the median block; Slowest is the rank with the most, "
        "Skew its Rank_us over the median rank's");
  }
  if (src.groups.has(Group::spread)) {
    h.notes.push_back(
        fmt::format("Time_us is the median of {} timed blocks, Min_us and Max_us the fastest "
                    "and the slowest (each the slowest rank's)",
                    opt.repeats));
  }
  if (src.groups.has(Group::breakdown)) {
    h.notes.emplace_back(
        "breakdown, phases of the timed exchanges themselves (a fence and a clock read between stages; "
        "the busiest rank of the median block, so they add up to its time in the loop): Pack_us packs, "
        "Mpi_us posts and waits (MPI's own copies included), Stage_us copies between device and host, "
        "Unpack_us unpacks and copies the self pieces");
    h.notes.emplace_back(
        "reference, timed on its own: Xfer_us is MPI alone on packed contiguous buffers (receives, sends, "
        "wait); Xfer_GBps = Send_B / Xfer_us / 1e3; Eff = Uni_GBps / Xfer_GBps");
  }
  if (src.groups.has(Group::limit)) {
    h.limits.emplace_back(
        "Copy_GBps", std::string("Send_B / time of a contiguous copy of Send_B bytes within "
                                 "each rank's memory (") +
                         (opt.backend == Backend::host ? "memcpy in host memory" : "device-to-device copy") +
                         ")");
    h.limits.emplace_back(
        "Peer_GBps",
        "Send_B / time of a direct copy of Send_B bytes from each rank's GPU into its "
        "neighbour's along the first cut axis (CUDA/HIP IPC, all pairs at once, both "
        "directions together); n/a on the host backend, off-node pairs, or where IPC fails");
    for (const auto& [name, what] : h.limits) h.notes.push_back(fmt::format("{} = {}", name, what));
  }
}

// The notes on where the run runs and how it is guarded.
void run_notes(const HeaderSources& src, const EnvLookup& env, HeaderInfo& h) {
  const Options& opt = src.opt;
  if (const auto& sim = Process::simulation()) {
    h.notes.push_back(
        fmt::format("simulated by {} on platform {}: every time is the model's, not a measurement",
                    sim->name(), env(env_var::kSimulatedPlatform).value_or("(unnamed)")));
  }
  // The MPI library, so that rows compared across machines name it (the files carry it too).
  h.notes.push_back("mpi " + mpi_library_version());
  // What the library answers of device buffers, asked on every backend; a host run uses none of it.
  h.notes.push_back("mpi_gpu " + gpu_support_answers() +
                    (opt.backend == Backend::host ? " (not used: host memory needs no GPU-aware MPI)" : ""));
  if (opt.backend != Backend::host) {
    h.notes.emplace_back("gpu_aware from " + src.aware.reason);
    if (src.dev.visible == 1) h.notes.emplace_back("each rank sees one device: every rank uses its device 0");
  }
  h.notes.push_back(opt.timeout > 0
                        ? fmt::format("watchdog {} s: a wait that lasts longer aborts the job, naming "
                                      "the size, phase, face and peer (--timeout)",
                                      opt.timeout)
                        : std::string("watchdog off (--timeout 0)"));
  if (opt.timeout > 0 && !src.process.helper_threads()) {
    h.notes.push_back("watchdog off: the MPI library gives " + thread_level_name(src.process.thread_level()) +
                      ", which allows no second thread");
  }
  if (auto e = env(env_var::kMpichGpuSupport))
    h.notes.push_back(std::string(env_var::kMpichGpuSupport) + "=" + *e);
  h.notes.push_back(hugepage_note(opt));
  if (opt.overlap) h.notes.push_back(overlap_note(opt));
  if (src.nothing_crosses) {
    h.notes.push_back("nothing crosses ranks, Send_B is 0: " + *src.nothing_crosses);
  }
  if (const std::string nodes = node_note(src.hosts, src.node_of_rank); !nodes.empty())
    h.notes.push_back(nodes);
  if (!src.map.note.empty()) h.notes.push_back(src.map.note);
  if (!opt.periodic[0] || !opt.periodic[1] || !opt.periodic[2]) h.notes.push_back(walls_note(opt.periodic));
}

}  // namespace

std::string node_note(const std::vector<std::string>& hosts, const std::vector<int>& node_of_rank) {
  if (hosts.size() != node_of_rank.size()) return {};
  // The same partition: each rank's first rank of its host is its first rank of its node.
  std::map<std::string, std::size_t> first_on_host;
  std::map<int, std::size_t> first_on_node;
  bool same = true;
  for (std::size_t r = 0; r < hosts.size(); ++r) {  // every rank counted, also after the first difference
    const std::size_t by_host = first_on_host.emplace(hosts[r], r).first->second;
    same = by_host == first_on_node.emplace(node_of_rank[r], r).first->second && same;
  }
  if (same) return {};
  std::string out = "rank_node";
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) out += fmt::format(" {}:{}", r, node_of_rank[r]);
  return out + fmt::format(
                   " (MPI_COMM_TYPE_SHARED makes {} node{} of the ranks, their host names {}; OffNode_B and "
                   "the placements follow MPI's nodes)",
                   first_on_node.size(), first_on_node.size() == 1 ? "" : "s", first_on_host.size());
}

// Which axes wrap around and which have walls (--periodic).
std::string walls_note(const AxisSet& periodic) {
  std::string wrap;
  std::string open;
  for (int a = 0; a < 3; ++a) {
    std::string& to = periodic[static_cast<std::size_t>(a)] ? wrap : open;
    to += std::string(to.empty() ? "" : ",") + "xyz"[a];
  }
  return fmt::format(
      "periodic {}; walls along {}: the pieces at a wall are neither sent nor filled, their "
      "ghost cells keep their values (BoundaryFaces counts them)",
      wrap.empty() ? "none" : wrap, open);
}

std::string version_text() {
  return fmt::format("halo-bandwidth {} (commit {}, {} build, {}, {})\nMPI library: {}", HALOBW_VERSION,
                     HALOBW_GIT_COMMIT, HALOBW_BUILD_TYPE, HALOBW_COMPILER, kokkos_summary(),
                     mpi_library_version());
}

HeaderInfo make_header(const Comm& comm, const HeaderSources& src, const EnvLookup& env) {
  HeaderInfo h;
  RunInfo& run = h.run;
  run.options = src.opt;
  run.version = HALOBW_VERSION;
  run.commit = HALOBW_GIT_COMMIT;
  run.device = src.dev.name;
  run.ranks = comm.size();
  run.nodes =
      src.node_of_rank.empty() ? 1 : 1 + *std::max_element(src.node_of_rank.begin(), src.node_of_rank.end());
  run.placement = src.map.used;
  run.node_grid = src.map.node_grid;
  run.grid = src.grid.dims();
  run.transport = src.tc.transport;
  run.gpu_aware = src.tc.gpu_aware;
  // Only rank 0 prints the header: the tables of P entries and the notes
  // drawn from them are made there alone (P ranks each building them would
  // cost the job O(P^2)).
  const bool root = comm.rank() == 0;
  h.rank_device.resize(root ? static_cast<std::size_t>(comm.size()) : 0);
  {
    const auto armed = comm.guard("MPI_Gather");
    check_mpi(MPI_Gather(&src.dev.device_id, 1, MPI_INT, h.rank_device.data(), 1, MPI_INT, 0, comm.get()),
              "MPI_Gather");
  }
  if (!root) return h;
  h.rank_host = src.hosts;
  run_notes(src, env, h);
  measurement_notes(src, h);
  return h;
}

bool huge_figures_recorded(const Options& opt) {
  return opt.backend == Backend::host &&
         host_placement(opt.hugepages == Toggle::on) == Placement::huge_pages && !Process::simulation();
}

Groups groups_of(const Options& opt, const RowFacts& facts, int nodes) {
  const bool walls = !opt.periodic[0] || !opt.periodic[1] || !opt.periodic[2];
  Groups g;
  g.set(Group::send_min, facts.uneven)
      .set(Group::spread, opt.repeats > 1)
      .set(Group::breakdown, opt.breakdown)
      .set(Group::limit, opt.limit)
      .set(Group::overlap, opt.overlap)
      .set(Group::box, opt.stencil == StencilKind::box)
      .set(Group::cube, !opt.local && facts.all_cubes)
      .set(Group::local, opt.local && facts.all_cubes)
      .set(Group::local_extents, opt.local && !facts.all_cubes)
      .set(Group::global_box, opt.local || !facts.all_cubes)
      .set(Group::sweep, opt.halos.size() > 1)
      .set(Group::walls, walls)
      .set(Group::off_node, nodes > 1)
      .set(Group::iters, opt.iters_auto)
      .set(Group::ranks, opt.per_rank)
      .set(Group::hugepages, huge_figures_recorded(opt));
  return g;
}

// Each node's ranks against its cores: a node whose ranks outnumber its cores
// measures the scheduler as much as the network (Open MPI under srun does not
// even know it is oversubscribed, and spins). Recorded with the results, so
// that scripts/compare can say so. Under a simulation the cores are the
// simulated node's, from the platform (Process::cores), not this machine's:
// the model shares a node's cores among its ranks. Collective.
void add_node_cores(const Comm& comm, HeaderInfo& h) {
  const int mine = Process::cores();
  h.rank_cores.assign(comm.rank() == 0 ? static_cast<std::size_t>(comm.size()) : 0, 0);
  {
    const auto armed = comm.guard("MPI_Gather");
    check_mpi(MPI_Gather(&mine, 1, MPI_INT, h.rank_cores.data(), 1, MPI_INT, 0, comm.get()), "MPI_Gather");
  }
  if (comm.rank() != 0) return;  // rank 0 alone prints the header
  const NodeEntry* worst = nullptr;
  const std::vector<NodeEntry> nodes = node_map(h.rank_host, h.rank_device, h.rank_cores);
  for (const NodeEntry& n : nodes) {
    const double per_core = static_cast<double>(n.ranks.size()) / std::max(1, n.cores);
    if (per_core > h.run.ranks_per_core) h.run.ranks_per_core = per_core, worst = &n;
  }
  h.run.oversubscribed = h.run.ranks_per_core > 1.0;
  if (!h.run.oversubscribed || worst == nullptr) return;
  h.notes.push_back(fmt::format(
      "oversubscribed: on some node the ranks outnumber the cores, up to {:.2f} ranks per core (node {}: {} "
      "ranks, {} cores); these rows time {}",
      h.run.ranks_per_core, worst->name, worst->ranks.size(), worst->cores,
      Process::simulation() ? "the model's sharing of the simulated node's cores as much as its network"
                            : "the scheduler as much as MPI"));
}

// Provenance for the CSV and JSON outputs (rank 0's view of the environment).
void add_provenance(HeaderInfo& h, const std::vector<std::string>& args, const EnvLookup& env,
                    int thread_level) {
  h.build_type = HALOBW_BUILD_TYPE;
  h.compiler = HALOBW_COMPILER;
  h.kokkos = kokkos_summary();
  for (Backend b : build_backends()) h.backends.emplace_back(to_string(b));
  h.mpi_library = mpi_library_version();
  h.command_line.emplace_back("halo-bandwidth");
  h.command_line.insert(h.command_line.end(), args.begin(), args.end());
  h.start_utc = utc_now();
  h.mpi_thread = thread_level_name(thread_level);
  for (const char* name : env_var::kRecorded) h.environment.emplace_back(name, env(name));
  if (const auto& sim = Process::simulation()) {
    h.simulation = {sim->engine, sim->version, env(env_var::kSimulatedPlatform).value_or(""),
                    env(env_var::kSimulatedPlatformSha256).value_or("")};
  }
}

}  // namespace halobw
