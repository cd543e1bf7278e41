#include "halobw/output.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
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

const std::vector<Setting> kSettings{
    {"program", true, false, Type::text, [](const HeaderInfo&) { return std::string("halo-bandwidth"); }},
    {"version", true, false, Type::text, [](const HeaderInfo& h) { return h.version; }},
    {"commit", true, false, Type::text, [](const HeaderInfo& h) { return h.commit; }},
    {"backend", true, true, Type::text, [](const HeaderInfo& h) { return h.backend; }},
    {"device", true, true, Type::text, [](const HeaderInfo& h) { return h.device; }},
    {"ranks", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.ranks); }},
    {"nodes", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.nodes); }},
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
    {"contiguous", true, true, Type::integer,
     [](const HeaderInfo& h) { return std::string(h.contiguous ? "1" : "0"); }},
    {"hugepages", true, true, Type::text, [](const HeaderInfo& h) { return h.hugepages; }},
    {"stencil", true, true, Type::text, [](const HeaderInfo& h) { return h.stencil; }},
    {"overlap", true, true, Type::integer,
     [](const HeaderInfo& h) { return std::string(h.overlap ? "1" : "0"); }},
    {"streams", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.streams); }},
    {"progress", true, true, Type::text, [](const HeaderInfo& h) { return h.progress; }},
    {"local", true, true, Type::integer,
     [](const HeaderInfo& h) { return std::string(h.local ? "1" : "0"); }},
    {"fields", true, true, Type::integer, [](const HeaderInfo& h) { return std::to_string(h.fields); }},
    {"messages", true, true, Type::text, [](const HeaderInfo& h) { return h.messages; }},
    {"method", true, true, Type::text, [](const HeaderInfo& h) { return h.method; }},
    {"rma_sync", true, true, Type::text, [](const HeaderInfo& h) { return h.rma_sync; }},
};

// Provenance: the last columns of every CSV row (JSON holds them in "program" and "run").
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
       for (const NodeEntry& n : node_map(h.rank_host, h.rank_device)) {
         text.push_back(fmt::format("{} ranks {} devices {}", n.name, compact(n.ranks), compact(n.devices)));
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

}  // namespace

// A CSV field as RFC 4180 has it: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const std::vector<Setting>& settings() { return kSettings; }
const std::vector<Setting>& provenance() { return kProvenance; }

std::string csv_header() {
  std::vector<std::string> names;
  for (const Setting& s : kSettings) {
    if (s.csv) names.emplace_back(s.name);
  }
  for (const Column& c : columns()) names.emplace_back(c.name);
  for (const Setting& s : kProvenance) names.emplace_back(s.name);
  return join(names, ",") + "\n";
}

std::string csv_row(const HeaderInfo& run, const Row& row, const Groups& groups) {
  // The table's decimals, so CSV and table agree number for number; columns
  // this run did not measure stay empty.
  std::vector<std::string> fields;
  for (const Setting& s : kSettings) {
    if (s.csv) fields.push_back(csv_field(s.value(run)));
  }
  for (const Column& c : columns()) fields.push_back(in_files(c, groups) ? csv_text(c, c.value(row)) : "");
  for (const Setting& s : kProvenance) fields.push_back(csv_field(s.value(run)));
  return join(fields, ",") + "\n";
}

std::string json_head(const HeaderInfo& h) {
  ordered_json program = {
      {"name", "halo-bandwidth"},   {"version", h.version},         {"commit", h.commit},
      {"build_type", h.build_type}, {"compiler", h.compiler},       {"kokkos", h.kokkos},
      {"backends", h.backends},     {"mpi_library", h.mpi_library}, {"mpi_thread", h.mpi_thread}};
  ordered_json hosts = ordered_json::array();
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < h.rank_host.size(); ++r) {
    const std::string& name = h.rank_host[r];
    if (!index.count(name)) {
      index[name] = hosts.size();
      hosts.push_back({{"name", name}, {"ranks", ordered_json::array()}, {"devices", ordered_json::array()}});
    }
    hosts[index[name]]["ranks"].push_back(r);
    hosts[index[name]]["devices"].push_back(r < h.rank_device.size() ? h.rank_device[r] : -1);
  }
  ordered_json env = ordered_json::object();
  for (const auto& [name, v] : h.environment) env[name] = v ? ordered_json(*v) : ordered_json(nullptr);
  ordered_json run = {{"command_line", h.command_line}, {"start_utc", h.start_utc}};
  for (const Setting& s : kSettings) {
    if (!s.json_run) continue;
    const std::string v = s.value(h);
    switch (s.type) {
      case Type::integer:
        run[s.name] = std::stoll(v);
        break;
      case Type::grid:
        run[s.name] = h.grid_dims;
        break;
      case Type::int_list: {
        ordered_json list = ordered_json::array();
        std::size_t start = 0;
        while (start <= v.size()) {
          const std::size_t comma = std::min(v.find(',', start), v.size());
          list.push_back(std::stoll(v.substr(start, comma - start)));
          start = comma + 1;
        }
        run[s.name] = list;
        break;
      }
      default:
        run[s.name] = v;
    }
    if (std::string(s.name) == "nodes") run["hosts"] = hosts;  // the nodes, then who is on them
  }
  run["environment"] = env;
  if (!h.limits.empty()) {
    ordered_json limits = ordered_json::object();
    for (const auto& [name, what] : h.limits) limits[name] = what;
    run["limits"] = limits;
  }
  ordered_json head = {
      {"schema", "halo-bandwidth-result"}, {"schema_version", 2}, {"program", program}, {"run", run}};
  std::string text = head.dump(1);
  // Reopen the object to stream the rows: drop the closing brace.
  text.erase(text.find_last_of('}'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text + ",\n \"rows\": [";
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
        j[c.name] = nullptr;
        break;
      case Cell::Kind::text:
        j[c.name] = v.text;
        break;
      default:
        break;  // not measured: absent
    }
  }
  return j.dump();
}

