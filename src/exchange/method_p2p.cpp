// The p2p method: MPI_Irecv and MPI_Isend per message, MPI_Waitany as the
// receives land, MPI_Waitall for the rest. Requests are made per exchange.
// The persistent method is the same with requests made once per row
// (MPI_Recv_init, MPI_Send_init) and started per exchange.
#include <fmt/format.h>

#include <algorithm>

#include "halobw/exchange/method.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

namespace {

// The requests of one exchange and their completion, shared by p2p and
// persistent. A message to or from a wall (MPI_PROC_NULL) has no request at
// all: MPI libraries differ on what MPI_Waitany says of such a request
// (MPICH never reports a started persistent one, Open MPI does), so wait_any
// reports exactly the messages that have a sender, on every library.
class Requests : public Method {
 public:
  explicit Requests(MethodContext ctx)
      : comm_(ctx.comm), wires_(std::move(ctx.wires)), watchdog_(ctx.watchdog) {
    std::vector<std::string> recvs;
    std::vector<std::string> sends;
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      if (wires_[m].recv_peer != MPI_PROC_NULL) {
        recv_slot_.push_back(static_cast<int>(received_.size()));
        received_.push_back(m);
        recvs.push_back(wires_[m].what_recv);
      } else {
        recv_slot_.push_back(-1);
      }
    }
    for (const Wire& w : wires_) {
      if (w.send_peer != MPI_PROC_NULL) {
        send_slot_.push_back(static_cast<int>(received_.size() + sent_));
        ++sent_;
        sends.push_back(w.what_send);
      } else {
        send_slot_.push_back(-1);
      }
    }
    requests_.assign(received_.size() + sent_, MPI_REQUEST_NULL);
    std::vector<std::string> all = recvs;
    all.insert(all.end(), sends.begin(), sends.end());
    receives_ = Awaited(std::move(recvs));
    everything_ = Awaited(std::move(all));
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
    if (done_) return drained_ < received_.size() ? static_cast<int>(received_[drained_++]) : -1;
    int index = MPI_UNDEFINED;
    {
      const Watchdog::Guard armed(watchdog_, "MPI_Waitany", &receives_, Watchdog::Kind::wait);
      check_mpi(MPI_Waitany(static_cast<int>(received_.size()), requests_.data(), &index, MPI_STATUS_IGNORE),
                "MPI_Waitany");
    }
    if (index == MPI_UNDEFINED) return -1;
    receives_.set_pending(static_cast<std::size_t>(index), false);
    everything_.set_pending(static_cast<std::size_t>(index), false);
    return static_cast<int>(received_[static_cast<std::size_t>(index)]);
  }

  void wait_all() override {
    if (done_) return;
    const Watchdog::Guard armed(watchdog_, "MPI_Waitall", &everything_, Watchdog::Kind::wait);
    check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }

 protected:
  // A new exchange: nothing has landed yet.
  void restart() {
    done_ = false;
    drained_ = 0;
    receives_.set_all_pending(true);
    everything_.set_all_pending(true);
  }
  // Message m's receive (send) request; null where its peer is a wall.
  MPI_Request* recv_request(std::size_t m) { return slot(recv_slot_[m]); }
  MPI_Request* send_request(std::size_t m) { return slot(send_slot_[m]); }
  // The receive requests, then the send requests: each group contiguous, for MPI_Startall.
  MPI_Request* receive_requests() { return requests_.data(); }
  MPI_Request* send_requests() { return requests_.data() + received_.size(); }
  [[nodiscard]] int receive_count() const { return static_cast<int>(received_.size()); }
  [[nodiscard]] int send_count() const { return static_cast<int>(sent_); }

  MPI_Comm comm_;
  std::vector<Wire> wires_;
  Watchdog* watchdog_;
  std::vector<MPI_Request> requests_;  // the receives with a sender, then the sends with a receiver

 private:
  MPI_Request* slot(int i) { return i < 0 ? nullptr : &requests_[static_cast<std::size_t>(i)]; }

