// Where an allocation goes, and what it then holds: pure, so that the memory
// preflight and the allocation function (exchange/allocation.hpp) apply one
// rule. The system calls behind huge pages are in platform/huge_pages.hpp.
#pragma once

#include <cstddef>

namespace halobw {

// Where in its memory an allocation goes.
enum class Placement {
  standard,    // the memory space's own allocator
  pinned,      // host memory a device copies from and to directly (staging)
  huge_pages,  // host memory, 2 MiB aligned and advised to transparent huge pages (Linux)
};

// Huge pages: a region of whole 2 MiB pages with a guard page after it (so the
// kernel never merges it with its neighbours and /proc/self/smaps shows it
// alone), advised MADV_HUGEPAGE. Below kHugeThreshold an allocation stays
// standard: a 2 MiB page for a few kilobytes would waste the rest.
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugeThreshold = kHugePage;
// What an allocation of `bytes` with `placement` holds: huge pages round up to whole pages.
[[nodiscard]] constexpr std::size_t placed_bytes(std::size_t bytes, Placement placement) {
  return placement == Placement::huge_pages && bytes >= kHugeThreshold
             ? (bytes + kHugePage - 1) / kHugePage * kHugePage
             : bytes;
}

}  // namespace halobw
