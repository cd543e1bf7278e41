#include "halobw/platform/device.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace halobw {

std::vector<Backend> build_backends() {
  std::vector<Backend> b{Backend::host};
#if defined(KOKKOS_ENABLE_CUDA)
  b.push_back(Backend::cuda);
#endif
#if defined(KOKKOS_ENABLE_HIP)
  b.push_back(Backend::hip);
#endif
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
#if defined(KOKKOS_ENABLE_CUDA)
  spaces += ", Cuda";
#endif
#if defined(KOKKOS_ENABLE_HIP)
  spaces += ", HIP";
#endif
  return s + (spaces.empty() ? std::string() : spaces.substr(2)) + ")";
}

namespace {

int visible_devices(Backend backend) {
  int count = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if (backend == Backend::cuda && cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if (backend == Backend::hip && hipGetDeviceCount(&count) != hipSuccess) count = 0;
#endif
  (void)backend;
  return count;
}

std::string device_name(Backend backend, int id) {
#if defined(KOKKOS_ENABLE_CUDA)
  cudaDeviceProp prop{};
  if (backend == Backend::cuda && cudaGetDeviceProperties(&prop, id) == cudaSuccess) return prop.name;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  hipDeviceProp_t prop{};
  if (backend == Backend::hip && hipGetDeviceProperties(&prop, id) == hipSuccess) return prop.name;
#endif
  (void)id;
  return to_string(backend);
}

}  // namespace

DeviceChoice choose_device(Backend backend, int local_rank) {
  DeviceChoice c;
  if (backend == Backend::host) return c;
  c.visible = visible_devices(backend);
  if (c.visible < 1) return c;  // reported by the caller
  c.device_id = local_rank % c.visible;
  c.name = device_name(backend, c.device_id);
  return c;
}

std::optional<std::uint64_t> device_free_bytes(Backend backend) {
  std::size_t free_b = 0;
  std::size_t total = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if (backend == Backend::cuda && cudaMemGetInfo(&free_b, &total) == cudaSuccess) return free_b;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if (backend == Backend::hip && hipMemGetInfo(&free_b, &total) == hipSuccess) return free_b;
#endif
  (void)backend;
  (void)free_b;
  (void)total;
  return std::nullopt;
}

}  // namespace halobw
