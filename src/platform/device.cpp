#include "halobw/platform/device.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include "halobw/platform/gpu_runtime.hpp"

namespace halobw {

std::vector<Backend> build_backends() {
  std::vector<Backend> b{Backend::host};
  if (gpu::kAvailable) b.push_back(gpu::kBackend);
  return b;
}

std::string kokkos_summary() {
  std::string s = "Kokkos " + std::to_string(KOKKOS_VERSION / 10000) + "." +
                  std::to_string(KOKKOS_VERSION / 100 % 100) + "." + std::to_string(KOKKOS_VERSION % 100) +
                  " (";
  std::string spaces;
#if defined(KOKKOS_ENABLE_SERIAL)
  spaces += ", Serial";
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  spaces += ", OpenMP";
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  spaces += ", Threads";
#endif
  if (gpu::kAvailable) spaces += std::string(", ") + gpu::kKokkosName;
  return s + (spaces.empty() ? std::string() : spaces.substr(2)) + ")";
}

namespace {

// Whether `backend` is this build's device backend (host is none).
bool is_this_device(Backend backend) { return gpu::kAvailable && backend == gpu::kBackend; }

}  // namespace

DeviceChoice choose_device(Backend backend, int local_rank) {
  DeviceChoice c;
  if (backend == Backend::host) return c;
  c.visible = is_this_device(backend) ? gpu::device_count() : 0;
  if (c.visible < 1) return c;  // reported by the caller
  c.device_id = local_rank % c.visible;
  c.name = gpu::device_name(c.device_id);
  if (c.name.empty()) c.name = to_string(backend);
  return c;
}

std::optional<std::uint64_t> device_free_bytes(Backend backend) {
  return is_this_device(backend) ? gpu::free_bytes() : std::nullopt;
}

}  // namespace halobw
