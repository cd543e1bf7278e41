// Huge pages from the kernel: whether transparent huge pages can be had, the
// allocation and release of a region of whole 2 MiB pages (plan/placement.hpp
// says what such a region holds), and the host placement of a run. Under a
// simulation the kernel is the simulating machine's, and so is the memory:
// the allocation is as real as in a measured run, but what the kernel gave it
// says nothing of a simulated node, and is not recorded (header.hpp,
// huge_figures_recorded).
#pragma once

#include <cstddef>

#include "halobw/plan/placement.hpp"

namespace halobw {

[[nodiscard]] bool huge_pages_available();  // Linux with transparent huge pages not "never"
[[nodiscard]] void* huge_alloc(std::size_t bytes);
void huge_free(void* p, std::size_t bytes) noexcept;

// The host placement of a run: huge pages when asked for and the kernel has them.
[[nodiscard]] inline Placement host_placement(bool hugepages) {
  return hugepages && huge_pages_available() ? Placement::huge_pages : Placement::standard;
}

}  // namespace halobw
