// Where the direct method's fields live (--method shm): a FieldHome that puts
// each field where every rank of the node reaches it (on the host a shared
// window of the node, node_window.hpp; on a device a runtime allocation opened
// through IPC handles, node_ipc.hpp) and keeps, in one more window of host
// memory, each rank's two flags. Every rank of a node can then read its
// neighbours' fields and flags where they are.
//
// The flags are counters of exchanges, each on a cache line of its own:
//   ready:  the owner's fields are final for exchange e (its boundary may be read);
//   copied: the owner has read its neighbours' boundaries for exchange e.
// They are read and written with acquire and release atomics (node_sync.hpp),
// which order plain loads and stores of shared memory within the windows'
// unified memory model (NodeWindow refuses a separate one).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/exchange/method.hpp"
#include "halobw/exchange/node_window.hpp"

namespace halobw {

struct alignas(64) NodeFlags {
  std::uint64_t ready = 0;
  alignas(64) std::uint64_t copied = 0;
};

class NodeHome final : public FieldHome {
 public:
  // Collective over `comm`, which must outlive the home; the fields in device
  // memory where `backend` is a device's. Throws MethodUnavailable under a
  // simulator, where every rank is one process.
  NodeHome(const Comm& comm, Backend backend);

  // Collective: each rank asks for its k-th field at once (FieldSet does, in order).
  Allocation allocate(std::size_t bytes, const std::string& label) override;

  // Field k and the flags of rank r of `comm`, which must share this rank's node.
  [[nodiscard]] double* field_of(int r, int k) const;
  [[nodiscard]] NodeFlags* flags_of(int r) const;

 private:
  const Comm& comm_;
  bool device_;
  NodeWindow flags_;
  std::vector<std::unique_ptr<NodeSegments>> fields_;
};

// The registry's maker of the direct method's home.
[[nodiscard]] std::shared_ptr<FieldHome> make_node_home(const Comm& comm, Backend backend);

}  // namespace halobw
