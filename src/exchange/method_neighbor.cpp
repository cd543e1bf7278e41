// The neighbourhood method: MPI-3's own halo operation. Once per row, a
// distributed-graph communicator lists this rank's sources and destinations
// in message order; each exchange is one MPI_Ineighbor_alltoallw over it,
// every block addressed from MPI_BOTTOM (absolute addresses), so packed
// buffers and subarrays of the fields go the same way.
//
// A peer can get several messages (--messages aggregated or separate with 2
// ranks on an axis, or a message per peer split at INT_MAX values): the
// graph then lists it once per message. MPI matches the k-th block sent to a
// peer with the k-th block that peer receives from this rank, in edge order.
// Both sides list their messages in table order, by direction of their first
// piece, and a message travelling in direction d leaves towards the +d
// neighbour and arrives from the -d one, so the k-th block for a peer is
// always the same message on both sides. At a wall there is no edge: a
// message with no receiver is only a source's block on the other side, and
// the lists keep their order.
#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/mpi_spans.hpp"
#include "halobw/plan/grid.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

namespace {

class Neighbor final : public Method {
 public:
  Neighbor(MethodContext ctx, MethodKind kind) : wires_(std::move(ctx.wires)), watchdog_(ctx.watchdog) {
    // SimGrid's SMPI (3.32) aborts the whole simulation in
    // MPI_Dist_graph_create_adjacent, "Not yet implemented" (tests/smpi/neighbor.c).
    if (const auto& sim = Process::simulation()) {
      throw MethodUnavailable("--method " + to_string(kind) + ": " + sim->name() +
                              " has no distributed-graph communicators (MPI_Dist_graph_create_adjacent)");
    }
    std::vector<int> sources;
    std::vector<int> destinations;
    std::vector<std::string> what;
    for (const Wire& w : wires_) {
      if (w.recv_peer != kNoRank) {
        const MpiSpan s = types_.span(w.recv);
        sources.push_back(w.recv_peer);
        recv_counts_.push_back(s.count);
        recv_displs_.push_back(mpi_address(s.address));
        recv_types_.push_back(s.type);
        what.push_back(w.what_recv);
      }
      if (w.send_peer != kNoRank) {
        const MpiSpan s = types_.span(w.send);
        destinations.push_back(w.send_peer);
        send_counts_.push_back(s.count);
        send_displs_.push_back(mpi_address(s.address));
        send_types_.push_back(s.type);
      }
    }
    for (const Wire& w : wires_) {
      if (w.send_peer != kNoRank) what.push_back(w.what_send);
    }
    awaited_ = Awaited(std::move(what));
    const auto armed =
        Watchdog::Guard(watchdog_, "MPI_Dist_graph_create_adjacent", nullptr, Watchdog::Kind::collective);
    check_mpi(
        MPI_Dist_graph_create_adjacent(ctx.comm->get(), static_cast<int>(sources.size()), sources.data(),
                                       MPI_UNWEIGHTED, static_cast<int>(destinations.size()),
                                       destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_),
        "MPI_Dist_graph_create_adjacent");
  }
  ~Neighbor() override {
    if (graph_ != MPI_COMM_NULL) report_mpi(MPI_Comm_free(&graph_), "MPI_Comm_free");
  }
  Neighbor(const Neighbor&) = delete;
  Neighbor& operator=(const Neighbor&) = delete;

  void post_receives() override { done_ = false; }
  // One collective carries every message: there is no sending one alone.
  void send(std::size_t /*m*/) override {
    throw std::logic_error("the neighbor method sends every message at once (--schedule bulk)");
  }
  void send_all() override {
    check_mpi(MPI_Ineighbor_alltoallw(MPI_BOTTOM, send_counts_.data(), send_displs_.data(),
                                      send_types_.data(), MPI_BOTTOM, recv_counts_.data(),
                                      recv_displs_.data(), recv_types_.data(), graph_, &request_),
              "MPI_Ineighbor_alltoallw");
  }
  int wait_any() override { return -1; }
  void wait_all() override {
    if (done_) return;
    const Watchdog::Guard armed(watchdog_, "MPI_Wait", &awaited_, Watchdog::Kind::wait);
    check_mpi(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait");
  }
  bool test() override {
    if (!done_) {
      int flag = 0;
      check_mpi(MPI_Test(&request_, &flag, MPI_STATUS_IGNORE), "MPI_Test");
      done_ = flag != 0;
    }
    return done_;
  }
  [[nodiscard]] bool lands_one_by_one() const override { return false; }

 private:
  std::vector<Wire> wires_;
  Watchdog* watchdog_;
  MpiTypes types_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::vector<int> send_counts_;
  std::vector<int> recv_counts_;
  std::vector<MPI_Aint> send_displs_;
  std::vector<MPI_Aint> recv_displs_;
  std::vector<MPI_Datatype> send_types_;
  std::vector<MPI_Datatype> recv_types_;
  Awaited awaited_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<Method> make_neighbor(MethodContext ctx, const MethodChoice& choice) {
  return std::make_unique<Neighbor>(std::move(ctx), choice.kind);
}

}  // namespace halobw
