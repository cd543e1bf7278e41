// The clock: warm-up exchanges, barrier, K exchanges, barrier, divide by K.
// It knows nothing of faces; the slowest rank is taken by the reducer.
#pragma once

#include <mpi.h>

#include "halobw/mpi.hpp"

namespace halobw {

// This rank's seconds per call of `exchange`, trailing barrier included.
template <class Exchange>
double time_exchanges(const Comm& comm, int warmup, int iters, Exchange&& exchange) {
  for (int w = 0; w < warmup; ++w) exchange();
  comm.barrier();
  const double t0 = MPI_Wtime();
  for (int k = 0; k < iters; ++k) exchange();
  comm.barrier();
  return (MPI_Wtime() - t0) / static_cast<double>(iters);
}

}  // namespace halobw
