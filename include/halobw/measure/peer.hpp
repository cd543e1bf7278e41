// The direct peer-copy limit (--limit, Peer_GBps): each rank copies its
// remote bytes (the busiest rank's are Send_B) from its GPU straight into a
// buffer on the GPU of its neighbour along the first cut axis, through CUDA
// or HIP IPC, every rank at once, so that a pair of neighbours moves both
// directions together (the seed's NVLink table).
// No MPI on the data path and no pack. Measured only where every such
// neighbour runs on the same node and IPC works; n/a otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "halobw/cli/options.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

struct PeerPair {
  int up = -1;    // the neighbour this rank writes into
  int down = -1;  // the neighbour that writes into this rank
  bool same_node = false;
};

// The slowest rank's seconds per copy of `bytes`, or nullopt with `why` set.
// Collective: every rank calls it with its own pair.
[[nodiscard]] std::optional<double> time_peer_copy(const Comm& comm, Backend backend, const PeerPair& pair,
                                                   std::uint64_t bytes, int warmup, int iters,
                                                   std::string& why);

}  // namespace halobw