  std::vector<std::size_t> received_;  // the messages that have a sender, in request order
  std::size_t sent_ = 0;               // the messages that have a receiver
  std::vector<int> recv_slot_;         // per message: its receive request, or -1 (a wall)
  std::vector<int> send_slot_;         // per message: its send request, or -1 (a wall)
  Awaited receives_;
  Awaited everything_;
  bool done_ = false;        // test() saw every request complete
  std::size_t drained_ = 0;  // landed messages handed out by wait_any() since
};

class P2P final : public Requests {
 public:
  using Requests::Requests;

  void post_receives() override {
    restart();
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      const Wire& w = wires_[m];
      if (MPI_Request* r = recv_request(m)) {
        check_mpi(MPI_Irecv(w.recv.address, w.recv.count, w.recv.type, w.recv_peer, w.tag, comm_, r),
                  "MPI_Irecv", w.recv_peer);
      }
    }
  }

  void send(std::size_t m) override {
    const Wire& w = wires_[m];
    if (MPI_Request* r = send_request(m)) {
      check_mpi(MPI_Isend(w.send.address, w.send.count, w.send.type, w.send_peer, w.tag, comm_, r),
                "MPI_Isend", w.send_peer);
    }
  }

  void send_all() override {
    for (std::size_t m = 0; m < wires_.size(); ++m) send(m);
  }
};

// Whether a message is a derived datatype (a subarray of the field), not packed values.
bool derived(MPI_Datatype type) {
  int integers = 0;
  int addresses = 0;
  int types = 0;
  int combiner = MPI_COMBINER_NAMED;
  check_mpi(MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner), "MPI_Type_get_envelope");
  return combiner != MPI_COMBINER_NAMED;
}

class Persistent final : public Requests {
 public:
  explicit Persistent(MethodContext ctx) : Requests(std::move(ctx)) {
    // SimGrid's SMPI (3.32) copies a persistent send's non-contiguous data
    // at MPI_Send_init, and every MPI_Start sends that copy again: the field
    // as it was before it was filled (tests/smpi/persistent.c shows it).
    const auto& sim = Process::simulation();
    if (sim &&
        std::any_of(wires_.begin(), wires_.end(), [](const Wire& w) { return derived(w.send.type); })) {
      throw MethodUnavailable(fmt::format(
          "--method persistent with MPI datatypes: {} sends a persistent request's non-contiguous data as it "
          "was at MPI_Send_init, not at MPI_Start; use --pack kernel",
          sim->name()));
    }
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      const Wire& w = wires_[m];
      if (MPI_Request* r = recv_request(m)) {
        check_mpi(MPI_Recv_init(w.recv.address, w.recv.count, w.recv.type, w.recv_peer, w.tag, comm_, r),
                  "MPI_Recv_init", w.recv_peer);
      }
      if (MPI_Request* r = send_request(m)) {
        check_mpi(MPI_Send_init(w.send.address, w.send.count, w.send.type, w.send_peer, w.tag, comm_, r),
                  "MPI_Send_init", w.send_peer);
      }
    }
  }
  ~Persistent() override {
    for (MPI_Request& r : requests_) {
      if (r != MPI_REQUEST_NULL) report_mpi(MPI_Request_free(&r), "MPI_Request_free");
    }
  }
  Persistent(const Persistent&) = delete;
  Persistent& operator=(const Persistent&) = delete;

  void post_receives() override {
    restart();
    if (receive_count() > 0) check_mpi(MPI_Startall(receive_count(), receive_requests()), "MPI_Startall");
  }
  void send(std::size_t m) override {
    if (MPI_Request* r = send_request(m)) check_mpi(MPI_Start(r), "MPI_Start", wires_[m].send_peer);
  }
  void send_all() override {
    if (send_count() > 0) check_mpi(MPI_Startall(send_count(), send_requests()), "MPI_Startall");
  }
};

}  // namespace

std::unique_ptr<Method> make_p2p(MethodContext ctx) { return std::make_unique<P2P>(std::move(ctx)); }
std::unique_ptr<Method> make_persistent(MethodContext ctx) {
  return std::make_unique<Persistent>(std::move(ctx));
}

}  // namespace halobw
