// The persistent method: p2p with its requests made once per row
// (MPI_Recv_init, MPI_Send_init) and started per exchange (MPI_Startall for
// the receives, MPI_Start per message as it is packed, MPI_Startall in bulk).
#include <fmt/format.h>

#include <algorithm>

#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/requests.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

namespace {

class Persistent final : public Requests {
 public:
  explicit Persistent(MethodContext ctx) : Requests(std::move(ctx)) {
    // SimGrid's SMPI (3.32) copies a persistent send's non-contiguous data
    // at MPI_Send_init, and every MPI_Start sends that copy again: the field
    // as it was before it was filled (tests/smpi/persistent.c shows it).
    const auto& sim = Process::simulation();
    if (sim && std::any_of(wires_.begin(), wires_.end(), [](const Wire& w) { return !w.send.packed(); })) {
      throw MethodUnavailable(fmt::format(
          "--method persistent with MPI datatypes: {} sends a persistent request's non-contiguous data as it "
          "was at MPI_Send_init, not at MPI_Start; use --pack kernel",
          sim->name()));
    }
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      const int tag = wires_[m].tag;
      if (MPI_Request* r = recv_request(m)) {
        const MpiSpan& s = recv_[m];
        check_mpi(MPI_Recv_init(s.address, s.count, s.type, recv_peer_[m], tag, comm_, r), "MPI_Recv_init",
                  recv_peer_[m]);
      }
      if (MPI_Request* r = send_request(m)) {
        const MpiSpan& s = send_[m];
        check_mpi(MPI_Send_init(s.address, s.count, s.type, send_peer_[m], tag, comm_, r), "MPI_Send_init",
                  send_peer_[m]);
      }
    }
  }
  ~Persistent() override { free_requests(); }
  Persistent(const Persistent&) = delete;
  Persistent& operator=(const Persistent&) = delete;

  void post_receives() override {
    restart();
    if (receive_count() > 0) check_mpi(MPI_Startall(receive_count(), receive_requests()), "MPI_Startall");
  }
  void send(std::size_t m) override {
    if (MPI_Request* r = send_request(m)) check_mpi(MPI_Start(r), "MPI_Start", send_peer_[m]);
  }
  void send_all() override {
    if (send_count() > 0) check_mpi(MPI_Startall(send_count(), send_requests()), "MPI_Startall");
  }
};

}  // namespace

std::unique_ptr<Method> make_persistent(MethodContext ctx, const MethodChoice& /*choice*/) {
  return std::make_unique<Persistent>(std::move(ctx));
}

}  // namespace halobw
