// One MPI-3 shared window per node (MPI_Win_allocate_shared on the node's
// communicator): each rank holds a segment of its own, on pages of its own,
// and reaches every other segment of its node through the address
// MPI_Win_shared_query gives. The direct method's fields and flags live in
// such windows (node_home.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "halobw/platform/mpi.hpp"

namespace halobw {

// Where each rank of a node keeps one segment of memory that the other ranks
// of its node reach (a shared window on the host, IPC mappings on a device).
class NodeSegments {
 public:
  virtual ~NodeSegments() = default;
  NodeSegments() = default;
  NodeSegments(const NodeSegments&) = delete;
  NodeSegments& operator=(const NodeSegments&) = delete;
  // The segment of rank r of the communicator it was made on; r must share this rank's node.
  [[nodiscard]] virtual std::byte* segment_of(int r) const = 0;
};

// The rank in `comm` of each rank of `node` (a node communicator split from it). Collective over `node`.
[[nodiscard]] std::vector<int> node_ranks(const Comm& node, const Comm& comm);

class NodeWindow final : public NodeSegments {
 public:
  // Collective over `comm`: a window on each node of it, this rank's segment
  // `bytes`, zeroed (first touched by its owner). Throws MethodUnavailable
  // where the library gives no such window, or one of a separate memory model.
  NodeWindow(const Comm& comm, std::size_t bytes);
  ~NodeWindow() override;  // MPI_Win_free: collective over the node
  NodeWindow(const NodeWindow&) = delete;
  NodeWindow& operator=(const NodeWindow&) = delete;

  [[nodiscard]] std::byte* segment_of(int r) const override;
  [[nodiscard]] bool on_node(int r) const;

 private:
  Comm node_;
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<std::byte*> segment_;  // per rank of `comm`: its segment, or null off the node
};

}  // namespace halobw
