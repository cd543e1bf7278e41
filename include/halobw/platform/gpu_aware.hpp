// What the MPI library says of device buffers, asked through the query each
// library has: Open MPI's MPIX_Query_cuda_support and (from 5.0)
// MPIX_Query_rocm_support, MPICH's and Intel MPI's MPIX_GPU_query_support.
// Cray MPICH's MPICH_GPU_SUPPORT_ENABLED is read where no query answers
// (exchange/transport.hpp). Asked on every build, so that a host run's header
// says what the library would have answered.
#pragma once

#include <string>

#include "halobw/cli/settings.hpp"

namespace halobw {

// 1 yes, 0 no, -1 the library has no query for that device kind; `how`
// names the query asked (or why none was).
struct GpuQuery {
  int supported = -1;
  std::string how = "no query";
};
[[nodiscard]] GpuQuery query_gpu_support(Backend backend);

// "cuda: MPIX_Query_cuda_support says 0; hip: MPIX_Query_rocm_support says 0",
// for the header.
[[nodiscard]] std::string gpu_support_answers();

}  // namespace halobw
