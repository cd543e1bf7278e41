#include "halobw/layout.hpp"

#include <climits>
#include <string>

namespace halobw {

ProcGrid choose_grid(const Options& opt, int nranks) {
  return opt.grid ? ProcGrid(*opt.grid) : auto_grid(nranks);
}

std::vector<RowSpec> row_specs(const Options& opt, const ProcGrid& /*grid*/) {
  std::vector<RowSpec> rows;
  for (const std::int64_t n : opt.sizes) rows.push_back({n, {n, n, n}, opt.halo});
  return rows;
}

Shape shape_of(const Options& opt, const RowSpec& row) {
  Shape s;
  s.global = row.global;
  s.halo = row.halo;
  s.dirs = opt.stencil == StencilKind::box ? box_directions() : star_directions(opt.axes);
  return s;
}

Status validate_layout(const Options& opt, int nranks) {
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
  if (opt.overlap && opt.halo > kMaxOverlapReach) {
    return fail("--overlap takes halo widths up to " + std::to_string(kMaxOverlapReach) + "; --halo is " +
                std::to_string(opt.halo));
  }
  const ProcGrid grid = choose_grid(opt, nranks);
  const std::vector<RowSpec> rows = row_specs(opt, grid);
  constexpr std::int64_t kExactCheck = std::int64_t{1} << 17;  // check values exact in a double below
  for (const RowSpec& r : rows) {
    if (opt.check && r.n >= kExactCheck) {
      return fail("--check needs N below " + std::to_string(kExactCheck) +
                  ", where every cell's value is exact in a double; N=" + std::to_string(r.n));
    }
  }
  const char* names = "xyz";
  for (const RowSpec& r : rows) {
    for (int a = 0; a < 3; ++a) {
      const std::int64_t smallest = r.global[a] / grid.dim(a);  // the last blocks get no remainder
      if (smallest < r.halo) {
        return fail("N=" + std::to_string(r.n) + " on grid " + grid.str() +
                    ": the smallest local extent along " + names[a] + " is " + std::to_string(smallest) +
                    ", below the halo width " + std::to_string(r.halo));
      }
    }
    // Each face is one MPI message or datatype with an int element count.
    auto largest = [&](int a) { return (r.global[a] + grid.dim(a) - 1) / grid.dim(a); };
    for (int a = 0; a < 3; ++a) {
      const double elems = static_cast<double>(r.halo) * static_cast<double>(largest((a + 1) % 3)) *
                           static_cast<double>(largest((a + 2) % 3));
      if (elems > static_cast<double>(INT_MAX)) {
        return fail("N=" + std::to_string(r.n) + ": a face normal to " + names[a] + " would hold more than " +
                    std::to_string(INT_MAX) + " values, beyond one MPI message");
      }
    }
  }
  return {};
}

}  // namespace halobw
