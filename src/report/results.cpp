#include "halobw/report/results.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

namespace halobw {

namespace {

using nlohmann::ordered_json;

std::string join(const std::vector<std::string>& items, const char* sep) {
  return fmt::format("{}", fmt::join(items, sep));
}

// Provenance: CSV columns after the measurements (JSON holds them in "program" and "run").
const std::vector<ProvenanceField> kProvenance{
    {"command_line", [](const HeaderInfo& h) { return join(h.command_line, " "); }},
    {"start_utc", [](const HeaderInfo& h) { return h.start_utc; }},
    {"build",
     [](const HeaderInfo& h) {
       return fmt::format("{}; {}; {}; backends {}", h.build_type, h.compiler, h.kokkos,
                          join(h.backends, " "));
     }},
    {"mpi_library", [](const HeaderInfo& h) { return h.mpi_library; }},
    {"mpi_thread", [](const HeaderInfo& h) { return h.mpi_thread; }},
    {"hosts",
     [](const HeaderInfo& h) {
       std::vector<std::string> text;
       for (const NodeEntry& n : node_map(h.rank_host, h.rank_device, h.rank_cores)) {
         text.push_back(fmt::format("{} ranks {} devices {} cores {}", n.name, compact(n.ranks),
                                    compact(n.devices), n.cores));
       }
       return join(text, "; ");
     }},
    {"environment",
     [](const HeaderInfo& h) {
       std::vector<std::string> env;
       for (const auto& [name, v] : h.environment) env.push_back(name + "=" + v.value_or("(unset)"));
       return join(env, "; ");
     }},
    // What ran the ranks: "none" for a measured run, so that a simulated row
    // can never pass for a measured one (JSON: run.simulator).
    {"simulator", [](const HeaderInfo& h) { return h.simulation.engine; }},
    {"simulator_version", [](const HeaderInfo& h) { return h.simulation.version; }},
    {"platform", [](const HeaderInfo& h) { return h.simulation.platform; }},
    {"platform_sha256", [](const HeaderInfo& h) { return h.simulation.platform_sha256; }},
};

const std::vector<const char*> kStatusColumns{"status", "exit_code", "reason", "warnings"};

std::vector<std::string> status_fields(const RunStatus& s) {
  return {to_string(s.state), s.exit_code >= 0 ? std::to_string(s.exit_code) : std::string(), s.reason,
          join(s.warnings, "; ")};
}

// A setting as its JSON type.
ordered_json typed(const Setting& s, const RunInfo& run) {
  const SettingValue v = s.value(run);
  switch (s.type) {
    case Setting::Type::text:
      return std::get<std::string>(v);
    case Setting::Type::integer:
    case Setting::Type::flag:
      return std::get<std::int64_t>(v);
    case Setting::Type::count_or_auto:
      if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
      return std::get<std::int64_t>(v);
    case Setting::Type::number:
    case Setting::Type::seconds:
      return std::get<double>(v);
    case Setting::Type::grid:
      return std::get<Dims3>(v);
    case Setting::Type::int_list:
      return std::get<std::vector<int>>(v);
  }
  return nullptr;
}

ordered_json json_hosts(const HeaderInfo& h) {
  ordered_json hosts = ordered_json::array();
  for (const NodeEntry& n : node_map(h.rank_host, h.rank_device, h.rank_cores)) {
    hosts.push_back({{"name", n.name}, {"ranks", n.ranks}, {"devices", n.devices}, {"cores", n.cores}});
  }
  return hosts;
}

// The engine always; the rest null where empty (a measured run, a platform not named).
ordered_json json_simulator(const SimulationInfo& s) {
  const auto text = [](const std::string& t) { return t.empty() ? ordered_json(nullptr) : ordered_json(t); };
  return {{"engine", s.engine},
          {"version", text(s.version)},
          {"platform", text(s.platform)},
          {"platform_sha256", text(s.platform_sha256)}};
}

ordered_json json_run(const HeaderInfo& h) {
  ordered_json run = {{"command_line", h.command_line}, {"start_utc", h.start_utc}};
  for (const Setting& s : run_settings()) {
    if (!s.json_run) continue;
    run[s.name] = typed(s, h.run);
    if (std::string(s.name) == "nodes") run["hosts"] = json_hosts(h);  // the nodes, then who is on them
  }
  ordered_json env = ordered_json::object();
  for (const auto& [name, v] : h.environment) env[name] = v ? ordered_json(*v) : ordered_json(nullptr);
  run["environment"] = env;
  run["simulator"] = json_simulator(h.simulation);
  if (!h.limits.empty()) {
    ordered_json limits = ordered_json::object();
    for (const auto& [name, what] : h.limits) limits[name] = what;
    run["limits"] = limits;
  }
  return run;
}

ordered_json json_status(const RunStatus& s, std::size_t rows) {
  return {{"state", to_string(s.state)},
          {"exit_code", s.exit_code >= 0 ? ordered_json(s.exit_code) : ordered_json(nullptr)},
          {"reason", s.reason.empty() ? ordered_json(nullptr) : ordered_json(s.reason)},
          {"rows", rows},
          {"warnings", s.warnings}};
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const std::vector<ProvenanceField>& provenance() { return kProvenance; }
const std::vector<const char*>& status_columns() { return kStatusColumns; }

std::string csv_header() {
  std::vector<std::string> names;
  for (const Setting& s : run_settings()) names.emplace_back(s.name);
  for (const Column& c : columns()) names.emplace_back(c.name);
  for (const ProvenanceField& p : kProvenance) names.emplace_back(p.name);
  for (const char* name : kStatusColumns) names.emplace_back(name);
  return join(names, ",") + "\n";
}

std::string csv_row(const Results& r, const Row& row) {
  // The table's decimals, so CSV and table agree number for number; columns
  // this run did not measure stay empty.
  std::vector<std::string> fields;
  for (const Setting& s : run_settings()) fields.push_back(csv_field(setting_text(s, r.header.run)));
  for (const Column& c : columns()) {
    fields.push_back(in_files(c, r.groups) ? csv_field(csv_text(c, c.value(row))) : "");
  }
  for (const ProvenanceField& p : kProvenance) fields.push_back(csv_field(p.value(r.header)));
  for (const std::string& f : status_fields(r.status)) fields.push_back(csv_field(f));
  return join(fields, ",") + "\n";
}

std::string render_csv(const Results& r) {
  std::string out = csv_header();
  for (const Row& row : r.rows) out += csv_row(r, row);
  if (r.rows.empty()) {
    // A run that failed before its first row: one line of its settings and status, every column empty.
    std::vector<std::string> fields;
    for (const Setting& s : run_settings()) fields.push_back(csv_field(setting_text(s, r.header.run)));
    fields.resize(fields.size() + columns().size());
    for (const ProvenanceField& p : kProvenance) fields.push_back(csv_field(p.value(r.header)));
    for (const std::string& f : status_fields(r.status)) fields.push_back(csv_field(f));
    out += join(fields, ",") + "\n";
  }
  return out;
}

std::string json_row(const Row& row, const Groups& groups) {
  ordered_json j = ordered_json::object();
  for (const Column& c : columns()) {
    if (!in_files(c, groups)) continue;
    const Cell v = c.value(row);
    switch (v.kind) {
      case Cell::Kind::integer:
        j[c.name] = v.integer;
        break;
      case Cell::Kind::number:
        j[c.name] = v.number;
        break;
      case Cell::Kind::na:
      case Cell::Kind::unresolved:
        j[c.name] = nullptr;
        break;
      case Cell::Kind::text:
        j[c.name] = v.text;
        break;
      case Cell::Kind::absent:
        break;  // not measured: absent
    }
  }
  if (!row.ranks.empty()) {
    constexpr double kUs = 1.0e6;
    ordered_json ranks = ordered_json::array();
    for (const RankFigures& f : row.ranks) {
      ranks.push_back(
          {{"rank", f.rank}, {"host", f.host}, {"Rank_us", f.seconds * kUs}, {"Send_B", f.send_bytes}});
    }
    j["ranks"] = ranks;
  }
  return j.dump();
}

std::string render_json(const Results& r) {
  const HeaderInfo& h = r.header;
  const ordered_json program = {
      {"name", "halo-bandwidth"},   {"version", h.run.version},     {"commit", h.run.commit},
      {"build_type", h.build_type}, {"compiler", h.compiler},       {"kokkos", h.kokkos},
      {"backends", h.backends},     {"mpi_library", h.mpi_library}, {"mpi_thread", h.mpi_thread}};
  const ordered_json head = {{"schema", "halo-bandwidth-result"},
                             {"schema_version", 4},
                             {"program", program},
                             {"run", json_run(h)},
                             {"status", json_status(r.status, r.rows.size())}};
  std::string text = head.dump(1);
  // Reopen the object to add the rows, one per line.
  text.erase(text.find_last_of('}'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text += ",\n \"rows\": [";
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    text += (i == 0 ? "\n  " : ",\n  ") + json_row(r.rows[i], r.groups);
  }
  return text + (r.rows.empty() ? "]\n}\n" : "\n ]\n}\n");
}

std::string status_note(const RunStatus& s, std::size_t rows) {
  switch (s.state) {
    case RunStatus::State::complete:
      return fmt::format("# run complete: {} row{}", rows, rows == 1 ? "" : "s");
    case RunStatus::State::failed:
      return fmt::format("# run failed (exit {}) after {} row{}: {}", s.exit_code, rows, rows == 1 ? "" : "s",
                         s.reason);
    case RunStatus::State::incomplete:
      return fmt::format("# run incomplete: {} row{} so far", rows, rows == 1 ? "" : "s");
  }
  return "";
}

}  // namespace halobw
