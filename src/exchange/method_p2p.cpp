// The p2p method: MPI_Irecv and MPI_Isend per message, MPI_Waitany as the
// receives land, MPI_Waitall for the rest. Requests are made per exchange.
#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/requests.hpp"

namespace halobw {

namespace {

class P2P final : public Requests {
 public:
  using Requests::Requests;

  void post_receives() override {
    restart();
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      const MpiSpan& s = recv_[m];
      if (MPI_Request* r = recv_request(m)) {
        check_mpi(MPI_Irecv(s.address, s.count, s.type, recv_peer_[m], wires_[m].tag, comm_, r), "MPI_Irecv",
                  recv_peer_[m]);
      }
    }
  }

  void send(std::size_t m) override {
    const MpiSpan& s = send_[m];
    if (MPI_Request* r = send_request(m)) {
      check_mpi(MPI_Isend(s.address, s.count, s.type, send_peer_[m], wires_[m].tag, comm_, r), "MPI_Isend",
                send_peer_[m]);
    }
  }

  void send_all() override {
    for (std::size_t m = 0; m < wires_.size(); ++m) send(m);
  }
};

}  // namespace

std::unique_ptr<Method> make_p2p(MethodContext ctx, const MethodChoice& /*choice*/) {
  return std::make_unique<P2P>(std::move(ctx));
}

}  // namespace halobw
