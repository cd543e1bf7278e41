#include "halobw/options.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace halobw {

std::string Options::halo_list() const {
  std::string s;
  for (int h : halos) s += (s.empty() ? "" : ",") + std::to_string(h);
  return s;
}

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

// A plain decimal whole number in [lo, hi]. (CLI11's own conversion would
// also take 0x10, 010 and +5.)
std::optional<std::int64_t> parse_whole(const std::string& s, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (s.empty() || *first == '+' || *first == '-') return std::nullopt;
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || v < lo || v > hi) return std::nullopt;
  return v;
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

constexpr const char* kFooter = R"(
Environment:
  OPENPFC_FD_PROC_GRID=GX,GY,GZ     process grid when --grid is not given
  OPENPFC_ASSUME_GPU_AWARE_MPI=0|1  GPU-aware MPI when --gpu-aware is not given

{}, where the
remote send bytes are the busiest sender's and the time the slowest rank's.
Self faces (a neighbour that is the rank itself) are exchanged but not counted.

Example:
  mpirun -n 2 halo-bandwidth --axis z --sizes 64,128,256
)";

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
};

// --- One function per group: declare, then finish. ---

void add_decomposition(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Decomposition", "the grid, how it is cut, and which faces move");
  s->add_option("--sizes", g.sizes, "global cube sides N1,N2,... (one row each; default 64,128,256)")
      ->check(whole_list(1, kMaxSize))
      ->type_name("N1,N2,...");
  auto* axis = s->add_option("--axis", g.axis, "exchange the faces normal to one axis (default x)")
                   ->check(CLI::IsMember({"x", "y", "z"}).description(""))
                   ->type_name("x|y|z");
  auto* faces = s->add_flag("--faces", o.all_faces, "exchange all six faces");
  axis->excludes(faces);
  g.stencil = add_choice(*s, "--stencil", o.stencil,
                         "star: the faces (default); box: faces, edges and corners, all 26 neighbours");
  g.axis_opt = axis;
  s->add_option("--halo", g.halos, "halo widths h in cells, one row per size and width (default 1)")
      ->check(whole_list(1, kMaxHalo))
      ->type_name("H1,H2,...");
  g.local = s->add_option("--local", g.local_sizes,
                          "per-rank cube sides L1,L2,...: each rank owns LxLxL, the global box is "
                          "(gx L, gy L, gz L); instead of --sizes")
                ->check(whole_list(1, kMaxSize))
                ->type_name("L1,L2,...");
  s->add_option("--grid", g.grid, "process grid; default: least face area, z cut most")
      ->type_name("GX,GY,GZ");
}

Status finish_decomposition(Options& o, const Given& g, const EnvLookup& env) {
  if (!g.sizes.empty() && !g.local_sizes.empty()) {
    return fail("--local with --sizes: give per-rank sides (--local) or global sides (--sizes), not both");
  }
  auto whole_items = [](const std::vector<std::string>& given, std::int64_t hi) {
    std::vector<std::int64_t> out;
    for (const auto& raw : given) {
      for (const auto& item : split(raw, ',')) out.push_back(*parse_whole(item, 1, hi));
    }
    return out;
  };
  if (!g.sizes.empty()) o.sizes = whole_items(g.sizes, kMaxSize);
  if (!g.local_sizes.empty()) {
    o.sizes = whole_items(g.local_sizes, kMaxSize);
    o.local = true;
  }
  if (!g.halos.empty()) {
    o.halos.clear();
    for (const auto h : whole_items(g.halos, kMaxHalo)) o.halos.push_back(static_cast<int>(h));
  }
  if (o.stencil == StencilKind::box && g.axis_opt->count() > 0) {
    return fail("--axis with --stencil box: a box stencil exchanges all 26 directions");
  }
  if (!g.axis.empty()) o.axes = {g.axis == "x", g.axis == "y", g.axis == "z"};
  if (o.all_faces || o.stencil == StencilKind::box) o.axes = {true, true, true};
  if (!g.grid.empty()) {
    const auto grid = parse_grid(g.grid);
    if (!grid) return fail("--grid: " + grid.failure().message);
    o.grid = *grid;
    o.grid_source = GridSource::flag;
  } else if (auto e = env("OPENPFC_FD_PROC_GRID"); e && !e->empty()) {
    // Read here rather than by CLI11's envname: the source is reported, and tests inject the environment.
    const auto grid = parse_grid(*e);
    if (!grid) return fail("OPENPFC_FD_PROC_GRID: " + grid.failure().message);
    o.grid = *grid;
    o.grid_source = GridSource::environment;
  }
  return {};
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
                 "how MPI moves the messages: p2p (Irecv/Isend, default), persistent (Recv_init/Send_init "
                 "once, Startall), neighbor (MPI_Ineighbor_alltoallw on a graph of the peers) or rma "
                 "(MPI_Put into the peer's window)");
  g.rma_sync = add_choice(*s, "--rma-sync", o.rma_sync,
                          "--method rma: general active target, post/start/complete/wait among neighbours "
                          "(pscw, default), or MPI_Win_fence over all ranks (fence)");
  g.schedule =
      add_choice(*s, "--schedule", o.schedule,
                 "packed faces: pipelined (send each as soon as it is packed, unpack each as soon as "
                 "it has landed; on the host, faces that share rows go together; default) or bulk "
                 "(pack all, send all, wait all, unpack all)");
  g.backend = add_choice(*s, "--backend", o.backend,
                         "where the field lives (default host); this build: " + backend_list(backends));
  auto* cuda = s->add_flag("--cuda", g.cuda, "same as --backend cuda");
  auto* hip = s->add_flag("--hip", g.hip, "same as --backend hip");
  g.backend->excludes(cuda)->excludes(hip);
  cuda->excludes(hip);
  g.gpu_aware = add_choice(*s, "--gpu-aware", o.gpu_aware,
                           "MPI on device buffers (on) or staged through host memory (off); default auto");
  s->add_option("--fields", o.fields,
                "fields K exchanged together, each its own View (default 1); Send_B counts all of them")
      ->transform(whole(1, kMaxFields))
      ->type_name("K");
  add_choice(*s, "--messages", o.messages,
             "with K fields: one message per neighbour carrying all K (aggregated, default) or K messages "
             "(separate)");
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
  if (o.method == MethodKind::neighbor) {
    // One collective carries every message: nothing can be sent as soon as it is packed.
    if (g.schedule->count() > 0 && o.schedule == Schedule::pipelined) {
      return fail(
          "--method neighbor with --schedule pipelined: MPI_Ineighbor_alltoallw sends every message in "
          "one call; use --schedule bulk (the default with --method neighbor)");
    }
    o.schedule = Schedule::bulk;
  }
  if (g.gpu_aware->count() > 0) {
    o.gpu_aware_source = "--gpu-aware";
  } else if (auto e = env("OPENPFC_ASSUME_GPU_AWARE_MPI"); e && !e->empty()) {
    if (*e != "0" && *e != "1") return fail("OPENPFC_ASSUME_GPU_AWARE_MPI: '" + *e + "' is not 0 or 1");
    o.gpu_aware = *e == "1" ? GpuAwareMode::on : GpuAwareMode::off;
    o.gpu_aware_source = "OPENPFC_ASSUME_GPU_AWARE_MPI";
  }
  if (o.backend == Backend::host && o.pack == PackMode::datatype && o.gpu_aware == GpuAwareMode::off &&
      o.gpu_aware_source == "--gpu-aware") {
    return fail("--gpu-aware off stages packed buffers: it needs --pack kernel");
  }
  return {};
}

