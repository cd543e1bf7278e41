// The report: what each column counts, the header and the rows. Formatting is
// pure (plain numbers in, strings out); reducing per-rank figures over the
// ranks is the one place that talks to MPI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "halobw/mpi.hpp"

namespace halobw {

struct HeaderInfo {
  std::string version;
  std::string backend = "host";
  std::string device = "host";
  int ranks = 1;
  int nodes = 1;
  std::string grid;         // "GXxGYxGZ"
  std::string grid_source;  // "auto", "--grid", "OPENPFC_FD_PROC_GRID"
  std::string directions;   // "x", "y", "z", "all"
  int halo = 1;
  int iters = 50;
  int warmup = 5;
  std::string pack;          // "datatype", "kernel"
  std::string self;          // "copy", "mpi"
  std::string gpu_aware;     // "n/a", "0", "1"
  bool contiguous = false;   // faces travel as packed contiguous buffers
  std::string transport;     // "datatype", "direct", "staged"
  std::vector<int> rank_device;
  std::vector<std::string> rank_host;
  std::vector<std::string> notes;  // further '#' lines, without the '# '
};

[[nodiscard]] std::string format_header(const HeaderInfo& h);
// The column line; `send_min` adds Send_min_B at the end.
[[nodiscard]] std::string format_columns(bool send_min);

// One size, reduced over the ranks.
struct Row {
  std::int64_t n = 0;
  std::uint64_t send_max = 0;  // Send_B: the most remote bytes any rank sends
  std::uint64_t send_min = 0;  // the least
  double seconds = 0;          // the slowest rank's time per exchange
  int remote_faces = 0;        // max over ranks
  int self_faces = 0;
  int offnode_faces = 0;
};

// Send_B / time / 1e9, 0 when either is 0.
[[nodiscard]] double uni_gbps(std::uint64_t bytes, double seconds);
[[nodiscard]] std::string format_row(const Row& row, bool send_min);

// One rank's figures for one size.
struct RankFigures {
  double seconds = 0;
  std::uint64_t remote_bytes = 0;
  int remote_faces = 0;
  int self_faces = 0;
  int offnode_faces = 0;
};
// Max time, max and min send bytes, max of each count. Collective.
[[nodiscard]] Row reduce_row(const Comm& comm, std::int64_t n, const RankFigures& mine);

}  // namespace halobw
