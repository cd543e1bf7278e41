#include "halobw/exchange/node_home.hpp"

#include <memory>

#include "halobw/exchange/node_ipc.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

namespace {

// Refused before any window is made: SMPI runs every rank in one process.
const Comm& not_simulated(const Comm& comm) {
  if (const auto& sim = Process::simulation()) {
    throw MethodUnavailable(
        "--method shm: " + sim->name() +
        " runs every rank in one process, where a copy between ranks takes no simulated time");
  }
  return comm;
}

}  // namespace

// Room to align each rank's flags to their cache line: a shared window's
// segments need not start on one (Open MPI's came 8 bytes past it). The
// segments are mapped on whole pages, so every rank rounds a segment up to
// the same place.
NodeHome::NodeHome(const Comm& comm, Backend backend)
    : comm_(not_simulated(comm)),
      device_(backend != Backend::host),
      flags_(comm, sizeof(NodeFlags) + alignof(NodeFlags)) {}

Allocation NodeHome::allocate(std::size_t bytes, const std::string& /*label*/) {
  if (device_) {
    fields_.push_back(std::make_unique<NodeIpc>(comm_, bytes));
  } else {
    fields_.push_back(std::make_unique<NodeWindow>(comm_, bytes));
  }
  // The window owns the memory: the allocation frees nothing.
  return {fields_.back()->segment_of(comm_.rank()), bytes, [](void* /*p*/, std::size_t /*bytes*/) {}};
}

double* NodeHome::field_of(int r, int k) const {
  return reinterpret_cast<double*>(  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast): the segment holds
                                     // doubles
      fields_.at(static_cast<std::size_t>(k))->segment_of(r));
}

NodeFlags* NodeHome::flags_of(int r) const {
  void* at = flags_.segment_of(r);
  std::size_t room = sizeof(NodeFlags) + alignof(NodeFlags);
  return static_cast<NodeFlags*>(std::align(alignof(NodeFlags), sizeof(NodeFlags), at, room));
}

std::shared_ptr<FieldHome> make_node_home(const Comm& comm, Backend backend) {
  return std::make_shared<NodeHome>(comm, backend);
}

}  // namespace halobw
