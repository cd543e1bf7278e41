#include "halobw/plan/layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <string>

namespace halobw {

ProcGrid choose_grid(const Options& opt, int nranks) {
  if (opt.grid) return ProcGrid(*opt.grid);
  // Per-rank bricks (--local) have the same faces on every grid: the cube's rule decides.
  Index3 box{1, 1, 1};
  auto cells = [](const Index3& b) {
    return static_cast<double>(b[0]) * static_cast<double>(b[1]) * static_cast<double>(b[2]);
  };
  if (!opt.local) {
    for (const Index3& s : opt.sizes) {
      if (cells(s) > cells(box)) box = s;  // the largest row's box
    }
  }
  return auto_grid(nranks, box);
}

std::vector<RowSpec> row_specs(const Options& opt, const ProcGrid& grid) {
  std::vector<RowSpec> rows;
  const std::string column = size_column(opt);
  for (const Index3& n : opt.sizes) {
    const Index3 global = opt.local ? Index3{n[0] * grid.dim(0), n[1] * grid.dim(1), n[2] * grid.dim(2)} : n;
    for (const int h : opt.halos) {
      RowSpec r;
      r.size = n;
      r.global = global;
      r.halo = h;
      r.size_text = column == "N" || column == "L" ? std::to_string(r.cube())
                    : column == "Global"           ? dims_string(r.global)
                                                   : dims_string(r.size);
      r.label = row_label(opt, r);
      r.shape = shape_of(opt, r);
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

const char* size_column(const Options& opt) {
  const bool cubes = std::all_of(opt.sizes.begin(), opt.sizes.end(),
                                 [](const Index3& n) { return n[0] == n[1] && n[1] == n[2]; });
  if (opt.local) return cubes ? "L" : "Local";
  return cubes ? "N" : "Global";
}

std::string row_label(const Options& opt, const RowSpec& row) {
  return size_column(opt) + ("=" + row.size_text) +
         (opt.halos.size() > 1 ? " H=" + std::to_string(row.halo) : std::string());
}

Shape shape_of(const Options& opt, const RowSpec& row) {
  Shape s;
  s.global = row.global;
  s.halo = row.halo;
  s.dirs = opt.stencil == StencilKind::box ? box_directions() : star_directions(opt.axes);
  s.fields = opt.fields;
  s.periodic = opt.periodic;
  return s;
}

Shape placement_shape(const Options& opt, const std::vector<RowSpec>& rows) {
  auto cells = [](const RowSpec& r) {
    return static_cast<double>(r.global[0]) * static_cast<double>(r.global[1]) *
           static_cast<double>(r.global[2]);
  };
  const RowSpec* largest = nullptr;
  for (const RowSpec& r : rows) {
    if (largest == nullptr || cells(r) > cells(*largest) ||
        (r.global == largest->global && r.halo > largest->halo)) {
      largest = &r;
    }
  }
  return largest == nullptr ? shape_of(opt, RowSpec{}) : largest->shape;
}

bool crosses_ranks(const ProcGrid& grid, const Shape& shape) {
  for (const int dir : shape.dirs) {
    const Offset3& d = offset_of(dir);
    bool exists = true;  // no step of it leaves the box through a wall
    bool cut = false;    // some step of it crosses a cut of the grid
    for (int a = 0; a < 3; ++a) {
      if (d[static_cast<std::size_t>(a)] == 0) continue;
      exists = exists && (grid.dim(a) > 1 || shape.periodic[static_cast<std::size_t>(a)]);
      cut = cut || grid.dim(a) > 1;
    }
    if (exists && cut) return true;
  }
  return false;
}

namespace {

// "the ±x faces", "the six faces", "all 26 pieces": what a run exchanges.
std::string pieces_named(const Options& opt) {
  if (opt.stencil == StencilKind::box) return "all 26 pieces";
  for (int a = 0; a < 3; ++a) {
    if (!opt.all_faces && opt.axes[static_cast<std::size_t>(a)])
      return std::string("the \u00b1") + "xyz"[a] + " faces";
  }
  return "the six faces";
}

}  // namespace

std::optional<std::string> nothing_crosses(const Options& opt, const ProcGrid& grid, int nranks,
                                           bool any_remote) {
  if (any_remote) return std::nullopt;
  const char* names = "xyz";
  // Along the exchanged axes no cut is left: each either wraps or has walls.
  bool wraps = false;
  bool walls = false;
  for (int a = 0; a < 3; ++a) {
    if (!opt.axes[static_cast<std::size_t>(a)] || grid.dim(a) > 1) continue;
    (opt.periodic[static_cast<std::size_t>(a)] ? wraps : walls) = true;
  }
  const std::string fate = walls ? (wraps ? "wrap to the same rank or lie on walls" : "lie on walls")
                                 : (nranks == 1 ? "wrap to the one rank" : "wrap to the same rank");
  const std::string where = "on grid " + grid.str() + " " + pieces_named(opt) + " " + fate;
  if (nranks == 1) return where + "; run on more ranks";
  std::string hint;
  for (int a = 0; a < 3; ++a) {
    if (grid.dim(a) > 1) hint += fmt::format("{}--axis {}", hint.empty() ? "" : " or ", names[a]);
  }
  for (int a = 0; a < 3; ++a) {
    if (!opt.axes[static_cast<std::size_t>(a)]) continue;
    Dims3 along{1, 1, 1};
    along[static_cast<std::size_t>(a)] = nranks;
    hint += fmt::format("{}--grid {},{},{}", hint.empty() ? "" : " or ", along[0], along[1], along[2]);
    break;
  }
  return where + "; use " + hint;
}

namespace {

// plan_layout's checks, filling `layout` as they go.
Status fill_layout(const Options& opt, int nranks, Layout& layout) {
  if (opt.grid) {
    const Dims3& g = *opt.grid;
    const std::string where = "grid " + dims_string(g) + " (" + to_string(opt.grid_source) + ")";
    // No dimension may exceed the rank count: then the product cannot overflow.
    if (g[0] > nranks || g[1] > nranks || g[2] > nranks) {
      return fail(where + " has a dimension larger than the job's " + std::to_string(nranks) + " ranks");
    }
    const long long product = 1LL * g[0] * g[1] * g[2];
    if (product != nranks) {
      return fail(where + " has " + std::to_string(product) + " ranks, but the job has " +
                  std::to_string(nranks));
    }
  }
  if (opt.overlap && opt.max_halo() > kMaxReach) {
    return fail("--overlap takes halo widths up to " + std::to_string(kMaxReach) + "; --halo has " +
                std::to_string(opt.max_halo()));
  }
  layout.grid = choose_grid(opt, nranks);
  const ProcGrid& grid = layout.grid;
  layout.rows = row_specs(opt, grid);
  const std::vector<RowSpec>& rows = layout.rows;
  const char* names = "xyz";
  for (const RowSpec& r : rows) {
    const std::string& row = r.label;
    // Each global cell's --check value, times the fields, must be exact in a double.
    const double values = static_cast<double>(r.global[0]) * static_cast<double>(r.global[1]) *
                          static_cast<double>(r.global[2]) * static_cast<double>(opt.fields);
    if (opt.check && values >= 9007199254740992.0) {
      return fail(
          "--check needs fewer than 2^53 values (cells of the global box times fields), where every "
          "cell's value is exact in a double; " +
          row + " on grid " + grid.str() + " has " + dims_string(r.global) + " x " +
          std::to_string(opt.fields));
    }
    for (int a = 0; a < 3; ++a) {
      const std::int64_t smallest =
          block_of(r.global[a], grid.dim(a), grid.dim(a) - 1).extent;  // no remainder
      if (smallest < r.halo) {
        return fail(row + " on grid " + grid.str() + ": the smallest local extent along " + names[a] +
                    " is " + std::to_string(smallest) + ", below the halo width " + std::to_string(r.halo));
      }
    }
    // Each message is one MPI count of values: at least a face of every field it carries
    // (the peer mode's messages take more pieces only while they fit: plan/messages.hpp).
    const double carried = opt.messages == Messages::separate ? 1 : opt.fields;
    auto largest = [&](int a) { return block_of(r.global[a], grid.dim(a), 0).extent; };  // the first block
    for (int a = 0; a < 3; ++a) {
      const double elems = carried * static_cast<double>(r.halo) * static_cast<double>(largest((a + 1) % 3)) *
                           static_cast<double>(largest((a + 2) % 3));
      if (elems > static_cast<double>(INT_MAX)) {
        return fail(row + ": a face normal to " + names[a] + " would hold more than " +
                    std::to_string(INT_MAX) + " values, beyond one MPI message" +
                    (carried > 1 ? " (try --messages separate)" : ""));
      }
    }
  }
  return {};
}

}  // namespace

Expected<Layout> plan_layout(const Options& opt, int nranks) {
  Layout layout;
  if (const Status v = fill_layout(opt, nranks, layout)) return *v;
  layout.size_column = size_column(opt);
  layout.placement = placement_shape(opt, layout.rows);
  const bool remote = std::any_of(layout.rows.begin(), layout.rows.end(),
                                  [&](const RowSpec& r) { return crosses_ranks(layout.grid, r.shape); });
  layout.nothing_crosses = nothing_crosses(opt, layout.grid, nranks, remote);
  return layout;
}

}  // namespace halobw
