#include "halobw/exchange/row_pass.hpp"

#include <algorithm>

namespace halobw {

namespace {

// The sorted bounds of the boxes along one axis: between two neighbours, the
// same boxes hold every row.
std::vector<std::int64_t> bounds(const std::vector<const BoxCopy*>& boxes, int axis) {
  std::vector<std::int64_t> b;
  for (const BoxCopy* c : boxes) {
    b.push_back(c->box.lo[static_cast<std::size_t>(axis)]);
    b.push_back(c->box.hi[static_cast<std::size_t>(axis)]);
  }
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return b;
}

bool holds(const Box& box, const Box& rows) {
  return box.lo[1] <= rows.lo[1] && rows.hi[1] <= box.hi[1] && box.lo[2] <= rows.lo[2] &&
         rows.hi[2] <= box.hi[2];
}

// The cells of each of one or two boxes along x where they are the same few
// (RowRun::short_cells), else 0.
int short_cells(const std::vector<const BoxCopy*>& held) {
  if (held.empty() || held.size() > 2) return 0;
  const std::int64_t ex = held.front()->box.extent(0);
  for (const BoxCopy* c : held) {
    if (c->box.extent(0) != ex) return 0;
  }
  return ex <= kShortCells ? static_cast<int>(ex) : 0;
}

}  // namespace

RowPass::RowPass(Flow flow, const Index3& padded, const std::vector<BoxCopy>& copies)
    : flow_(flow), sy_(padded[0]), sz_(padded[0] * padded[1]) {
  std::vector<double*> fields;  // in the order the list names them
  for (const BoxCopy& c : copies) {
    if (!c.box.empty() && std::find(fields.begin(), fields.end(), c.field) == fields.end())
      fields.push_back(c.field);
  }
  for (double* field : fields) {
    std::vector<const BoxCopy*> boxes;
    for (const BoxCopy& c : copies) {
      if (c.field == field && !c.box.empty()) boxes.push_back(&c);
    }
    add_field(field, boxes);
  }
}

// One slab per interval between the boxes' z bounds, one band of rows per
// interval between their y bounds, in memory order.
void RowPass::add_field(double* field, const std::vector<const BoxCopy*>& boxes) {
  const std::vector<std::int64_t> zs = bounds(boxes, 2);
  const std::vector<std::int64_t> ys = bounds(boxes, 1);
  for (std::size_t a = 0; a + 1 < zs.size(); ++a) {
    RowSlab slab;
    slab.field = field;
    slab.k0 = zs[a];
    slab.planes = zs[a + 1] - zs[a];
    slab.first_run = static_cast<int>(runs_.size());
    for (std::size_t b = 0; b + 1 < ys.size(); ++b) {
      Box rows;
      rows.lo = {0, ys[b], zs[a]};
      rows.hi = {0, ys[b + 1], zs[a + 1]};
      add_rows(boxes, rows);
    }
    slab.runs = static_cast<int>(runs_.size()) - slab.first_run;
    if (slab.runs == 0) continue;
    slab.first = items_;
    items_ += slab.planes * slab.runs;
    slabs_.push_back(slab);
  }
}

// The runs of one band (rows.lo..hi along y and z), each row's segments left to right.
void RowPass::add_rows(const std::vector<const BoxCopy*>& boxes, const Box& rows) {
  std::vector<const BoxCopy*> held;
  for (const BoxCopy* c : boxes) {
    if (holds(c->box, rows)) held.push_back(c);
  }
  if (held.empty()) return;
  std::stable_sort(held.begin(), held.end(),
                   [](const BoxCopy* l, const BoxCopy* r) { return l->box.lo[0] < r->box.lo[0]; });
  for (std::int64_t j0 = rows.lo[1]; j0 < rows.hi[1]; j0 += kRowsPerRun) {
    RowRun run;
    run.j0 = j0;
    run.rows = std::min(kRowsPerRun, rows.hi[1] - j0);
    run.first = static_cast<int>(segments_.size());
    run.count = static_cast<int>(held.size());
    run.short_cells = short_cells(held);
    run.packed = std::all_of(held.begin(), held.end(),
                             [](const BoxCopy* c) { return c->other.sy == c->box.extent(0); });
    run.band_rows = j0 == rows.lo[1] ? rows.hi[1] - rows.lo[1] : 0;
    for (const BoxCopy* c : held) {
      const StridedBox& o = c->other;
      RowSegment g;
      g.x = c->box.lo[0];
      g.ex = c->box.extent(0);
      g.other = o.ptr + (j0 - c->box.lo[1]) * o.sy + (rows.lo[2] - c->box.lo[2]) * o.sz;
      g.sy = o.sy;
      g.sz = o.sz;
      segments_.push_back(g);
    }
    runs_.push_back(run);
  }
}

}  // namespace halobw
