// The one reading of a whole number on the command line: plain decimal digits
// in [lo, hi], no sign, no base prefix (CLI11's own conversion would take
// 0x10, 010 and +5), no exponent.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

namespace halobw {

[[nodiscard]] inline std::optional<std::int64_t> parse_whole(const std::string& s, std::int64_t lo,
                                                             std::int64_t hi) {
  std::int64_t v = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (s.empty() || *first == '+' || *first == '-') return std::nullopt;
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace halobw
