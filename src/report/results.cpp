#include "halobw/report/results.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace halobw {

namespace {

using nlohmann::ordered_json;
using Type = Setting::Type;

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

std::string flag(bool on) { return on ? "1" : "0"; }

const std::vector<Setting> kSettings{
    {"program", true, false, Type::text, [](const HeaderInfo&) { return std::string("halo-bandwidth"); }},
    {"version", true, false, Type::text, [](const HeaderInfo& h) { return h.version; }},
    {"commit", true, false, Type::text, [](const HeaderInfo& h) { return h.commit; }},
    {"backend", true, true, Type::text, [](const HeaderInfo& h) { return h.backend; }},
    {"device", true, true, Type::text, [](const HeaderInfo& h) { return h.device; }},
    {"ranks", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.ranks); }},
    {"nodes", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.nodes); }},
    {"oversubscribed", true, true, Type::integer, [](const HeaderInfo& h) { return flag(h.oversubscribed); }},
    {"ranks_per_core", true, true, Type::number,
     [](const HeaderInfo& h) { return fmt::format("{:.2f}", h.ranks_per_core); }},
    {"grid", true, true, Type::grid, [](const HeaderInfo& h) { return h.grid; }},
    {"grid_source", true, true, Type::text, [](const HeaderInfo& h) { return h.grid_source; }},
    {"directions", true, true, Type::text, [](const HeaderInfo& h) { return h.directions; }},
    {"halo", true, true, Type::int_list, [](const HeaderInfo& h) { return h.halo; }},
    {"iters", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.iters); }},
    {"warmup", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.warmup); }},
    {"repeats", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.repeats); }},
    {"pack", true, true, Type::text, [](const HeaderInfo& h) { return h.pack; }},
    {"self", true, true, Type::text, [](const HeaderInfo& h) { return h.self; }},
    {"transport", true, true, Type::text, [](const HeaderInfo& h) { return h.transport; }},
    {"schedule", true, true, Type::text, [](const HeaderInfo& h) { return h.schedule; }},
    {"gpu_aware", true, true, Type::text, [](const HeaderInfo& h) { return h.gpu_aware; }},
    {"contiguous", true, true, Type::integer, [](const HeaderInfo& h) { return flag(h.contiguous); }},
    {"hugepages", true, true, Type::text, [](const HeaderInfo& h) { return h.hugepages; }},
    {"stencil", true, true, Type::text, [](const HeaderInfo& h) { return h.stencil; }},
    {"overlap", true, true, Type::integer, [](const HeaderInfo& h) { return flag(h.overlap); }},
    {"streams", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.streams); }},
    {"progress", true, true, Type::text, [](const HeaderInfo& h) { return h.progress; }},
    {"local", true, true, Type::integer, [](const HeaderInfo& h) { return flag(h.local); }},
    {"fields", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.fields); }},
    {"messages", true, true, Type::text, [](const HeaderInfo& h) { return h.messages; }},
    {"method", true, true, Type::text, [](const HeaderInfo& h) { return h.method; }},
    {"rma_sync", true, true, Type::text, [](const HeaderInfo& h) { return h.rma_sync; }},
};

// Provenance: CSV columns after the measurements (JSON holds them in "program" and "run").
const std::vector<Setting> kProvenance{
    {"command_line", true, false, Type::text, [](const HeaderInfo& h) { return join(h.command_line, " "); }},
    {"start_utc", true, false, Type::text, [](const HeaderInfo& h) { return h.start_utc; }},
    {"build", true, false, Type::text,
     [](const HeaderInfo& h) {
       return fmt::format("{}; {}; {}; backends {}", h.build_type, h.compiler, h.kokkos,
                          join(h.backends, " "));
     }},
    {"mpi_library", true, false, Type::text, [](const HeaderInfo& h) { return h.mpi_library; }},
    {"mpi_thread", true, false, Type::text, [](const HeaderInfo& h) { return h.mpi_thread; }},
    {"hosts", true, false, Type::text,
     [](const HeaderInfo& h) {
       std::vector<std::string> text;
       for (const NodeEntry& n : node_map(h.rank_host, h.rank_device, h.rank_cores)) {
         text.push_back(fmt::format("{} ranks {} devices {} cores {}", n.name, compact(n.ranks),
                                    compact(n.devices), n.cores));
       }
       return join(text, "; ");
     }},
    {"environment", true, false, Type::text,
     [](const HeaderInfo& h) {
       std::vector<std::string> env;
       for (const auto& [name, v] : h.environment) env.push_back(name + "=" + v.value_or("(unset)"));
       return join(env, "; ");
     }},
};

const std::vector<const char*> kStatusColumns{"status", "exit_code", "reason", "warnings"};

