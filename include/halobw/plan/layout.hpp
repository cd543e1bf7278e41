// The run's layout: the process grid chosen for the job, the rows it runs
// (one per size and halo width), the shape each row exchanges, and every
// check of them that needs the rank count but no communication.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "halobw/base/failure.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/plan/grid.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

// The grid used for `nranks`: the given one, or the automatic one for the
// largest row's box (for per-rank bricks, --local, the cube's rule).
[[nodiscard]] ProcGrid choose_grid(const Options& opt, int nranks);

// The widest stencil --overlap runs: its weights are a fixed array of this
// many (measure/stencil.hpp), and halo widths above it are refused here.
constexpr int kMaxReach = 16;

// One row of the table: its size, the global box it exchanges, and how the table names it.
struct RowSpec {
  Index3 size{0, 0, 0};  // as given: the global box (--sizes), or each rank's brick (--local)
  Index3 global{0, 0, 0};
  int halo = 1;
  std::string size_text;  // its cell of the size column: "64", "128x512x512"
  std::string label;      // as notes and messages name it (row_label)
  Shape shape;            // what it exchanges (shape_of)
  // The cube side when the size is a cube (the N or L column), else 0.
  [[nodiscard]] std::int64_t cube() const { return size[0] == size[1] && size[1] == size[2] ? size[0] : 0; }
};
// The rows of a run on `grid`, each with its text and shape.
[[nodiscard]] std::vector<RowSpec> row_specs(const Options& opt, const ProcGrid& grid);

// The table's size column: N (--sizes) or L (--local) where every size is a
// cube, else Global (--sizes) or Local (--local), whose cells are extents.
[[nodiscard]] const char* size_column(const Options& opt);
// A row as its size column names it: "N=64", "L=32", "Global=128x512x512",
// "Local=64x64x32", with " H=2" in a halo sweep: how notes and messages name a row.
[[nodiscard]] std::string row_label(const Options& opt, const RowSpec& row);

// What a row exchanges: its global box, halo, directions and fields.
[[nodiscard]] Shape shape_of(const Options& opt, const RowSpec& row);

// The row --placement nodes chooses its block for (plan/rank_map.hpp): the
// largest global box (the most cells, the first of equals, as the automatic
// grid takes it) at its largest halo width, where the most bytes go.
[[nodiscard]] Shape placement_shape(const Options& opt, const std::vector<RowSpec>& rows);

// When no piece of any row crosses ranks (every one wraps to its own rank):
// which pieces, on which grid, and the flag that would make them remote, as
// "on grid 1x1x2 the ±x faces wrap to the same rank; use --axis z or --grid 2,1,1".
// nullopt when some row sends a remote byte.
[[nodiscard]] std::optional<std::string> nothing_crosses(const Options& opt, const ProcGrid& grid, int nranks,
                                                         bool any_remote);

// Whether some piece of `shape` goes to another rank of `grid` (on some rank:
// with walls, not every rank sends every piece).
[[nodiscard]] bool crosses_ranks(const ProcGrid& grid, const Shape& shape);

// The grid and the rows of a job of `nranks`, chosen once and handed down
// with everything the callers print of them: the grid multiplies to the rank
// count, every local extent is at least the halo width, every message fits an
// int count, and --check's values are exact.
struct Layout {
  ProcGrid grid{{1, 1, 1}};
  std::vector<RowSpec> rows;
  std::string size_column;                     // size_column
  Shape placement;                             // placement_shape: the row --placement nodes chooses for
  std::optional<std::string> nothing_crosses;  // nothing_crosses, when no row sends a remote byte
};
[[nodiscard]] Expected<Layout> plan_layout(const Options& opt, int nranks);
// plan_layout's verdict alone.
[[nodiscard]] inline Status validate_layout(const Options& opt, int nranks) {
  return plan_layout(opt, nranks).status();
}

}  // namespace halobw
