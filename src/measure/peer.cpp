#include "halobw/measure/peer.hpp"

#include <Kokkos_Core.hpp>

#include "halobw/measure/clock.hpp"
#include "halobw/plan/memory.hpp"
#include "halobw/platform/gpu_runtime.hpp"
#include "halobw/platform/reduce.hpp"

namespace halobw {

namespace {

// A pair of runtime buffers (IPC needs the runtime's own allocations), the
// neighbour's buffer opened through its IPC handle, and a stream to copy on.
class PeerBuffers {
 public:
  // Buffers of `capacity` bytes; each copy moves `bytes` <= capacity.
  PeerBuffers(std::size_t capacity, std::size_t bytes) : bytes_(bytes) {
    ok_ = gpu::allocate(&src_, capacity) && gpu::allocate(&dst_, capacity) &&
          gpu::fill_bytes(src_, 1, capacity) && gpu::create_stream(stream_) && gpu::synchronize_device();
  }
  ~PeerBuffers() {
    if (remote_ != nullptr) gpu::ipc_close(remote_);
    if (stream_ != nullptr) gpu::destroy_stream(stream_);
    if (src_ != nullptr) gpu::deallocate(src_);
    if (dst_ != nullptr) gpu::deallocate(dst_);
  }
  PeerBuffers(const PeerBuffers&) = delete;
  PeerBuffers& operator=(const PeerBuffers&) = delete;

  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] bool handle(gpu::IpcHandle& h) const { return gpu::ipc_handle(h, dst_); }
  [[nodiscard]] bool open(const gpu::IpcHandle& h) { return gpu::ipc_open(&remote_, h); }
  // One copy into the neighbour's buffer, complete on return.
  [[nodiscard]] bool copy() {
    return gpu::copy_async(remote_, src_, bytes_, stream_) && gpu::synchronize(stream_);
  }

 private:
  std::size_t bytes_;
  void* src_ = nullptr;
  void* dst_ = nullptr;
  void* remote_ = nullptr;
  gpu::Stream stream_ = nullptr;
  bool ok_ = false;
};

}  // namespace

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
  if constexpr (!gpu::kAvailable) {
    why = "this build has no GPU backend";
    return std::nullopt;
  }
  // Neighbours of an uneven split send different amounts: every buffer holds the largest.
  unsigned long long mine_bytes = bytes;
  unsigned long long largest = 0;
  check_mpi(MPI_Allreduce(&mine_bytes, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm.get()),
            "MPI_Allreduce");
  PeerBuffers buffers(static_cast<std::size_t>(peer_limit_bytes(largest)), static_cast<std::size_t>(bytes));
  gpu::IpcHandle mine{};
  gpu::IpcHandle theirs{};
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
}

}  // namespace halobw
