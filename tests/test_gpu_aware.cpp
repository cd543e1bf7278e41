// Each MPI library is asked about device buffers through its own query, and
// answers (on a machine with no GPU, no): under MPI, as the library must be
// initialised before the MPICH family's query.
#include <gtest/gtest.h>
#include <mpi.h>

#include "halobw/platform/gpu_aware.hpp"

using namespace halobw;

TEST(GpuQuery, EachLibraryAnswersThroughItsOwnQuery) {
  const GpuQuery cuda = query_gpu_support(Backend::cuda);
  const GpuQuery hip = query_gpu_support(Backend::hip);
  EXPECT_EQ(query_gpu_support(Backend::host).supported, -1) << "the host backend asks nothing";
#if defined(OPEN_MPI)
  EXPECT_EQ(cuda.how, "MPIX_Query_cuda_support");
#if OMPI_MAJOR_VERSION >= 5
  EXPECT_EQ(hip.how, "MPIX_Query_rocm_support");
#else
  EXPECT_EQ(hip.supported, -1) << "Open MPI 4 has no ROCm query";
#endif
#elif defined(I_MPI_VERSION)
  EXPECT_EQ(cuda.how, "MPIX_GPU_query_support(CUDA)");
  EXPECT_EQ(hip.supported, -1) << "Intel MPI's query knows CUDA and Level Zero, not HIP";
#elif defined(MPICH_VERSION)
  EXPECT_EQ(cuda.how, "MPIX_GPU_query_support(CUDA)");
  EXPECT_EQ(hip.how, "MPIX_GPU_query_support(HIP)");
#else
  GTEST_SKIP() << "no GPU query known for this MPI library (a simulator, or another MPI)";
#endif
  EXPECT_GE(cuda.supported, 0) << cuda.how << " did not answer";
  const std::string answers = gpu_support_answers();
  EXPECT_NE(answers.find("cuda: " + cuda.how + " says " + std::to_string(cuda.supported)), std::string::npos)
      << answers;
}
