#include "halobw/options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <sstream>

namespace halobw {

std::string to_string(Backend b) {
  switch (b) {
    case Backend::cuda:
      return "cuda";
    case Backend::hip:
      return "hip";
    default:
      return "host";
  }
}
std::string to_string(PackMode p) { return p == PackMode::kernel ? "kernel" : "datatype"; }
std::string to_string(SelfMode s) { return s == SelfMode::mpi ? "mpi" : "copy"; }
std::string to_string(GridSource g) {
  switch (g) {
    case GridSource::flag:
      return "--grid";
    case GridSource::environment:
      return "OPENPFC_FD_PROC_GRID";
    default:
      return "auto";
  }
}

std::string to_string(Format f) {
  switch (f) {
    case Format::csv:
      return "csv";
    case Format::json:
      return "json";
    default:
      return "table";
  }
}

std::string Options::directions() const {
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

// A whole decimal number in [lo, hi], with nothing before or after it.
std::optional<std::int64_t> parse_int(const std::string& s, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (s.empty() || *first == '+') return std::nullopt;
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || v < lo || v > hi) return std::nullopt;
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

std::optional<std::vector<std::int64_t>> parse_sizes(const std::vector<std::string>& items,
                                                     std::string& error) {
  std::vector<std::int64_t> sizes;
  for (const auto& raw : items) {
    for (const auto& s : split(raw, ',')) {
      const auto v = parse_int(s, 1, kMaxSize);
      if (!v) {
        error = "--sizes: '" + s + "' is not a whole number from 1 to " + std::to_string(kMaxSize);
        return std::nullopt;
      }
      sizes.push_back(*v);
    }
  }
  if (sizes.empty()) {
    error = "--sizes: give at least one size";
    return std::nullopt;
  }
  return sizes;
}

std::optional<int> parse_count(const std::string& flag, const std::string& s, int lo, std::string& error) {
  const auto v = parse_int(s, lo, INT_MAX);
  if (!v) {
    error = flag + ": '" + s + "' is not a whole number from " + std::to_string(lo) + " to " +
            std::to_string(INT_MAX);
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

std::string backend_list(const std::vector<Backend>& backends) {
  std::string out;
  for (auto b : backends) out += (out.empty() ? "" : ", ") + to_string(b);
  return out;
}

const char* kFooter = R"(
Environment:
  OPENPFC_FD_PROC_GRID=GX,GY,GZ     process grid when --grid is not given
  OPENPFC_ASSUME_GPU_AWARE_MPI=0|1  GPU-aware MPI when --gpu-aware is not given

Uni_GBps = max remote send bytes / max time over ranks / 1e9; Duplex_GBps = 2 * Uni_GBps.
Self faces (a neighbour that is the rank itself) are exchanged but not counted.

Example:
  mpirun -n 2 halo-bandwidth --axis z --sizes 64,128,256
)";

}  // namespace

std::optional<Dims3> parse_grid(const std::string& text, std::string& error) {
  const auto parts = split(text, ',');
  if (parts.size() != 3) {
    error = "'" + text + "' is not GX,GY,GZ";
    return std::nullopt;
  }
  Dims3 d{};
  for (int a = 0; a < 3; ++a) {
    const auto v = parse_int(parts[a], 1, INT_MAX);
    if (!v) {
      error = "'" + text + "' is not GX,GY,GZ with three whole numbers of at least 1";
      return std::nullopt;
    }
    d[a] = static_cast<int>(*v);
  }
  return d;
}

ParseResult parse_options(const std::vector<std::string>& args, const EnvLookup& env,
                          const std::vector<Backend>& backends, const std::string& version_text) {
  ParseResult r;
  Options& o = r.options;
  CLI::App app{"halo-bandwidth: the byte rate of a periodic 3D halo exchange between MPI ranks.",
               "halo-bandwidth"};
  app.footer(kFooter);
  app.get_formatter()->column_width(34);

  std::vector<std::string> sizes;
  std::string axis, grid, halo, iters, warmup, pack, self, backend, gpu_aware;
  // Split on commas here, not by CLI11, which drops empty items such as "64,,128".
  app.add_option("--sizes", sizes, "global cube sides N1,N2,... (one row each; default 64,128,256)")
      ->type_name("N1,N2,...");
  auto* axis_opt = app.add_option("--axis", axis, "exchange the faces normal to one axis (default x)")
                       ->check(CLI::IsMember({"x", "y", "z"}))
                       ->type_name("x|y|z");
  auto* faces_opt = app.add_flag("--faces", o.all_faces, "exchange all six faces");
  axis_opt->excludes(faces_opt);
  app.add_option("--halo", halo, "halo width h in cells (default 1)")->type_name("H");
  app.add_option("--iters", iters, "timed exchanges K (default 50)")->type_name("K");
  app.add_option("--warmup", warmup, "untimed exchanges before the clock (default 5)")->type_name("W");
  app.add_option("--grid", grid, "process grid; default: least face area, z cut most")->type_name("GX,GY,GZ");
  app.add_option("--pack", pack,
                 "datatype: strided MPI subarrays (host default); kernel: pack into contiguous "
                 "buffers (device default)")
      ->check(CLI::IsMember({"datatype", "kernel"}))
      ->type_name("datatype|kernel");
  app.add_option("--self", self,
                 "self faces (neighbour is the rank itself): local copy, or an MPI message to self")
      ->check(CLI::IsMember({"copy", "mpi"}))
      ->type_name("copy|mpi");
  app.add_flag("--check", o.check, "verify every ghost cell after one exchange per size (untimed)");
  auto* backend_opt =
      app.add_option("--backend", backend,
                     "where the field lives (default host); this build: " + backend_list(backends))
          ->check(CLI::IsMember({"host", "cuda", "hip"}))
          ->type_name("host|cuda|hip");
  bool cuda = false;
  bool hip = false;
  auto* cuda_opt = app.add_flag("--cuda", cuda, "same as --backend cuda");
  auto* hip_opt = app.add_flag("--hip", hip, "same as --backend hip");
  backend_opt->excludes(cuda_opt)->excludes(hip_opt);
  cuda_opt->excludes(hip_opt);
  app.add_option("--gpu-aware", gpu_aware,
                 "MPI on device buffers (on) or staged through host memory (off); default auto")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->type_name("auto|on|off");
  std::string schedule, repeats;
  app.add_option("--schedule", schedule,
                 "packed faces: pipelined (send each as packed, unpack each as it lands; default) "
                 "or bulk (pack all, send all, wait all, unpack all)")
      ->check(CLI::IsMember({"bulk", "pipelined"}))
      ->type_name("bulk|pipelined");
  app.add_flag("--breakdown", o.breakdown,
               "also time Pack_us, Xfer_us (MPI alone on packed buffers), Stage_us, Unpack_us; "
               "adds Xfer_GBps and Eff = Uni_GBps / Xfer_GBps");
  app.add_flag("--limit", o.limit,
               "also measure Copy_GBps (contiguous copy of Send_B bytes where the field lives) and "
               "Peer_GBps (direct copy between neighbouring GPUs)");
  app.add_option("--repeats", repeats,
                 "timed blocks per size (default 1); Time_us is the median, "
                 "Min_us and Max_us are added when R > 1")
      ->type_name("R");
  std::string format, output;
  app.add_option("--format", format,
                 "table (default), csv (one row per size, settings on every row) or "
                 "json (one document with full provenance)")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->type_name("table|csv|json");
  app.add_option("--output", output, "rank 0 writes --format to FILE; stdout keeps the table")
      ->type_name("FILE");
  app.add_flag("--quiet", o.quiet, "with --output: no table on stdout");
  std::string timeout;
  app.add_option("--timeout", timeout,
                 "abort with a message naming the stuck size, phase, face and peer when "
                 "a wait lasts longer (default 300 s; 0: never)")
      ->type_name("SECONDS");
  app.set_version_flag("--version", version_text);

  std::vector<const char*> argv{"halo-bandwidth"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    r.action = ParseResult::Action::exit_ok;
    r.text = app.help();
    return r;
  } catch (const CLI::CallForVersion&) {
    r.action = ParseResult::Action::exit_ok;
    r.text = version_text + "\n";
    return r;
  } catch (const CLI::ParseError& e) {
    r.action = ParseResult::Action::error;
    r.text = e.what();
    return r;
  }

  auto fail = [&r](std::string msg) {
    r.action = ParseResult::Action::error;
    r.text = std::move(msg);
    return r;
  };
  std::string error;
  if (!sizes.empty()) {
    auto s = parse_sizes(sizes, error);
    if (!s) return fail(error);
    o.sizes = *s;
  }
  if (!axis.empty()) o.axes = {axis == "x", axis == "y", axis == "z"};
  if (o.all_faces) o.axes = {true, true, true};
  // The whole-number options: flag, text given, least value, destination.
  const struct {
    const char* flag;
    const std::string& text;
    int least;
    int& value;
  } counts[] = {{"--halo", halo, 1, o.halo},
                {"--iters", iters, 1, o.iters},
                {"--warmup", warmup, 0, o.warmup},
                {"--repeats", repeats, 1, o.repeats}};
  for (const auto& c : counts) {
    if (c.text.empty()) continue;
    auto v = parse_count(c.flag, c.text, c.least, error);
    if (!v) return fail(error);
    c.value = *v;
  }
  if (o.repeats > kMaxRepeats) {
    return fail("--repeats: at most " + std::to_string(kMaxRepeats) + " timed blocks per size");
  }
  if (!timeout.empty()) {
    char* end = nullptr;
    const double t = std::strtod(timeout.c_str(), &end);
    // Below a second, a healthy exchange on a loaded machine could be taken for a hang.
    if (end == timeout.c_str() || *end != '\0' || !(t == 0 || (t >= 1 && t <= 1e9))) {
      return fail("--timeout: '" + timeout + "' is not 0 (off) or a number of seconds from 1 to 1e9");
    }
    o.timeout = t;
  }
  if (!format.empty())
    o.format = format == "csv" ? Format::csv : format == "json" ? Format::json : Format::table;
  if (!output.empty()) o.output = output;
  if (o.quiet && !o.output) return fail("--quiet needs --output: there would be nothing to read");
  if (!schedule.empty()) o.schedule = schedule == "bulk" ? Schedule::bulk : Schedule::pipelined;
  if (!grid.empty()) {
    o.grid = parse_grid(grid, error);
    if (!o.grid) return fail("--grid: " + error);
    o.grid_source = GridSource::flag;
  } else if (auto e = env("OPENPFC_FD_PROC_GRID"); e && !e->empty()) {
    o.grid = parse_grid(*e, error);
    if (!o.grid) return fail("OPENPFC_FD_PROC_GRID: " + error);
    o.grid_source = GridSource::environment;
  }

  if (cuda) backend = "cuda";
  if (hip) backend = "hip";
  if (!backend.empty()) {
    o.backend = backend == "cuda" ? Backend::cuda : backend == "hip" ? Backend::hip : Backend::host;
  }
  bool have = false;
  for (auto b : backends) have = have || b == o.backend;
  if (!have) {
    return fail("backend " + to_string(o.backend) +
                " is not in this build; it has: " + backend_list(backends));
  }
  o.pack = o.backend == Backend::host ? PackMode::datatype : PackMode::kernel;
  if (!pack.empty()) o.pack = pack == "kernel" ? PackMode::kernel : PackMode::datatype;
  if (!self.empty()) o.self = self == "mpi" ? SelfMode::mpi : SelfMode::copy;

  if (!gpu_aware.empty()) {
    o.gpu_aware = gpu_aware == "on"    ? GpuAwareMode::on
                  : gpu_aware == "off" ? GpuAwareMode::off
                                       : GpuAwareMode::automatic;
    o.gpu_aware_source = "--gpu-aware";
  } else if (auto e = env("OPENPFC_ASSUME_GPU_AWARE_MPI"); e && !e->empty()) {
    if (*e != "0" && *e != "1") {
      return fail("OPENPFC_ASSUME_GPU_AWARE_MPI: '" + *e + "' is not 0 or 1");
    }
    o.gpu_aware = *e == "1" ? GpuAwareMode::on : GpuAwareMode::off;
    o.gpu_aware_source = "OPENPFC_ASSUME_GPU_AWARE_MPI";
  }
  if (o.backend == Backend::host && o.pack == PackMode::datatype && o.gpu_aware == GpuAwareMode::off &&
      o.gpu_aware_source == "--gpu-aware") {
    return fail("--gpu-aware off stages packed buffers: it needs --pack kernel");
  }
  return r;
}

ProcGrid choose_grid(const Options& opt, int nranks) {
  return opt.grid ? ProcGrid(*opt.grid) : auto_grid(nranks);
}

std::optional<std::string> validate_layout(const Options& opt, int nranks) {
  if (opt.grid) {
    const Dims3& g = *opt.grid;
    // No dimension may exceed the rank count: then the product cannot overflow.
    const bool too_big = g[0] > nranks || g[1] > nranks || g[2] > nranks;
    const long long product = too_big ? 0 : 1LL * g[0] * g[1] * g[2];
    if (too_big || product != nranks) {
      if (too_big) {
        return "grid " + ProcGrid(g).str() + " (" + to_string(opt.grid_source) +
               ") has a dimension larger than the job's " + std::to_string(nranks) + " ranks";
      }
      return "grid " + ProcGrid(g).str() + " (" + to_string(opt.grid_source) + ") has " +
             std::to_string(product) + " ranks, but the job has " + std::to_string(nranks);
    }
  }
  const ProcGrid grid = choose_grid(opt, nranks);
  const char* names = "xyz";
  constexpr std::int64_t kExactCheck = std::int64_t{1} << 17;  // check values exact in a double below
  for (std::int64_t n : opt.sizes) {
    if (opt.check && n >= kExactCheck) {
      return "--check needs N below " + std::to_string(kExactCheck) +
             ", where every cell's value is exact in a double; N=" + std::to_string(n);
    }
  }
  for (std::int64_t n : opt.sizes) {
    for (int a = 0; a < 3; ++a) {
      const std::int64_t smallest = n / grid.dim(a);  // the last blocks get no remainder
      if (smallest < opt.halo) {
        return "N=" + std::to_string(n) + " on grid " + grid.str() + ": the smallest local extent along " +
               names[a] + " is " + std::to_string(smallest) + ", below the halo width " +
               std::to_string(opt.halo);
      }
    }
    // Each face is one MPI message or datatype with an int element count.
    auto largest = [&](int a) { return (n + grid.dim(a) - 1) / grid.dim(a); };
    for (int a = 0; a < 3; ++a) {
      const double elems = static_cast<double>(opt.halo) * static_cast<double>(largest((a + 1) % 3)) *
                           static_cast<double>(largest((a + 2) % 3));
      if (elems > static_cast<double>(INT_MAX)) {
        return "N=" + std::to_string(n) + ": a face normal to " + names[a] + " would hold more than " +
               std::to_string(INT_MAX) + " values, beyond one MPI message";
      }
    }
  }
  return std::nullopt;
}

}  // namespace halobw
