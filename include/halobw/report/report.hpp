// The report: the header, the rows and their reduction over the ranks.
// Formatting is pure (plain numbers in, strings out); reducing per-rank
// figures over the ranks is the one place that talks to MPI. What each column
// counts is in columns.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/reduce.hpp"
#include "halobw/report/run_settings.hpp"

namespace halobw {

// What ran the ranks, for the result files: a simulator and the platform it
// modeled, or "none" (a measured run), so that the fields are always there.
struct SimulationInfo {
  std::string engine = "none";  // "SimGrid SMPI", or "none": measured, not simulated
  std::string version;          // the engine's version ("3.32"); empty when none
  std::string platform;         // the platform file as scripts/simulate names it; empty when none or unknown
  std::string platform_sha256;  // its SHA-256 in hex (from scripts/simulate); empty when none or unknown
};

// What the header and the result files say of a run: its settings (the
// table in run_settings.hpp), who ran where, the notes, and the provenance.
struct HeaderInfo {
  RunInfo run;
  std::vector<int> rank_device;
  std::vector<std::string> rank_host;
  std::vector<int> rank_cores;                              // the cores of each rank's node
  std::vector<std::string> notes;                           // further '#' lines, without the '# '
  std::vector<std::pair<std::string, std::string>> limits;  // column and what it measures

