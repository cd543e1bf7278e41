// The command line and the environment overrides, parsed into one value.
// Pure: no MPI, no Kokkos, nothing of the plan. Every rank parses the same
// input alike, so every rank reaches the same verdict before any collective.
// The options come in groups, each declared by one function (add_...) and
// finished by another (finish_...) in options.cpp, and shown as one section
// of --help.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/base/failure.hpp"
#include "halobw/cli/environment.hpp"
#include "halobw/cli/settings.hpp"

namespace halobw {

// --iters auto: K is at least this, so that a block is more than one or two
// calls, and at most this, so that a call the clock cannot resolve does not
// make a block without end.
constexpr int kAutoItersLeast = 5;
constexpr int kAutoItersMost = 1000000;

struct Options {
  // Decomposition: the grid, how it is cut and which faces move.
  // The global box of each row (--sizes: a cube N or extents NXxNYxNZ), or
  // with --local each rank's brick: one row each, in the order given.
  std::vector<Index3> sizes{{64, 64, 64}, {128, 128, 128}, {256, 256, 256}};
  bool local = false;         // sizes are per-rank bricks (--local)
  std::optional<Dims3> grid;  // from --grid or OPENPFC_FD_PROC_GRID
  GridSource grid_source = GridSource::automatic;
  AxisSet axes{true, false, false};
  bool all_faces = false;
  std::vector<int> halos{1};                // halo widths h, one row per size and width
  StencilKind stencil = StencilKind::star;  // box: faces, edges and corners, all 26 directions
  AxisSet periodic{true, true, true};       // --periodic: the other axes are open (walls, no neighbour)
  // --placement: how grid coordinates follow the ranks; several only with --dry-run.
  std::vector<RankPlacement> placements{RankPlacement::linear};

  // Exchange: where the field lives and how faces travel.
  Backend backend = Backend::host;
  PackMode pack = PackMode::datatype;  // host default; kernel on a device backend
  SelfMode self = SelfMode::copy;
  Schedule schedule = Schedule::pipelined;  // packing transports (bulk by default for --method neighbor)
  MethodKind method = MethodKind::p2p;
  RmaSync rma_sync = RmaSync::pscw;
  GpuAwareMode gpu_aware = GpuAwareMode::automatic;
  std::string gpu_aware_source = "auto";  // "auto", "--gpu-aware" or the environment variable
  Toggle hugepages = Toggle::on;          // host memory 2 MiB aligned and advised to huge pages
  int fields = 1;                         // fields exchanged together, each its own View
  Messages messages = Messages::automatic;
  StructRule struct_rule;  // automatic's rule for this build's MPI library (parse_options' caller)

  // Measurement: the clock and what is measured besides the exchange.
  int iters = 50;           // timed exchanges K per block
  bool iters_auto = false;  // --iters auto: each row's K from the warm-up, so a block lasts min_time
  double min_time = 0.2;    // --min-time: seconds a timed block lasts at least, with --iters auto
  int warmup = 5;
  int repeats = 1;         // timed blocks per size; Time_us is their median
  bool check = false;      // verify every ghost cell once per size, before the clock
  bool breakdown = false;  // time pack, MPI, staging and unpack
  bool limit = false;      // measure the copy (and peer) limits in the same run
  double timeout = 300;    // seconds before a stuck wait aborts the job; 0: never
  bool overlap = false;    // also time a stencil alone, after the exchange, and overlapped with it
  int streams = 1;         // --overlap: the interior on the exchange's instance (1) or a second one (2)
  ProgressMode progress = ProgressMode::wait;  // --overlap: MPI calls while the interior runs (poll) or none

  bool per_rank = false;  // --per-rank: each rank's time, bytes and host

  // Planning: --dry-run prints the plan and measures nothing.
  bool dry_run = false;
  std::optional<int> ranks;           // --ranks R: plan for R ranks in one process, no launch
  std::optional<int> ranks_per_node;  // --ranks-per-node P: block placement of P ranks per node

  // Output.
  Format format = Format::table;
  std::optional<std::string> output;  // rank 0 writes --format here; stdout keeps the table
  bool quiet = false;                 // no table on stdout (with --output)

  // "x", "y", "z", "all" (the six faces), or "box" (all 26 directions).
  [[nodiscard]] std::string directions() const;
  // The halo widths as given: "1", "1,2,4".
  [[nodiscard]] std::string halo_list() const;
  [[nodiscard]] int max_halo() const;
};

// What the command line asks for: a run with these options, or to print
// `exit_text` (--help, --version) and exit 0.
struct Parsed {
  Options options;
  std::optional<std::string> exit_text;
};

// `args` are the arguments after the program name. `backends` are those this build has,
// `struct_rule` its MPI library's rule for --messages auto (platform/mpi.hpp).
[[nodiscard]] Expected<Parsed> parse_options(const std::vector<std::string>& args, const EnvLookup& env,
                                             const std::vector<Backend>& backends,
                                             const std::string& version_text, const StructRule& struct_rule);

// "GXxGYxGZ" or "GX,GY,GZ" with three positive integers (the form the header prints, or the old one).
[[nodiscard]] Expected<Dims3> parse_grid(const std::string& text);

}  // namespace halobw
