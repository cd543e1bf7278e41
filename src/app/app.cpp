#include "halobw/app/app.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <functional>
#include <optional>

#include "halobw/app/benchmark.hpp"
#include "halobw/app/dry_run.hpp"
#include "halobw/app/header.hpp"
#include "halobw/app/job.hpp"
#include "halobw/app/preflight.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/exchange/faults.hpp"
#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/transport.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/device.hpp"
#include "halobw/platform/launcher.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/terminal.hpp"
#include "halobw/platform/watchdog.hpp"
#include "halobw/report/output.hpp"

namespace halobw {

namespace {

// Rank 0 prints the agreed failure; every rank returns its exit code.
int stop(const Comm& comm, const Failure& f) {
  if (comm.rank() == 0) {
    std::fprintf(stderr, "halo-bandwidth: error: %s\n", f.message.c_str());
    std::fflush(stderr);
  }
  return exit_status(f.code);
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
                       const std::vector<std::string>& warnings) {
  const Options& opt = *setup.options;
  const bool root = comm.rank() == 0;
  Progress progress(root && Process::stderr_is_terminal());
  std::optional<Output> output;
  if (root) {
    output.emplace(opt.format, opt.output, opt.quiet, &progress);
    setup.output = &*output;
    setup.progress = &progress;
  }
  Status failure = agree(comm, root ? output->begin(header, setup.groups, warnings) : Status{});
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
  if (failure) print_failure(progress, *failure);
  // The first failed write ends the run as soon as it happens; it is not printed twice.
  if (const Status written = output->finish(status);
      written && (!failure || written->message != failure->message)) {
    print_failure(progress, *written);
    if (!failure) return exit_status(written->code);
  }
  if (failure) return exit_status(failure->code);
  for (const std::string& w : warnings) std::fprintf(stderr, "halo-bandwidth: warning: %s\n", w.c_str());
  return 0;
}

// The device, the transport and GPU-awareness, agreed by every rank. Collective.
struct Devices {
  DeviceChoice dev;
  GpuAwareness aware;
  TransportChoice tc;
};
Expected<Devices> choose_devices(const Comm& comm, const Options& opt, const NodeRank& node,
                                 const EnvLookup& env) {
  Devices d;
  d.dev = choose_device(opt.backend, node.local_rank);
  d.aware = resolve_gpu_aware(opt, query_gpu_support(opt.backend), env(env_var::kMpichGpuSupport));
  const Expected<TransportChoice> tc = choose_transport(opt, d.aware);
  const Status unseen =
      opt.backend == Backend::host || d.dev.visible > 0
          ? Status{}
          : fail(fmt::format("rank {} sees no {} device", comm.rank(), to_string(opt.backend)));
  if (const Status v = agree(comm, unseen ? unseen : tc.status())) return *v;
  d.tc = *tc;
  if (!same_on_all_ranks(comm, {static_cast<long long>(d.tc.transport), d.aware.aware ? 1 : 0})) {
    return Failure{
        ExitCode::bad_input,
        fmt::format("ranks disagree on GPU-aware MPI ({}, {} or the library's answer differ): give "
                    "--gpu-aware on|off",
                    env_var::kAssumeGpuAware, env_var::kMpichGpuSupport)};
  }
  return d;
}

// What rank 0 says on stderr after the rows, and the files keep: a placement
// that fell back, and that nothing crossed ranks.
std::vector<std::string> warnings_of(const JobPlan& job, const std::optional<std::string>& nothing) {
  std::vector<std::string> w;
  if (job.maps.front().asked != job.maps.front().used) w.push_back(job.maps.front().note);
  if (nothing) w.push_back("nothing crossed ranks: " + *nothing);
  return w;
}

// From the plan to the exit code: the device, the transport, the memory
// preflight, the header, then the rows measured. Collective.
int run_on_devices(Process& process, const Comm& comm, const Options& opt, const Layout& layout,
                   const JobPlan& job, const std::vector<std::string>& args, const EnvLookup& env) {
  const Expected<Devices> devices = choose_devices(comm, opt, job.node, env);
  if (!devices) return stop(comm, devices.failure());
  process.start_kokkos(devices->dev.device_id);
  std::string memory_summary;
  const PreflightInput preflight{opt,
                                 job.rows,
                                 devices->tc.transport,
                                 job.node,
                                 devices->dev.visible,
                                 job.hosts[static_cast<std::size_t>(comm.rank())]};
  if (const Status v = memory_preflight(comm, preflight, memory_summary)) return stop(comm, *v);
  RunSetup setup;
  setup.options = &opt;
  setup.rows = &job.rows;
  setup.hosts = job.hosts;
  setup.transport = devices->tc.transport;
  setup.faults = FaultPlan::from_environment(env);
  const RowFacts facts = row_facts(job.rows);
  setup.groups = groups_of(opt, facts, nodes_of(job.node_of_rank));
  const HeaderSources sources{opt,
                              job.grid,
                              job.hosts,
                              devices->dev,
                              devices->tc,
                              devices->aware,
                              setup.groups,
                              facts,
                              layout.nothing_crosses,
                              job.maps.front(),
                              job.node_of_rank,
                              process};
  HeaderInfo header = make_header(comm, sources, env);
  header.notes.push_back(memory_summary);
  add_node_cores(comm, header);
  add_provenance(header, args, env, process.thread_level());
  return measure_and_report(comm, setup, header, warnings_of(job, layout.nothing_crosses));
}

// Each rank parsed its own command line and environment: they must describe
// one run (the same arguments, and the same grid where one was planned). Collective.
Status one_run(const Comm& comm, const std::vector<std::string>& args, const Dims3& grid) {
  const long long args_hash =
      static_cast<long long>(std::hash<std::string>{}(fmt::format("{}", fmt::join(args, "\n"))));
  if (same_on_all_ranks(comm, {grid[0], grid[1], grid[2], args_hash})) return {};
  return fail(
      fmt::format("ranks were given different command lines or process grids ({} must be the same on "
                  "every rank)",
                  env_var::kProcGrid));
}

}  // namespace

Expected<Layout> checked_layout(const Options& opt, int nranks, bool root) {
  Status v = opt.dry_run ? dry_run_refusal(opt) : method_refusal(opt.method, opt.pack);
  Expected<Layout> layout = plan_layout(opt, nranks);
  if (!v && !layout) v = layout.status();
  if (!v && root && opt.output) v = Output::check_target(*opt.output);
  if (v) return *v;
  return layout;
}

Expected<Parsed> parse_for_this_build(const std::vector<std::string>& args, const EnvLookup& env) {
  return parse_options(args, env, build_backends(), version_text(), struct_rule_of_library());
}

int run_app(Process& process, Comm& comm, const std::vector<std::string>& args) {
  const EnvLookup env = process_environment();
  const Expected<Parsed> parsed = parse_for_this_build(args, env);
  const Status launcher = launcher_agrees(env, comm.size(), mpi_library_version());
  const bool planned = parsed && !parsed->exit_text;  // not --help or --version
  const Expected<Layout> layout =
      planned ? checked_layout(parsed->options, comm.size(), comm.rank() == 0) : Expected<Layout>(Layout{});
  // Every check of the set-up, agreed in one collective: the first that fails on the lowest rank.
  if (const Status v = agree(comm, launcher ? launcher : !parsed ? parsed.status() : layout.status())) {
    // Each task is a rank 0 where the launcher and MPI disagree: only the launcher's first one prints.
    if (launcher && launcher_rank(env) != 0) return exit_status(v->code);
    return stop(comm, *v);
  }
  if (const Status v = one_run(comm, args, layout->grid.dims())) return stop(comm, *v);
  if (!planned) {
    if (comm.rank() == 0) std::fputs(parsed->exit_text->c_str(), stdout);
    return 0;
  }
  const Options& opt = parsed->options;
  const Layout& plan = *layout;
  // The watchdog's thread calls MPI only to end the job (Process::end_job);
  // where MPI grants less than MPI_THREAD_FUNNELED, and in a dry run, it does not run at all.
  Watchdog watchdog(process.helper_threads() && !opt.dry_run ? opt.timeout : 0, comm.rank());
  comm.set_watchdog(&watchdog);
  const JobPlan job = plan_job(comm, opt, plan);
  const int code = opt.dry_run ? dry_run_job(comm, opt, plan, job, env)
                               : run_on_devices(process, comm, opt, plan, job, args, env);
  comm.set_watchdog(nullptr);
  return code;
}

}  // namespace halobw
