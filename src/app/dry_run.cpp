#include "halobw/app/dry_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "halobw/app/app.hpp"
#include "halobw/app/header.hpp"
#include "halobw/app/job.hpp"
#include "halobw/exchange/transport.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/memory.hpp"
#include "halobw/plan/rank_map.hpp"
#include "halobw/plan/rows.hpp"
#include "halobw/platform/huge_pages.hpp"
#include "halobw/platform/process.hpp"
#include "halobw/report/report.hpp"
#include "halobw/version.hpp"

namespace halobw {

namespace {

// Where the planned ranks are: how many, on which nodes, and how each
// placement lays them on the grid.
struct DryJob {
  int ranks = 1;
  std::vector<int> node_of_rank;
  std::string where;          // the header's words for it
  std::vector<RankMap> maps;  // one per --placement
};

// One row on one placement, as the dry run prints it.
struct DryRow {
  const RowSpec* spec = nullptr;
  RankPlacement placement = RankPlacement::linear;
  RowSummary all;
  std::uint64_t rank_bytes = 0;  // the most one rank allocates
  std::uint64_t node_bytes = 0;  // the most the ranks of one node allocate together, in host memory
};

// --placement cart without a launch: MPI chooses at launch; a library that
// ignores reorder numbers the grid row-major (z fastest), as planned here.
RankMap cart_without_mpi(const Dims3& g) {
  RankMap m;
  m.asked = m.used = RankPlacement::cart;
  for (int r = 0; r < g[0] * g[1] * g[2]; ++r) {
    const int cz = r % g[2];
    const int cy = r / g[2] % g[1];
    const int cx = r / (g[2] * g[1]);
    m.cell_of_rank.push_back(cx + g[0] * (cy + g[1] * cz));
  }
  m.note =
      "placement cart, planned as MPI_Cart_create without reorder (row-major, z fastest), as most MPI "
      "libraries return it; the launch may differ";
  return m;
}

// Every row on every placement: every rank's plan, made once each.
std::vector<DryRow> plan_dry(const Options& opt, const ProcGrid& grid, const DryJob& job,
                             const std::vector<RowSpec>& specs, MemoryUse use) {
  std::vector<DryRow> rows;
  for (const RowSpec& spec : specs) {
    const Shape& shape = spec.shape;
    for (const RankMap& map : job.maps) {
      DryRow row;
      row.spec = &spec;
      row.placement = map.used;
      std::vector<std::uint64_t> node(static_cast<std::size_t>(nodes_of(job.node_of_rank)), 0);
      use.send_max = 0;  // the peer copy's buffers (device backends) are counted after the summary
      row.all = summarize(placed(grid, map), shape, job.node_of_rank, [&](const RankPlan& p) {
        const MemoryNeed need =
            memory_need(p, make_message_table(p, opt.self, opt.messages, opt.pack, opt.struct_rule), use);
        row.rank_bytes = std::max(row.rank_bytes, need.total());
        node[static_cast<std::size_t>(job.node_of_rank[static_cast<std::size_t>(p.rank)])] += need.on_host();
      });
      if (use.limit && use.device) row.rank_bytes += 2 * row.all.send_max;  // the peer copy's two buffers
      row.node_bytes = *std::max_element(node.begin(), node.end());
      rows.push_back(row);
    }
  }
  return rows;
}

std::string render_rows(const Options& opt, const std::string& column, const std::vector<DryRow>& rows,
                        std::uint64_t available) {
  const bool sweep = opt.halos.size() > 1;
  const bool several = opt.placements.size() > 1;
  std::string out = fmt::format(
      "# {}{}{} Send_B Send_min_B RemoteFaces SelfFaces OffNodeFaces BoundaryFaces OffNode_B NodeOut_B "
      "Brick_min Brick_max Rank_B Node_B Fits\n",
      column, sweep ? " H" : "", several ? " Placement" : "");
  for (const DryRow& r : rows) {
    const PieceCounts& c = r.all.most;
    out += fmt::format("{}{}{} {} {} {} {} {} {} {} {} {} {} {} {} {}\n", r.spec->size_text,
                       sweep ? " " + std::to_string(r.spec->halo) : std::string(),
                       several ? " " + to_string(r.placement) : std::string(), r.all.send_max, r.all.send_min,
                       c.remote_faces, c.self_faces, c.offnode_faces, c.boundary_faces, r.all.offnode_max,
                       r.all.node_out_max, dims_string(r.all.brick_min), dims_string(r.all.brick_max),
                       r.rank_bytes, r.node_bytes,
                       available == 0              ? "n/a"
                       : r.node_bytes <= available ? "yes"
                                                   : "no");
  }
  return out;
}

// The header: the settings as the real run would print them, then what was planned and what was not.
std::string render_header(const Options& opt, const ProcGrid& grid, const DryJob& job,
                          const TransportChoice& tc, const std::optional<std::uint64_t>& available) {
  RunInfo run;
  run.options = opt;
  run.version = HALOBW_VERSION;
  run.commit = HALOBW_GIT_COMMIT;
  run.device = opt.backend == Backend::host ? "host" : to_string(opt.backend);
  run.ranks = job.ranks;
  run.nodes = nodes_of(job.node_of_rank);
  run.grid = grid.dims();
  run.transport = tc.transport;
  run.gpu_aware = tc.gpu_aware;
  std::string out;
  auto settings_line = [&](HeaderLine line) {
    const std::string text = header_line(line, run);
    if (!text.empty()) out += "# " + text + "\n";
  };
  for (const HeaderLine line : kHeaderLinesBeforeRanks) settings_line(line);  // no rank lists: nothing runs
  for (const HeaderLine line : kHeaderLinesAfterRanks) settings_line(line);
  out += "# dry run: the plan of " + job.where + ": nothing launched, allocated or timed\n";
  for (const RankMap& m : job.maps) {
    if (!m.note.empty()) out += "# " + m.note + "\n";
  }
  if (!opt.periodic[0] || !opt.periodic[1] || !opt.periodic[2]) out += "# " + walls_note(opt.periodic) + "\n";
  const std::string fits =
      Process::simulation()
          ? std::string(
                "Fits: n/a (simulated): the model has no node memory, and this machine holds every "
                "simulated rank")
          : fmt::format(
                "Fits: Node_B against the {} available on this host, not on the nodes of the real run",
                available ? bytes_text(*available) : std::string("(unknown) memory"));
  out += fmt::format(
      "# Rank_B: the most one rank allocates (fields, packed buffers, staging and limit buffers); Node_B: "
      "the most one node's ranks allocate together in host memory; {}\n",
      fits);
  return out;
}

int print_dry(const Options& opt, const Layout& layout, const DryJob& job, const EnvLookup& env) {
  const ProcGrid& grid = layout.grid;
  const GpuAwareness aware = resolve_gpu_aware(opt, GpuQuery{}, env(env_var::kMpichGpuSupport));
  const Expected<TransportChoice> tc = choose_transport(opt, aware);
  if (!tc) {
    std::fprintf(stderr, "halo-bandwidth: error: %s\n", tc.failure().message.c_str());
    return exit_status(tc.failure().code);
  }
  const std::vector<DryRow> rows =
      plan_dry(opt, grid, job, layout.rows,
               memory_use(opt, tc->transport, host_placement(opt.hugepages == Toggle::on)));
  const auto available = Process::host_available_bytes();
  // Under a simulation this machine's memory is no simulated node's: Fits is n/a (0 below).
  const std::string text =
      render_header(opt, grid, job, *tc, available) +
      render_rows(opt, layout.size_column, rows, Process::simulation() ? 0 : available.value_or(0));
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "halo-bandwidth: error: standard output: cannot write\n");
    return exit_status(ExitCode::runtime_error);
  }
  return 0;
}

}  // namespace