  // Provenance, carried by the CSV and JSON outputs.
  std::string build_type;
  std::string compiler;
  std::string kokkos;
  std::vector<std::string> backends;
  std::string mpi_library;
  std::string mpi_thread;  // the thread level MPI_Init_thread provided
  std::vector<std::string> command_line;
  std::string start_utc;  // "2026-11-30T12:00:00Z"
  std::vector<std::pair<std::string, std::optional<std::string>>> environment;
  SimulationInfo simulation;
};

// The ranks of one node, the device each uses, in rank order, and its cores.
struct NodeEntry {
  std::string name;
  std::vector<int> ranks;
  std::vector<int> devices;
  int cores = 0;
};
// One entry per host name, in the order of their first rank.
[[nodiscard]] std::vector<NodeEntry> node_map(const std::vector<std::string>& rank_host,
                                              const std::vector<int>& rank_device,
                                              const std::vector<int>& rank_cores = {});
// "0-63", "0-3,0-3", "-1*64", "0,2,5": runs of consecutive values as ranges, of equal values as v*n.
[[nodiscard]] std::string compact(const std::vector<int>& values);
// Up to this many ranks the header lists every rank (the seed's form); above, one line per node.
constexpr int kRankListLimit = 64;

[[nodiscard]] std::string format_header(const HeaderInfo& h);

// --breakdown: the phases of the timed exchanges (seconds per exchange, of the
// busiest rank of the median block: they add up to its time in the loop),
// and the isolated MPI transfer, a reference.
struct Phases {
  double pack = 0;
  double mpi = 0;
  double stage = 0;
  double unpack = 0;
  double xfer = 0;  // reference, timed on its own
  [[nodiscard]] double sum() const { return pack + mpi + stage + unpack; }
};

// --overlap: seconds per step (the slowest rank, the median of the
// interleaved rounds), the noise of the rounds and the stencil's bytes read
// and written per step.
struct OverlapFigures {
  double comp = 0;
  double blocking = 0;
  double overlapped = 0;
  double noise = 0;  // the largest spread (max - min over the rounds) of the three steps
  int rounds = 0;    // rounds of alone, blocking, overlapped
  std::uint64_t stencil_bytes = 0;
};

// Hidden = (Blocking_us - Overlap_us) / (Blocking_us - Comp_us), the share of
// the exchange's cost in the blocking step that the overlapped step hid: a
// value in [0, 1], or none with the reason (the difference it measures lies
// within the noise, or the steps fall outside the range where it is a share).
struct HiddenVerdict {
  std::optional<double> share;
  std::string why_not;  // empty when there is a share
};
[[nodiscard]] HiddenVerdict hidden_share(const OverlapFigures& f);

// How much of the fields the kernel backs with huge pages (--hugepages on,
// host memory): MiB per rank, the least and the most over the ranks.
struct HugeFigures {
  double field_min = 0;
  double field_max = 0;
  double huge_min = 0;
  double huge_max = 0;
};

// One rank's figures in a row: its time per exchange from the clock's start
// to the end of its own K-th exchange, before the trailing barrier (in the
// median block), and the remote bytes it sends per exchange.
struct RankFigures {
  int rank = 0;
  std::string host;
  double seconds = 0;
  std::uint64_t send_bytes = 0;
};

// One size, reduced over the ranks.
struct Row {
  std::int64_t n = 0;    // the row's cube side: N, or L with --local; 0 for a box of extents
  Index3 size{0, 0, 0};  // the row's size as given: the global box, or each rank's brick (--local)
  Index3 global{0, 0, 0};
  int halo = 1;
  std::uint64_t send_max = 0;         // Send_B: the most remote bytes any rank sends
  std::uint64_t send_min = 0;         // the least
  std::uint64_t offnode_max = 0;      // OffNode_B: the most any rank sends to other nodes
  std::uint64_t node_out_max = 0;     // NodeOut_B: the most one node's ranks send to other nodes
  double seconds = 0;                 // the slowest rank's time per exchange (median block)
  PieceCounts counts;                 // the most of each on any rank
  std::optional<double> min_seconds;  // fastest and slowest block, --repeats > 1
  std::optional<double> max_seconds;
  std::optional<Phases> phases;           // --breakdown
  std::optional<HugeFigures> huge;        // --hugepages on, host memory
  std::optional<OverlapFigures> overlap;  // --overlap
  int median_block = 0;             // the block whose time is Time_us (the lower middle one of an even count)
  std::optional<double> copy_gbps;  // --limit
  std::optional<double> peer_gbps;  // --limit, where it can be measured
  int iters = 0;                    // K, the timed exchanges of each block (--iters, or chosen by time)
  // The rank whose own time (RankFigures::seconds) is the longest, its host,
  // and that time over the median rank's (none where the median rank's is 0).
  int slowest = 0;
  std::string slowest_host;
  std::optional<double> skew;
  std::vector<RankFigures> ranks;  // --per-rank: every rank's figures, in rank order
};

// Send_B / time / 1e9, 0 when either is 0.
[[nodiscard]] double uni_gbps(std::uint64_t bytes, double seconds);
// Uni_GBps / Xfer_GBps; nullopt when nothing remote was sent.
[[nodiscard]] std::optional<double> efficiency(const Row& row);

// A row as its plan has it before anything is timed: the size, the bytes
// and the piece counts over every rank. Pure.
[[nodiscard]] Row row_of(const RowPlan& plan);
// The timed blocks of a row (this rank's seconds per exchange in each): per
// block the slowest rank; Time is the median block, with min and max when
// there are several. Collective.
void reduce_times(const Comm& comm, const std::vector<double>& mine, Row& row);
// The slowest of the ranks' `seconds` (the lowest rank of equals) and its
// value over the median rank's (the lower middle one of an even count). Pure.
struct SlowestRank {
  int rank = 0;
  std::optional<double> skew;  // none where the median rank's value is not above 0
};
[[nodiscard]] SlowestRank slowest_rank(const std::vector<double>& seconds);
// Each rank's own time (before the trailing barrier) and remote bytes, in one
// small MPI_Gather to rank 0, outside the timed region: rank 0's row gets the
// slowest rank, its host and the skew, and with `per_rank` every rank's
// figures. `hosts` are every rank's host names. Collective.
void reduce_ranks(const Comm& comm, double own_seconds, std::uint64_t send_bytes,
                  const std::vector<std::string>& hosts, bool per_rank, Row& row);
// --per-rank: the table's note lines of a row named `label` ("N=64"): one per
// rank up to kRankListLimit ranks, above that one per node (its ranks, the
// least, median and most Rank_us, and the bytes). Pure.
[[nodiscard]] std::vector<std::string> per_rank_lines(const Row& row, const std::string& label);
// The phases of the rank whose phases add up to the most. Collective.
[[nodiscard]] Phases reduce_phases(const Comm& comm, const Phases& mine);
// This rank's fields and their huge-page bytes, as MiB over the ranks. Collective.
[[nodiscard]] HugeFigures reduce_huge(const Comm& comm, std::uint64_t field_bytes, std::uint64_t huge_bytes);

}  // namespace halobw
