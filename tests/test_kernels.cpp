// The two mappings of the copy plan, cell by cell, on the host: the one
// pass over the lines that the host runs (CopyList::run, LinePass) against the
// per-piece copy (FusedCopy, each box's cells on their own: the mapping every
// GPU runs, through a host RangePolicy), on every list of the plan (all at
// once, per stage, the self copies), on x, y and z faces, edges and corners,
// halo 1 to 3, even and uneven splits, one and three fields in one or
// separate messages, self pieces copied and sent. And the 32-bit cell index
// against the 64-bit one it replaced.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
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
  Memory(const RankPlan& plan, const MessageTable& table, double seed)
      : fields(static_cast<std::size_t>(plan.fields), std::vector<double>(plan.field_values())),
        send(table.buffer_values),
        recv(table.buffer_values) {
    fill(seed);
  }
  // New values in place (the plans hold the addresses).
  void fill(double seed) {
    for (std::size_t f = 0; f < fields.size(); ++f) {
      for (std::size_t i = 0; i < fields[f].size(); ++i)
        fields[f][i] = seed + static_cast<double>(f) * 1e7 + static_cast<double>(i);
    }
    std::fill(send.begin(), send.end(), -1.0);
    for (std::size_t i = 0; i < recv.size(); ++i) recv[i] = -seed - static_cast<double>(i);
  }
  CopyTargets targets() {
    CopyTargets t;
    for (auto& f : fields) t.fields.push_back(f.data());
    t.send = send.data();
    t.recv = recv.data();
    return t;
  }
};

// Where two memories first differ ("" if nowhere): the array and the index.
std::string first_difference(const Memory& a, const Memory& b) {
  auto where = [](const std::vector<double>& x, const std::vector<double>& y, const std::string& name) {
    const auto d = std::mismatch(x.begin(), x.end(), y.begin());
    return d.first == x.end() ? std::string()
                              : name + " value " + std::to_string(d.first - x.begin()) + ": " +
                                    std::to_string(*d.first) + " against " + std::to_string(*d.second);
  };
  for (std::size_t f = 0; f < a.fields.size(); ++f) {
    const std::string d = where(a.fields[f], b.fields[f], "field " + std::to_string(f));
    if (!d.empty()) return d;
  }
  const std::string d = where(a.send, b.send, "send buffer");
  return d.empty() ? where(a.recv, b.recv, "receive buffer") : d;
}

// Every message in exactly one stage, and the stage index of each unpacked one.
template <class Stages>
bool stages_partition(const Stages& stages, std::size_t messages) {
  std::vector<int> seen;
  for (const auto& s : stages) seen.insert(seen.end(), s.messages.begin(), s.messages.end());
  std::sort(seen.begin(), seen.end());
  for (std::size_t m = 0; m < seen.size(); ++m) {
    if (seen[m] != static_cast<int>(m)) return false;
  }
  return seen.size() == messages;
}

// One rank's plan: every list run by both mappings, in the order an exchange
// runs them; after each, the two memories agree value for value.
void compare_mappings(const RankPlan& plan, const MessageTable& table, const std::string& where) {
  // At a wall a message is received but not sent: its part of the send buffer stays unpacked.
  bool walls = false;
  for (const Piece& p : plan.pieces) walls = walls || !p.sends();
  Memory one(plan, table, 1.0);
  Memory piece(plan, table, 1.0);
  const Plan a = make_copy_plan<Exec, Kokkos::HostSpace>(plan, table, one.targets(), true);
  const Plan b = make_copy_plan<Exec, Kokkos::HostSpace>(plan, table, piece.targets(), true);
  ASSERT_TRUE(stages_partition(a.pack, table.messages.size())) << where;
  ASSERT_TRUE(stages_partition(a.unpack, table.messages.size())) << where;
  a.pack_all.run(Exec(), "one pass");
  run_fused(b.pack_all);
  Kokkos::fence();
  ASSERT_EQ(first_difference(one, piece), "") << "pack_all " << where;
  for (double v : one.send) ASSERT_TRUE(walls || v != -1.0) << "a buffer value no piece packs: " << where;
  one.fill(2.0);
  piece.fill(2.0);
  for (std::size_t s = 0; s < a.pack.size(); ++s) {
    a.pack[s].copy.run(Exec(), "one pass");
    run_fused(b.pack[s].copy);
    Kokkos::fence();
    ASSERT_EQ(first_difference(one, piece), "") << "pack stage " << s << " " << where;
  }
  for (double v : one.send) ASSERT_TRUE(walls || v != -1.0) << "a buffer value no stage packs: " << where;
  a.unpack_all.run(Exec(), "one pass");
  run_fused(b.unpack_all);
  Kokkos::fence();
  ASSERT_EQ(first_difference(one, piece), "") << "unpack_all " << where;
  one.fill(5.0);  // the ghosts unwritten again, other values in the buffers
  piece.fill(5.0);
  for (std::size_t s = 0; s < a.unpack.size(); ++s) {
    a.unpack[s].copy.run(Exec(), "one pass");
    run_fused(b.unpack[s].copy);
    Kokkos::fence();
    ASSERT_EQ(first_difference(one, piece), "") << "unpack stage " << s << " " << where;
  }
  a.self.run(Exec(), "one pass");
  run_fused(b.self);
  Kokkos::fence();
  ASSERT_EQ(first_difference(one, piece), "") << "self " << where;
}

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

