#include <gtest/gtest.h>

#include "halobw/exchange/transport.hpp"
#include "halobw/plan/memory.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/platform/device.hpp"
#include "halobw/platform/process.hpp"

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
  EXPECT_EQ(choose_transport(o, aware)->transport, Transport::datatype);
  EXPECT_EQ(choose_transport(o, aware)->gpu_aware, "n/a");
  o.pack = PackMode::kernel;
  EXPECT_EQ(choose_transport(o, aware)->transport, Transport::direct);
  o.gpu_aware = GpuAwareMode::off;
  EXPECT_EQ(choose_transport(o, staged)->transport, Transport::staged);
  EXPECT_EQ(choose_transport(o, staged)->gpu_aware, "0");
  // Device: direct when GPU-aware, staged otherwise; datatype needs GPU-aware MPI.
  o = Options{};
  o.backend = Backend::cuda;
  o.pack = PackMode::kernel;
  EXPECT_EQ(choose_transport(o, aware)->transport, Transport::direct);
  EXPECT_EQ(choose_transport(o, aware)->gpu_aware, "1");
  EXPECT_EQ(choose_transport(o, staged)->transport, Transport::staged);
  o.pack = PackMode::datatype;
  EXPECT_TRUE(choose_transport(o, aware).ok());
  const auto bad = choose_transport(o, staged);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.failure().code, ExitCode::bad_input);
  EXPECT_NE(bad.failure().message.find("needs GPU-aware MPI"), std::string::npos);
}

// Whether a simulator runs the ranks, as Process tells it from the MPI
// library's own description (SimGrid 3.32's, and the two real libraries').
TEST(Process, TellsASimulatorFromAnMpiLibrary) {
  const auto smpi = Process::simulation_of("SMPI Version 3.32. Copyright The SimGrid Team 2007-2022");
  ASSERT_TRUE(smpi.has_value());
  EXPECT_EQ(smpi->engine, "SimGrid SMPI");
  EXPECT_EQ(smpi->version, "3.32");
  EXPECT_EQ(smpi->name(), "SimGrid SMPI 3.32");
  EXPECT_EQ(Process::simulation_of("SMPI Version 3.36.1 ...")->version, "3.36");
  EXPECT_FALSE(Process::simulation_of("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4"));
  EXPECT_FALSE(Process::simulation_of("MPICH Version:      4.0.2"));
  // This build's library is a real one: not simulated, and the cores are this machine's.
  EXPECT_FALSE(Process::simulation().has_value());
  EXPECT_GE(Process::cores(), 1);
}

TEST(Memory, NeedCountsFieldBuffersAndStaging) {
  const ProcGrid g({1, 1, 2});
  Shape shape;
  shape.global = {16, 16, 16};
  shape.halo = 2;
  shape.dirs = star_directions({true, true, true});
  const RankPlan p = make_rank_plan(g, shape, 0);  // 16x16x8, h = 2
  const MessageTable copy = make_message_table(p, SelfMode::copy);
  const MessageTable mpi = make_message_table(p, SelfMode::mpi);
  const std::uint64_t field = 20ull * 20 * 12 * 8;
  MemoryUse use;
  const MemoryNeed dt = memory_need(p, copy, use);
  EXPECT_EQ(dt.fields, field);
  EXPECT_EQ(dt.buffers, 0u);
  EXPECT_EQ(dt.staging, 0u);
  const std::uint64_t z_faces = 2ull * 8 * 2 * 16 * 16;  // the two remote faces
  use.transport = Transport::direct;
  const MemoryNeed direct = memory_need(p, copy, use);
  EXPECT_EQ(direct.buffers, 2 * z_faces);
  const std::uint64_t all_faces = z_faces + 4ull * 8 * 2 * 16 * 8;
  EXPECT_EQ(memory_need(p, mpi, use).buffers, 2 * all_faces);
  use.transport = Transport::staged;
  EXPECT_EQ(memory_need(p, copy, use).staging, 2 * z_faces);
  use.transport = Transport::datatype;
  use.breakdown = use.limit = true;
  const MemoryNeed both = memory_need(p, copy, use);
  EXPECT_EQ(both.buffers, 2 * z_faces);  // breakdown buffers on the datatype transport
  EXPECT_EQ(both.limit, 2 * p.remote_bytes);
  EXPECT_EQ(both.peer, 0u);  // host: no peer copy
  EXPECT_EQ(both.in_field_space(), field + 2 * z_faces + 2 * z_faces);
  // On a device the peer buffers hold the busiest sender's bytes, and --check mirrors the field.
  use.device = use.check = true;
  use.send_max = 3 * p.remote_bytes;
  const MemoryNeed dev = memory_need(p, copy, use);
  EXPECT_EQ(dev.peer, 2 * 3 * p.remote_bytes);
  EXPECT_EQ(dev.mirror, field);
  EXPECT_EQ(dev.on_host(), dev.mirror);
  // Three fields: three bricks.
  shape.fields = 3;
  const RankPlan three = make_rank_plan(g, shape, 0);
  EXPECT_EQ(memory_need(three, make_message_table(three, SelfMode::copy), MemoryUse{}).fields, 3 * field);
  EXPECT_TRUE(Process::host_available_bytes().has_value());
  EXPECT_EQ(bytes_text(3ull << 30), "3.0 GiB");
  EXPECT_EQ(bytes_text(1023), "1023 B");
  EXPECT_EQ(bytes_text(1536), "1.5 KiB");
  EXPECT_EQ(bytes_text(100ull << 20), "100.0 MiB");
  EXPECT_EQ(bytes_text(5ull << 40), "5.0 TiB");
}
