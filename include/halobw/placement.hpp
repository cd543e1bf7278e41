// Where an allocation goes, and what it then holds: pure, so that the memory
// preflight and the allocation function (allocation.hpp) apply one rule.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

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
[[nodiscard]] bool huge_pages_available();  // Linux with transparent huge pages not "never"
[[nodiscard]] void* huge_alloc(std::size_t bytes);
void huge_free(void* p, std::size_t bytes) noexcept;
// What an allocation of `bytes` with `placement` holds: huge pages round up to whole pages.
[[nodiscard]] constexpr std::size_t placed_bytes(std::size_t bytes, Placement placement) {
  return placement == Placement::huge_pages && bytes >= kHugeThreshold
             ? (bytes + kHugePage - 1) / kHugePage * kHugePage
             : bytes;
}

// The host placement of a run: huge pages when asked for and the kernel has them.
[[nodiscard]] inline Placement host_placement(bool hugepages) {
  return hugepages && huge_pages_available() ? Placement::huge_pages : Placement::standard;
}

// The kernel's transparent huge page mode ("always", "madvise", "never"), or
// nullopt where there is none to read.
[[nodiscard]] std::optional<std::string> thp_mode();

// The bytes of [p, p + bytes) that the kernel backs with huge pages now
// (AnonHugePages of /proc/self/smaps); nullopt where it cannot be read.
[[nodiscard]] std::optional<std::size_t> huge_page_bytes(const void* p, std::size_t bytes);

}  // namespace halobw
