// What the machine says of itself, read from /proc and /sys on Linux: the
// host memory available, this process's peak resident set, the transparent
// huge page mode and how much of a region it backs with huge pages. Each is
// nullopt where it cannot be read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace halobw {

// MemAvailable of /proc/meminfo.
[[nodiscard]] std::optional<std::uint64_t> host_available_bytes();

// This process's peak resident set (VmHWM of /proc/self/status).
[[nodiscard]] std::optional<std::uint64_t> peak_resident_bytes();

// The kernel's transparent huge page mode ("always", "madvise", "never").
[[nodiscard]] std::optional<std::string> thp_mode();

// The bytes of [p, p + bytes) that the kernel backs with huge pages now
// (AnonHugePages of /proc/self/smaps).
[[nodiscard]] std::optional<std::size_t> huge_page_bytes(const void* p, std::size_t bytes);

}  // namespace halobw
