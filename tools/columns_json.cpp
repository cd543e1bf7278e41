// halobw-columns: prints the column and settings tables as JSON, so that the
// tests can hold the schema, the Python tools and the docs against the one
// place the columns are written (include/halobw/report/columns.hpp, output.hpp).
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include "halobw/report/columns.hpp"
#include "halobw/report/results.hpp"

int main() try {
  using nlohmann::ordered_json;
  ordered_json cols = ordered_json::array();
  for (const halobw::Column& c : halobw::columns()) {
    cols.push_back({{"name", c.name},
                    {"unit", c.unit},
                    {"decimals", c.decimals},
                    {"integer", c.decimals == halobw::kWhole},
                    {"group", halobw::group_name(c.group)},
                    {"na_allowed", c.na_allowed()},
                    {"in_table", c.in_table()},
                    {"always_in_files", c.always_in_files()},
                    {"meaning", c.meaning}});
  }
  ordered_json table = ordered_json::array();
  // The table of a run that measures every group (global sizes, a halo sweep, a box stencil, --iters auto,
  // --per-rank).
  const halobw::Groups all = halobw::Groups()
                                 .add(halobw::Group::sweep)
                                 .add(halobw::Group::box)
                                 .add(halobw::Group::send_min)
                                 .add(halobw::Group::iters)
                                 .add(halobw::Group::ranks)
                                 .add(halobw::Group::spread)
                                 .add(halobw::Group::breakdown)
                                 .add(halobw::Group::limit)
                                 .add(halobw::Group::overlap)
                                 .add(halobw::Group::hugepages);
  for (const halobw::Column* c : halobw::table_columns(all)) table.push_back(c->name);
  ordered_json settings = ordered_json::array();
  for (const halobw::Setting& s : halobw::run_settings()) {
    settings.push_back(
        {{"name", s.name}, {"csv", true}, {"json_run", s.json_run}, {"type", halobw::type_name(s.type)}});
  }
  const ordered_json doc = {{"columns", cols}, {"table_order", table}, {"settings", settings}};
  std::puts(doc.dump(1).c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "halobw-columns: %s\n", e.what());
  return 1;
}
