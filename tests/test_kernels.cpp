// The device kernels, run on the host: the fused copy (the mapping every GPU
// runs) through a host RangePolicy over every list of the copy plan, against
// the host's row copies of the same lists, cell for cell, on x, y and z
// faces, edges and corners, halo 1 to 3, even and uneven splits, one and two
// fields, self pieces copied and sent. And the 32-bit cell index against the
// 64-bit one it replaced.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/exchange/copy_plan.hpp"
#include "halobw/exchange/kernels.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"

using namespace halobw;
using Exec = Kokkos::DefaultHostExecutionSpace;
using Plan = CopyPlan<Exec, Kokkos::HostSpace>;

namespace {

// The device mapping of `list` (FusedCopy), run on the host.
void run_fused(const CopyList<Exec, Kokkos::HostSpace>& list) {
  if (list.jobs().empty()) return;
  Kokkos::View<CopyJob*, Kokkos::HostSpace> jobs("jobs", list.jobs().size());
  for (std::size_t n = 0; n < list.jobs().size(); ++n) jobs(n) = list.jobs()[n];
  Kokkos::parallel_for("fused", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, list.cells()),
                       FusedCopy<decltype(jobs)>{jobs, static_cast<int>(list.jobs().size())});
  Kokkos::fence();
}

// Two copies of one rank's memory, one for each mapping, with distinct values everywhere.
struct Memory {
  std::vector<std::vector<double>> fields;
  std::vector<double> send;
  std::vector<double> recv;
  Memory(const RankPlan& plan, const MessageTable& table, double seed) {
    for (int f = 0; f < plan.fields; ++f) {
      fields.emplace_back(plan.field_values());
      for (std::size_t i = 0; i < fields.back().size(); ++i)
        fields.back()[i] = seed + f * 1e7 + static_cast<double>(i);
    }
    send.assign(table.buffer_values, -1.0);
    recv.resize(table.buffer_values);
    for (std::size_t i = 0; i < recv.size(); ++i) recv[i] = -2.0 - static_cast<double>(i);
  }
  CopyTargets targets() {
    CopyTargets t;
    for (auto& f : fields) t.fields.push_back(f.data());
    t.send = send.data();
    t.recv = recv.data();
    return t;
  }
  bool operator==(const Memory& o) const { return fields == o.fields && send == o.send && recv == o.recv; }
};

std::uint64_t reference_mismatches(std::uint32_t ex, std::uint32_t ey, std::uint32_t cells) {
  std::uint64_t wrong = 0;
  for (std::uint32_t c = 0; c < cells; ++c) {
    const auto t = static_cast<std::int64_t>(c);  // the 64-bit mapping the device kernel used before
    const std::int64_t i = t % ex;
    const std::int64_t r = t / ex;
    const std::int64_t j = r % ey;
    const std::int64_t k = r / ey;
    const Cell3 got = cell_of(c, ex, ey);
    wrong += got.i != i || got.j != j || got.k != k;
  }
  return wrong;
}

}  // namespace

TEST(Kernels, CellIndexIn32BitsAgreesWith64) {
  for (std::uint32_t ex : {1u, 2u, 3u, 7u, 64u, 257u}) {
    for (std::uint32_t ey : {1u, 2u, 5u, 33u}) {
      EXPECT_EQ(reference_mismatches(ex, ey, ex * ey * 7), 0u) << ex << "x" << ey;
    }
  }
  // Near the top of the 32-bit range (a face of 2^31 values of one field).
  const std::uint32_t ex = 4096;
  const std::uint32_t ey = 4096;
  for (std::uint32_t c : {0u, ex - 1, ex, ex * ey - 1, ex * ey, 0xFFFFFFFEu, 0xFFFFFFFFu}) {
    const Cell3 got = cell_of(c, ex, ey);
    EXPECT_EQ(std::uint64_t{got.i} + ex * (std::uint64_t{got.j} + ey * std::uint64_t{got.k}), c) << c;
    EXPECT_LT(got.i, ex);
    EXPECT_LT(got.j, ey);
  }
}

TEST(Kernels, FusedCopyMatchesRowCopyOnEveryList) {
  int cases = 0;
  const std::vector<Dims3> grids{{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {2, 2, 2}, {3, 1, 2}};
  for (const Dims3& dims : grids) {
    const ProcGrid grid(dims);
    for (const std::int64_t n : {11, 12, 13}) {
      for (int h = 1; h <= 3; ++h) {
        bool fits = true;
        for (int a = 0; a < 3; ++a) fits = fits && n / dims[a] >= h;
        if (!fits) continue;
        for (const bool box : {false, true}) {
          for (const int fields : {1, 2}) {
            for (const SelfMode self : {SelfMode::copy, SelfMode::mpi}) {
              Shape shape;
              shape.global = {n, n, n};
              shape.halo = h;
              shape.dirs = box ? box_directions() : star_directions({true, true, true});
              shape.fields = fields;
              for (int rank = 0; rank < grid.size(); ++rank) {
                const RankPlan plan = make_rank_plan(grid, shape, rank);
                const MessageTable table = make_message_table(plan, self);
                Memory rows(plan, table, 1.0);
                Memory fused(plan, table, 1.0);
                const Plan a = make_copy_plan<Exec, Kokkos::HostSpace>(plan, table, rows.targets(), true);
                const Plan b = make_copy_plan<Exec, Kokkos::HostSpace>(plan, table, fused.targets(), true);
                const std::string where = "grid " + grid.str() + " N " + std::to_string(n) + " h " +
                                          std::to_string(h) + (box ? " box" : " star") + " fields " +
                                          std::to_string(fields) + " self " + to_string(self) + " rank " +
                                          std::to_string(rank);
                // Every list, in the order an exchange runs them; after each, both memories agree.
                a.pack_all.run(Exec(), "rows");
                run_fused(b.pack_all);
                ASSERT_TRUE(rows == fused) << "pack_all " << where;
                for (std::size_t m = 0; m < a.pack.size(); ++m) {
                  a.pack[m].run(Exec(), "rows");
                  run_fused(b.pack[m]);
                  a.unpack[m].run(Exec(), "rows");
                  run_fused(b.unpack[m]);
                }
                ASSERT_TRUE(rows == fused) << "per message " << where;
                a.unpack_all.run(Exec(), "rows");
                run_fused(b.unpack_all);
                a.self.run(Exec(), "rows");
                run_fused(b.self);
                Kokkos::fence();
                ASSERT_TRUE(rows == fused) << "unpack_all and self " << where;
                // The lists cover exactly the pieces: the packed buffer is all written.
                for (double v : rows.send) ASSERT_NE(v, -1.0) << where;
                ++cases;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 500);
}
