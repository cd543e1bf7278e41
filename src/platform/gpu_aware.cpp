#include "halobw/platform/gpu_aware.hpp"

#include <mpi.h>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace halobw {

namespace {

// Open MPI declares a query per device kind in mpi-ext.h (its compile-time
// macro says whether this build has the support; the call asks the library
// loaded now). The MPICH family has one query with a constant per kind.
GpuQuery ask_cuda() {
  GpuQuery q;
#if defined(OPEN_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT)
  q.supported = MPIX_Query_cuda_support() != 0 ? 1 : 0;
  q.how = "MPIX_Query_cuda_support";
#elif defined(MPIX_GPU_SUPPORT_CUDA)
  int yes = 0;
  if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS) q.supported = yes != 0 ? 1 : 0;
  q.how = "MPIX_GPU_query_support(CUDA)";
#endif
  return q;
}

GpuQuery ask_hip() {
  GpuQuery q;
#if defined(OPEN_MPI) && defined(MPIX_ROCM_AWARE_SUPPORT)
  q.supported = MPIX_Query_rocm_support() != 0 ? 1 : 0;
  q.how = "MPIX_Query_rocm_support";
#elif defined(OPEN_MPI) && defined(MPIX_HIP_AWARE_SUPPORT)
  q.supported = MPIX_Query_hip_support() != 0 ? 1 : 0;
  q.how = "MPIX_Query_hip_support";
#elif defined(MPIX_GPU_SUPPORT_HIP)
  int yes = 0;
  if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_HIP, &yes) == MPI_SUCCESS) q.supported = yes != 0 ? 1 : 0;
  q.how = "MPIX_GPU_query_support(HIP)";
#endif
  return q;
}

std::string answer(const GpuQuery& q) {
  return q.supported < 0 ? "no query" : q.how + " says " + std::to_string(q.supported);
}

}  // namespace

GpuQuery query_gpu_support(Backend backend) {
  switch (backend) {
    case Backend::host:
      return {};
    case Backend::cuda:
      return ask_cuda();
    case Backend::hip:
      return ask_hip();
  }
  return {};
}

std::string gpu_support_answers() { return "cuda: " + answer(ask_cuda()) + "; hip: " + answer(ask_hip()); }

}  // namespace halobw
