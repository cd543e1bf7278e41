#include "halobw/app/app.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <set>
#include <thread>

#include "halobw/app/benchmark.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/exchange/faults.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/memory.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/placement.hpp"
#include "halobw/platform/device.hpp"
#include "halobw/platform/huge_pages.hpp"
#include "halobw/platform/system.hpp"
#include "halobw/platform/terminal.hpp"
#include "halobw/platform/watchdog.hpp"
#include "halobw/report/columns.hpp"
#include "halobw/report/output.hpp"
#include "halobw/report/report.hpp"
#include "halobw/version.hpp"

#include <Kokkos_Core.hpp>  // KOKKOS_VERSION: whether partition_space exists

namespace halobw {

namespace {

// The environment every result file records (rank 0's values): the overrides,
// the device visibility, and the Slurm job.
constexpr const char* kProvenanceEnvironment[] = {"OPENPFC_FD_PROC_GRID",
                                                  "OPENPFC_ASSUME_GPU_AWARE_MPI",
                                                  "MPICH_GPU_SUPPORT_ENABLED",
                                                  "CUDA_VISIBLE_DEVICES",
                                                  "ROCR_VISIBLE_DEVICES",
                                                  "HIP_VISIBLE_DEVICES",
                                                  "SLURM_JOB_ID",
                                                  "SLURM_JOB_NODELIST",
                                                  "SLURM_NTASKS",
                                                  "SLURM_TASKS_PER_NODE",
                                                  "SLURM_LOCALID"};

std::string version_text() {
  return fmt::format("halo-bandwidth {} (commit {}, {} build, {}, {})", HALOBW_VERSION, HALOBW_GIT_COMMIT,
                     HALOBW_BUILD_TYPE, HALOBW_COMPILER, kokkos_summary());
}

// Rank 0 prints the agreed failure; every rank returns its exit code.
int stop(const Comm& comm, const Failure& f) {
  if (comm.rank() == 0) {
    std::fprintf(stderr, "halo-bandwidth: error: %s\n", f.message.c_str());
    std::fflush(stderr);
  }
  return exit_status(f.code);
}

// Rows whose fields and buffers do not fit where they live, per node. Collective.
// `summary` gets the header's account of what the run allocates.
Status memory_preflight(const Comm& comm, const Options& opt, const ProcGrid& grid, Transport transport,
                        const NodeRank& node, int visible_devices, const std::string& host_name,
                        std::string& summary) {
  std::uint64_t worst_total = 0;  // everything this rank allocates at its largest row
  std::string worst_total_n = "-";
  std::uint64_t worst_host = 0;
  std::uint64_t worst_device = 0;
  std::string worst_host_n = "-";
  std::string worst_device_n = "-";
  MemoryUse use;
  use.transport = transport;
  use.breakdown = opt.breakdown;
  use.limit = opt.limit;
  use.check = opt.check;
  use.device = opt.backend != Backend::host;
  use.host = host_placement(opt.hugepages == Toggle::on);
  use.overlap = opt.overlap;
  for (const RowSpec& row : row_specs(opt, grid)) {
    const Shape shape = shape_of(opt, row);
    const RankPlan plan = make_rank_plan(grid, shape, comm.rank());
    use.send_max = use.limit && use.device ? send_range(grid, shape).max : 0;
    const MemoryNeed need = memory_need(plan, make_message_table(plan, opt.self, opt.messages), use);
    if (need.on_host() > worst_host) worst_host = need.on_host(), worst_host_n = row_label(opt, row);
    if (need.on_device() > worst_device)
      worst_device = need.on_device(), worst_device_n = row_label(opt, row);
    if (need.total() > worst_total) worst_total = need.total(), worst_total_n = row_label(opt, row);
  }
  // Rows run one after another, so the peak is the largest row's need, summed over the node.
  const std::uint64_t node_need = sum_over_node(comm, worst_host);

  std::string message;
  const auto host_free = host_available_bytes();
  unsigned long long total = worst_total;
  unsigned long long most = 0;
  {
    const auto armed = comm.guard("MPI_Allreduce");
    check_mpi(MPI_Allreduce(&total, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm.get()), "MPI_Allreduce");
  }
  summary = fmt::format(
      "memory per rank at most {} B ({}: field, packed buffers, staging and limit buffers); "
      "host memory per node {} of {} available",
      most, worst_total_n, bytes_text(node_need), host_free ? bytes_text(*host_free) : "an unknown amount");
  if (host_free && node_need > *host_free) {
    message =
        fmt::format("{} needs {} of host memory on node {} ({} ranks there), {} available", worst_host_n,
                    bytes_text(node_need), host_name, node.local_size, bytes_text(*host_free));
  }
  const auto dev_free = device_free_bytes(opt.backend);
  if (message.empty() && dev_free && visible_devices > 0) {
    const int sharing = (node.local_size + visible_devices - 1) / visible_devices;
    const std::uint64_t need = worst_device * static_cast<std::uint64_t>(sharing);
    if (need > *dev_free) {
      message = fmt::format("{} needs {} of device memory per device ({} ranks share it), {} free",
                            worst_device_n, bytes_text(need), sharing, bytes_text(*dev_free));
    }
  }
  return agree(comm, message.empty() ? Status{} : fail(message));
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Provenance for the CSV and JSON outputs (rank 0's view of the environment).
void add_provenance(HeaderInfo& h, const std::vector<std::string>& args, const EnvLookup& env) {
  h.build_type = HALOBW_BUILD_TYPE;
  h.compiler = HALOBW_COMPILER;
  h.kokkos = kokkos_summary();
  for (Backend b : build_backends()) h.backends.emplace_back(to_string(b));
  h.mpi_library = mpi_library_version();
  h.command_line.emplace_back("halo-bandwidth");
  h.command_line.insert(h.command_line.end(), args.begin(), args.end());
  h.start_utc = utc_now();
  for (const char* name : kProvenanceEnvironment) h.environment.emplace_back(name, env(name));
}

// What --hugepages asked for and what the kernel offers; what it gave each
// row follows the row's measurements.
std::string hugepage_note(const Options& opt) {
  const auto mode = thp_mode();
  const std::string thp = mode ? "THP " + *mode : std::string("no transparent huge pages");
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

// Each node's ranks against its cores: a node whose ranks outnumber its cores
// measures the scheduler as much as the network (Open MPI under srun does not
// even know it is oversubscribed, and spins). Recorded with the results, so
// that scripts/compare can say so. Collective.
void add_node_cores(const Comm& comm, HeaderInfo& h) {
  const int mine = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  h.rank_cores.assign(static_cast<std::size_t>(comm.size()), 0);
  {
    const auto armed = comm.guard("MPI_Allgather");
    check_mpi(MPI_Allgather(&mine, 1, MPI_INT, h.rank_cores.data(), 1, MPI_INT, comm.get()), "MPI_Allgather");
  }
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
      "ranks, {} cores); these rows time the scheduler as much as MPI",
      h.run.ranks_per_core, worst->name, worst->ranks.size(), worst->cores));
}

// The launcher's own count of tasks, against the ranks MPI sees. A launcher
// and an MPI whose PMI do not match (MPICH under srun --mpi=pmix) start each
// task as a job of one rank: every one would print a valid-looking table of
// self faces. Pure.
Status launcher_agrees(const EnvLookup& env, int mpi_size) {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}) {
    const auto v = env(name);
    if (!v || v->empty()) continue;
    const long tasks = std::strtol(v->c_str(), nullptr, 10);
    // Slurm's counts describe the step or allocation, which may hold more than
    // this job (mpirun inside an allocation): only a lone rank among many is sure.
    const bool slurm = std::string(name).rfind("SLURM_", 0) == 0;
    if (tasks > 0 && tasks != mpi_size && (!slurm || mpi_size == 1)) {
      return fail(
          fmt::format("the launcher started {} tasks ({}={}) but MPI sees {} rank{}: each task runs alone, "
                      "so the launcher and "
                      "the MPI library do not speak the same PMI (under srun: --mpi=pmix for Open MPI, "
                      "--mpi=pmi2 for MPICH)",
                      tasks, name, *v, mpi_size, mpi_size == 1 ? "" : "s"));
    }
    if (slurm) break;  // the step's count, when there is one, over the allocation's
  }
  return {};
}

// The launcher's number for this task (0 when it gives none). Where each task
// runs alone, every one is rank 0 of its own MPI_COMM_WORLD: this tells the
// launcher's first task, the one that speaks for all. Pure.
long launcher_rank(const EnvLookup& env) {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) {
    const auto v = env(name);
    if (v && !v->empty()) return std::strtol(v->c_str(), nullptr, 10);
  }
  return 0;
}

