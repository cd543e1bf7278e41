// The p2p method: MPI_Irecv and MPI_Isend per message, MPI_Waitany as the
// receives land, MPI_Waitall for the rest. Requests are made per exchange.
#include "halobw/method.hpp"
#include "halobw/mpi.hpp"

namespace halobw {

namespace {

class P2P final : public Method {
 public:
  P2P(MPI_Comm comm, std::vector<Wire> wires, Watchdog* watchdog)
      : comm_(comm),
        wires_(std::move(wires)),
        watchdog_(watchdog),
        requests_(2 * wires_.size(), MPI_REQUEST_NULL) {
    std::vector<std::string> recvs;
    std::vector<std::string> all;
    for (const Wire& w : wires_) recvs.push_back(w.what_recv);
    all = recvs;
    for (const Wire& w : wires_) all.push_back(w.what_send);
    receives_ = Awaited(std::move(recvs));
    everything_ = Awaited(std::move(all));
  }

  void post_receives() override {
    done_ = false;
    drained_ = 0;
    receives_.set_all_pending(true);
    everything_.set_all_pending(true);
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      const Wire& w = wires_[m];
      check_mpi(
          MPI_Irecv(w.recv.address, w.recv.count, w.recv.type, w.recv_peer, w.tag, comm_, &requests_[m]),
          "MPI_Irecv", w.recv_peer);
    }
  }

  void send(std::size_t m) override {
    const Wire& w = wires_[m];
    check_mpi(MPI_Isend(w.send.address, w.send.count, w.send.type, w.send_peer, w.tag, comm_,
                        &requests_[wires_.size() + m]),
              "MPI_Isend", w.send_peer);
  }

  void send_all() override {
    for (std::size_t m = 0; m < wires_.size(); ++m) send(m);
  }

  bool test() override {
    if (!done_) {
      int flag = 0;
      check_mpi(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &flag, MPI_STATUSES_IGNORE),
                "MPI_Testall");
      done_ = flag != 0;
    }
    return done_;
  }

  int wait_any() override {
    if (done_) return drained_ < wires_.size() ? static_cast<int>(drained_++) : -1;
    int index = MPI_UNDEFINED;
    {
      const Watchdog::Guard armed(watchdog_, "MPI_Waitany", &receives_, Watchdog::Kind::wait);
      check_mpi(MPI_Waitany(static_cast<int>(wires_.size()), requests_.data(), &index, MPI_STATUS_IGNORE),
                "MPI_Waitany");
    }
    if (index == MPI_UNDEFINED) return -1;
    receives_.set_pending(static_cast<std::size_t>(index), false);
    everything_.set_pending(static_cast<std::size_t>(index), false);
    return index;
  }

  void wait_all() override {
    if (done_) return;
    const Watchdog::Guard armed(watchdog_, "MPI_Waitall", &everything_, Watchdog::Kind::wait);
    check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }

 private:
  MPI_Comm comm_;
  std::vector<Wire> wires_;
  Watchdog* watchdog_;
  std::vector<MPI_Request> requests_;  // receives first, then sends
  Awaited receives_;
  Awaited everything_;
  bool done_ = false;        // test() saw every request complete
  std::size_t drained_ = 0;  // landed messages handed out by wait_any() since
};

}  // namespace

std::unique_ptr<Method> make_p2p(MPI_Comm comm, std::vector<Wire> wires, Watchdog* watchdog) {
  return std::make_unique<P2P>(comm, std::move(wires), watchdog);
}

}  // namespace halobw
