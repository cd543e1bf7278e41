// The direct method's memory (--method shm): one MPI-3 shared window per node
// (MPI_Win_allocate_shared on the node's communicator), in which each rank
// holds its two flags and then its fields. Every rank of the node reaches
// every other's segment through the address MPI_Win_shared_query gives, so a
// rank copies a neighbour's boundary straight out of the neighbour's field.
//
// The flags are counters of exchanges, each on a cache line of its own:
//   ready:  the owner's fields are final for exchange e (its boundary may be read);
//   copied: the owner has read its neighbours' boundaries for exchange e.
// They are read and written with C++ acquire and release atomics, which order
// plain loads and stores of shared memory within the window's unified memory
// model (the constructor refuses a separate one).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "halobw/platform/mpi.hpp"

namespace halobw {

struct alignas(64) NodeFlags {
  std::uint64_t ready = 0;
  alignas(64) std::uint64_t copied = 0;
};

class NodeWindow {
 public:
  // Collective over `comm`: a window on each node of it, this rank's segment
  // `field_bytes` (its fields one after another) after its flags, zeroed.
  // Throws MethodUnavailable where the library cannot give such a window.
  NodeWindow(const Comm& comm, std::size_t field_bytes);
  ~NodeWindow();  // MPI_Win_free: collective over the node
  NodeWindow(const NodeWindow&) = delete;
  NodeWindow& operator=(const NodeWindow&) = delete;

  // This rank's fields, and the fields and flags of rank r of `comm`, which
  // must share this rank's node.
  [[nodiscard]] double* fields() const { return fields_of(rank_); }
  [[nodiscard]] double* fields_of(int r) const;
  [[nodiscard]] NodeFlags* flags_of(int r) const;
  [[nodiscard]] bool on_node(int r) const;

 private:
  [[nodiscard]] std::byte* segment_of(int r) const;

  Comm node_;
  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = 0;                     // in `comm`
  std::vector<std::byte*> segment_;  // per rank of `comm`: its segment, or null off the node
};

}  // namespace halobw