HeaderInfo make_header(const Comm& comm, const Options& opt, const ProcGrid& grid,
                       const std::vector<std::string>& hosts, const DeviceChoice& dev,
                       const TransportChoice& tc, const GpuAwareness& aware, const Groups& groups,
                       const EnvLookup& env, bool any_remote) {
  HeaderInfo h;
  RunInfo& run = h.run;
  run.options = opt;
  run.version = HALOBW_VERSION;
  run.commit = HALOBW_GIT_COMMIT;
  run.device = dev.name;
  run.ranks = comm.size();
  run.nodes = static_cast<int>(std::set<std::string>(hosts.begin(), hosts.end()).size());
  run.grid = grid.dims();
  run.transport = tc.transport;
  run.gpu_aware = tc.gpu_aware;
  h.rank_device.resize(static_cast<std::size_t>(comm.size()));
  check_mpi(MPI_Allgather(&dev.device_id, 1, MPI_INT, h.rank_device.data(), 1, MPI_INT, comm.get()),
            "MPI_Allgather");
  h.rank_host = hosts;
  if (opt.backend != Backend::host) {
    h.notes.emplace_back("gpu_aware from " + aware.reason);
    if (dev.visible == 1) h.notes.emplace_back("each rank sees one device: every rank uses its device 0");
  }
  h.notes.push_back(opt.timeout > 0
                        ? fmt::format("watchdog {} s: a wait that lasts longer aborts the job, naming "
                                      "the size, phase, face and peer (--timeout)",
                                      opt.timeout)
                        : std::string("watchdog off (--timeout 0)"));
  if (auto e = env("MPICH_GPU_SUPPORT_ENABLED")) h.notes.push_back("MPICH_GPU_SUPPORT_ENABLED=" + *e);
  h.notes.push_back(hugepage_note(opt));
  if (opt.overlap) h.notes.push_back(overlap_note(opt));
  if (const auto none = nothing_crosses(opt, grid, comm.size(), any_remote)) {
    h.notes.push_back("nothing crosses ranks, Send_B is 0: " + *none);
  }
  if (groups.has(Group::send_min)) {
    h.notes.emplace_back(
        "ranks send different amounts at some sizes: Send_min_B is the least sender's bytes");
  }
  if (groups.has(Group::spread)) {
    h.notes.push_back(
        fmt::format("Time_us is the median of {} timed blocks, Min_us and Max_us the fastest "
                    "and the slowest (each the slowest rank's)",
                    opt.repeats));
  }
  if (groups.has(Group::breakdown)) {
    h.notes.emplace_back(
        "breakdown, phases of the timed exchanges themselves (a fence and a clock read between stages; "
        "the busiest rank of the median block, so they add up to its time in the loop): Pack_us packs, "
        "Mpi_us posts and waits (MPI's own copies included), Stage_us copies between device and host, "
        "Unpack_us unpacks and copies the self pieces");
    h.notes.emplace_back(
        "reference, timed on its own: Xfer_us is MPI alone on packed contiguous buffers (receives, sends, "
        "wait); Xfer_GBps = Send_B / Xfer_us / 1e3; Eff = Uni_GBps / Xfer_GBps");
  }
  if (groups.has(Group::limit)) {
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
  return h;
}

// What every rank's plan of every row says before anything is allocated:
// whether ranks send different amounts, and whether any byte crosses ranks.
struct RowFacts {
  bool uneven = false;
  bool any_remote = false;
};
RowFacts row_facts(const Options& opt, const ProcGrid& grid) {
  RowFacts f;
  for (const RowSpec& row : row_specs(opt, grid)) {
    const SendRange r = send_range(grid, shape_of(opt, row));
    f.uneven = f.uneven || r.min != r.max;
    f.any_remote = f.any_remote || r.max > 0;
  }
  return f;
}

Groups groups_of(const Options& opt, const RowFacts& facts) {
  Groups g;
  g.set(Group::send_min, facts.uneven)
      .set(Group::spread, opt.repeats > 1)
      .set(Group::breakdown, opt.breakdown)
      .set(Group::limit, opt.limit)
      .set(Group::overlap, opt.overlap)
      .set(Group::box, opt.stencil == StencilKind::box)
      .set(Group::cube, !opt.local)
      .set(Group::local, opt.local)
      .set(Group::sweep, opt.halos.size() > 1)
      .set(Group::hugepages, opt.backend == Backend::host &&
                                 host_placement(opt.hugepages == Toggle::on) == Placement::huge_pages);
  return g;
}

// "halo-bandwidth: error: ..." ("halo-bandwidth: check ... failed: ..." for --check).
void print_failure(Progress& progress, const Failure& f) {
  progress.clear();
  const char* kind = f.code == ExitCode::check_failed ? "" : "error: ";
  std::fprintf(stderr, "halo-bandwidth: %s%s\n", kind, f.message.c_str());
  std::fflush(stderr);
}

// Rank 0's Output hears the watchdog's last word for as long as it lives.
class LastWord {
 public:
  LastWord(Watchdog* w, Output* out) : w_(out != nullptr ? w : nullptr) {
    if (w_ != nullptr)
      w_->on_expire([out](const std::string& line) { out->abandon(line, ExitCode::timeout); });
  }
  ~LastWord() {
    if (w_ != nullptr) w_->on_expire({});
  }
  LastWord(const LastWord&) = delete;
  LastWord& operator=(const LastWord&) = delete;

 private:
  Watchdog* w_;
};

// The rows measured and reported, and how the run ended: on stderr (rank 0's
// one line) and in the results. Collective; the exit code.
int measure_and_report(const Comm& comm, RunSetup& setup, const HeaderInfo& header,
                       const std::optional<std::string>& nothing) {
  const Options& opt = *setup.options;
  const bool root = comm.rank() == 0;
  Progress progress(root && stderr_is_terminal());
  std::optional<Output> output;
  if (root) {
    output.emplace(opt.format, opt.output, opt.quiet, &progress);
    setup.output = &*output;
    setup.progress = &progress;
  }
  Status failure = agree(comm, root ? output->begin(header, setup.groups) : Status{});
  const LastWord last_word(comm.watchdog(), root ? &*output : nullptr);
  if (!failure) {
    try {
      failure = run_benchmark(comm, setup);
    } catch (const std::exception& e) {
      if (output)
        output->abandon(fmt::format("error on rank {}: {}", comm.rank(), e.what()), ExitCode::runtime_error);
      throw;
    }
  }
  if (!root) return failure ? exit_status(failure->code) : 0;
  RunStatus status;
  status.state = failure ? RunStatus::State::failed : RunStatus::State::complete;
  status.exit_code = failure ? exit_status(failure->code) : 0;
  if (failure) status.reason = failure->message;
  if (nothing) status.warnings.push_back("nothing crossed ranks: " + *nothing);
  if (failure) print_failure(progress, *failure);
  if (const Status written = output->finish(status)) {
    print_failure(progress, *written);
    if (!failure) return exit_status(written->code);
  }
  if (failure) return exit_status(failure->code);
  if (nothing) std::fprintf(stderr, "halo-bandwidth: warning: nothing crossed ranks: %s\n", nothing->c_str());
  return 0;
}

// From the host names to the exit code: the device, the transport, the
// memory preflight, the header, then the rows. Collective.
int run_on_devices(const Comm& comm, const Options& opt, const ProcGrid& grid,
                   const std::vector<std::string>& args, const EnvLookup& env, int thread_level) {
  const std::vector<std::string> hosts = gather_hostnames(comm);
  const NodeRank node = node_rank(comm);
  const DeviceChoice dev = choose_device(opt.backend, node.local_rank);
  if (const Status v = agree(
          comm, opt.backend == Backend::host || dev.visible > 0
                    ? Status{}
                    : fail(fmt::format("rank {} sees no {} device", comm.rank(), to_string(opt.backend))))) {
    return stop(comm, *v);
  }
  const KokkosSession kokkos(dev.device_id);
  const GpuAwareness aware =
      resolve_gpu_aware(opt, query_gpu_support(opt.backend), env("MPICH_GPU_SUPPORT_ENABLED"));
  const Expected<TransportChoice> tc = choose_transport(opt, aware);
  if (const Status v = agree(comm, tc.status())) return stop(comm, *v);
  if (!same_on_all_ranks(comm, {static_cast<long long>(tc->transport), aware.aware ? 1 : 0})) {
    return stop(
        comm, Failure{ExitCode::bad_input,
                      "ranks disagree on GPU-aware MPI (OPENPFC_ASSUME_GPU_AWARE_MPI, "
                      "MPICH_GPU_SUPPORT_ENABLED or the library's answer differ): give --gpu-aware on|off"});
  }
  std::string memory_summary;
  if (const Status v = memory_preflight(comm, opt, grid, tc->transport, node, dev.visible,
                                        hosts[static_cast<std::size_t>(comm.rank())], memory_summary)) {
    return stop(comm, *v);
  }
  RunSetup setup;
  setup.options = &opt;
  setup.grid = grid;
  setup.hosts = hosts;
  setup.transport = tc->transport;
  setup.faults = FaultPlan::from_environment(env);
  const RowFacts facts = row_facts(opt, grid);
  setup.groups = groups_of(opt, facts);
  HeaderInfo header =
      make_header(comm, opt, grid, hosts, dev, *tc, aware, setup.groups, env, facts.any_remote);
  if (thread_level < MPI_THREAD_FUNNELED && opt.timeout > 0) {
    header.notes.push_back("watchdog off: the MPI library gives " + thread_level_name(thread_level) +
                           ", which allows no second thread");
  }
  header.notes.push_back(memory_summary);
  add_node_cores(comm, header);
  add_provenance(header, args, env);
  header.mpi_thread = thread_level_name(thread_level);
  return measure_and_report(comm, setup, header, nothing_crosses(opt, grid, comm.size(), facts.any_remote));
}

}  // namespace

