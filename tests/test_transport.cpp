#include <gtest/gtest.h>

#include "halobw/device.hpp"
#include "halobw/memory.hpp"

using namespace halobw;

TEST(GpuAware, FlagThenEnvironmentThenQueryThenCray) {
  Options o;
  o.backend = Backend::cuda;
  o.pack = PackMode::kernel;
  const GpuQuery yes{1, "MPIX_Query_cuda_support"};
  const GpuQuery unknown{};
  EXPECT_TRUE(resolve_gpu_aware(o, yes, std::nullopt).aware);
  EXPECT_EQ(resolve_gpu_aware(o, yes, std::nullopt).reason, "MPIX_Query_cuda_support");
  EXPECT_FALSE(resolve_gpu_aware(o, unknown, std::nullopt).aware);
  EXPECT_TRUE(resolve_gpu_aware(o, unknown, std::string("1")).aware);
  EXPECT_FALSE(resolve_gpu_aware(o, unknown, std::string("0")).aware);
  o.gpu_aware = GpuAwareMode::off;
  o.gpu_aware_source = "OPENPFC_ASSUME_GPU_AWARE_MPI";
  const GpuAwareness off = resolve_gpu_aware(o, yes, std::string("1"));
  EXPECT_FALSE(off.aware);
  EXPECT_EQ(off.reason, "OPENPFC_ASSUME_GPU_AWARE_MPI");
}

TEST(Transport, ChosenOncePerRun) {
  Options o;
  GpuAwareness aware{true, "test"};
  GpuAwareness staged{false, "test"};
  // Host: datatype, direct, or staged when GPU-aware MPI is switched off explicitly.
  EXPECT_EQ(choose_transport(o, aware).transport, Transport::datatype);
  EXPECT_EQ(choose_transport(o, aware).gpu_aware, "n/a");
  o.pack = PackMode::kernel;
  EXPECT_EQ(choose_transport(o, aware).transport, Transport::direct);
  o.gpu_aware = GpuAwareMode::off;
  EXPECT_EQ(choose_transport(o, staged).transport, Transport::staged);
  EXPECT_EQ(choose_transport(o, staged).gpu_aware, "0");
  // Device: direct when GPU-aware, staged otherwise; datatype needs GPU-aware MPI.
  o = Options{};
  o.backend = Backend::cuda;
  o.pack = PackMode::kernel;
  EXPECT_EQ(choose_transport(o, aware).transport, Transport::direct);
  EXPECT_EQ(choose_transport(o, aware).gpu_aware, "1");
  EXPECT_EQ(choose_transport(o, staged).transport, Transport::staged);
  o.pack = PackMode::datatype;
  EXPECT_FALSE(choose_transport(o, aware).error);
  const TransportChoice bad = choose_transport(o, staged);
  ASSERT_TRUE(bad.error);
  EXPECT_NE(bad.error->find("needs GPU-aware MPI"), std::string::npos);
}

TEST(Memory, NeedCountsFieldBuffersAndStaging) {
  const ProcGrid g({1, 1, 2});
  const RankPlan p = make_rank_plan(g, 16, 2, {true, true, true}, 0);  // 16x16x8, h = 2
  const std::uint64_t field = 20ull * 20 * 12 * 8;
  const MemoryNeed dt = memory_need(p, Transport::datatype, SelfMode::copy);
  EXPECT_EQ(dt.field, field);
  EXPECT_EQ(dt.buffers, 0u);
  EXPECT_EQ(dt.staging, 0u);
  const std::uint64_t z_faces = 2ull * 8 * 2 * 16 * 16;  // the two remote faces
  const MemoryNeed direct = memory_need(p, Transport::direct, SelfMode::copy);
  EXPECT_EQ(direct.buffers, 2 * z_faces);
  const std::uint64_t all_faces = z_faces + 4ull * 8 * 2 * 16 * 8;
  EXPECT_EQ(memory_need(p, Transport::direct, SelfMode::mpi).buffers, 2 * all_faces);
  const MemoryNeed staged = memory_need(p, Transport::staged, SelfMode::copy);
  EXPECT_EQ(staged.staging, 2 * z_faces);
  const MemoryNeed both = memory_need(p, Transport::datatype, SelfMode::copy, true, true);
  EXPECT_EQ(both.buffers, 2 * z_faces);  // breakdown buffers on the datatype transport
  EXPECT_EQ(both.limit, 2 * p.remote_bytes);
  EXPECT_EQ(both.in_field_space(), field + 2 * z_faces + 2 * z_faces);
  EXPECT_TRUE(host_available_bytes().has_value());
  EXPECT_EQ(gib(3ull << 30), "3.0 GiB");
}
