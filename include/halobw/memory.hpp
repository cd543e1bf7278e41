// The memory preflight: what one rank allocates for one size, and what the
// node has, so that a size that cannot fit is refused before any allocation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "halobw/faces.hpp"
#include "halobw/options.hpp"
#include "halobw/transport.hpp"

namespace halobw {

struct MemoryNeed {
  std::uint64_t field = 0;    // the padded brick, where the field lives
  std::uint64_t buffers = 0;  // packed send and receive buffers, where the field lives
  std::uint64_t staging = 0;  // host copies of the packed buffers (staged transport)
  std::uint64_t limit = 0;    // the two buffers of the --limit copy, where the field lives
  std::uint64_t peer = 0;     // the two buffers of the --limit peer copy (device backends)
  std::uint64_t mirror = 0;   // --check's host copy of a device field
  bool device = false;        // the field lives on a GPU
  [[nodiscard]] std::uint64_t in_field_space() const { return field + buffers + limit + peer; }
  [[nodiscard]] std::uint64_t on_host() const { return staging + mirror + (device ? 0 : in_field_space()); }
  [[nodiscard]] std::uint64_t on_device() const { return device ? in_field_space() : 0; }
  [[nodiscard]] std::uint64_t total() const { return in_field_space() + staging + mirror; }
};

// Exactly what Exchanger (and the --limit copy) allocate for `plan`. Packed
// buffers exist on packing transports and, for --breakdown, on all.
[[nodiscard]] MemoryNeed memory_need(const RankPlan& plan, Transport transport, SelfMode self,
                                     bool breakdown = false, bool limit = false, bool device = false,
                                     bool check = false);

// MemAvailable of /proc/meminfo; nullopt where it cannot be read.
[[nodiscard]] std::optional<std::uint64_t> host_available_bytes();

// This process's peak resident set (VmHWM of /proc/self/status); nullopt where unknown.
[[nodiscard]] std::optional<std::uint64_t> peak_resident_bytes();

// "12.3 GiB".
[[nodiscard]] std::string gib(std::uint64_t bytes);

}  // namespace halobw
