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

// The first cell of box `b` whose value in `host` is not `want(i, j, k)`.
template <class Host, class Want>
std::optional<Index3> first_wrong(const Host& host, const Box& b, const Want& want) {
  for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
    for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
      for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) {
        if (host(i, j, k) != want(i, j, k)) return Index3{i, j, k};
      }
    }
  }
  return std::nullopt;
}

// Where a ghost piece's cells come from, for the failure line.
inline std::string ghost_name(const Piece& piece) {
  if (!piece.receives()) {
    return fmt::format("{} {} ghost at a wall (left untouched)", kind_name(piece.kind()),
                       direction_name(opposite(piece.dir)));
  }
  return fmt::format("{} {} ghost (sent {} by rank {})", kind_name(piece.kind()),
                     direction_name(opposite(piece.dir)), direction_name(piece.dir), piece.recv_peer);
}

// Verifies fields after one exchange; each is any view (copied to the host
// here). Ghost cells at a wall are filled by nobody: they keep the fill's sentinel.
template <class Field>
CheckOutcome verify_fields(const std::vector<Field>& fields, const RankPlan& p) {
  CheckOutcome out;
  const std::int64_t h = p.halo;
  const auto nfields = static_cast<std::int64_t>(fields.size());
  auto global = [&](int a, std::int64_t local) {
    const std::int64_t n = p.global[a];
    return ((p.brick.offset[a] + local - h) % n + n) % n;
  };
  Box owned;
  for (int a = 0; a < 3; ++a) owned.lo[a] = h, owned.hi[a] = h + p.brick.extent[a];
  for (std::size_t k = 0; k < fields.size() && !out.failure; ++k) {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[k]);
    auto expected = [&](std::int64_t i, std::int64_t j, std::int64_t kk) {
      return check_value(global(0, i), global(1, j), global(2, kk), p.global[0], p.global[1], nfields,
                         static_cast<std::int64_t>(k));
    };
    auto report = [&](const std::string& where, const Index3& c, double want) {
      out.failure = fmt::format("rank {} {}{} cell ({},{},{}) expected {} found {}", p.rank,
                                nfields > 1 ? fmt::format("field {} ", k) : std::string(), where, c[0], c[1],
                                c[2], want, host(c[0], c[1], c[2]));
    };
    for (const Piece& piece : p.pieces) {
      auto want = [&](std::int64_t i, std::int64_t j, std::int64_t kk) {
        return piece.receives() ? expected(i, j, kk) : kGhostSentinel;
      };
      out.ghost_cells += static_cast<std::uint64_t>(piece.recv_box.cells());
      if (out.failure) continue;
      if (const auto c = first_wrong(host, piece.recv_box, want))
        report(ghost_name(piece), *c, want((*c)[0], (*c)[1], (*c)[2]));
    }
    if (out.failure) break;
    if (const auto c = first_wrong(host, owned, expected))
      report("owned", *c, expected((*c)[0], (*c)[1], (*c)[2]));
  }
  return out;
}

}  // namespace halobw
