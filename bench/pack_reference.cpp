// References for the pack and unpack kernels and the stencil, timed without
// Kokkos or MPI: for rank 0's faces of a given layout, the time of one memcpy
// of the same bytes; of a plain strided loop copying each face box into a
// contiguous buffer (x fastest, the field's order) and back into the ghost
// cells, one face after another; for the x faces, of the same copies in one
// pass over their rows (both faces of a row, then the next row); and of a
// memcpy of the whole padded field (the memory-bound copy a stencil is held
// against). The field can be placed on 2 MiB transparent huge pages, as
// halo-bandwidth --hugepages on does. scripts/bench_host.py sets the
// kernels' and the stencil's times against these. Before it times the x
// faces' one-pass loop it checks that it moves the same values to the same
// places as the face-by-face loop, and exits 1 if not (ctest runs that check).
//
// Usage: halobw-pack-reference N GX,GY,GZ AXIS(x|y|z|all) HALO ITERS [HUGEPAGES(0|1)]
// Prints: faces bytes memcpy_us strided_pack_us strided_unpack_us field_copy_us field_bytes
//         onepass_pack_us onepass_unpack_us (nan unless AXIS is x)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/plan/pieces.hpp"
#include "reference.hpp"

using halobw::bench::seconds_per_call;

namespace {

// Whether the x faces' one-pass loop packs what the face-by-face loop packs,
// and unpacks a buffer into the same cells: distinct values in, bit for bit out.
bool same_moves(const halobw::RankPlan& p, double* field, double* copy, double* buffer, std::size_t count) {
  const std::size_t cells = p.field_values();
  for (std::size_t i = 0; i < cells; ++i) field[i] = copy[i] = static_cast<double>(i);
  halobw::bench::strided_walk(p, field, buffer, true);
  const std::vector<double> packed(buffer, buffer + count);
  std::fill(buffer, buffer + count, -1.0);
  halobw::bench::x_faces_walk<true>(p, field, buffer);
  if (!std::equal(packed.begin(), packed.end(), buffer)) return false;
  for (std::size_t i = 0; i < count; ++i) buffer[i] = -2.0 - static_cast<double>(i);
  halobw::bench::strided_walk(p, field, buffer, false);
  halobw::bench::x_faces_walk<false>(p, copy, buffer);
  return std::equal(field, field + cells, copy);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: %s N GX,GY,GZ x|y|z|all HALO ITERS [HUGEPAGES]\n", argv[0]);
    return 2;
  }
  const std::int64_t n = std::atoll(argv[1]);
  const auto dims = halobw::parse_grid(argv[2]);
  const std::string axis = argv[3];
  const int halo = std::atoi(argv[4]);
  const int iters = std::atoi(argv[5]);
  const bool huge = argc == 7 && std::atoi(argv[6]) != 0;
  if (!dims || n < 1 || halo < 1 || iters < 1) {
    std::fprintf(stderr, "bad arguments %s\n", dims ? "" : dims.failure().message.c_str());
    return 2;
  }
  const halobw::RankPlan p = halobw::bench::rank0_plan(n, halobw::ProcGrid(*dims), axis, halo);
  const std::size_t cells = p.field_values();
  const halobw::bench::Values field_values(cells, huge, 1.0);
  const halobw::bench::Values copy_values(cells, huge, 0.0);
  double* field = field_values.get();
  double* copy = copy_values.get();
  std::uint64_t bytes = 0;
  for (const auto& f : p.pieces) bytes += halobw::piece_bytes(f);
  const std::size_t count = bytes / sizeof(double);
  const halobw::bench::Values buffer_values(count, huge, 0.0);
  const halobw::bench::Values source_values(count, huge, 2.0);
  double* buffer = buffer_values.get();
  const double* source = source_values.get();

  const bool x = halobw::bench::x_faces(p);
  if (x && !same_moves(p, field, copy, buffer, count)) {
    std::fprintf(stderr, "the one-pass loop and the face-by-face loop move different values\n");
    return 1;
  }
  const double t_memcpy = seconds_per_call(iters, [&] { std::memcpy(buffer, source, bytes); });
  auto walk = [&](bool pack) { halobw::bench::strided_walk(p, field, buffer, pack); };
  const double t_pack = seconds_per_call(iters, [&] { walk(true); });
  const double t_unpack = seconds_per_call(iters, [&] { walk(false); });
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double t_row_pack =
      x ? seconds_per_call(iters, [&] { halobw::bench::x_faces_walk<true>(p, field, buffer); }) : nan;
  const double t_row_unpack =
      x ? seconds_per_call(iters, [&] { halobw::bench::x_faces_walk<false>(p, field, buffer); }) : nan;
  const double t_field =
      seconds_per_call(std::max(1, iters / 10), [&] { std::memcpy(copy, field, cells * sizeof(double)); });
  // Keep the copies observable.
  volatile double sink = buffer[count / 2] + copy[cells / 2] + field[cells / 3];
  (void)sink;
  std::printf("%zu %llu %.3f %.3f %.3f %.3f %llu %.3f %.3f\n", p.pieces.size(),
              static_cast<unsigned long long>(bytes), t_memcpy * 1e6, t_pack * 1e6, t_unpack * 1e6,
              t_field * 1e6, static_cast<unsigned long long>(cells) * sizeof(double), t_row_pack * 1e6,
              t_row_unpack * 1e6);
  return 0;
}