std::vector<std::string> status_fields(const RunStatus& s) {
  return {state_name(s.state), s.exit_code >= 0 ? std::to_string(s.exit_code) : std::string(), s.reason,
          join(s.warnings, "; ")};
}

// A setting's text as its JSON type.
ordered_json typed(const Setting& s, const HeaderInfo& h) {
  const std::string v = s.value(h);
  switch (s.type) {
    case Type::integer:
      return std::stoll(v);
    case Type::number:
      return std::stod(v);
    case Type::grid:
      return h.grid_dims;
    case Type::int_list: {
      ordered_json list = ordered_json::array();
      std::size_t start = 0;
      while (start <= v.size()) {
        const std::size_t comma = std::min(v.find(',', start), v.size());
        list.push_back(std::stoll(v.substr(start, comma - start)));
        start = comma + 1;
      }
      return list;
    }
    case Type::text:
      return v;
  }
  return v;
}

ordered_json json_hosts(const HeaderInfo& h) {
  ordered_json hosts = ordered_json::array();
  for (const NodeEntry& n : node_map(h.rank_host, h.rank_device, h.rank_cores)) {
    hosts.push_back({{"name", n.name}, {"ranks", n.ranks}, {"devices", n.devices}, {"cores", n.cores}});
  }
  return hosts;
}

ordered_json json_run(const HeaderInfo& h) {
  ordered_json run = {{"command_line", h.command_line}, {"start_utc", h.start_utc}};
  for (const Setting& s : kSettings) {
    if (!s.json_run) continue;
    run[s.name] = typed(s, h);
    if (std::string(s.name) == "nodes") run["hosts"] = json_hosts(h);  // the nodes, then who is on them
  }
  ordered_json env = ordered_json::object();
  for (const auto& [name, v] : h.environment) env[name] = v ? ordered_json(*v) : ordered_json(nullptr);
  run["environment"] = env;
  if (!h.limits.empty()) {
    ordered_json limits = ordered_json::object();
    for (const auto& [name, what] : h.limits) limits[name] = what;
    run["limits"] = limits;
  }
  return run;
}

ordered_json json_status(const RunStatus& s, std::size_t rows) {
  return {{"state", state_name(s.state)},
          {"exit_code", s.exit_code >= 0 ? ordered_json(s.exit_code) : ordered_json(nullptr)},
          {"reason", s.reason.empty() ? ordered_json(nullptr) : ordered_json(s.reason)},
          {"rows", rows},
          {"warnings", s.warnings}};
}

}  // namespace

const char* state_name(RunStatus::State s) {
  switch (s) {
    case RunStatus::State::complete:
      return "complete";
    case RunStatus::State::failed:
      return "failed";
    case RunStatus::State::incomplete:
      return "incomplete";
  }
  return "incomplete";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const std::vector<Setting>& settings() { return kSettings; }
const std::vector<Setting>& provenance() { return kProvenance; }
const std::vector<const char*>& status_columns() { return kStatusColumns; }

std::string csv_header() {
  std::vector<std::string> names;
  for (const Setting& s : kSettings) {
    if (s.csv) names.emplace_back(s.name);
  }
  for (const Column& c : columns()) names.emplace_back(c.name);
  for (const Setting& s : kProvenance) names.emplace_back(s.name);
  for (const char* name : kStatusColumns) names.emplace_back(name);
  return join(names, ",") + "\n";
}

std::string csv_row(const Results& r, const Row& row) {
  // The table's decimals, so CSV and table agree number for number; columns
  // this run did not measure stay empty.
  std::vector<std::string> fields;
  for (const Setting& s : kSettings) {
    if (s.csv) fields.push_back(csv_field(s.value(r.run)));
  }
  for (const Column& c : columns()) {
    fields.push_back(in_files(c, r.groups) ? csv_field(csv_text(c, c.value(row))) : "");
  }
  for (const Setting& s : kProvenance) fields.push_back(csv_field(s.value(r.run)));
  for (const std::string& f : status_fields(r.status)) fields.push_back(csv_field(f));
  return join(fields, ",") + "\n";
}

std::string render_csv(const Results& r) {
  std::string out = csv_header();
  for (const Row& row : r.rows) out += csv_row(r, row);
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
  return j.dump();
}

std::string render_json(const Results& r) {
  const HeaderInfo& h = r.run;
  const ordered_json program = {
      {"name", "halo-bandwidth"},   {"version", h.version},         {"commit", h.commit},
      {"build_type", h.build_type}, {"compiler", h.compiler},       {"kokkos", h.kokkos},
      {"backends", h.backends},     {"mpi_library", h.mpi_library}, {"mpi_thread", h.mpi_thread}};
  const ordered_json head = {{"schema", "halo-bandwidth-result"},
                             {"schema_version", 3},
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
