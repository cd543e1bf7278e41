#include "halobw/placement.hpp"

#include <cstdint>
#include <fstream>
#include <new>
#include <optional>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace halobw {

std::optional<std::string> thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  const auto open = line.find('[');
  const auto close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  return line.substr(open + 1, close - open - 1);
}

bool huge_pages_available() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const auto mode = thp_mode();
  return mode && *mode != "never";
#else
  return false;
#endif
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

#if defined(__linux__) && defined(MADV_HUGEPAGE)
namespace {
std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
}  // namespace

void* huge_alloc(std::size_t bytes) {
  const std::size_t guard = page_size();
  const std::size_t span = bytes + kHugePage + guard;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  // Offsets from the mapping, not integers turned into pointers: the aligned
  // start, the end of the whole pages, the guard page after them.
  char* const first = static_cast<char*>(raw);
  const auto misalign = reinterpret_cast<std::uintptr_t>(raw) % kHugePage;
  char* const start = first + (misalign == 0 ? 0 : kHugePage - misalign);
  char* const end = start + bytes;  // bytes is whole huge pages
  char* const tail = end + guard;
  // Give back what lies before the aligned start and after the guard page.
  if (start > first) munmap(first, static_cast<std::size_t>(start - first));
  if (first + span > tail) munmap(tail, static_cast<std::size_t>(first + span - tail));
  mprotect(end, guard, PROT_NONE);
  madvise(start, bytes, MADV_HUGEPAGE);
  return start;
}

void huge_free(void* p, std::size_t bytes) noexcept { munmap(p, bytes + page_size()); }
#else
void* huge_alloc(std::size_t /*bytes*/) { throw std::bad_alloc(); }
void huge_free(void*, std::size_t) noexcept {}
#endif

}  // namespace halobw
