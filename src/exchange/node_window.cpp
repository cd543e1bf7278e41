#include "halobw/exchange/node_window.hpp"

#include <fmt/format.h>

#include <cstring>
#include <new>
#include <stdexcept>

#include "halobw/exchange/method.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

namespace {

// MPI_Info for the window: each rank's segment on pages of its own, so that it
// is first touched (and placed) by the rank that writes it.
class Info {
 public:
  Info() { check_mpi(MPI_Info_create(&info_), "MPI_Info_create"); }
  ~Info() { report_mpi(MPI_Info_free(&info_), "MPI_Info_free"); }
  Info(const Info&) = delete;
  Info& operator=(const Info&) = delete;
  void set(const char* key, const char* value) { check_mpi(MPI_Info_set(info_, key, value), "MPI_Info_set"); }
  [[nodiscard]] MPI_Info get() const { return info_; }

 private:
  MPI_Info info_ = MPI_INFO_NULL;
};

}  // namespace

NodeWindow::NodeWindow(const Comm& comm, std::size_t field_bytes)
    : node_(node_comm(comm)), rank_(comm.rank()) {
  if (const auto& sim = Process::simulation()) {
    throw MethodUnavailable(
        "--method shm: " + sim->name() +
        " runs every rank in one process, where a copy between ranks takes no simulated time");
  }
  Info info;
  info.set("alloc_shared_noncontig", "true");
  const auto bytes = static_cast<MPI_Aint>(sizeof(NodeFlags) + field_bytes);
  void* base = nullptr;
  {
    const auto armed = node_.guard("MPI_Win_allocate_shared");
    const int rc = MPI_Win_allocate_shared(bytes, 1, info.get(), node_.get(), &base, &win_);
    if (rc != MPI_SUCCESS) {
      throw MethodUnavailable(
          fmt::format("--method shm: the MPI library gave no shared window on the node "
                      "(MPI_Win_allocate_shared failed)"));
    }
  }
  int* model = nullptr;
  int found = 0;
  check_mpi(MPI_Win_get_attr(win_, MPI_WIN_MODEL, static_cast<void*>(&model), &found), "MPI_Win_get_attr");
  if (found == 0 || *model != MPI_WIN_UNIFIED) {
    report_mpi(MPI_Win_free(&win_), "MPI_Win_free");
    throw MethodUnavailable(
        "--method shm: the MPI library's shared window is not of the unified memory model");
  }
  // Which rank of `comm` each rank of the node is.
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Group local = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(comm.get(), &world), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(node_.get(), &local), "MPI_Comm_group");
  std::vector<int> locals(static_cast<std::size_t>(node_.size()));
  std::vector<int> ranks(locals.size());
  for (int i = 0; i < node_.size(); ++i) locals[static_cast<std::size_t>(i)] = i;
  check_mpi(MPI_Group_translate_ranks(local, node_.size(), locals.data(), world, ranks.data()),
            "MPI_Group_translate_ranks");
  check_mpi(MPI_Group_free(&local), "MPI_Group_free");
  check_mpi(MPI_Group_free(&world), "MPI_Group_free");
  segment_.assign(static_cast<std::size_t>(comm.size()), nullptr);
  for (int i = 0; i < node_.size(); ++i) {
    MPI_Aint size = 0;
    int unit = 0;
    void* at = nullptr;
    check_mpi(MPI_Win_shared_query(win_, i, &size, &unit, &at), "MPI_Win_shared_query");
    segment_[static_cast<std::size_t>(ranks[static_cast<std::size_t>(i)])] = static_cast<std::byte*>(at);
  }
  std::memset(base, 0, static_cast<std::size_t>(bytes));  // first touch by the owner; the flags at 0
  node_.barrier();  // every segment zeroed before any rank reads another's flags
}

NodeWindow::~NodeWindow() {
  if (win_ != MPI_WIN_NULL) report_mpi(MPI_Win_free(&win_), "MPI_Win_free");
}

std::byte* NodeWindow::segment_of(int r) const {
  std::byte* s = segment_.at(static_cast<std::size_t>(r));
  if (s == nullptr) throw std::logic_error(fmt::format("rank {} is not on this rank's node", r));
  return s;
}

bool NodeWindow::on_node(int r) const { return segment_.at(static_cast<std::size_t>(r)) != nullptr; }

double* NodeWindow::fields_of(int r) const {
  return reinterpret_cast<double*>(segment_of(r) + sizeof(NodeFlags));  // NOLINT: the segment's layout
}

NodeFlags* NodeWindow::flags_of(int r) const {
  return std::launder(reinterpret_cast<NodeFlags*>(segment_of(r)));  // NOLINT: the segment's layout
}

}  // namespace halobw
