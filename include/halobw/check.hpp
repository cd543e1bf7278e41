// --check: fill the field with a function of the global coordinates, run one
// exchange, and verify every ghost cell of every selected face (corners and
// edges are not exchanged and not checked) and that no owned cell changed.
#pragma once

#include <fmt/format.h>
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "halobw/faces.hpp"
#include "halobw/kernels.hpp"

namespace halobw {

template <class Field, class ExecSpace>
void fill_field(const ExecSpace& exec, const Field& f, const RankPlan& p) {
  FillField<Field> fill{f,
                        {p.brick.offset[0], p.brick.offset[1], p.brick.offset[2]},
                        {p.brick.extent[0], p.brick.extent[1], p.brick.extent[2]},
                        p.halo,
                        p.n};
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for("halobw::fill", Policy(exec, {0, 0, 0}, {p.padded[0], p.padded[1], p.padded[2]}),
                       fill);
  exec.fence();
}

struct CheckOutcome {
  std::uint64_t ghost_cells = 0;       // ghost cells verified on this rank
  std::optional<std::string> failure;  // the first wrong cell
};

// Verifies a field after one exchange; `field` is any view (copied to the host here).
template <class Field>
CheckOutcome verify_field(const Field& field, const RankPlan& p) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
  CheckOutcome out;
  const std::int64_t n = p.n;
  const std::int64_t h = p.halo;
  auto wrong = [&](const std::string& where, std::int64_t i, std::int64_t j, std::int64_t k,
                   double expected) {
    out.failure = fmt::format("rank {} {} cell ({},{},{}) expected {} found {}", p.rank, where, i, j, k,
                              expected, host(i, j, k));
  };
  auto global = [&](int a, std::int64_t local) { return ((p.brick.offset[a] + local - h) % n + n) % n; };
  for (const Face& face : p.faces) {
    const Box& b = face.recv_box;
    for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
      for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
        for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) {
          const double expected = check_value(global(0, i), global(1, j), global(2, k), n);
          if (host(i, j, k) != expected && !out.failure) {
            wrong(fmt::format("face {} ghost (sent {} by rank {})", direction_name(face.dir ^ 1),
                              direction_name(face.dir), face.recv_peer),
                  i, j, k, expected);
          }
        }
      }
    }
    out.ghost_cells += static_cast<std::uint64_t>(b.cells());
  }
  for (std::int64_t k = h; k < h + p.brick.extent[2] && !out.failure; ++k) {
    for (std::int64_t j = h; j < h + p.brick.extent[1]; ++j) {
      for (std::int64_t i = h; i < h + p.brick.extent[0]; ++i) {
        const double expected = check_value(global(0, i), global(1, j), global(2, k), n);
        if (host(i, j, k) != expected && !out.failure) wrong("owned", i, j, k, expected);
      }
    }
  }
  return out;
}

}  // namespace halobw
