// What users of OSU's micro-benchmarks and of Comb type, and what it is here:
// one line for each of their options and forms that we do not take, naming
// our equivalent and how it differs. Pure text; options.cpp asks before it
// calls an option unknown (exit 2, as any bad input).
#pragma once

#include <optional>
#include <string>

namespace halobw {

// The line for an option this program does not know but OSU or Comb has
// ("-m", "-divide", "--cycles", "--message-size"); none for any other name.
[[nodiscard]] std::optional<std::string> habit_of_option(const std::string& name);

// The line for a value written as Comb writes three extents or flags
// ("100_100_100", also within a list: "64,100_100_100"); none otherwise.
[[nodiscard]] std::optional<std::string> habit_of_value(const std::string& value);

}  // namespace halobw