namespace {

// Every rank of every grid and size: both stencils, halo min_halo to max_halo, one
// and three fields in one or separate messages, self pieces copied and sent;
// periodic along the axes `periodic` names, walls along the others.
int compare_all(const std::vector<Dims3>& grids, const std::vector<std::int64_t>& sizes, int max_halo = 3,
                AxisSet periodic = {true, true, true}, int min_halo = 1) {
  int cases = 0;
  for (const Dims3& dims : grids) {
    const ProcGrid grid(dims);
    for (const std::int64_t n : sizes) {
      for (int h = min_halo; h <= max_halo; ++h) {
        bool fits = true;
        for (int a = 0; a < 3; ++a) fits = fits && n / dims[a] >= h;
        if (!fits) continue;
        for (const bool box : {false, true}) {
          for (const auto& pair : {std::pair<int, Messages>{1, Messages::peer},
                                   {1, Messages::aggregated},
                                   {3, Messages::peer},
                                   {3, Messages::aggregated},
                                   {3, Messages::separate}}) {
            for (const SelfMode self : {SelfMode::copy, SelfMode::mpi}) {
              Shape shape;
              shape.global = {n, n, n};
              shape.halo = h;
              shape.dirs = box ? box_directions() : star_directions({true, true, true});
              shape.fields = pair.first;
              shape.periodic = periodic;
              for (int rank = 0; rank < grid.size(); ++rank) {
                const RankPlan plan = make_rank_plan(grid, shape, rank);
                const MessageTable table = make_message_table(plan, self, pair.second);
                compare_mappings(plan, table,
                                 "grid " + grid.str() + " N " + std::to_string(n) + " h " +
                                     std::to_string(h) + (box ? " box" : " star") + " fields " +
                                     std::to_string(pair.first) + " " + to_string(pair.second) + " self " +
                                     to_string(self) + " rank " + std::to_string(rank));
                if (::testing::Test::HasFatalFailure()) return cases;
                ++cases;
              }
            }
          }
        }
      }
    }
  }
  return cases;
}

}  // namespace

TEST(Kernels, OnePassMatchesPerPieceCellByCell) {
  // 12 splits evenly on every grid, 13 unevenly on each split axis.
  EXPECT_GT(
      compare_all({{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {2, 2, 1}, {2, 2, 2}, {3, 1, 2}}, {12, 13}),
      1000);
}

// Bands of more lines than one work item takes (LinePass::kLinesPerRun), split into runs.
TEST(Kernels, OnePassSplitsLongBands) {
  static_assert(LinePass::kLinesPerRun < 65);
  EXPECT_GT(compare_all({{2, 1, 1}}, {65}), 50);  // uneven: 33 and 32 cells along x
}

// The lines of one or two x-face segments of up to kShortCells cells have a
// loop of their own (LineRun::short_cells): every width it serves and the one
// above, both x faces (periodic: packed buffers, and the self copy's field on
// the other side) and one alone (the rank at a wall along x).
TEST(Kernels, OnePassShortLinesMatchPerPiece) {
  static_assert(kShortCells == 4);
  // Periodic x: widths 1 to 3 are OnePassMatchesPerPieceCellByCell's, on the same grids.
  EXPECT_GT(compare_all({{1, 1, 1}, {2, 1, 1}, {3, 1, 2}}, {11, 16}, kShortCells + 1, {true, true, true}, 4),
            100);
  EXPECT_GT(compare_all({{2, 1, 1}, {3, 1, 2}}, {11, 16}, kShortCells + 1, {false, true, true}), 100);
}
