#include "halobw/platform/system.hpp"

#include <cstdint>
#include <fstream>
#include <sstream>

namespace halobw {

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

std::optional<std::string> thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  const auto open = line.find('[');
  const auto close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  return line.substr(open + 1, close - open - 1);
}

std::optional<std::size_t> huge_page_bytes(const void* p, std::size_t bytes) {
  std::ifstream in("/proc/self/smaps");
  if (!in) return std::nullopt;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t hi = lo + bytes;
  std::size_t huge = 0;
  bool inside = false;
  std::string line;
  while (std::getline(in, line)) {
    const auto dash = line.find('-');
    const auto space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find_first_not_of("0123456789abcdef") == dash) {
      const std::uintptr_t a = std::stoull(line.substr(0, dash), nullptr, 16);
      const std::uintptr_t b = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
      inside = a < hi && b > lo;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      huge += std::stoull(line.substr(14)) * 1024;
    }
  }
  return huge;
}

}  // namespace halobw
