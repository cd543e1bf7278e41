#include "halobw/output.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

namespace halobw {

namespace {

using nlohmann::ordered_json;

const std::vector<std::string> kSettings{"program", "version",   "commit",   "backend",     "device",
                                         "ranks",   "nodes",     "grid",     "grid_source", "directions",
                                         "halo",    "iters",     "warmup",   "repeats",     "pack",
                                         "self",    "transport", "schedule", "gpu_aware",   "contiguous"};

// Every measured column of the CSV, in order (docs/output.md): the table's
// columns with Send_min_B always present, next to Send_B.
std::vector<std::string> csv_measures() {
  std::vector<std::string> names = column_names(Columns{false, true, true, true});
  names.insert(names.begin() + 2, "Send_min_B");
  return names;
}

std::vector<std::string> settings_values(const HeaderInfo& h) {
  return {"halo-bandwidth",
          h.version,
          h.commit,
          h.backend,
          h.device,
          std::to_string(h.ranks),
          std::to_string(h.nodes),
          h.grid,
          h.grid_source,
          h.directions,
          std::to_string(h.halo),
          std::to_string(h.iters),
          std::to_string(h.warmup),
          std::to_string(h.repeats),
          h.pack,
          h.self,
          h.transport,
          h.schedule,
          h.gpu_aware,
          h.contiguous ? "1" : "0"};
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

}  // namespace

std::string csv_provenance(const HeaderInfo& h) {
  std::string out = "# halo-bandwidth result (CSV, docs/output.md)\n";
  out += "# command_line: " + join(h.command_line, " ") + "\n";
  out += "# start_utc: " + h.start_utc + "\n";
  out += fmt::format("# build: {}; {}; {}; backends {}\n", h.build_type, h.compiler, h.kokkos,
                     join(h.backends, " "));
  out += "# mpi_library: " + h.mpi_library + "\n";
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> hosts;
  std::vector<std::string> order;
  for (std::size_t r = 0; r < h.rank_host.size(); ++r) {
    if (!hosts.count(h.rank_host[r])) order.push_back(h.rank_host[r]);
    auto& [ranks, devices] = hosts[h.rank_host[r]];
    ranks.push_back(std::to_string(r));
    devices.push_back(std::to_string(r < h.rank_device.size() ? h.rank_device[r] : -1));
  }
  std::vector<std::string> host_text;
  host_text.reserve(order.size());
  for (const auto& name : order) {
    host_text.push_back(fmt::format("{} ranks {} devices {}", name, join(hosts[name].first, " "),
                                    join(hosts[name].second, " ")));
  }
  out += "# hosts: " + join(host_text, "; ") + "\n";
  std::vector<std::string> env;
  env.reserve(h.environment.size());
  for (const auto& [name, v] : h.environment) env.push_back(name + "=" + v.value_or("(unset)"));
  out += "# environment: " + join(env, "; ") + "\n";
  return out;
}

std::string csv_header() {
  std::vector<std::string> names = kSettings;
  for (const auto& c : csv_measures()) names.push_back(c);
  return join(names, ",") + "\n";
}

std::string csv_row(const HeaderInfo& run, const Row& row, const Columns& c) {
  // The table's own printed values, so CSV and table agree number for number;
  // columns this run did not measure stay empty.
  const std::vector<std::string> printed = row_fields(row, c);
  const std::vector<std::string> printed_names = column_names(c);
  std::map<std::string, std::string> value;
  for (std::size_t i = 0; i < printed.size(); ++i) value[printed_names[i]] = printed[i];
  value["Send_min_B"] = std::to_string(row.send_min);
  std::vector<std::string> fields = settings_values(run);
  for (const auto& name : csv_measures()) {
    auto it = value.find(name);
    // Not measured is empty; "n/a" stays only where the CSV format has it (Eff, Peer_GBps).
    const bool na_allowed = name == "Eff" || name == "Peer_GBps";
    fields.push_back(it == value.end() || (it->second == "n/a" && !na_allowed) ? "" : it->second);
  }
  return join(fields, ",") + "\n";
}

std::string json_head(const HeaderInfo& h) {
  ordered_json program = {{"name", "halo-bandwidth"},   {"version", h.version},        {"commit", h.commit},
                          {"build_type", h.build_type}, {"compiler", h.compiler},      {"kokkos", h.kokkos},
                          {"backends", h.backends},     {"mpi_library", h.mpi_library}};
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
  ordered_json run = {{"command_line", h.command_line},
                      {"start_utc", h.start_utc},
                      {"backend", h.backend},
                      {"device", h.device},
                      {"ranks", h.ranks},
                      {"nodes", h.nodes},
                      {"hosts", hosts},
                      {"grid", h.grid_dims},
                      {"grid_source", h.grid_source},
                      {"directions", h.directions},
                      {"halo", h.halo},
                      {"iters", h.iters},
                      {"warmup", h.warmup},
                      {"repeats", h.repeats},
                      {"pack", h.pack},
                      {"self", h.self},
                      {"transport", h.transport},
                      {"schedule", h.schedule},
                      {"gpu_aware", h.gpu_aware},
                      {"contiguous", h.contiguous ? 1 : 0},
                      {"environment", env}};
  if (!h.limits.empty()) {
    ordered_json limits = ordered_json::object();
    for (const auto& [name, what] : h.limits) limits[name] = what;
    run["limits"] = limits;
  }
  ordered_json head = {
      {"schema", "halo-bandwidth-result"}, {"schema_version", 1}, {"program", program}, {"run", run}};
  std::string text = head.dump(1);
  // Reopen the object to stream the rows: drop the closing brace.
  text.erase(text.find_last_of('}'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text + ",\n \"rows\": [";
}

std::string json_row(const Row& row, const Columns& c) {
  const double uni = uni_gbps(row.send_max, row.seconds);
  ordered_json j = {{"N", row.n},
                    {"Send_B", row.send_max},
                    {"Send_min_B", row.send_min},
                    {"Time_us", row.seconds * 1e6},
                    {"Uni_GBps", uni},
                    {"Duplex_GBps", 2 * uni},
                    {"RemoteFaces", row.remote_faces},
                    {"SelfFaces", row.self_faces},
                    {"OffNodeFaces", row.offnode_faces}};
  if (c.min_max) {
    j["Min_us"] = row.min_seconds.value_or(row.seconds) * 1e6;
    j["Max_us"] = row.max_seconds.value_or(row.seconds) * 1e6;
  }
  if (c.breakdown && row.phases) {
    j["Pack_us"] = row.phases->pack * 1e6;
    j["Xfer_us"] = row.phases->xfer * 1e6;
    j["Stage_us"] = row.phases->stage * 1e6;
    j["Unpack_us"] = row.phases->unpack * 1e6;
    j["Xfer_GBps"] = uni_gbps(row.send_max, row.phases->xfer);
    const auto eff = efficiency(row);
    j["Eff"] = eff ? ordered_json(*eff) : ordered_json(nullptr);
  }
  if (c.limit) {
    if (row.copy_gbps) j["Copy_GBps"] = *row.copy_gbps;
    j["Peer_GBps"] = row.peer_gbps ? ordered_json(*row.peer_gbps) : ordered_json(nullptr);
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

void Sink::begin(const HeaderInfo& run, const Columns& c) {
  run_ = run;
  columns_ = c;
  open_ = true;
  switch (format_) {
    case Format::csv:
      put(csv_provenance(run) + csv_header());
      break;
    case Format::json:
      put(json_head(run));
      break;
    default:
      put(format_header(run) + format_columns(c));
  }
}

void Sink::note(const std::string& line) {
  if (format_ == Format::table) put(line + "\n");
}

void Sink::row(const Row& row) {
  switch (format_) {
    case Format::csv:
      put(csv_row(run_, row, columns_));
      break;
    case Format::json:
      put(std::string(rows_ == 0 ? "\n  " : ",\n  ") + json_row(row, columns_));
      break;
    default:
      put(format_row(row, columns_));
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

void Output::begin(const HeaderInfo& run, const Columns& c) {
  for (auto& s : sinks_) s->begin(run, c);
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
  // own stderr tells whether a person is watching.
  const std::string link = "/proc/" + std::to_string(getppid()) + "/fd/2";
  char target[256] = {};
  const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
  if (n <= 0) return false;
  const std::string path(target, static_cast<std::size_t>(n));
  return path.rfind("/dev/pts/", 0) == 0 || path.rfind("/dev/tty", 0) == 0;
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
