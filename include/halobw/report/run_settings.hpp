// The run settings, each declared once: its name, its type, where it comes
// from (the options, or what the job decided from them), and how the header,
// the CSV and the JSON show it. The header lines, the CSV columns and the
// JSON "run" members are all printed from this table; adding an option takes
// its field in Options, its parser line and one entry here.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/cli/settings.hpp"

namespace halobw {

// What a run is, typed: the options, and what the job decided from them.
struct RunInfo {
  Options options;
  Dims3 grid{1, 1, 1};
  int ranks = 1;
  int nodes = 1;
  std::string device = "host";  // the device name, or "host"
  Transport transport = Transport::datatype;
  std::string gpu_aware = "n/a";                    // "n/a" on the host backend, else "0" or "1"
  bool oversubscribed = false;                      // on some node the ranks outnumber the cores
  double ranks_per_core = 0;                        // the most over the nodes
  RankPlacement placement = RankPlacement::linear;  // the placement used (--placement may have fallen back)
  Dims3 node_grid{1, 1, 1};                         // placement nodes: the grid of nodes
  std::string version;
  std::string commit;
};

// A setting's value, as its type has it.
using SettingValue = std::variant<std::int64_t, double, std::string, Dims3, std::vector<int>>;

// The header's lines of settings, in the order printed: the rank lists
// (rank_device, rank_host) stand between the last before_ranks line and the
// first after them.
enum class HeaderLine {
  none,       // not in the header
  program,    // "halo-bandwidth VERSION"
  where,      // backend, device
  run,        // ranks, nodes, grid, directions, halo, iters, warmup
  pack,       // pack, self
  exchange,   // stencil, fields, messages, method, rma-sync
  gpu,        // gpu_aware, contiguous: the last line before the rank lists
  transport,  // grid_source, transport, schedule: after the rank lists
};
constexpr HeaderLine kHeaderLinesBeforeRanks[] = {HeaderLine::program, HeaderLine::where,    HeaderLine::run,
                                                  HeaderLine::pack,    HeaderLine::exchange, HeaderLine::gpu};
constexpr HeaderLine kHeaderLinesAfterRanks[] = {HeaderLine::transport};

struct Setting {
  enum class Type {
    text,           // a word ("datatype")
    integer,        // a whole number
    flag,           // 0 or 1
    number,         // two decimals in text, a JSON number
    grid,           // "GXxGYxGZ" in text, [GX, GY, GZ] in JSON
    int_list,       // "1,2,4" in text, [1, 2, 4] in JSON
    count_or_auto,  // a whole number, or the word "auto" (iters): in JSON a number or "auto"
    seconds,        // three decimals in text (milliseconds), a JSON number
  };
  // Where the header prints it: on line `line`, as "KEY VALUE", KEY the
  // setting's name unless `key` says else.
  struct Header {
    HeaderLine line = HeaderLine::none;
    const char* key = nullptr;
    bool omit_dash = false;  // left out when its value is "-" (rma-sync without --method rma)
  };
  const char* name;  // the CSV column and the JSON member
  Type type;
  SettingValue (*value)(const RunInfo&);
  bool json_run = true;  // a member of JSON's "run" (else of "program")
  Header header = {};
};

// Every setting, in CSV order.
[[nodiscard]] const std::vector<Setting>& run_settings();
// The value as the header and the CSV print it.
[[nodiscard]] std::string setting_text(const Setting& s, const RunInfo& run);
// The header lines of the settings on `line` ("backend host device host"), without "# ".
[[nodiscard]] std::string header_line(HeaderLine line, const RunInfo& run);
// The type's name, as tools/columns_json.cpp tells the tests (the JSON schema's words: several types
// print as one).
template <>
struct Names<Setting::Type> {
  using T = Setting::Type;
  static constexpr std::array<Spelling<T>, 8> list{{{"text", T::text},
                                                    {"integer", T::integer},
                                                    {"integer", T::flag},
                                                    {"number", T::number},
                                                    {"grid", T::grid},
                                                    {"integer list", T::int_list},
                                                    {"integer or auto", T::count_or_auto},
                                                    {"number", T::seconds}}};
};

}  // namespace halobw
