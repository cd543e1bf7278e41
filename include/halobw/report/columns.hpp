// One table of columns: each column's name, unit, decimals, group, meaning
// and value, written once. The text table, the CSV and the JSON are all
// printed from it; scripts, the schema and the docs are tested against it
// (tests/tools: halobw-columns prints it).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/base/names.hpp"
#include "halobw/report/report.hpp"

namespace halobw {

// Columns come in groups; a table shows a group when the run measures it.
enum class Group {
  standard,       // every row
  cube,           // N: rows are global cube sides (--sizes)
  local,          // L: rows are per-rank cube sides (--local)
  local_extents,  // Local: rows are per-rank bricks, some not cubes (--local LXxLYxLZ)
  global_box,     // Global: rows are per-rank bricks (--local), or global boxes that are not all cubes
  sweep,          // H: more than one halo width
  walls,          // BoundaryFaces: some axis is open (--periodic)
  off_node,       // OffNode_B: the ranks are on more than one node
  send_min,       // Send_min_B: some sizes do not split evenly (always in CSV and JSON)
  spread,         // Min_us Max_us: --repeats > 1
  breakdown,      // --breakdown
  limit,          // --limit
  hugepages,      // --hugepages on, host memory: in files only (the table has a note line per row)
  overlap,        // --overlap
  box,            // --stencil box: edges and corners
  iters,          // Iters: --iters auto (always in CSV and JSON)
  ranks,          // Slowest, Skew: --per-rank (always in CSV and JSON, with Slowest_host)
};
template <>
struct Names<Group> {
  static constexpr std::array<Spelling<Group>, 17> list{{{"standard", Group::standard},
                                                         {"cube", Group::cube},
                                                         {"local", Group::local},
                                                         {"local_extents", Group::local_extents},
                                                         {"global_box", Group::global_box},
                                                         {"sweep", Group::sweep},
                                                         {"walls", Group::walls},
                                                         {"off_node", Group::off_node},
                                                         {"send_min", Group::send_min},
                                                         {"spread", Group::spread},
                                                         {"breakdown", Group::breakdown},
                                                         {"limit", Group::limit},
                                                         {"hugepages", Group::hugepages},
                                                         {"overlap", Group::overlap},
                                                         {"box", Group::box},
                                                         {"iters", Group::iters},
                                                         {"ranks", Group::ranks}}};
};

// The groups a run's table shows; fixed before the first row.
class Groups {
 public:
  Groups() = default;
  Groups& add(Group g) {
    bits_ |= 1u << static_cast<unsigned>(g);
    return *this;
  }
  Groups& set(Group g, bool on) {
    if (on) return add(g);
    bits_ &= ~(1u << static_cast<unsigned>(g));
    return *this;
  }
  [[nodiscard]] bool has(Group g) const {
    return g == Group::standard || (bits_ & (1u << static_cast<unsigned>(g))) != 0;
  }

 private:
  unsigned bits_ = 1u << static_cast<unsigned>(Group::cube);  // rows are global sizes unless --local
};

// One value of one row: not measured (absent), could not be measured (n/a,
// JSON null), measured but not told apart from noise (unresolved: "-" in the
// table, an empty CSV field, JSON null), a whole number, a number or text.
struct Cell {
  enum class Kind { absent, na, unresolved, integer, number, text };
  Kind kind = Kind::absent;
  std::int64_t integer = 0;
  double number = 0;
  std::string text;
  static Cell of(std::int64_t v) { return {Kind::integer, v, 0, {}}; }
  static Cell of(double v) { return {Kind::number, 0, v, {}}; }
  static Cell of(std::string v) { return {Kind::text, 0, 0, std::move(v)}; }
  static Cell na() { return {Kind::na, 0, 0, {}}; }
  static Cell unresolved() { return {Kind::unresolved, 0, 0, {}}; }
};

constexpr int kWhole = -1;  // decimals of a whole-number column
constexpr int kText = -2;   // a text column (Global: "GXxGYxGZ", Slowest_host)

// What a column may hold and where it shows, or-ed together in Column::shows.
enum ColumnShows : unsigned {
  kInFilesOfItsGroup = 0,  // none of the below: in the files where its group is, never in the table
  kMayBeNa = 1u,           // may be n/a (JSON null)
  kInTable = 2u,           // shown by the table (else in files only)
  kInEveryFileRow = 4u,    // present in every file row, whatever the groups
};
struct Column {
  const char* name;
  const char* unit;  // "cells", "bytes", "us", "GB/s", "count", "ratio"
  int decimals;      // fixed decimals in the table and CSV (GB/s: at least; 3 significant digits), or kWhole
  Group group;
  unsigned shows;       // ColumnShows
  const char* meaning;  // one line, as docs/output.md says it
  Cell (*value)(const Row&);
  [[nodiscard]] bool na_allowed() const { return (shows & kMayBeNa) != 0; }
  [[nodiscard]] bool in_table() const { return (shows & kInTable) != 0; }
  [[nodiscard]] bool always_in_files() const { return (shows & kInEveryFileRow) != 0; }
};

// Every column, in order: the table shows those of its groups, the files all
// (CSV) or those measured (JSON), in this order.
[[nodiscard]] const std::vector<Column>& columns();

// The columns a table with `groups` shows, in table order.
[[nodiscard]] std::vector<const Column*> table_columns(const Groups& groups);
// Whether a row in a file carries the column (a JSON member, a non-empty CSV field).
[[nodiscard]] bool in_files(const Column& c, const Groups& groups);

// The text of a cell as the table prints it ("n/a" where absent or n/a).
[[nodiscard]] std::string table_text(const Column& c, const Cell& v);
// As the CSV prints it: empty where absent.
[[nodiscard]] std::string csv_text(const Column& c, const Cell& v);

// The column line "# N Send_B ..." and one row of the table.
[[nodiscard]] std::string format_columns(const Groups& groups);
[[nodiscard]] std::vector<std::string> row_fields(const Row& row, const Groups& groups);
[[nodiscard]] std::string format_row(const Row& row, const Groups& groups);

}  // namespace halobw
