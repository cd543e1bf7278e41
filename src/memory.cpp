#include "halobw/memory.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace halobw {

MemoryNeed memory_need(const RankPlan& plan, Transport transport, SelfMode self, bool breakdown, bool limit,
                       bool device, bool check) {
  MemoryNeed need;
  need.device = device;
  need.field = static_cast<std::uint64_t>(plan.padded[0]) * static_cast<std::uint64_t>(plan.padded[1]) *
               static_cast<std::uint64_t>(plan.padded[2]) * sizeof(double);
  std::uint64_t message_bytes = 0;
  for (const Face& f : plan.faces) {
    if (!(f.self && self == SelfMode::copy)) message_bytes += f.bytes;
  }
  if (packs(transport) || breakdown) need.buffers = 2 * message_bytes;
  if (transport == Transport::staged) need.staging = 2 * message_bytes;
  if (limit) need.limit = 2 * plan.remote_bytes;
  if (limit && device) need.peer = 2 * plan.remote_bytes;
  if (check && device) need.mirror = need.field;
  return need;
}

namespace {

// A "Key: <n> kB" line of a /proc file, in bytes.
std::optional<std::uint64_t> proc_kib(const char* path, const std::string& wanted) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == wanted) return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> host_available_bytes() { return proc_kib("/proc/meminfo", "MemAvailable:"); }

std::optional<std::uint64_t> peak_resident_bytes() { return proc_kib("/proc/self/status", "VmHWM:"); }

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

}  // namespace halobw
