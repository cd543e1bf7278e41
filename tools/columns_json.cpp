// halobw-columns: prints the column and settings tables and every enum's
// table of names as JSON, so that the tests can hold the schema, the Python
// tools, --help and the docs against the one place each is written
// (include/halobw/report/columns.hpp, output.hpp; base/names.hpp).
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include "halobw/report/columns.hpp"
#include "halobw/report/results.hpp"
#include "halobw/report/run_settings.hpp"

namespace {

// The names of enum E, in its table's order.
template <class E>
nlohmann::ordered_json names_of() {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const halobw::Spelling<E>& s : halobw::Names<E>::list) a.push_back(s.name);
  return a;
}

// Every enum's names, keyed as the run settings call them where they are one.
nlohmann::ordered_json all_names() {
  using namespace halobw;  // NOLINT(google-build-using-namespace)
  return {{"backend", names_of<Backend>()},         {"pack", names_of<PackMode>()},
          {"self", names_of<SelfMode>()},           {"gpu_aware_mode", names_of<GpuAwareMode>()},
          {"grid_source", names_of<GridSource>()},  {"format", names_of<Format>()},
          {"toggle", names_of<Toggle>()},           {"stencil", names_of<StencilKind>()},
          {"messages", names_of<Messages>()},       {"method", names_of<MethodKind>()},
          {"rma_sync", names_of<RmaSync>()},        {"progress", names_of<ProgressMode>()},
          {"placement", names_of<RankPlacement>()}, {"schedule", names_of<Schedule>()},
          {"transport", names_of<Transport>()},     {"group", names_of<Group>()},
          {"state", names_of<RunStatus::State>()},  {"exit_code", names_of<ExitCode>()}};
}

}  // namespace

int main() try {
  using nlohmann::ordered_json;
  ordered_json cols = ordered_json::array();
  for (const halobw::Column& c : halobw::columns()) {
    cols.push_back({{"name", c.name},
                    {"unit", c.unit},
                    {"decimals", c.decimals},
                    {"integer", c.decimals == halobw::kWhole},
                    {"group", halobw::to_string(c.group)},
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
        {{"name", s.name}, {"csv", true}, {"json_run", s.json_run}, {"type", halobw::to_string(s.type)}});
  }
  const ordered_json doc = {
      {"columns", cols}, {"table_order", table}, {"settings", settings}, {"names", all_names()}};
  std::puts(doc.dump(1).c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "halobw-columns: %s\n", e.what());
  return 1;
}