// A dry run prints a table; files describe measured runs.
Status dry_run_refusal(const Options& opt) {
  if (opt.format != Format::table || opt.output) {
    return fail(
        "--dry-run prints its plan as a table on standard output; --format and --output go with a "
        "measured run");
  }
  return {};
}

std::optional<Options> dry_run_alone_requested(const std::vector<std::string>& args, const EnvLookup& env) {
  const Expected<Parsed> parsed = parse_for_this_build(args, env);
  if (!parsed || parsed->exit_text || !parsed->options.dry_run || !parsed->options.ranks) return std::nullopt;
  return parsed->options;
}

int dry_run_alone(const Options& opt, const EnvLookup& env) {
  const int ranks = *opt.ranks;
  const Expected<Layout> layout = checked_layout(opt, ranks, true);
  if (!layout) {
    std::fprintf(stderr, "halo-bandwidth: error: %s\n", layout.failure().message.c_str());
    return exit_status(layout.failure().code);
  }
  const ProcGrid& grid = layout->grid;
  const int per_node = opt.ranks_per_node.value_or(ranks);
  DryJob job;
  job.ranks = ranks;
  for (int r = 0; r < ranks; ++r) job.node_of_rank.push_back(r / per_node);
  const int nodes = nodes_of(job.node_of_rank);
  job.where = fmt::format("{} rank{}, {} per node in blocks (as srun places them): {} node{}", ranks,
                          ranks == 1 ? "" : "s", per_node, nodes, nodes == 1 ? "" : "s");
  job.maps = rank_maps(opt.placements, grid.dims(), layout->placement, job.node_of_rank,
                       [&] { return cart_without_mpi(grid.dims()); });
  return print_dry(opt, *layout, job, env);
}

int dry_run_job(const Comm& comm, const Options& opt, const Layout& layout, const JobPlan& plan,
                const EnvLookup& env) {
  if (comm.rank() != 0) return 0;
  DryJob job;
  job.ranks = comm.size();
  job.node_of_rank = plan.node_of_rank;
  const int nodes = nodes_of(job.node_of_rank);
  job.where = fmt::format("this job's {} rank{} on {} node{} (MPI_Comm_split_type)", comm.size(),
                          comm.size() == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s");
  job.maps = plan.maps;
  return print_dry(opt, layout, job, env);
}

}  // namespace halobw
