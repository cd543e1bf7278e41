// The direct method's fields on a device (--method shm --backend cuda|hip):
// each rank's field is a runtime allocation of its own, whose IPC handle
// every other rank of its node opens once per row, so that a kernel of one
// rank reads a neighbour's field where it lies. The device counterpart of
// NodeWindow, opened as measure/peer.cpp opens its neighbour's buffer.
#pragma once

#include <cstddef>
#include <vector>

#include "halobw/exchange/node_window.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

class NodeIpc final : public NodeSegments {
 public:
  // Collective over the ranks of this rank's node in `comm`: a zeroed device
  // segment of `bytes` each, every other one of the node opened. Throws
  // MethodUnavailable on every rank of the node where any of them cannot
  // allocate, export or open (no peer access between their devices, or
  // devices in separate cgroups).
  NodeIpc(const Comm& comm, std::size_t bytes);
  // Closes the mappings, waits for the node to have closed its own (collective), frees.
  ~NodeIpc() override;
  NodeIpc(const NodeIpc&) = delete;
  NodeIpc& operator=(const NodeIpc&) = delete;

  [[nodiscard]] std::byte* segment_of(int r) const override;

 private:
  void release();

  Comm node_;
  void* mine_ = nullptr;
  std::vector<void*> opened_;
  std::vector<std::byte*> segment_;  // per rank of `comm`: its segment, or null off the node
};

}  // namespace halobw