int run_app(Comm& comm, const std::vector<std::string>& args, int thread_level) {
  const EnvLookup env = process_environment();
  const Expected<Parsed> parsed = parse_options(args, env, build_backends(), version_text());
  if (const Status v = agree(comm, parsed.status())) return stop(comm, *v);
  if (parsed->exit_text) {
    if (comm.rank() == 0) std::fputs(parsed->exit_text->c_str(), stdout);
    return 0;
  }
  const Options& opt = parsed->options;
  if (const Status v = agree(comm, launcher_agrees(env, comm.size()))) {
    // Every task is a rank 0 here: only the launcher's first one prints the line.
    if (launcher_rank(env) != 0) return exit_status(v->code);
    return stop(comm, *v);
  }
  if (const Status v = agree(comm, validate_layout(opt, comm.size()))) return stop(comm, *v);
  // Rank 0 looks at --output now, so an unwritable path fails before any measurement;
  // the file itself is only written once there are rows.
  if (const Status v =
          agree(comm, comm.rank() == 0 && opt.output ? Output::check_target(*opt.output) : Status{})) {
    return stop(comm, *v);
  }

  const ProcGrid grid = choose_grid(opt, comm.size());
  // Each rank parsed its own command line and environment: they must describe one run.
  const auto& d = grid.dims();
  const long long args_hash =
      static_cast<long long>(std::hash<std::string>{}(fmt::format("{}", fmt::join(args, "\n"))));
  if (!same_on_all_ranks(comm, {d[0], d[1], d[2], args_hash})) {
    return stop(comm,
                Failure{ExitCode::bad_input,
                        "ranks were given different command lines or process grids (OPENPFC_FD_PROC_GRID "
                        "must be the same on every rank)"});
  }
  // The watchdog's thread never calls MPI, which MPI_THREAD_FUNNELED allows.
  Watchdog watchdog(thread_level >= MPI_THREAD_FUNNELED ? opt.timeout : 0, comm.rank());
  comm.set_watchdog(&watchdog);
  const int code = run_on_devices(comm, opt, grid, args, env, thread_level);
  comm.set_watchdog(nullptr);
  return code;
}

}  // namespace halobw
