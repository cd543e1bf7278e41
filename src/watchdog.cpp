#include "halobw/watchdog.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace halobw {

namespace {
constexpr long kPollsPerClockRead = 256;
}

Watchdog::Watchdog(MPI_Comm comm, double timeout_s, std::function<std::string(int)> describe)
    : comm_(comm), timeout_(timeout_s), describe_(std::move(describe)) {}

void Watchdog::wait_all(std::vector<MPI_Request>& requests) const {
  if (requests.empty()) return;
  const int n = static_cast<int>(requests.size());
  if (timeout_ <= 0) {
    check_mpi(MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    return;
  }
  const double deadline = MPI_Wtime() + timeout_;
  for (long polls = 1;; ++polls) {
    int done = 0;
    check_mpi(MPI_Testall(n, requests.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (done) return;
    if (polls % kPollsPerClockRead == 0 && MPI_Wtime() > deadline) expire(requests, n, "MPI_Testall");
  }
}

int Watchdog::wait_any(std::vector<MPI_Request>& requests, int count) const {
  int index = MPI_UNDEFINED;
  if (timeout_ <= 0) {
    check_mpi(MPI_Waitany(count, requests.data(), &index, MPI_STATUS_IGNORE), "MPI_Waitany");
    return index;
  }
  const double deadline = MPI_Wtime() + timeout_;
  for (long polls = 1;; ++polls) {
    int done = 0;
    check_mpi(MPI_Testany(count, requests.data(), &index, &done, MPI_STATUS_IGNORE), "MPI_Testany");
    if (done) return index;
    if (polls % kPollsPerClockRead == 0 && MPI_Wtime() > deadline) expire(requests, count, "MPI_Testany");
  }
}

void Watchdog::barrier() const {
  if (timeout_ <= 0) {
    check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
    return;
  }
  std::vector<MPI_Request> request(1, MPI_REQUEST_NULL);
  check_mpi(MPI_Ibarrier(comm_, request.data()), "MPI_Ibarrier");
  const double deadline = MPI_Wtime() + timeout_;
  for (long polls = 1;; ++polls) {
    int done = 0;
    check_mpi(MPI_Test(request.data(), &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    if (polls % kPollsPerClockRead == 0 && MPI_Wtime() > deadline) {
      int rank = 0;
      report_mpi(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
      std::fprintf(stderr,
                   "halo-bandwidth: timeout on rank %d after %g s: %s: waiting in a barrier for ranks "
                   "that did not arrive\n",
                   rank, timeout_, phase_.c_str());
      std::fflush(stderr);
      report_mpi(MPI_Abort(comm_, 4), "MPI_Abort");
      std::abort();
    }
  }
}

void Watchdog::expire(const std::vector<MPI_Request>& requests, int count, const char* call) const {
  int rank = 0;
  report_mpi(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
  std::string missing;
  for (int i = 0; i < count; ++i) {
    if (requests[static_cast<std::size_t>(i)] == MPI_REQUEST_NULL) continue;
    int done = 0;
    MPI_Request r = requests[static_cast<std::size_t>(i)];
    if (report_mpi(MPI_Request_get_status(r, &done, MPI_STATUS_IGNORE), "MPI_Request_get_status") && done)
      continue;
    missing += (missing.empty() ? "" : "; ") + describe_(i);
  }
  std::fprintf(stderr, "halo-bandwidth: timeout on rank %d after %g s in %s: %s: still waiting for %s\n",
               rank, timeout_, call, phase_.c_str(), missing.empty() ? "(nothing pending)" : missing.c_str());
  std::fflush(stderr);
  report_mpi(MPI_Abort(comm_, 4), "MPI_Abort");
  std::abort();
}

}  // namespace halobw
