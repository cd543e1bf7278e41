// The header of a run: its settings as the job decided them, who runs where,
// and the notes that say what the figures mean; with the provenance the
// result files carry.
#pragma once

#include <string>
#include <vector>

#include "halobw/cli/environment.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/exchange/transport.hpp"
#include "halobw/plan/grid.hpp"
#include "halobw/plan/rank_map.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/device.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/process.hpp"
#include "halobw/report/columns.hpp"
#include "halobw/report/report.hpp"

namespace halobw {

// For --version: "halo-bandwidth 0.1.0 (commit ..., Release build, GNU 12.2.0, Kokkos 3.4.1 (Serial,
// OpenMP))", then "MPI library: " and MPI_Get_library_version's first line (callable before MPI_Init).
[[nodiscard]] std::string version_text();

// Everything the header is made from.
struct HeaderSources {
  const Options& opt;
  const ProcGrid& grid;
  const std::vector<std::string>& hosts;
  DeviceChoice dev;
  TransportChoice tc;
  GpuAwareness aware;
  Groups groups;
  RowFacts facts;
  std::optional<std::string> nothing_crosses;  // the layout's note, where no row sends a remote byte
  RankMap map;                                 // the placement of the ranks on the grid
  const std::vector<int>& node_of_rank;        // as MPI_Comm_split_type groups the ranks, nodes by first rank
  const Process& process;  // the thread level MPI granted, and whether the watchdog may run
};
// Collective (the device of every rank, gathered on rank 0). The tables of
// every rank (rank_host, rank_device) and the notes are rank 0's alone: only
// it prints the header.
[[nodiscard]] HeaderInfo make_header(const Comm& comm, const HeaderSources& src, const EnvLookup& env);

// "rank_node 0:0 1:1 (...)": the header's note where MPI groups the ranks
// into nodes otherwise than their host names do (MPICH's MPIR_CVAR_NOLOCAL
// makes every rank a node of its own); empty where the two agree.
[[nodiscard]] std::string node_note(const std::vector<std::string>& hosts,
                                    const std::vector<int>& node_of_rank);

// "periodic x,y; walls along z: ...": the header's note on --periodic.
[[nodiscard]] std::string walls_note(const AxisSet& periodic);

// Whether the rows record what the kernel gave the fields (Field_MiB,
// Huge_MiB): --hugepages on, host memory, huge pages here, and not simulated
// (the simulated nodes have no pages; this machine's would pass for theirs).
[[nodiscard]] bool huge_figures_recorded(const Options& opt);

// The column groups a run's table shows, fixed before the first row.
[[nodiscard]] Groups groups_of(const Options& opt, const RowFacts& facts, int nodes);

// Each node's ranks against its cores, and the note when some node is
// oversubscribed: on rank 0 (the others only send their cores). Collective.
void add_node_cores(const Comm& comm, HeaderInfo& h);

// Rank 0's view of the build, the MPI library, the command line and the
// environment, for the result files.
void add_provenance(HeaderInfo& h, const std::vector<std::string>& args, const EnvLookup& env,
                    int thread_level);

}  // namespace halobw
