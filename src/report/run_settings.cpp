#include "halobw/report/run_settings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace halobw {

namespace {

using Type = Setting::Type;
using H = Setting::Header;
using L = HeaderLine;

const Options& opt(const RunInfo& r) { return r.options; }

// "xyz", "xz", "none": the axes that wrap around.
std::string periodic_text(const AxisSet& p) {
  std::string s;
  for (int a = 0; a < 3; ++a) s += p[static_cast<std::size_t>(a)] ? std::string(1, "xyz"[a]) : std::string();
  return s.empty() ? "none" : s;
}
SettingValue word(std::string s) { return s; }
SettingValue integer(std::int64_t v) { return v; }

const std::vector<Setting> kSettings{
    {"program", Type::text, [](const RunInfo&) { return word("halo-bandwidth"); }, false},
    {"version", Type::text, [](const RunInfo& r) { return word(r.version); }, false,
     H{L::program, "halo-bandwidth"}},
    {"commit", Type::text, [](const RunInfo& r) { return word(r.commit); }, false},
    {"backend", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).backend)); }, true,
     H{L::where}},
    {"device", Type::text, [](const RunInfo& r) { return word(r.device); }, true, H{L::where}},
    {"ranks", Type::integer, [](const RunInfo& r) { return integer(r.ranks); }, true, H{L::run}},
    {"nodes", Type::integer, [](const RunInfo& r) { return integer(r.nodes); }, true, H{L::run}},
    {"oversubscribed", Type::flag, [](const RunInfo& r) { return integer(r.oversubscribed); }},
    {"ranks_per_core", Type::number, [](const RunInfo& r) { return SettingValue(r.ranks_per_core); }},
    {"grid", Type::grid, [](const RunInfo& r) { return SettingValue(r.grid); }, true, H{L::run}},
    {"periodic", Type::text, [](const RunInfo& r) { return word(periodic_text(opt(r).periodic)); }},
    {"placement", Type::text, [](const RunInfo& r) { return word(to_string(r.placement)); }},
    {"node_grid", Type::text,
     [](const RunInfo& r) {
       return word(r.placement == RankPlacement::nodes ? dims_string(r.node_grid) : std::string("-"));
     }},
    {"grid_source", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).grid_source)); }, true,
     H{L::transport}},
    {"directions", Type::text, [](const RunInfo& r) { return word(opt(r).directions()); }, true, H{L::run}},
    {"halo", Type::int_list, [](const RunInfo& r) { return SettingValue(opt(r).halos); }, true, H{L::run}},
    {"iters", Type::count_or_auto,
     [](const RunInfo& r) { return opt(r).iters_auto ? word("auto") : integer(opt(r).iters); }, true,
     H{L::run}},
    {"min_time", Type::seconds, [](const RunInfo& r) { return SettingValue(opt(r).min_time); }},
    {"warmup", Type::integer, [](const RunInfo& r) { return integer(opt(r).warmup); }, true, H{L::run}},
    {"repeats", Type::integer, [](const RunInfo& r) { return integer(opt(r).repeats); }},
    {"pack", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).pack)); }, true, H{L::pack}},
    {"self", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).self)); }, true, H{L::pack}},
    {"transport", Type::text, [](const RunInfo& r) { return word(to_string(r.transport)); }, true,
     H{L::transport}},
    {"schedule", Type::text,
     [](const RunInfo& r) { return word(packs(r.transport) ? to_string(opt(r).schedule) : "-"); }, true,
     H{L::transport}},
    {"gpu_aware", Type::text, [](const RunInfo& r) { return word(r.gpu_aware); }, true, H{L::gpu}},
    {"contiguous", Type::flag, [](const RunInfo& r) { return integer(packs(r.transport)); }, true, H{L::gpu}},
    {"hugepages", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).hugepages)); }},
    {"stencil", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).stencil)); }, true,
     H{L::exchange}},
    {"overlap", Type::flag, [](const RunInfo& r) { return integer(opt(r).overlap); }},
    {"streams", Type::integer, [](const RunInfo& r) { return integer(opt(r).streams); }},
    {"progress", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).progress)); }},
    {"local", Type::flag, [](const RunInfo& r) { return integer(opt(r).local); }},
    {"fields", Type::integer, [](const RunInfo& r) { return integer(opt(r).fields); }, true, H{L::exchange}},
    {"messages", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).messages)); }, true,
     H{L::exchange}},
    {"method", Type::text, [](const RunInfo& r) { return word(to_string(opt(r).method)); }, true,
     H{L::exchange}},
    {"rma_sync", Type::text,
     [](const RunInfo& r) {
       return word(opt(r).method == MethodKind::rma ? to_string(opt(r).rma_sync) : "-");
     },
     true, H{L::exchange, "rma-sync", true}},
    {"per_rank", Type::flag, [](const RunInfo& r) { return integer(opt(r).per_rank); }},
};

}  // namespace

const std::vector<Setting>& run_settings() { return kSettings; }

std::string setting_text(const Setting& s, const RunInfo& run) {
  const SettingValue v = s.value(run);
  switch (s.type) {
    case Type::text:
      return std::get<std::string>(v);
    case Type::integer:
    case Type::flag:
      return std::to_string(std::get<std::int64_t>(v));
    case Type::count_or_auto:
      if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
      return std::to_string(std::get<std::int64_t>(v));
    case Type::number:
      return fmt::format("{:.2f}", std::get<double>(v));
    case Type::seconds:
      return fmt::format("{:.3f}", std::get<double>(v));
    case Type::grid:
      return dims_string(std::get<Dims3>(v));
    case Type::int_list:
      return fmt::format("{}", fmt::join(std::get<std::vector<int>>(v), ","));
  }
  return {};
}

std::string header_line(HeaderLine line, const RunInfo& run) {
  std::string out;
  for (const Setting& s : kSettings) {
    if (s.header.line != line) continue;
    const std::string text = setting_text(s, run);
    if (s.header.omit_dash && text == "-") continue;
    out +=
        fmt::format("{}{} {}", out.empty() ? "" : " ", s.header.key != nullptr ? s.header.key : s.name, text);
  }
  return out;
}

}  // namespace halobw
