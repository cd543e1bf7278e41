// The partitioned method (MPI-4): one partitioned request per message and
// side, made once per row (MPI_Psend_init, MPI_Precv_init) and started at
// the start of each exchange. A packed message is P equal runs of its
// buffer, P the largest divisor of its count up to kMaxPartitions; the
// pack fills them in order, and every run of a message is marked ready
// (MPI_Pready_range) as soon as its pack batch is fenced. A message of MPI
// datatypes is one partition: the struct of its subarrays is one element,
// and MPI-4 makes every partition the same count of one datatype, which the
// unequal pieces of a message are not. A receive is handed to the unpack
// once every partition has landed; while it waits, MPI_Parrived tells the
// watchdog which partitions are still missing. Why: docs/method.md.
#include <fmt/format.h>

#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/requests.hpp"
#include "halobw/platform/mpi_features.hpp"

namespace halobw {

#ifdef HALOBW_MPI_PARTITIONED

namespace {

constexpr int kMaxPartitions = 8;

// The partitions of a message of `count` elements.
int partitions_of(int count) {
  for (int p = kMaxPartitions; p > 1; --p) {
    if (count % p == 0) return p;
  }
  return 1;
}

class Partitioned final : public Requests {
 public:
  explicit Partitioned(MethodContext ctx) : Requests(std::move(ctx), " (partitioned)") {
    std::vector<std::string> what;
    for (std::size_t m = 0; m < wires_.size(); ++m) {
      const int tag = wires_[m].tag;
      const int parts = partitions_of(send_[m].count);
      partitions_.push_back(parts);
      if (MPI_Request* r = recv_request(m)) {
        const MpiSpan& s = recv_[m];
        check_mpi(MPI_Precv_init(s.address, parts, s.count / parts, s.type, recv_peer_[m], tag, comm_,
                                 MPI_INFO_NULL, r),
                  "MPI_Precv_init", recv_peer_[m]);
        first_.push_back(what.size());
        for (int p = 0; p < parts; ++p) {
          what.push_back(fmt::format("{}, partition {} of {}", wires_[m].what_recv, p + 1, parts));
        }
      }
      if (MPI_Request* r = send_request(m)) {
        const MpiSpan& s = send_[m];
        check_mpi(MPI_Psend_init(s.address, parts, s.count / parts, s.type, send_peer_[m], tag, comm_,
                                 MPI_INFO_NULL, r),
                  "MPI_Psend_init", send_peer_[m]);
      }
    }
    arrived_ = Awaited(std::move(what));
  }
  ~Partitioned() override { free_requests(); }
  Partitioned(const Partitioned&) = delete;
  Partitioned& operator=(const Partitioned&) = delete;

  // Every request starts here, the sends too: a partition can only be
  // marked ready on a started request. One MPI_Start each, not one
  // MPI_Startall: Open MPI 5.0's part/persist component hangs inside
  // MPI_Startall when it is handed two partitioned receives before their
  // sends (open-mpi/ompi issue 12969; 5.0.11 still does), and a start per
  // request costs the same on every library.
  void post_receives() override {
    restart();
    arrived_.set_all_pending(true);
    open_.assign(first_.size(), 1);
    for (MPI_Request& r : requests_) check_mpi(MPI_Start(&r), "MPI_Start");
  }
  void send(std::size_t m) override {
    if (MPI_Request* r = send_request(m)) {
      check_mpi(MPI_Pready_range(0, partitions_[m] - 1, *r), "MPI_Pready_range", send_peer_[m]);
    }
  }
  void send_all() override {
    for (std::size_t m = 0; m < wires_.size(); ++m) send(m);
  }

  // The next receive whose every partition has landed. MPI_Testany drives
  // the progress and completes it; every kNoteEvery turns, MPI_Parrived
  // updates which partitions the watchdog would name.
  int wait_any() override {
    if (finished()) return Requests::wait_any();
    const Watchdog::Guard armed(watchdog_, "MPI_Testany", &arrived_, Watchdog::Kind::wait);
    for (unsigned turn = 0;; ++turn) {
      int index = MPI_UNDEFINED;
      int flag = 0;
      check_mpi(MPI_Testany(receive_count(), receive_requests(), &index, &flag, MPI_STATUS_IGNORE),
                "MPI_Testany");
      if (flag != 0) {
        if (index == MPI_UNDEFINED) return -1;
        note_landed(static_cast<std::size_t>(index));
        return landed(index);
      }
      if (turn % kNoteEvery == 0) note_arrivals();
    }
  }

 private:
  static constexpr unsigned kNoteEvery = 256;

  // Receive `slot` (in request order) has every partition.
  void note_landed(std::size_t slot) {
    open_[slot] = 0;
    const int parts = partitions_[received(slot)];
    for (int p = 0; p < parts; ++p) arrived_.set_pending(first_[slot] + static_cast<std::size_t>(p), false);
  }
  // Which partitions of the receives still in flight have landed.
  void note_arrivals() {
    for (std::size_t slot = 0; slot < first_.size(); ++slot) {
      if (open_[slot] == 0) continue;  // complete, and inactive
      const MPI_Request r = receive_requests()[slot];
      const int parts = partitions_[received(slot)];
      for (int p = 0; p < parts; ++p) {
        int flag = 0;
        check_mpi(MPI_Parrived(r, p, &flag), "MPI_Parrived");
        if (flag != 0) arrived_.set_pending(first_[slot] + static_cast<std::size_t>(p), false);
      }
    }
  }

  std::vector<int> partitions_;     // per message
  std::vector<std::size_t> first_;  // per receive, in request order: its first partition in arrived_
  Awaited arrived_;                 // every partition of every receive
  std::vector<char> open_;          // per receive, in request order: not yet complete
};

}  // namespace

std::unique_ptr<Method> make_partitioned(MethodContext ctx, const MethodChoice& /*choice*/) {
  return std::make_unique<Partitioned>(std::move(ctx));
}

#else

// Never reached: the registry refuses the method first where the headers lack it.
// NOLINTNEXTLINE(performance-unnecessary-value-param): every maker has the one signature of the registry
std::unique_ptr<Method> make_partitioned(MethodContext /*ctx*/, const MethodChoice& /*choice*/) {
  throw MethodUnavailable("--method partitioned: this build's MPI headers have no partitioned communication");
}

#endif

}  // namespace halobw