void add_measurement(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Measurement", "the clock, and what is measured besides the exchange");
  add_count(*s, "--iters", o.iters, 1, "timed exchanges K (default 50)", "K");
  add_count(*s, "--warmup", o.warmup, 0, "untimed exchanges before the clock (default 5)", "W");
  s->add_option("--repeats", o.repeats,
                "timed blocks per size (default 1); Time_us is the median, "
                "Min_us and Max_us are added when R > 1")
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
                "abort with a message naming the stuck size, phase, face and peer when "
                "a wait lasts longer (default 300 s; 0: never)")
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

Status finish_measurement(Options& o, const Given& g) {
  if (!o.overlap && (g.streams->count() > 0 || g.progress->count() > 0)) {
    return fail(std::string(g.streams->count() > 0 ? "--streams" : "--progress") +
                " needs --overlap: it says where and how the overlapped interior runs");
  }
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

void add_output(CLI::App& app, Options& o, Given& g) {
  auto* s = app.add_option_group("Output", "where the results go");
  add_choice(*s, "--format", o.format,
             "table (default), csv (one row per size, settings on every row) or "
             "json (one document with full provenance)");
  s->add_option("--output", g.output, "rank 0 writes --format to FILE; stdout keeps the table")
      ->type_name("FILE");
  s->add_flag("--quiet", o.quiet, "with --output: no table on stdout");
}

Status finish_output(Options& o, const Given& g) {
  if (!g.output.empty()) o.output = g.output;
  if (o.quiet && !o.output) return fail("--quiet needs --output: there would be nothing to read");
  return {};
}

}  // namespace

Expected<Dims3> parse_grid(const std::string& text) {
  const auto parts = split(text, ',');
  if (parts.size() != 3) return Failure{ExitCode::bad_input, "'" + text + "' is not GX,GY,GZ"};
  Dims3 d{};
  for (int a = 0; a < 3; ++a) {
    const auto v = parse_whole(parts[a], 1, INT_MAX);
    if (!v)
      return Failure{ExitCode::bad_input,
                     "'" + text + "' is not GX,GY,GZ with three whole numbers of at least 1"};
    d[a] = static_cast<int>(*v);
  }
  return d;
}

Expected<Parsed> parse_options(const std::vector<std::string>& args, const EnvLookup& env,
                               const std::vector<Backend>& backends, const std::string& version_text) {
  Parsed r;
  Options& o = r.options;
  Given g;
  CLI::App app{"halo-bandwidth: the byte rate of a periodic 3D halo exchange between MPI ranks.",
               "halo-bandwidth"};
  app.footer(fmt::format(kFooter, kRateDefinition));
  app.get_formatter()->column_width(34);
  add_decomposition(app, o, g);
  add_exchange(app, o, g, backends);
  add_measurement(app, o, g);
  add_output(app, o, g);
  app.set_version_flag("--version", version_text);

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
  std::vector<const char*> argv{"halo-bandwidth"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    r.exit_text = app.help();
    return r;
  } catch (const CLI::CallForVersion&) {
    r.exit_text = version_text + "\n";
    return r;
  } catch (const CLI::ParseError& e) {
    return Failure{ExitCode::bad_input, e.what()};
  }
  for (const Status& s : {finish_decomposition(o, g, env), finish_exchange(o, g, env, backends),
                          finish_measurement(o, g), finish_output(o, g)}) {
    if (s) return *s;
  }
  return r;
}

}  // namespace halobw
