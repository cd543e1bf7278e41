#include "halobw/exchange/node_ipc.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "halobw/cli/settings.hpp"
#include "halobw/exchange/method.hpp"
#include "halobw/platform/gpu_runtime.hpp"

namespace halobw {

namespace {

// What each rank of a node offers the others: its segment's handle, and whether it has one.
struct Offer {
  gpu::IpcHandle handle{};
  int ok = 0;
};

}  // namespace

NodeIpc::NodeIpc(const Comm& comm, std::size_t bytes) : node_(node_comm(comm)) {
  Offer mine;
  // A segment of 0 bytes is still an allocation, so that every rank has a handle to give.
  mine.ok = gpu::allocate(&mine_, bytes > 0 ? bytes : 1) && gpu::fill_bytes(mine_, 0, bytes) &&
            gpu::synchronize_device() && gpu::ipc_handle(mine.handle, mine_);
  std::vector<Offer> offers(static_cast<std::size_t>(node_.size()));
  {
    const auto armed = node_.guard("MPI_Allgather");
    check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, offers.data(), sizeof mine, MPI_BYTE, node_.get()),
              "MPI_Allgather");
  }
  const std::vector<int> ranks = node_ranks(node_, comm);
  segment_.assign(static_cast<std::size_t>(comm.size()), nullptr);
  int ok = 1;
  for (const Offer& o : offers) ok = ok != 0 && o.ok != 0 ? 1 : 0;
  for (int i = 0; i < node_.size() && ok != 0; ++i) {
    std::byte*& at = segment_[static_cast<std::size_t>(ranks[static_cast<std::size_t>(i)])];
    void* remote = mine_;
    if (i != node_.rank()) {
      if (!gpu::ipc_open(&remote, offers[static_cast<std::size_t>(i)].handle)) {
        ok = 0;
        break;
      }
      opened_.push_back(remote);
    }
    at = static_cast<std::byte*>(remote);
  }
  {
    const auto armed = node_.guard("MPI_Allreduce");
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, node_.get()), "MPI_Allreduce");
  }
  if (ok == 0) {
    release();
    throw MethodUnavailable(fmt::format(
        "--method shm --backend {}: the ranks of a node could not share their fields through IPC handles "
        "(no peer access between their devices, or devices in separate cgroups); use --method p2p",
        to_string(gpu::kBackend)));
  }
}

void NodeIpc::release() {
  for (void* p : opened_) gpu::ipc_close(p);
  opened_.clear();
  node_.barrier();  // no rank frees its segment while another still has it open
  if (mine_ != nullptr) gpu::deallocate(mine_);
  mine_ = nullptr;
}

NodeIpc::~NodeIpc() {
  try {
    release();
  } catch (const std::exception&) {  // a failed barrier while unwinding: the job is ending
  }
}

std::byte* NodeIpc::segment_of(int r) const {
  std::byte* s = segment_.at(static_cast<std::size_t>(r));
  if (s == nullptr) throw std::logic_error(fmt::format("rank {} is not on this rank's node", r));
  return s;
}

}  // namespace halobw
