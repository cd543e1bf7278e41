// The command line and the environment overrides, parsed into one value.
// Pure: no MPI, no Kokkos. Every rank parses the same input alike, so every
// rank reaches the same verdict before any collective.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "halobw/faces.hpp"
#include "halobw/grid.hpp"
#include "halobw/transport.hpp"

namespace halobw {

enum class Backend { host, cuda, hip };
enum class PackMode { datatype, kernel };
enum class SelfMode { copy, mpi };
enum class GpuAwareMode { automatic, on, off };
enum class GridSource { automatic, flag, environment };
enum class Format { table, csv, json };

[[nodiscard]] std::string to_string(Backend b);
[[nodiscard]] std::string to_string(PackMode p);
[[nodiscard]] std::string to_string(SelfMode s);
[[nodiscard]] std::string to_string(GridSource g);
[[nodiscard]] std::string to_string(Format f);

struct Options {
  std::vector<std::int64_t> sizes{64, 128, 256};
  AxisSet axes{true, false, false};
  bool all_faces = false;
  int halo = 1;
  int iters = 50;
  int warmup = 5;
  std::optional<Dims3> grid;  // from --grid or OPENPFC_FD_PROC_GRID
  GridSource grid_source = GridSource::automatic;
  Backend backend = Backend::host;
  PackMode pack = PackMode::datatype;  // host default; kernel on a device backend
  SelfMode self = SelfMode::copy;
  GpuAwareMode gpu_aware = GpuAwareMode::automatic;
  std::string gpu_aware_source = "auto";  // "auto", "--gpu-aware" or the environment variable
  bool check = false;
  Schedule schedule = Schedule::pipelined;  // packing transports
  bool breakdown = false;                   // time pack, transfer, staging and unpack separately
  bool limit = false;                       // measure the copy (and peer) limits in the same run
  int repeats = 1;                          // timed blocks per size; Time_us is their median
  Format format = Format::table;
  std::optional<std::string> output;  // rank 0 writes --format here; stdout keeps the table
  bool quiet = false;                 // no table on stdout (with --output)
  double timeout = 300;               // seconds before a stuck exchange aborts the job; 0: never

  // "x", "y", "z" or "all".
  [[nodiscard]] std::string directions() const;
};

// Looks up an environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
[[nodiscard]] EnvLookup process_environment();

struct ParseResult {
  enum class Action { run, exit_ok, error };
  Action action = Action::run;
  Options options;
  std::string text;  // help or version text, or the error message
};

// `args` are the arguments after the program name. `backends` are those this build has.
[[nodiscard]] ParseResult parse_options(const std::vector<std::string>& args, const EnvLookup& env,
                                        const std::vector<Backend>& backends,
                                        const std::string& version_text);

// "GX,GY,GZ" with three positive integers; nullopt and a message otherwise.
[[nodiscard]] std::optional<Dims3> parse_grid(const std::string& text, std::string& error);

// The grid used for `nranks`: the given one or the automatic one.
[[nodiscard]] ProcGrid choose_grid(const Options& opt, int nranks);

// Checks that need the rank count but no communication: the grid multiplies to
// the rank count, every local extent is at least the halo width, and counts fit.
// Returns the error message, or nullopt when the layout is valid.
[[nodiscard]] std::optional<std::string> validate_layout(const Options& opt, int nranks);

}  // namespace halobw
