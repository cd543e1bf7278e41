// The clock: warm-up calls, barrier, K calls, barrier, divide by K. It knows
// nothing of faces: the same clock times the whole exchange, each phase of
// --breakdown and the --limit copy. The slowest rank is taken by the reducer.
#pragma once

#include <mpi.h>

#include <vector>

#include "halobw/mpi.hpp"

namespace halobw {

// This rank's seconds per call of `work`, trailing barrier included.
template <class Work>
double time_calls(const Comm& comm, int warmup, int iters, Work&& work) {
  for (int w = 0; w < warmup; ++w) work();
  comm.barrier();
  const double t0 = MPI_Wtime();
  for (int k = 0; k < iters; ++k) work();
  comm.barrier();
  return (MPI_Wtime() - t0) / static_cast<double>(iters);
}

// `repeats` timed blocks after one warm-up: this rank's seconds per call in each.
template <class Work>
std::vector<double> time_blocks(const Comm& comm, int warmup, int iters, int repeats, Work&& work) {
  std::vector<double> blocks;
  blocks.reserve(static_cast<std::size_t>(repeats));
  for (int r = 0; r < repeats; ++r) blocks.push_back(time_calls(comm, r == 0 ? warmup : 0, iters, work));
  return blocks;
}

}  // namespace halobw
