// Completion with a deadline: the only way the benchmark waits for MPI
// requests. With a timeout it polls (MPI_Testall / MPI_Testany) and reads the
// clock once every 256 polls, so a wait that never ends becomes a message
// naming what is missing, then an abort. Without one it is MPI_Waitall /
// MPI_Waitany.
#pragma once

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "halobw/mpi.hpp"

namespace halobw {

class Watchdog {
 public:
  // `describe(i)` names what request i is (face, direction, peer).
  Watchdog(MPI_Comm comm, double timeout_s, std::function<std::string(int)> describe);

  // What the rank is doing, for the message ("N=64 timed loop").
  void set_phase(std::string phase) { phase_ = std::move(phase); }

  void wait_all(std::vector<MPI_Request>& requests) const;
  // Waits for one of the first `count` requests; returns its index, or MPI_UNDEFINED.
  int wait_any(std::vector<MPI_Request>& requests, int count) const;

  // A barrier under the same deadline.
  void barrier() const;

 private:
  [[noreturn]] void expire(const std::vector<MPI_Request>& requests, int count, const char* call) const;

  MPI_Comm comm_;
  double timeout_;
  std::function<std::string(int)> describe_;
  std::string phase_ = "set-up";
};

}  // namespace halobw
