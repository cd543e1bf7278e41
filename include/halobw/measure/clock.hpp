// The clock: warm-up calls, barrier, K calls, barrier, divide by K. It knows
// nothing of faces: the same clock times the whole exchange, the overlapped
// step, the --breakdown reference and the --limit copy. The slowest rank is
// taken by the reducer. The phases inside an exchange are timed by the
// exchanger's own marks (exchange/phases.hpp).
#pragma once

#include <mpi.h>

#include <vector>

#include "halobw/platform/mpi.hpp"

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

}  // namespace halobw
