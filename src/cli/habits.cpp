#include "halobw/cli/habits.hpp"

#include <regex>
#include <utility>
#include <vector>

namespace halobw {

namespace {

// OSU's -m, and the long forms people guess for it: a message size is not a box side.
constexpr const char* kMessageSize =
    "OSU's message-size range; here --sizes A:B gives cube sides, doubling from A to B, and each row's bytes "
    "follow from the side (Send_B = 8*h*side^2 per face: see --dry-run)";

// Each name as typed, and what it is here (after "NAME: ").
const std::vector<std::pair<const char*, const char*>>& habits() {
  static const std::vector<std::pair<const char*, const char*>> table{
      // OSU micro-benchmarks
      {"-m", kMessageSize},
      {"--message-size", kMessageSize},
      {"--msg-size", kMessageSize},
      {"--min-size", kMessageSize},
      {"--max-size", kMessageSize},
      {"-i",
       "OSU's iteration count; here --iters K times K exchanges per row (default 50), or --iters auto "
       "chooses "
       "each row's K by time (--min-time)"},
      {"-x",
       "OSU's warm-up count; here --warmup W untimed exchanges before each row's timed ones (default 5)"},
      {"-c", "OSU's validation; here --check verifies every ghost cell of every field once per row, untimed"},
      {"-d",
       "OSU's buffer location (-d cuda); here --backend cuda|hip (or --cuda, --hip) puts the fields on the "
       "GPU, in a build with that backend (docs/gpu.md)"},
      {"-f",
       "OSU's full statistics (min, max, avg); here --repeats R times R blocks per row (Time_us their "
       "median, "
       "Min_us and Max_us added), and --per-rank names the slowest rank"},
      {"-W",
       "OSU's window of messages in flight; here each exchange posts every neighbour's message at once, and "
       "--fields K --messages separate sends K per piece (a face, edge or corner)"},
      // Comb
      {"-divide", "Comb's process grid (2_2_2); here --grid 2x2x2, or the automatic grid (least face area)"},
      {"--divide", "Comb's process grid (2_2_2); here --grid 2x2x2, or the automatic grid (least face area)"},
      {"-periodic",
       "Comb's periodic flags (1_1_0); here --periodic x,y names the periodic axes (default all three, none "
       "for walls everywhere)"},
      {"-ghost",
       "Comb's ghost widths per axis (1_1_1); here --halo H is one width on every axis (a list H1,H2 sweeps "
       "widths, a row each)"},
      {"--ghost",
       "Comb's ghost widths per axis (1_1_1); here --halo H is one width on every axis (a list H1,H2 sweeps "
       "widths, a row each)"},
      {"-vars",
       "Comb's variables; here --fields K exchanges K fields, each its own array, in one message per "
       "neighbour rank (--messages separate: K per piece)"},
      {"--vars",
       "Comb's variables; here --fields K exchanges K fields, each its own array, in one message per "
       "neighbour rank (--messages separate: K per piece)"},
      {"-cycles",
       "Comb's cycle count; here --iters K timed exchanges per row (default 50), after --warmup W"},
      {"--cycles",
       "Comb's cycle count; here --iters K timed exchanges per row (default 50), after --warmup W"},
  };
  return table;
}

}  // namespace

std::optional<std::string> habit_of_option(const std::string& name) {
  for (const auto& [typed, here] : habits()) {
    if (name == typed) return name + ": " + here;
  }
  return std::nullopt;
}

std::optional<std::string> habit_of_value(const std::string& value) {
  static const std::regex comb(R"((?:^|[,=])([0-9]+(?:_[0-9]+){2})(?:$|,))");
  std::smatch m;
  if (!std::regex_search(value, m, comb)) return std::nullopt;
  std::string here = m[1].str();
  for (char& c : here) {
    if (c == '_') c = 'x';
  }
  return "'" + m[1].str() + "': Comb's X_Y_Z; here three extents are written " + here +
         " (--sizes for the box, --local for each rank's brick, --grid for -divide)";
}

}  // namespace halobw
