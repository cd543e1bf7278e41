// Reductions over the ranks that know nothing of halos: the slowest rank's
// time, the largest byte count, and per timed block the slowest rank, then the
// median, least and most of the blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "halobw/platform/mpi.hpp"

namespace halobw {

// Median (mean of the middle two for an even count), min and max; pure.
struct Spread {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t median_index = 0;  // of the value at (or just below) the median
};
[[nodiscard]] Spread spread(std::vector<double> values);

// The slowest rank's value. Collective.
[[nodiscard]] double reduce_max(const Comm& comm, double mine);
// The largest value over the ranks. Collective.
[[nodiscard]] std::uint64_t reduce_max_bytes(const Comm& comm, std::uint64_t mine);
// Per block the slowest rank's value, then their median, min and max. Collective.
[[nodiscard]] Spread reduce_spread_max(const Comm& comm, const std::vector<double>& mine);

}  // namespace halobw
