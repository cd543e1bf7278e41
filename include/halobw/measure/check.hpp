// --check: fill every field with a function of the global coordinates and
// the field's index, run one exchange, and verify every ghost cell of every
// exchanged piece (faces, and edges and corners where they are exchanged) of
// every field, and that no owned cell changed.
#pragma once

#include <fmt/format.h>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "halobw/exchange/kernels.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

template <class ExecSpace, class Field>
void fill_fields(const ExecSpace& exec, const std::vector<Field>& fields, const RankPlan& p) {
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<std::int64_t>>;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    FillField<Field> fill{fields[k],
                          {p.brick.offset[0], p.brick.offset[1], p.brick.offset[2]},
                          {p.brick.extent[0], p.brick.extent[1], p.brick.extent[2]},
                          {p.global[0], p.global[1], p.global[2]},
                          p.halo,
                          static_cast<std::int64_t>(fields.size()),
                          static_cast<std::int64_t>(k)};
    Kokkos::parallel_for("halobw::fill", Policy(exec, {0, 0, 0}, {p.padded[0], p.padded[1], p.padded[2]}),
                         fill);
  }
  exec.fence();
}

struct CheckOutcome {
  std::uint64_t ghost_cells = 0;       // ghost cells verified on this rank, every field
  std::optional<std::string> failure;  // the first wrong cell
};

// Verifies fields after one exchange; each is any view (copied to the host here).
template <class Field>
CheckOutcome verify_fields(const std::vector<Field>& fields, const RankPlan& p) {
  CheckOutcome out;
  const std::int64_t h = p.halo;
  const auto nfields = static_cast<std::int64_t>(fields.size());
  auto global = [&](int a, std::int64_t local) {
    const std::int64_t n = p.global[a];
    return ((p.brick.offset[a] + local - h) % n + n) % n;
  };
  for (std::size_t k = 0; k < fields.size(); ++k) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[k]);
    const std::string field = nfields > 1 ? fmt::format("field {} ", k) : std::string();
    auto expected = [&](std::int64_t i, std::int64_t j, std::int64_t kk) {
      return check_value(global(0, i), global(1, j), global(2, kk), p.global[0], p.global[1], nfields,
                         static_cast<std::int64_t>(k));
    };
    auto wrong = [&](const std::string& where, std::int64_t i, std::int64_t j, std::int64_t kk) {
      out.failure = fmt::format("rank {} {}{} cell ({},{},{}) expected {} found {}", p.rank, field, where, i,
                                j, kk, expected(i, j, kk), host(i, j, kk));
    };
    for (const Piece& piece : p.pieces) {
      const Box& b = piece.recv_box;
      for (std::int64_t kk = b.lo[2]; kk < b.hi[2] && !out.failure; ++kk) {
        for (std::int64_t j = b.lo[1]; j < b.hi[1] && !out.failure; ++j) {
          for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) {
            if (host(i, j, kk) != expected(i, j, kk)) {
              wrong(fmt::format("{} {} ghost (sent {} by rank {})", kind_name(piece.kind()),
                                direction_name(opposite(piece.dir)), direction_name(piece.dir),
                                piece.recv_peer),
                    i, j, kk);
              break;
            }
          }
        }
      }
      out.ghost_cells += static_cast<std::uint64_t>(b.cells());
    }
    for (std::int64_t kk = h; kk < h + p.brick.extent[2] && !out.failure; ++kk) {
      for (std::int64_t j = h; j < h + p.brick.extent[1] && !out.failure; ++j) {
        for (std::int64_t i = h; i < h + p.brick.extent[0]; ++i) {
          if (host(i, j, kk) != expected(i, j, kk)) {
            wrong("owned", i, j, kk);
            break;
          }
        }
      }
    }
  }
  return out;
}

}  // namespace halobw
