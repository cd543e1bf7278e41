// The one place that names the GPU vendor. For the device backend of this
// Kokkos build (CUDA or HIP; Kokkos has at most one) it gives the Kokkos
// spaces and the runtime calls made outside Kokkos: allocate, copy, hand a
// buffer to another process through an IPC handle, and synchronise.
// A build without a device backend has the same names: kAvailable is false,
// the spaces are NoDevice, and every call fails (false, 0, nullopt), so the
// callers need no #if of their own. tests/vendor_shim.py holds every vendor
// #if to this file.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "halobw/cli/settings.hpp"

namespace halobw::gpu {

// The device spaces of a build that has none: matches no Kokkos space.
struct NoDevice {};

// Stands for every runtime call in a build without a device: each one fails,
// and a query whether a stream is still busy says it is not.
struct Unavailable {
  template <class... Args>
  constexpr Unavailable operator()(const Args&... /*args*/) const {
    return {};
  }
  constexpr bool operator==(Unavailable /*other*/) const { return false; }
  constexpr bool operator!=(Unavailable /*other*/) const { return true; }
  constexpr operator const char*() const { return "no device backend in this build"; }
};

}  // namespace halobw::gpu

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#define HALOBW_GPU(name) cuda##name
namespace halobw::gpu {
inline constexpr Backend kBackend = Backend::cuda;
inline constexpr const char* kKokkosName = "Cuda";
using Exec = Kokkos::Cuda;
using Memory = Kokkos::CudaSpace;
using PinnedHost = Kokkos::CudaHostPinnedSpace;
using Stream = cudaStream_t;
using IpcHandle = cudaIpcMemHandle_t;
using DeviceProp = cudaDeviceProp;
inline constexpr auto kSuccess = cudaSuccess;
inline constexpr auto kNotReady = cudaErrorNotReady;
inline constexpr auto kDeviceToDevice = cudaMemcpyDeviceToDevice;
inline constexpr auto kIpcLazy = cudaIpcMemLazyEnablePeerAccess;
inline Stream stream_of(const Exec& exec) { return exec.cuda_stream(); }
}  // namespace halobw::gpu
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#define HALOBW_GPU(name) hip##name
namespace halobw::gpu {
inline constexpr Backend kBackend = Backend::hip;
inline constexpr const char* kKokkosName = "HIP";
#if KOKKOS_VERSION >= 40000
using Exec = Kokkos::HIP;
using Memory = Kokkos::HIPSpace;
using PinnedHost = Kokkos::HIPHostPinnedSpace;
#else
using Exec = Kokkos::Experimental::HIP;
using Memory = Kokkos::Experimental::HIPSpace;
using PinnedHost = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
using Stream = hipStream_t;
using IpcHandle = hipIpcMemHandle_t;
using DeviceProp = hipDeviceProp_t;
inline constexpr auto kSuccess = hipSuccess;
inline constexpr auto kNotReady = hipErrorNotReady;
inline constexpr auto kDeviceToDevice = hipMemcpyDeviceToDevice;
inline constexpr auto kIpcLazy = hipIpcMemLazyEnablePeerAccess;
inline Stream stream_of(const Exec& exec) { return exec.hip_stream(); }
}  // namespace halobw::gpu
#else
#define HALOBW_GPU(name) ::halobw::gpu::Unavailable()
namespace halobw::gpu {
inline constexpr Backend kBackend = Backend::host;
inline constexpr const char* kKokkosName = "";
using Exec = NoDevice;
using Memory = NoDevice;
using PinnedHost = Kokkos::HostSpace;
using Stream = void*;
struct IpcHandle {
  unsigned char bytes[64];
};
struct DeviceProp {
  const char* name = "";
};
inline constexpr Unavailable kSuccess{};
inline constexpr Unavailable kNotReady{};
inline constexpr int kDeviceToDevice = 0;
inline constexpr int kIpcLazy = 0;
inline Stream stream_of(const Exec& /*exec*/) { return nullptr; }
}  // namespace halobw::gpu
#endif

namespace halobw::gpu {

// Whether this build has a device backend (kBackend names it).
inline constexpr bool kAvailable = kBackend != Backend::host;

// The devices this process sees (0 where the runtime cannot say).
inline int device_count() {
  int n = 0;
  return HALOBW_GPU(GetDeviceCount)(&n) == kSuccess ? n : 0;
}
// The device's product name, or "" where the runtime cannot say.
inline std::string device_name(int id) {
  DeviceProp prop{};
  return HALOBW_GPU(GetDeviceProperties)(&prop, id) == kSuccess ? std::string(prop.name) : std::string();
}
// Free memory on the current device.
inline std::optional<std::uint64_t> free_bytes() {
  std::size_t free_b = 0;
  std::size_t total = 0;
  if (HALOBW_GPU(MemGetInfo)(&free_b, &total) == kSuccess) return free_b;
  return std::nullopt;
}
// The name of the last failed call, and the runtime forgets it.
inline std::string last_error() {
  const char* name = HALOBW_GPU(GetErrorName)(HALOBW_GPU(GetLastError)());
  return name;
}

// Device memory from the runtime's own allocator: IPC needs a plain device
// allocation, which a Kokkos memory pool or stream-ordered allocator is not.
inline bool allocate(void** ptr, std::size_t bytes) { return HALOBW_GPU(Malloc)(ptr, bytes) == kSuccess; }
inline void deallocate(void* ptr) { (void)HALOBW_GPU(Free)(ptr); }
inline bool fill_bytes(void* ptr, int value, std::size_t bytes) {
  return HALOBW_GPU(Memset)(ptr, value, bytes) == kSuccess;
}

inline bool create_stream(Stream& stream) { return HALOBW_GPU(StreamCreate)(&stream) == kSuccess; }
inline void destroy_stream(Stream stream) { (void)HALOBW_GPU(StreamDestroy)(stream); }
// Queues a device-to-device copy (either side may be an opened IPC mapping).
inline bool copy_async(void* dst, const void* src, std::size_t bytes, Stream stream) {
  return HALOBW_GPU(MemcpyAsync)(dst, src, bytes, kDeviceToDevice, stream) == kSuccess;
}

inline bool synchronize_device() { return HALOBW_GPU(DeviceSynchronize)() == kSuccess; }
inline bool synchronize(Stream stream) { return HALOBW_GPU(StreamSynchronize)(stream) == kSuccess; }
// Whether everything queued on `stream` has finished, without waiting. Any
// answer but "not ready" (an error included) counts as idle, so that a poll
// loop ends and the caller's fence reports the error.
inline bool idle(Stream stream) { return HALOBW_GPU(StreamQuery)(stream) != kNotReady; }

// IPC: the handle of a runtime allocation of this process, sent (as bytes) to
// another process on the node, which opens it to read or write that memory
// and closes it before the owner frees it.
inline bool ipc_handle(IpcHandle& handle, void* local) {
  return HALOBW_GPU(IpcGetMemHandle)(&handle, local) == kSuccess;
}
inline bool ipc_open(void** remote, const IpcHandle& handle) {
  return HALOBW_GPU(IpcOpenMemHandle)(remote, handle, kIpcLazy) == kSuccess;
}
inline void ipc_close(void* remote) { (void)HALOBW_GPU(IpcCloseMemHandle)(remote); }

// Whether everything queued on the execution-space instance has finished. Host
// execution is synchronous: always.
template <class ExecSpace>
bool instance_idle(const ExecSpace& exec) {
  if constexpr (std::is_same<ExecSpace, Exec>::value) return idle(stream_of(exec));
  (void)exec;
  return true;
}

}  // namespace halobw::gpu

#undef HALOBW_GPU