Sink::Sink(std::FILE* file, Format format, bool owned) : file_(file), format_(format), owned_(owned) {}

Sink::~Sink() {
  end();
  if (owned_ && file_ != nullptr) std::fclose(file_);
}

void Sink::put(const std::string& text) {
  std::fputs(text.c_str(), file_);
  std::fflush(file_);
}

void Sink::begin(const HeaderInfo& run, const Groups& groups) {
  run_ = run;
  groups_ = groups;
  open_ = true;
  switch (format_) {
    case Format::csv:
      put(csv_header());
      break;
    case Format::json:
      put(json_head(run));
      break;
    default:
      put(format_header(run) + format_columns(groups));
  }
}

void Sink::note(const std::string& line) {
  if (format_ == Format::table) put(line + "\n");
}

void Sink::row(const Row& row) {
  switch (format_) {
    case Format::csv:
      put(csv_row(run_, row, groups_));
      break;
    case Format::json:
      put(std::string(rows_ == 0 ? "\n  " : ",\n  ") + json_row(row, groups_));
      break;
    default:
      put(format_row(row, groups_));
  }
  ++rows_;
}

void Sink::end() {
  if (!open_) return;
  open_ = false;
  if (format_ == Format::json) put(rows_ == 0 ? "]\n}\n" : "\n ]\n}\n");
}

std::optional<std::string> Output::open(Format format, const std::optional<std::string>& path, bool quiet) {
  if (path) {
    std::FILE* f = std::fopen(path->c_str(), "w");
    if (f == nullptr) return fmt::format("--output {}: {}", *path, std::strerror(errno));
    sinks_.push_back(std::make_unique<Sink>(f, format, true));
    if (!quiet) sinks_.push_back(std::make_unique<Sink>(stdout, Format::table, false));
  } else if (!quiet) {
    sinks_.push_back(std::make_unique<Sink>(stdout, format, false));
  }
  return std::nullopt;
}

void Output::begin(const HeaderInfo& run, const Groups& groups) {
  for (auto& s : sinks_) s->begin(run, groups);
}
void Output::note(const std::string& line) {
  for (auto& s : sinks_) s->note(line);
}
void Output::row(const Row& row) {
  for (auto& s : sinks_) s->row(row);
}
void Output::end() {
  for (auto& s : sinks_) s->end();
}

bool stderr_is_terminal() {
  if (isatty(fileno(stderr)) == 1) return true;
  // Under mpiexec a rank's stderr is a pipe to the launcher; the launcher's
  // own stderr tells whether a person is watching. Open MPI's orted is the
  // rank's parent; MPICH's hydra puts hydra_pmi_proxy (stderr a pipe too)
  // between the rank and mpiexec: follow pipes up two levels.
  pid_t pid = getppid();
  for (int level = 0; level < 2 && pid > 1; ++level) {
    const std::string link = "/proc/" + std::to_string(pid) + "/fd/2";
    char target[256] = {};
    const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0) return false;
    const std::string path(target, static_cast<std::size_t>(n));
    if (path.rfind("/dev/pts/", 0) == 0 || path.rfind("/dev/tty", 0) == 0) return true;
    if (path.rfind("pipe:", 0) != 0) return false;
    // The parent's parent: /proc/<pid>/stat is "pid (comm) state ppid ...", comm may hold spaces.
    std::FILE* stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (stat == nullptr) return false;
    char line[512] = {};
    const bool got = std::fgets(line, sizeof line, stat) != nullptr;
    std::fclose(stat);
    const char* close = got ? std::strrchr(line, ')') : nullptr;
    int ppid = 0;
    if (close == nullptr || std::sscanf(close + 1, " %*c %d", &ppid) != 1) return false;
    pid = static_cast<pid_t>(ppid);
  }
  return false;
}

Progress::Progress(bool enabled) : enabled_(enabled) {}

void Progress::show(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!enabled_ || !shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace halobw
