// The memory preflight's count: what one rank allocates for one row, read
// from the same tables the exchanger allocates from, so that a row that
// cannot fit is refused before any allocation (what the node has is in
// Process::host_available_bytes in platform/process.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "halobw/cli/options.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/placement.hpp"

namespace halobw {

// --limit's copy: a source and a destination of this rank's remote bytes, where the field lives.
[[nodiscard]] constexpr std::uint64_t copy_limit_bytes(std::uint64_t remote_bytes) { return remote_bytes; }
// --limit's peer copy: a source and a destination of the busiest sender's bytes, on every GPU.
[[nodiscard]] constexpr std::uint64_t peer_limit_bytes(std::uint64_t send_max) { return send_max; }

// What besides the exchange a run allocates.
struct MemoryUse {
  Transport transport = Transport::datatype;
  bool breakdown = false;
  bool limit = false;
  bool check = false;
  bool device = false;                   // the field lives on a GPU
  std::uint64_t send_max = 0;            // the busiest sender's remote bytes (peer buffers)
  Placement host = Placement::standard;  // of host memory: huge pages round allocations up
  bool overlap = false;                  // --overlap: a second field per field, the stencil's output
};

struct MemoryNeed {
  std::uint64_t fields = 0;   // the padded bricks of every field, where the field lives
  std::uint64_t buffers = 0;  // packed send and receive buffers, where the field lives
  std::uint64_t staging = 0;  // host copies of the packed buffers (staged transport)
  std::uint64_t limit = 0;    // the two buffers of the --limit copy, where the field lives
  std::uint64_t peer = 0;     // the two buffers of the --limit peer copy (device backends)
  std::uint64_t mirror = 0;   // --check's host copy of a device field
  bool device = false;
  [[nodiscard]] std::uint64_t in_field_space() const { return fields + buffers + limit + peer; }
  [[nodiscard]] std::uint64_t on_host() const { return staging + mirror + (device ? 0 : in_field_space()); }
  [[nodiscard]] std::uint64_t on_device() const { return device ? in_field_space() : 0; }
  [[nodiscard]] std::uint64_t total() const { return in_field_space() + staging + mirror; }
};

// What a run with these options allocates besides the exchange, on
// `transport`, with host memory placed as `host` says.
[[nodiscard]] MemoryUse memory_use(const Options& opt, Transport transport, Placement host);

// Exactly what the fields, the exchanger (buffer_sizes) and the --limit
// copies allocate for one row.
[[nodiscard]] MemoryNeed memory_need(const RankPlan& plan, const MessageTable& table, const MemoryUse& use);

// "512 B", "4.0 KiB", "12.3 GiB": the largest binary unit that leaves a figure of at least 1.
[[nodiscard]] std::string bytes_text(std::uint64_t bytes);

}  // namespace halobw
