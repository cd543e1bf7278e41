// The clock: warm-up calls, barrier, K calls, barrier, divide by K. It knows
// nothing of faces: the same clock times the whole exchange, the overlapped
// step, the --breakdown reference and the --limit copy. The slowest rank is
// taken by the reducer.
//
// The phase clocks time the stages inside the timed exchanges themselves
// (--breakdown): NoPhases, the plain path, compiles to nothing; PhaseClock
// fences the execution space and reads MPI_Wtime between stages, so the
// phases of one rank add up to its time in the loop.
#pragma once

#include <mpi.h>

#include <array>
#include <vector>

#include "halobw/mpi.hpp"

namespace halobw {

// This rank's seconds per call of `work`, trailing barrier included.
// `begin()` runs after the leading barrier, just before the clock starts.
template <class Work, class Begin>
double time_calls(const Comm& comm, int warmup, int iters, Work&& work, Begin&& begin) {
  for (int w = 0; w < warmup; ++w) work();
  comm.barrier();
  begin();
  const double t0 = MPI_Wtime();
  for (int k = 0; k < iters; ++k) work();
  comm.barrier();
  return (MPI_Wtime() - t0) / static_cast<double>(iters);
}
template <class Work>
double time_calls(const Comm& comm, int warmup, int iters, Work&& work) {
  return time_calls(comm, warmup, iters, work, [] {});
}

// `repeats` timed blocks after one warm-up: this rank's seconds per call in
// each. `begin(r)` runs as block r starts, `end(r)` as it ends.
template <class Work, class Begin, class End>
std::vector<double> time_blocks(const Comm& comm, int warmup, int iters, int repeats, Work&& work,
                                Begin&& begin, End&& end) {
  std::vector<double> blocks;
  blocks.reserve(static_cast<std::size_t>(repeats));
  for (int r = 0; r < repeats; ++r) {
    blocks.push_back(time_calls(comm, r == 0 ? warmup : 0, iters, work, [&] { begin(r); }));
    end(r);
  }
  return blocks;
}
template <class Work>
std::vector<double> time_blocks(const Comm& comm, int warmup, int iters, int repeats, Work&& work) {
  return time_blocks(
      comm, warmup, iters, repeats, work, [](int) {}, [](int) {});
}

// The stages of an exchange, as --breakdown names them.
enum class Phase { pack = 0, mpi = 1, stage = 2, unpack = 3 };
constexpr int kPhases = 4;
using PhaseSeconds = std::array<double, kPhases>;

// The plain path: no clock read, no fence.
struct NoPhases {
  static constexpr bool kTimed = false;
  void restart() {}
  template <class ExecSpace>
  void mark(Phase /*ended*/, const ExecSpace& /*exec*/) {}
};

// Inside the timed exchanges: each mark fences `exec` (so a device's queued
// kernels count where they ran) and books the time since the last mark to the
// phase that just ended.
class PhaseClock {
 public:
  static constexpr bool kTimed = true;
  // Starts a new exchange: the time before it belongs to no phase.
  void restart() { last_ = MPI_Wtime(); }
  template <class ExecSpace>
  void mark(Phase ended, const ExecSpace& exec) {
    exec.fence();
    const double now = MPI_Wtime();
    sums_[static_cast<std::size_t>(ended)] += now - last_;
    last_ = now;
  }
  [[nodiscard]] const PhaseSeconds& sums() const { return sums_; }
  void clear() { sums_ = {}; }

 private:
  PhaseSeconds sums_{};
  double last_ = 0;
};

}  // namespace halobw
