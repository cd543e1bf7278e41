#include "halobw/cli/options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "halobw/cli/habits.hpp"
#include "halobw/cli/help.hpp"
#include "halobw/cli/size_list.hpp"
#include "halobw/cli/whole_number.hpp"

namespace halobw {

std::string Options::halo_list() const { return fmt::format("{}", fmt::join(halos, ",")); }

int Options::max_halo() const {
  int m = 0;
  for (int h : halos) m = std::max(m, h);
  return m;
}

std::string Options::directions() const {
  if (stencil == StencilKind::box) return "box";
  if (all_faces) return "all";
  if (axes[1]) return "y";
  if (axes[2]) return "z";
  return "x";
}

EnvLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

namespace {

constexpr std::int64_t kMaxSize = INT_MAX;  // MPI subarray dimensions are int
constexpr int kMaxRepeats = 1000000;        // one double per block is kept
constexpr std::int64_t kMaxHalo = 1 << 20;  // far beyond any stencil; keeps 2h in an int
constexpr int kMaxFields = 1000;            // separate messages are tagged direction + 26 x field: < 32767
constexpr int kMaxPlanRanks = 1 << 24;      // --ranks: far beyond any machine's ranks, planned in seconds
constexpr double kMinTimeLeast = 0.001;     // --min-time: a block shorter than a millisecond is all noise
constexpr double kMinTimeMost = 3600;
const Options kDefault{};  // the defaults --help states

// "64,128,256": the default sizes as --sizes writes them.
std::string sizes_text(const std::vector<Index3>& sizes) {
  std::vector<std::string> items;
  items.reserve(sizes.size());
  for (const Index3& e : sizes)
    items.push_back(e[0] == e[1] && e[1] == e[2] ? std::to_string(e[0]) : dims_string(e));
  return fmt::format("{}", fmt::join(items, ","));
}

std::string whole_text(const std::string& s, std::int64_t lo, std::int64_t hi) {
  return "'" + s + "' is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

// --- Validators: each checks the text as given and says what is wrong. ---

// Normalised to its plain digits, so that CLI11's conversion (base 0) reads "010" as 10, not 8.
CLI::Validator whole(std::int64_t lo, std::int64_t hi) {
  return {[lo, hi](std::string& s) {
            const auto v = parse_whole(s, lo, hi);
            if (!v) return whole_text(s, lo, hi);
            s = std::to_string(*v);
            return std::string();
          },
          "", "whole"};
}

// "N1,N2,...": every item a whole number in [lo, hi] (empty items are errors, not skipped).
CLI::Validator whole_list(std::int64_t lo, std::int64_t hi) {
  return {[lo, hi](std::string& s) {
            for (const auto& item : split(s, ',')) {
              if (!parse_whole(item, lo, hi)) return whole_text(item, lo, hi);
            }
            return std::string();
          },
          "", "whole_list"};
}

// A list of sizes (size_list.hpp): cubes, extents and ranges.
CLI::Validator size_list() {
  return {[](std::string& s) {
            const auto boxes = parse_size_list(s, kMaxSize);
            return boxes ? std::string() : boxes.failure().message;
          },
          "", "size_list"};
}

// A whole number in [lo, hi], or "auto".
CLI::Validator whole_or_auto(std::int64_t lo, std::int64_t hi) {
  return {[lo, hi](std::string& s) {
            if (s == "auto") return std::string();
            const auto v = parse_whole(s, lo, hi);
            if (!v) return whole_text(s, lo, hi) + ", or auto";
            s = std::to_string(*v);
            return std::string();
          },
          "", "whole_or_auto"};
}

// One of the names of E, turned into the value CLI11 then stores.
template <class E>
CLI::Validator choice() {
  return {[](std::string& s) {
            const auto names = name_map<E>();
            const auto it = names.find(s);
            if (it == names.end()) return "'" + s + "' is not one of " + name_choices<E>();
            s = std::to_string(static_cast<int>(it->second));
            return std::string();
          },
          "", "choice"};
}

template <class E>
CLI::Option* add_choice(CLI::App& group, const std::string& flag, E& value, const std::string& help) {
  return group.add_option(flag, help)
      ->transform(choice<E>())
      ->each([&value](const std::string& s) { value = static_cast<E>(std::stoi(s)); })
      ->type_name(name_choices<E>());
}

CLI::Option* add_count(CLI::App& group, const std::string& flag, int& value, int least,
                       const std::string& help, const std::string& type_name) {
  return group.add_option(flag, value, help)->transform(whole(least, INT_MAX))->type_name(type_name);
}

std::string backend_list(const std::vector<Backend>& backends) {
  std::string out;
  for (auto b : backends) out += (out.empty() ? "" : ", ") + to_string(b);
  return out;
}

// What the command line gave, before it is finished into Options: text that
// needs more than one option or the environment to interpret.
struct Given {
  std::vector<std::string> sizes;
  std::string axis;
  std::string grid;
  bool cuda = false;
  bool hip = false;
  CLI::Option* pack = nullptr;
  CLI::Option* gpu_aware = nullptr;
  CLI::Option* backend = nullptr;
  std::string timeout;
  std::string output;
  CLI::Option* axis_opt = nullptr;
  CLI::Option* method = nullptr;
  CLI::Option* rma_sync = nullptr;
  CLI::Option* schedule = nullptr;
  CLI::Option* local = nullptr;
  std::vector<std::string> local_sizes;
  std::vector<std::string> halos;
  CLI::Option* stencil = nullptr;
  CLI::Option* streams = nullptr;
  CLI::Option* progress = nullptr;
  std::string periodic;
  std::string placement;
  std::string iters;
  std::string min_time;
  CLI::Option* ranks = nullptr;
  CLI::Option* ranks_per_node = nullptr;
  int ranks_value = 0;
  int ranks_per_node_value = 0;
};

// --- One function per group: declare, then finish. ---

void add_decomposition(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Decomposition", "the grid, how it is cut, and which faces move");
  s->add_option("--sizes", g.sizes,
                fmt::format("global box sides, one row each (default {}): N (a cube), NXxNYxNZ, or a range "
                            "A:B (A, 2A, 4A, ... up to B), A:B:S (steps of S), A:B:xF (a factor F); mixed: "
                            "32,48,64:512",
                            sizes_text(kDefault.sizes)))
      ->check(size_list())
      ->type_name("LIST");
  g.local = s->add_option("--local", g.local_sizes,
                          "per-rank bricks instead of --sizes, in the same forms: each rank owns LXxLYxLZ "
                          "cells, the global box is GX*LX by GY*LY by GZ*LZ")
                ->check(size_list())
                ->type_name("LIST");
  auto* axis =
      s->add_option("--axis", g.axis,
                    fmt::format("exchange the faces normal to one axis (default {})", kDefault.directions()))
          ->check(CLI::IsMember({"x", "y", "z"}).description(""))
          ->type_name("x|y|z");
  auto* faces = s->add_flag("--faces", o.all_faces, "exchange all six faces (not with --axis)");
  axis->excludes(faces);
  g.stencil = add_choice(*s, "--stencil", o.stencil,
                         "star: the faces (default); box: faces, edges and corners, all 26 neighbours");
  g.axis_opt = axis;
  s->add_option(
       "--halo", g.halos,
       fmt::format("halo widths h in cells, one row per size and width (default {})", kDefault.halos.front()))
      ->check(whole_list(1, kMaxHalo))
      ->type_name("H1,H2,...");
  s->add_option("--grid", g.grid, "process grid GXxGYxGZ or GX,GY,GZ; default: least face area, z cut most")
      ->type_name("GRID");
  s->add_option("--periodic", g.periodic,
                "the periodic axes: x,y,z (default), a subset such as x,z, or none; along the others "
                "the box ends in walls, and a face on a wall has no neighbour and is not sent")
      ->type_name("AXES");
  s->add_option("--placement", g.placement,
                "how grid coordinates follow the ranks: linear (rank order, x fastest; default), nodes "
                "(the block per node that sends the fewest bytes off it) or cart (MPI_Cart_create with "
                "reorder); a list with --dry-run")
      ->type_name(name_choices<RankPlacement>());
}

// --periodic: "none", or a comma list of distinct axes.
Status parse_periodic(const std::string& text, AxisSet& periodic) {
  const std::string forms = "give x,y,z, a subset such as x,z, or none";
  if (text == "none") {
    periodic = {false, false, false};
    return {};
  }
  AxisSet seen{false, false, false};
  for (const auto& item : split(text, ',')) {
    const auto axis = std::string("xyz").find(item);
    if (item.size() != 1 || axis == std::string::npos) {
      return fail(fmt::format("--periodic: '{}' is not an axis; {}", item, forms));
    }
    if (seen[axis]) return fail("--periodic: axis " + item + " is named twice");
    seen[axis] = true;
  }
  periodic = seen;
  return {};
}

// --placement: a comma list of distinct placements; several only with --dry-run.
Status parse_placements(const std::string& text, bool dry_run, std::vector<RankPlacement>& out) {
  const auto names = name_map<RankPlacement>();
  std::vector<RankPlacement> list;
  for (const auto& item : split(text, ',')) {
    const auto it = names.find(item);
    if (it == names.end()) {
      return fail("--placement: '" + item + "' is not one of " + name_choices<RankPlacement>());
    }
    if (std::find(list.begin(), list.end(), it->second) != list.end()) {
      return fail("--placement: " + item + " is named twice");
    }
    list.push_back(it->second);
  }
  if (list.size() > 1 && !dry_run) {
    return fail("--placement " + text +
                " needs --dry-run: a run measures one placement, a plan compares them");
  }
  out = list;
  return {};
}

// The sizes of --sizes or --local, and the halo widths; at most kMaxRows rows in all.
Status finish_sizes(Options& o, const Given& g) {
  if (!g.sizes.empty() && !g.local_sizes.empty()) {
    return fail("--local with --sizes: give per-rank sides (--local) or global sides (--sizes), not both");
  }
  const bool local = !g.local_sizes.empty();
  const char* flag = local ? "--local" : "--sizes";
  std::vector<Index3> boxes;
  for (const auto& raw : local ? g.local_sizes : g.sizes) {
    const auto more = parse_size_list(raw, kMaxSize, kMaxRows, boxes.size());
    if (!more) return fail(std::string(flag) + ": " + more.failure().message);
    boxes.insert(boxes.end(), more->begin(), more->end());
  }
  if (!boxes.empty()) {
    o.sizes = boxes;
    o.local = local;
  }
  if (!g.halos.empty()) {
    o.halos.clear();
    for (const auto& raw : g.halos) {
      for (const auto& item : split(raw, ','))
        o.halos.push_back(static_cast<int>(*parse_whole(item, 1, kMaxHalo)));
    }
  }
  const std::size_t rows = o.sizes.size() * o.halos.size() * o.placements.size();
  if (rows > kMaxRows) {
    return fail(
        fmt::format("{}: {} sizes x {} halo widths x {} placements make {} rows; a run has at most {}", flag,
                    o.sizes.size(), o.halos.size(), o.placements.size(), rows, kMaxRows));
  }
  return {};
}

Status finish_grid(Options& o, const Given& g, const EnvLookup& env) {
  if (!g.grid.empty()) {
    const auto grid = parse_grid(g.grid);
    if (!grid) return fail("--grid: " + grid.failure().message);
    o.grid = *grid;
    o.grid_source = GridSource::flag;
  } else if (auto e = env(env_var::kProcGrid); e && !e->empty()) {
    // Read here rather than by CLI11's envname: the source is reported, and tests inject the environment.
    const auto grid = parse_grid(*e);
    if (!grid) return fail(std::string(env_var::kProcGrid) + ": " + grid.failure().message);
    o.grid = *grid;
    o.grid_source = GridSource::environment;
  }
  return {};
}

Status finish_decomposition(Options& o, const Given& g, const EnvLookup& env) {
  if (!g.placement.empty()) {
    if (Status s = parse_placements(g.placement, o.dry_run, o.placements)) return s;
  }
  if (Status s = finish_sizes(o, g)) return s;
  if (o.stencil == StencilKind::box && g.axis_opt->count() > 0) {
    return fail("--axis with --stencil box: a box stencil exchanges all 26 directions");
  }
  if (!g.axis.empty()) o.axes = {g.axis == "x", g.axis == "y", g.axis == "z"};
  if (o.all_faces || o.stencil == StencilKind::box) o.axes = {true, true, true};
  if (!g.periodic.empty()) {
    if (Status s = parse_periodic(g.periodic, o.periodic)) return s;
  }
  return finish_grid(o, g, env);
}

void add_exchange(CLI::App& app, Options& o, Given& g, const std::vector<Backend>& backends) {
  auto* s = app.add_option_group("Exchange", "where the field lives and how faces travel");
  g.pack = add_choice(*s, "--pack", o.pack,
                      "datatype: strided MPI subarrays (host default); kernel: pack into contiguous "
                      "buffers (device default)");
  add_choice(*s, "--self", o.self,
             "self faces (neighbour is the rank itself): local copy, or an MPI message to self");
  g.method =
      add_choice(*s, "--method", o.method,
                 "how the messages move: p2p (Irecv/Isend, default), persistent (Recv_init/Send_init "
                 "once, Startall), partitioned (MPI-4 Psend_init/Precv_init once, Pready as each is "
                 "packed), neighbor (MPI_Ineighbor_alltoallw on a graph of the peers), neighbor-persistent "
                 "(MPI-4 Neighbor_alltoallw_init once, Start), rma (MPI_Put into the peer's window) or shm, "
                 "the direct method (host: each piece from a "
                 "neighbour on the node copied straight out of its field in an MPI-3 shared window, the rest "
                 "as p2p)");
  g.rma_sync = add_choice(*s, "--rma-sync", o.rma_sync,
                          "--method rma: general active target, post/start/complete/wait among neighbours "
                          "(pscw, default), or MPI_Win_fence over all ranks (fence)");
  g.schedule =
      add_choice(*s, "--schedule", o.schedule,
                 "packed faces: pipelined (send each as soon as it is packed, unpack each as soon as "
                 "it has landed; on the host, faces that share rows go together; default) or bulk "
                 "(pack all, send all, wait all, unpack all)");
  g.backend = add_choice(*s, "--backend", o.backend,
                         fmt::format("where the field lives (default {}); this build: {}",
                                     to_string(kDefault.backend), backend_list(backends)));
  auto* cuda = s->add_flag("--cuda", g.cuda, "same as --backend cuda");
  auto* hip = s->add_flag("--hip", g.hip, "same as --backend hip");
  g.backend->excludes(cuda)->excludes(hip);
  cuda->excludes(hip);
  g.gpu_aware =
      add_choice(*s, "--gpu-aware", o.gpu_aware,
                 fmt::format("MPI on device buffers (on) or staged through host memory (off); default {}",
                             to_string(kDefault.gpu_aware)));
  s->add_option(
       "--fields", o.fields,
       fmt::format("fields K exchanged together, each its own View (default {}); Send_B counts all of them",
                   kDefault.fields))
      ->transform(whole(1, kMaxFields))
      ->type_name("K");
  add_choice(
      *s, "--messages", o.messages,
      fmt::format("what one message carries: chosen by the pack (auto, default: peer on the kernel path; "
                  "on the datatype path, with this MPI library, aggregated for pieces over {} KiB{}, "
                  "peer for the others), every piece and field for one neighbour rank (peer), every field "
                  "of one piece (aggregated), or one piece and field (separate)",
                  o.struct_rule.alone_above / 1024,
                  o.struct_rule.alone_up_to == UINT64_MAX
                      ? std::string()
                      : fmt::format(" up to {} KiB", o.struct_rule.alone_up_to / 1024)));
  add_choice(*s, "--hugepages", o.hugepages,
             "host fields and buffers 2 MiB aligned and advised to transparent huge pages (on, default) "
             "or as the allocator gives them (off); device memory is unaffected");
}

Status finish_exchange(Options& o, const Given& g, const EnvLookup& env,
                       const std::vector<Backend>& backends) {
  if (g.cuda) o.backend = Backend::cuda;
  if (g.hip) o.backend = Backend::hip;
  bool have = false;
  for (auto b : backends) have = have || b == o.backend;
  if (!have) {
    return fail("backend " + to_string(o.backend) +
                " is not in this build; it has: " + backend_list(backends));
  }
  if (g.pack->count() == 0) o.pack = o.backend == Backend::host ? PackMode::datatype : PackMode::kernel;
  if (g.rma_sync->count() > 0 && o.method != MethodKind::rma) {
    return fail("--rma-sync needs --method rma: it says how one-sided puts are synchronised");
  }
  if (sends_at_once(o.method)) {
    // One collective carries every message: nothing can be sent as soon as it is packed.
    if (g.schedule->count() > 0 && o.schedule == Schedule::pipelined) {
      return fail(fmt::format(
          "--method {0} with --schedule pipelined: one collective sends every message in one call; use "
          "--schedule bulk (the default with --method {0})",
          to_string(o.method)));
    }
    o.schedule = Schedule::bulk;
  }
  if (g.gpu_aware->count() > 0) {
    o.gpu_aware_source = "--gpu-aware";
  } else if (auto e = env(env_var::kAssumeGpuAware); e && !e->empty()) {
    if (*e != "0" && *e != "1")
      return fail(std::string(env_var::kAssumeGpuAware) + ": '" + *e + "' is not 0 or 1");
    o.gpu_aware = *e == "1" ? GpuAwareMode::on : GpuAwareMode::off;
    o.gpu_aware_source = env_var::kAssumeGpuAware;
  }
  if (o.backend == Backend::host && o.pack == PackMode::datatype && o.gpu_aware == GpuAwareMode::off &&
      o.gpu_aware_source == "--gpu-aware") {
    return fail("--gpu-aware off stages packed buffers: it needs --pack kernel");
  }
  return {};
}

void add_measurement(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Measurement", "the clock, and what is measured besides the exchange");
  s->add_option(
       "--iters", g.iters,
       fmt::format("timed exchanges K per block (default {}), or auto: each row's K from its warm-up, "
                   "so that a block lasts --min-time (K from {} to {}, the same on every rank)",
                   kDefault.iters, kAutoItersLeast, kAutoItersMost))
      ->check(whole_or_auto(1, INT_MAX))
      ->type_name("K|auto");
  s->add_option("--min-time", g.min_time,
                fmt::format("with --iters auto: the seconds a timed block lasts at least (default {})",
                            kDefault.min_time))
      ->type_name("SECONDS");
  add_count(*s, "--warmup", o.warmup, 0,
            fmt::format("untimed exchanges before the clock (default {})", kDefault.warmup), "W");
  s->add_option("--repeats", o.repeats,
                fmt::format("timed blocks per size (default {}); Time_us is the median, "
                            "Min_us and Max_us are added when R > 1",
                            kDefault.repeats))
      ->transform(whole(1, kMaxRepeats))
      ->type_name("R");
  s->add_flag("--check", o.check, "verify every ghost cell after one exchange per size (untimed)");
  s->add_flag(
      "--breakdown", o.breakdown,
      "the phases of the timed exchanges Pack_us, Mpi_us, Stage_us, Unpack_us, and the reference Xfer_us "
      "(MPI alone on packed buffers, timed apart) with Xfer_GBps and Eff = Uni_GBps / Xfer_GBps");
  s->add_flag("--limit", o.limit,
              "also measure Copy_GBps (contiguous copy of Send_B bytes where the field lives) and "
              "Peer_GBps (direct copy between neighbouring GPUs)");
  s->add_option("--timeout", g.timeout,
                fmt::format("abort with a message naming the stuck size, phase, face and peer when "
                            "a wait lasts longer (default {} s; 0: never)",
                            kDefault.timeout))
      ->type_name("SECONDS");
  s->add_flag("--overlap", o.overlap,
              "also time a stencil of reach h: alone (Comp_us), after the exchange (Blocking_us), and "
              "overlapped with it (Overlap_us: start, interior, finish, border); adds Exposed_us, Hidden, "
              "Comp_GBps");
  g.streams = s->add_option("--streams", o.streams,
                            "--overlap: the interior on the exchange's execution-space instance (1, default) "
                            "or on a second one (2: a second CUDA/HIP stream)")
                  ->transform(whole(1, 2))
                  ->type_name("1|2");
  g.progress = add_choice(*s, "--progress", o.progress,
                          "--overlap: no MPI call while the interior runs (wait, default), or MPI_Testall "
                          "between slabs of it (poll)");
}

// "SECONDS": a plain number (no inf, nan or hex) in [lo, hi], or nothing.
std::optional<double> seconds(const std::string& text, double lo, double hi) {
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;
  char* end = nullptr;
  const double t = plain ? std::strtod(text.c_str(), &end) : -1;
  if (!plain || end == text.c_str() || *end != '\0' || !(t >= lo && t <= hi)) return std::nullopt;
  return t;
}

Status finish_iters(Options& o, const Given& g) {
  if (g.iters == "auto") {
    o.iters_auto = true;
  } else if (!g.iters.empty()) {
    o.iters = static_cast<int>(*parse_whole(g.iters, 1, INT_MAX));
  }
  if (g.min_time.empty()) return {};
  if (!o.iters_auto) {
    return fail("--min-time needs --iters auto: it is how long a timed block lasts when K is chosen by time");
  }
  const auto t = seconds(g.min_time, kMinTimeLeast, kMinTimeMost);
  if (!t) {
    return fail(fmt::format("--min-time: '{}' is not a number of seconds from {} to {}", g.min_time,
                            kMinTimeLeast, kMinTimeMost));
  }
  o.min_time = *t;
  return {};
}

Status finish_measurement(Options& o, const Given& g) {
  if (!o.overlap && (g.streams->count() > 0 || g.progress->count() > 0)) {
    return fail(std::string(g.streams->count() > 0 ? "--streams" : "--progress") +
                " needs --overlap: it says where and how the overlapped interior runs");
  }
  if (Status s = finish_iters(o, g)) return s;
  if (!g.timeout.empty()) {
    char* end = nullptr;
    const double t = std::strtod(g.timeout.c_str(), &end);
    // Below a second, a healthy exchange on a loaded machine could be taken for a hang.
    if (end == g.timeout.c_str() || *end != '\0' || !(t == 0 || (t >= 1 && t <= 1e9))) {
      return fail("--timeout: '" + g.timeout + "' is not 0 (off) or a number of seconds from 1 to 1e9");
    }
    o.timeout = t;
  }
  return {};
}

void add_planning(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Planning", "the plan of a run at any scale, without measuring");
  s->add_flag("--dry-run", o.dry_run,
              "print what each row would exchange (grid, bricks, bytes, pieces, memory) and measure "
              "nothing: one process with --ranks, or the job's ranks and hosts under mpirun");
  g.ranks =
      s->add_option("--ranks", g.ranks_value, "with --dry-run: plan for R ranks, without launching them")
          ->transform(whole(1, kMaxPlanRanks))
          ->type_name("R");
  g.ranks_per_node = s->add_option("--ranks-per-node", g.ranks_per_node_value,
                                   "with --dry-run: P ranks per node, placed in blocks as srun places them")
                         ->transform(whole(1, kMaxPlanRanks))
                         ->type_name("P");
}

Status finish_planning(Options& o, const Given& g) {
  for (const CLI::Option* opt : {g.ranks, g.ranks_per_node}) {
    if (opt->count() > 0 && !o.dry_run) {
      return fail(opt->get_name() + " needs --dry-run: a launched run has the job's ranks and nodes");
    }
  }
  if (g.ranks->count() > 0) o.ranks = g.ranks_value;
  if (g.ranks_per_node->count() > 0) o.ranks_per_node = g.ranks_per_node_value;
  return {};
}

void add_output(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Output", "where the results go");
  add_choice(*s, "--format", o.format,
             "table (default), csv (one row per size, settings on every row) or "
             "json (one document with full provenance)");
  s->add_option("--output", g.output, "rank 0 writes --format to FILE; stdout keeps the table")
      ->type_name("FILE");
  s->add_flag("--quiet", o.quiet, "with --output: no table on stdout");
  s->add_flag("--per-rank", o.per_rank,
              "each rank's time, bytes and host: the table gets the columns Slowest and Skew and a line "
              "per rank (per node above 64 ranks), the JSON rows a list of the ranks");
}

Status finish_output(Options& o, const Given& g) {
  if (!g.output.empty()) o.output = g.output;
  if (o.quiet && !o.output) return fail("--quiet needs --output: there would be nothing to read");
  return {};
}

}  // namespace

Expected<Dims3> parse_grid(const std::string& text) {
  const char sep = text.find(',') != std::string::npos ? ',' : 'x';
  const auto parts = split(text, sep);
  const std::string forms = "'" + text + "' is not GXxGYxGZ or GX,GY,GZ";
  if (parts.size() != 3) return Failure{ExitCode::bad_input, forms};
  Dims3 d{};
  for (int a = 0; a < 3; ++a) {
    const auto v = parse_whole(parts[a], 1, INT_MAX);
    if (!v) return Failure{ExitCode::bad_input, forms + " with three whole numbers of at least 1"};
    d[a] = static_cast<int>(*v);
  }
  return d;
}

namespace {

// An option as the command line may name it, and whether it takes a value.
struct Known {
  std::vector<std::string> names;  // "--sizes", or "-h" and "--help"
  bool takes_value = false;
  bool once = false;  // one value, given once (a list such as --sizes may be given again)
};

std::vector<Known> known_options(const CLI::App& app) {
  std::vector<Known> out;
  auto add = [&out](const CLI::App& a) {
    for (const CLI::Option* opt : a.get_options()) {
      Known k;
      for (const auto& s : opt->get_snames()) k.names.push_back("-" + s);
      for (const auto& l : opt->get_lnames()) k.names.push_back("--" + l);
      k.takes_value = opt->get_expected_min() > 0;
      k.once = opt->get_expected_max() == 1;
      out.push_back(k);
    }
  };
  add(app);
  for (const CLI::App* group : app.get_subcommands([](const CLI::App*) { return true; })) add(*group);
  return out;
}

// "-x", "--name" or "--name=value"; not a negative number, which is a value.
bool option_like(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  return !(std::isdigit(static_cast<unsigned char>(arg[1])) != 0 || arg[1] == '.');
}

// Before CLI11 sees the arguments: an option it does not know gets one line
// with the nearest known one, and an option whose value is missing says so
// (CLI11 would take the next option as its value, or list leftovers).
Status prescan(const std::vector<std::string>& args, const std::vector<Known>& known) {
  std::vector<std::string> names;
  for (const Known& k : known) names.insert(names.end(), k.names.begin(), k.names.end());
  std::vector<const Known*> seen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (const auto habit = habit_of_value(args[i])) return fail(*habit);  // Comb's 100_100_100
    if (!option_like(args[i])) continue;
    const auto eq = args[i].find('=');
    const std::string name = args[i].substr(0, eq);
    const auto it = std::find_if(known.begin(), known.end(), [&](const Known& k) {
      return std::find(k.names.begin(), k.names.end(), name) != k.names.end();
    });
    if (it == known.end()) {
      if (const auto habit = habit_of_option(name)) return fail(*habit);  // OSU's and Comb's options
      const auto near = nearest_name(name, names);
      return fail(name + ": unknown option; " + (near ? "did you mean " + *near + "?" : "--help lists them"));
    }
    if (it->once && std::find(seen.begin(), seen.end(), &*it) != seen.end()) {
      return fail(name + " is given twice: give it once");
    }
    seen.push_back(&*it);
    if (!it->takes_value) continue;
    if (eq != std::string::npos ? eq + 1 == args[i].size()
                                : i + 1 == args.size() || option_like(args[i + 1])) {
      return fail(name + " needs a value");
    }
  }
  return {};
}

// CLI11's "The following arguments were not expected: 64" as one line of ours.
std::string extras_text(const CLI::ExtrasError& e) {
  const std::string what = e.what();
  const auto colon = what.find(": ");
  const std::string extras = colon == std::string::npos ? what : what.substr(colon + 2);
  return "unexpected argument " + extras + ": a value follows its option (--sizes 64,128); --help lists them";
}

// Each option as --help lists it.
HelpOption help_of(const CLI::Option& opt) {
  HelpOption h;
  for (const auto& s : opt.get_snames()) h.names += (h.names.empty() ? "-" : ", -") + s;
  for (const auto& l : opt.get_lnames()) h.names += (h.names.empty() ? "--" : ", --") + l;
  if (opt.get_expected_min() > 0) h.value = opt.get_type_name();
  h.text = opt.get_description();
  return h;
}

std::string help_footer() {
  std::string codes;
  for (const Spelling<ExitCode>& c : Names<ExitCode>::list)
    codes += fmt::format("  {}  {}\n", exit_status(c.value), c.meaning);
  return fmt::format(
      R"(Environment:
  OPENPFC_FD_PROC_GRID=GRID         process grid when --grid is not given
  OPENPFC_ASSUME_GPU_AWARE_MPI=0|1  GPU-aware MPI when --gpu-aware is not given

{}, where the remote send bytes are the busiest sender's and the time the slowest rank's. Self faces
(a neighbour that is the rank itself) are exchanged but not counted. What each column counts:
docs/method.md; the CSV and JSON files: docs/output.md.

Exit codes (under mpirun, the first failing rank's):
{}
Examples:
  mpirun -n 2 build/halo-bandwidth --axis z --sizes 64:1024
  mpirun -n 8 build/halo-bandwidth --faces --local 32:256:x2 --iters auto --per-rank
  mpirun -n 4 build/halo-bandwidth --axis z --sizes 128x512x512 --periodic x,y --format json
)",
      kRateDefinition, codes);
}

// --help from the options as declared, in their sections, wrapped to kHelpWidth.
std::string help_text(const CLI::App& app) {
  std::vector<HelpSection> sections;
  HelpSection general{"General", "this text, or the version", {}};
  for (const CLI::Option* opt : app.get_options()) general.options.push_back(help_of(*opt));
  sections.push_back(general);
  for (const CLI::App* group : app.get_subcommands([](const CLI::App*) { return true; })) {
    HelpSection s{group->get_group(), group->get_description(), {}};
    // (A group repeats its parent's help flag: listed once, under General.)
    for (const CLI::Option* opt : group->get_options()) {
      if (opt != group->get_help_ptr()) s.options.push_back(help_of(*opt));
    }
    sections.push_back(s);
  }
  return render_help(
      "halo-bandwidth: the byte rate of a 3D halo exchange between MPI ranks.\n\n"
      "Usage: mpirun -n RANKS build/halo-bandwidth [OPTIONS]",
      sections, help_footer());
}

}  // namespace

Expected<Parsed> parse_options(const std::vector<std::string>& args, const EnvLookup& env,
                               const std::vector<Backend>& backends, const std::string& version_text,
                               const StructRule& struct_rule) {
  Parsed r;
  Options& o = r.options;
  o.struct_rule = struct_rule;  // before the options: --help says it
  Given g;
  CLI::App app{"halo-bandwidth", "halo-bandwidth"};
  app.set_help_flag("-h,--help", "this text");
  add_decomposition(app, o, g);
  add_exchange(app, o, g, backends);
  add_measurement(app, o, g);
  add_output(app, o, g);
  add_planning(app, o, g);
  app.set_version_flag("--version", version_text, "the version and the build");

  // An empty argument is never an option or a value; CLI11 2.1 with option
  // groups even loops for ever on one followed by an unknown option (found by
  // the fuzzer): refuse it before CLI11 sees it.
  for (std::size_t i = 0; i < args.size(); ++i) {
    // (A NUL cannot reach a real argv; a caller's string may hold one, and ends there for CLI11.)
    if (args[i].empty() || args[i].front() == '\0') {
      return Failure{ExitCode::bad_input, "argument " + std::to_string(i + 1) + " is empty"};
    }
    if (args[i].find('\0') != std::string::npos) {
      return Failure{ExitCode::bad_input, "argument " + std::to_string(i + 1) + " holds a NUL character"};
    }
  }
  if (Status s = prescan(args, known_options(app))) return *s;
  std::vector<const char*> argv{"halo-bandwidth"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    r.exit_text = help_text(app);
    return r;
  } catch (const CLI::CallForVersion&) {
    r.exit_text = version_text + "\n";
    return r;
  } catch (const CLI::ExtrasError& e) {
    return Failure{ExitCode::bad_input, extras_text(e)};
  } catch (const CLI::ParseError& e) {
    return Failure{ExitCode::bad_input, e.what()};
  }
  for (const Status& s : {finish_decomposition(o, g, env), finish_exchange(o, g, env, backends),
                          finish_measurement(o, g), finish_output(o, g), finish_planning(o, g)}) {
    if (s) return *s;
  }
  return r;
}

}  // namespace halobw
