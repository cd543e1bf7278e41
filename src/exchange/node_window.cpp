#include "halobw/exchange/node_window.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "halobw/exchange/method.hpp"

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

std::vector<int> node_ranks(const Comm& node, const Comm& comm) {
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Group local = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(comm.get(), &world), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(node.get(), &local), "MPI_Comm_group");
  std::vector<int> locals(static_cast<std::size_t>(node.size()));
  std::vector<int> ranks(locals.size());
  for (int i = 0; i < node.size(); ++i) locals[static_cast<std::size_t>(i)] = i;
  const int rc = MPI_Group_translate_ranks(local, node.size(), locals.data(), world, ranks.data());
  report_mpi(MPI_Group_free(&local), "MPI_Group_free");
  report_mpi(MPI_Group_free(&world), "MPI_Group_free");
  check_mpi(rc, "MPI_Group_translate_ranks");
  return ranks;
}

NodeWindow::NodeWindow(const Comm& comm, std::size_t bytes) : node_(node_comm(comm)) {
  Info info;
  info.set("alloc_shared_noncontig", "true");
  void* base = nullptr;
  {
    const auto armed = node_.guard("MPI_Win_allocate_shared");
    if (MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes), 1, info.get(), node_.get(), &base, &win_) !=
        MPI_SUCCESS) {
      throw MethodUnavailable(
          "--method shm: the MPI library gave no shared window on the node "
          "(MPI_Win_allocate_shared failed)");
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
  const std::vector<int> ranks = node_ranks(node_, comm);
  segment_.assign(static_cast<std::size_t>(comm.size()), nullptr);
  for (int i = 0; i < node_.size(); ++i) {
    MPI_Aint size = 0;
    int unit = 0;
    void* at = nullptr;
    check_mpi(MPI_Win_shared_query(win_, i, &size, &unit, &at), "MPI_Win_shared_query");
    segment_[static_cast<std::size_t>(ranks[static_cast<std::size_t>(i)])] = static_cast<std::byte*>(at);
  }
  if (bytes > 0) std::memset(base, 0, bytes);
  node_.barrier();  // every segment zeroed before any rank reads another's
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

}  // namespace halobw
