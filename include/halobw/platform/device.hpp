// Where the field lives: the backends of this build, device binding by
// node-local rank, and device memory (Kokkos starts in Process).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "halobw/base/failure.hpp"
#include "halobw/cli/options.hpp"

namespace halobw {

// host always; cuda and hip where Kokkos was built with them.
[[nodiscard]] std::vector<Backend> build_backends();
// "Kokkos 4.7.1 (Serial, OpenMP, Cuda)" style summary.
[[nodiscard]] std::string kokkos_summary();

struct DeviceChoice {
  int device_id = -1;  // -1: host
  int visible = 0;     // devices this rank sees
  std::string name = "host";
};
// device id = node-local rank mod visible devices (0 where each rank sees one).
// Call before Kokkos is initialised.
[[nodiscard]] DeviceChoice choose_device(Backend backend, int local_rank);

// Free memory where the field lives: the device's for a device backend, nullopt for host.
[[nodiscard]] std::optional<std::uint64_t> device_free_bytes(Backend backend);

}  // namespace halobw
