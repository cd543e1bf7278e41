// The sizes of --sizes and --local: a comma list whose items are a cube side
// N, three extents NXxNYxNZ, or a range of cube sides (OSU's -m habit):
//   A:B     A, 2A, 4A, ... up to B
//   A:B:S   A, A+S, A+2S, ... up to B
//   A:B:xF  A, A*F, A*F^2, ... up to B (F > 1), each rounded to whole cells,
//           a value equal to the one before dropped
// Items and ranges mix ("32,48,64:512"); the boxes come in the order given.
// Pure: no MPI, nothing of the plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/base/failure.hpp"

namespace halobw {

// The most rows one run may have (sizes x halo widths x placements): a longer
// sweep is several runs, and a typo such as 1:100000:1 is caught before it
// allocates anything.
constexpr std::size_t kMaxRows = 1000;

// The boxes of `text`, every side a whole number from 1 to `max_side`. A
// failure is one line without the option's name: an item that is none of
// the forms, a side out of range, extents given as a range's end, a range
// that yields no size (B below A), or more than `limit` boxes counting the
// `before` that earlier lists gave.
[[nodiscard]] Expected<std::vector<Index3>> parse_size_list(const std::string& text, std::int64_t max_side,
                                                            std::size_t limit = kMaxRows,
                                                            std::size_t before = 0);

}  // namespace halobw
