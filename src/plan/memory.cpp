#include "halobw/plan/memory.hpp"

#include <fmt/format.h>

#include <iterator>

namespace halobw {

MemoryUse memory_use(const Options& opt, Transport transport, Placement host) {
  MemoryUse use;
  use.transport = transport;
  use.breakdown = opt.breakdown;
  use.limit = opt.limit;
  use.check = opt.check;
  use.device = opt.backend != Backend::host;
  use.host = host;
  use.overlap = opt.overlap;
  return use;
}

MemoryNeed memory_need(const RankPlan& plan, const MessageTable& table, const MemoryUse& use) {
  MemoryNeed need;
  need.device = use.device;
  // Where the field lives: the host placement on the host, standard on a device (allocation.hpp).
  const Placement here = use.device ? Placement::standard : use.host;
  const Placement staging = use.device ? Placement::pinned : use.host;
  auto placed = [](std::uint64_t bytes, Placement p) {
    return static_cast<std::uint64_t>(placed_bytes(static_cast<std::size_t>(bytes), p));
  };
  const std::uint64_t field = plan.field_values() * sizeof(double);
  need.fields = placed(field, here) * static_cast<std::uint64_t>(plan.fields) * (use.overlap ? 2 : 1);
  const BufferSizes b = buffer_sizes(table, use.transport, use.breakdown);
  need.buffers = 2 * placed(b.packed * sizeof(double), here);
  need.staging = 2 * placed(b.staging * sizeof(double), staging);
  if (use.limit) need.limit = 2 * placed(copy_limit_bytes(plan.remote_bytes), here);
  if (use.limit && use.device) need.peer = 2 * peer_limit_bytes(use.send_max);
  if (use.check && use.device) need.mirror = field;
  return need;
}

std::string bytes_text(std::uint64_t bytes) {
  constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (v >= 1024.0 && unit + 1 < std::size(kUnits)) {
    v /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", v, kUnits[unit]);
}

}  // namespace halobw
