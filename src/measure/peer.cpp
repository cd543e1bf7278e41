#include "halobw/measure/peer.hpp"

#include <Kokkos_Core.hpp>

#include "halobw/measure/clock.hpp"
#include "halobw/plan/memory.hpp"
#include "halobw/platform/reduce.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#define HALOBW_GPU(name) cuda##name
using GpuIpcHandle = cudaIpcMemHandle_t;
using GpuStream = cudaStream_t;
constexpr auto kGpuSuccess = cudaSuccess;
constexpr auto kGpuDeviceToDevice = cudaMemcpyDeviceToDevice;
constexpr auto kGpuIpcLazy = cudaIpcMemLazyEnablePeerAccess;
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#define HALOBW_GPU(name) hip##name
using GpuIpcHandle = hipIpcMemHandle_t;
using GpuStream = hipStream_t;
constexpr auto kGpuSuccess = hipSuccess;
constexpr auto kGpuDeviceToDevice = hipMemcpyDeviceToDevice;
constexpr auto kGpuIpcLazy = hipIpcMemLazyEnablePeerAccess;
#endif

namespace halobw {

#if defined(HALOBW_GPU)
namespace {

// Buffers from the runtime's own allocator: IPC needs a plain device
// allocation, which a Kokkos memory pool or stream-ordered allocator is not.
class PeerBuffers {
 public:
  // Buffers of `capacity` bytes; each copy moves `bytes` <= capacity.
  PeerBuffers(std::size_t capacity, std::size_t bytes) : bytes_(bytes) {
    ok_ = HALOBW_GPU(Malloc)(&src_, capacity) == kGpuSuccess &&
          HALOBW_GPU(Malloc)(&dst_, capacity) == kGpuSuccess &&
          HALOBW_GPU(Memset)(src_, 1, capacity) == kGpuSuccess &&
          HALOBW_GPU(StreamCreate)(&stream_) == kGpuSuccess && HALOBW_GPU(DeviceSynchronize)() == kGpuSuccess;
  }
  ~PeerBuffers() {
    if (remote_ != nullptr) (void)HALOBW_GPU(IpcCloseMemHandle)(remote_);
    if (stream_ != nullptr) (void)HALOBW_GPU(StreamDestroy)(stream_);
    if (src_ != nullptr) (void)HALOBW_GPU(Free)(src_);
    if (dst_ != nullptr) (void)HALOBW_GPU(Free)(dst_);
  }
  PeerBuffers(const PeerBuffers&) = delete;
  PeerBuffers& operator=(const PeerBuffers&) = delete;

  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] bool handle(GpuIpcHandle& h) const {
    return HALOBW_GPU(IpcGetMemHandle)(&h, dst_) == kGpuSuccess;
  }
  [[nodiscard]] bool open(const GpuIpcHandle& h) {
    return HALOBW_GPU(IpcOpenMemHandle)(&remote_, h, kGpuIpcLazy) == kGpuSuccess;
  }
  // One copy into the neighbour's buffer, complete on return.
  [[nodiscard]] bool copy() {
    return HALOBW_GPU(MemcpyAsync)(remote_, src_, bytes_, kGpuDeviceToDevice, stream_) == kGpuSuccess &&
           HALOBW_GPU(StreamSynchronize)(stream_) == kGpuSuccess;
  }

 private:
  std::size_t bytes_;
  void* src_ = nullptr;
  void* dst_ = nullptr;
  void* remote_ = nullptr;
  GpuStream stream_ = nullptr;
  bool ok_ = false;
};

}  // namespace
#endif

std::optional<double> time_peer_copy(const Comm& comm, Backend backend, const PeerPair& pair,
                                     std::uint64_t bytes, int warmup, int iters, std::string& why) {
  // Every condition is agreed before the next collective, so a rank that
  // cannot take part never leaves another waiting.
  const bool candidate = backend != Backend::host && pair.up >= 0 && pair.same_node && bytes > 0;
  if (agree(comm, candidate ? Status{} : fail("no candidate"))) {
    why =
        backend == Backend::host ? "host backend" : "a neighbour pair is not on one node, or nothing is sent";
    return std::nullopt;
  }
#if defined(HALOBW_GPU)
  // Neighbours of an uneven split send different amounts: every buffer holds the largest.
  unsigned long long mine_bytes = bytes;
  unsigned long long largest = 0;
  check_mpi(MPI_Allreduce(&mine_bytes, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm.get()),
            "MPI_Allreduce");
  PeerBuffers buffers(static_cast<std::size_t>(peer_limit_bytes(largest)), static_cast<std::size_t>(bytes));
  GpuIpcHandle mine{};
  GpuIpcHandle theirs{};
  bool ok = buffers.ok() && buffers.handle(mine);
  // My buffer's handle goes to the rank that writes into it; I get the handle of the one I write into.
  check_mpi(MPI_Sendrecv(&mine, sizeof mine, MPI_BYTE, pair.down, 0, &theirs, sizeof theirs, MPI_BYTE,
                         pair.up, 0, comm.get(), MPI_STATUS_IGNORE),
            "MPI_Sendrecv", pair.up);
  ok = ok && buffers.open(theirs) && buffers.copy();
  if (agree(comm, ok ? Status{} : fail("IPC failed"))) {
    why = "IPC between the neighbouring GPUs failed (no peer access, or devices in separate cgroups)";
    return std::nullopt;
  }
  bool copies_ok = true;
  const double seconds = time_calls(comm, warmup, iters, [&] { copies_ok = buffers.copy() && copies_ok; });
  const double slowest = reduce_max(comm, seconds);
  if (agree(comm, copies_ok ? Status{} : fail("copy failed"))) {
    why = "a peer copy failed";
    return std::nullopt;
  }
  return slowest;
#else
  (void)warmup;
  (void)iters;
  why = "this build has no GPU backend";
  return std::nullopt;
#endif
}

}  // namespace halobw
