// libFuzzer harness over the pure parsing layer: the command line, the size
// list, the grid string, the environment overrides and the layout check.
// Every input must either parse to a valid configuration (checked against
// the invariants below) or yield a one-line error message: never a crash, a
// hang or a sanitizer report.
//
// Input: the first byte gives the rank count (1..64); the rest is split on
// newlines. "ENV NAME=VALUE" lines set environment overrides; every other
// line is one command-line argument.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/cli/size_list.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/rows.hpp"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void check_valid(const halobw::Options& o, int nranks) {
  require(!o.sizes.empty());
  for (const auto& n : o.sizes) require(n[0] >= 1 && n[1] >= 1 && n[2] >= 1);
  require(!o.halos.empty() && o.fields >= 1 && o.iters >= 1 && o.warmup >= 0 && o.repeats >= 1 &&
          o.timeout >= 0);
  require(o.axes[0] || o.axes[1] || o.axes[2]);
  require(!o.quiet || o.output.has_value());
  // The sweep's rows are bounded; the planning options come only with --dry-run, and several
  // placements only there; --iters auto has a positive block length.
  require(o.sizes.size() * o.halos.size() * o.placements.size() <= halobw::kMaxRows && !o.placements.empty());
  require(o.dry_run || (o.placements.size() == 1 && !o.ranks && !o.ranks_per_node));
  require(!o.ranks || *o.ranks >= 1);
  require(!o.ranks_per_node || *o.ranks_per_node >= 1);
  require(o.min_time > 0);
  const auto problem = halobw::validate_layout(o, nranks);
  if (problem) {
    require(!problem->message.empty() && problem->message.find('\n') == std::string::npos);
    return;
  }
  const halobw::ProcGrid grid = halobw::choose_grid(o, nranks);
  require(grid.size() == nranks);
  for (const auto& row : halobw::row_specs(o, grid)) {
    const halobw::Shape shape = halobw::shape_of(o, row);
    for (int rank : {0, nranks - 1}) {
      const halobw::RankPlan p = halobw::make_rank_plan(grid, shape, rank);
      for (int a = 0; a < 3; ++a) require(p.brick.extent[a] >= row.halo);
      for (const auto& f : p.pieces) require(f.send_box.cells() == f.recv_box.cells() && f.cells() > 0);
      const halobw::MessageTable t = halobw::make_message_table(p, o.self);
      std::size_t values = 0;
      for (const auto& m : t.messages) values += m.count;
      require(values == t.buffer_values);
    }
    const halobw::RowSummary r = halobw::summarize(grid, shape, {});
    require(r.send_min <= r.send_max);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int nranks = 1 + data[0] % 64;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;
  std::string line;
  for (std::size_t i = 1; i <= size; ++i) {
    if (i == size || data[i] == '\n') {
      if (line.rfind("ENV ", 0) == 0 && line.find('=') != std::string::npos) {
        const auto eq = line.find('=');
        env[line.substr(4, eq - 4)] = line.substr(eq + 1);
      } else {
        args.push_back(line);
      }
      line.clear();
    } else {
      line.push_back(static_cast<char>(data[i]));
    }
  }
  const halobw::EnvLookup lookup = [&env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  const auto r = halobw::parse_options(args, lookup, {halobw::Backend::host, halobw::Backend::cuda}, "fuzz",
                                       halobw::StructRule{});
  if (!r) {
    require(!r.failure().message.empty() && r.failure().code == halobw::ExitCode::bad_input);
  } else if (r->exit_text) {
    require(!r->exit_text->empty());
  } else {
    check_valid(r->options, nranks);
  }
  const auto grid = halobw::parse_grid(std::string(reinterpret_cast<const char*>(data), size));
  if (!grid) require(!grid.failure().message.empty());
  if (grid) {
    for (int d : *grid) require(d >= 1);
  }
  return 0;
}
