#include "halobw/exchange/requests.hpp"

#include "halobw/plan/grid.hpp"

namespace halobw {

Requests::Requests(MethodContext ctx, const std::string& how)
    : comm_(ctx.comm->get()), wires_(std::move(ctx.wires)), watchdog_(ctx.watchdog) {
  std::vector<std::string> recvs;
  std::vector<std::string> sends;
  for (std::size_t m = 0; m < wires_.size(); ++m) {
    const Wire& w = wires_[m];
    send_.push_back(types_.span(w.send));
    recv_.push_back(types_.span(w.recv));
    send_peer_.push_back(mpi_peer(w.send_peer));
    recv_peer_.push_back(mpi_peer(w.recv_peer));
    if (w.recv_peer != kNoRank) {
      recv_slot_.push_back(static_cast<int>(received_.size()));
      received_.push_back(m);
      recvs.push_back(w.what_recv + how);
    } else {
      recv_slot_.push_back(-1);
    }
  }
  for (const Wire& w : wires_) {
    if (w.send_peer != kNoRank) {
      send_slot_.push_back(static_cast<int>(received_.size() + sent_));
      ++sent_;
      sends.push_back(w.what_send + how);
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

bool Requests::test() {
  if (!done_) {
    int flag = 0;
    check_mpi(MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &flag, MPI_STATUSES_IGNORE),
              "MPI_Testall");
    done_ = flag != 0;
  }
  return done_;
}

int Requests::wait_any() {
  if (done_) return drained_ < received_.size() ? static_cast<int>(received_[drained_++]) : -1;
  int index = MPI_UNDEFINED;
  {
    const Watchdog::Guard armed(watchdog_, "MPI_Waitany", &receives_, Watchdog::Kind::wait);
    check_mpi(MPI_Waitany(static_cast<int>(received_.size()), requests_.data(), &index, MPI_STATUS_IGNORE),
              "MPI_Waitany");
  }
  return index == MPI_UNDEFINED ? -1 : landed(index);
}

int Requests::landed(int slot) {
  const auto s = static_cast<std::size_t>(slot);
  receives_.set_pending(s, false);
  everything_.set_pending(s, false);
  return static_cast<int>(received_[s]);
}

void Requests::wait_all() {
  if (done_) return;
  const Watchdog::Guard armed(watchdog_, "MPI_Waitall", &everything_, Watchdog::Kind::wait);
  check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
}

void Requests::restart() {
  done_ = false;
  drained_ = 0;
  receives_.set_all_pending(true);
  everything_.set_all_pending(true);
}

void Requests::free_requests() noexcept {
  for (MPI_Request& r : requests_) {
    if (r != MPI_REQUEST_NULL) report_mpi(MPI_Request_free(&r), "MPI_Request_free");
  }
}

}  // namespace halobw
