// References for the pack and unpack kernels and the stencil, timed without
// Kokkos or MPI: for rank 0's faces of a given layout, the time of one memcpy
// of the same bytes; of a plain strided loop copying each face box into a
// contiguous buffer (x fastest, the field's order) and back into the ghost
// cells; and of a memcpy of the whole padded field (the memory-bound copy a
// stencil is held against). The field can be placed on 2 MiB transparent
// huge pages, as halo-bandwidth --hugepages on does. scripts/bench_host.py
// sets the kernels' and the stencil's times against these.
//
// Usage: halobw-pack-reference N GX,GY,GZ AXIS(x|y|z|all) HALO ITERS [HUGEPAGES(0|1)]
// Prints: faces bytes memcpy_us strided_pack_us strided_unpack_us field_copy_us field_bytes
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "halobw/cli/options.hpp"
#include "halobw/plan/pieces.hpp"
#include "reference.hpp"

using halobw::bench::seconds_per_call;

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

  const double t_memcpy = seconds_per_call(iters, [&] { std::memcpy(buffer, source, bytes); });
  auto walk = [&](bool pack) { halobw::bench::strided_walk(p, field, buffer, pack); };
  const double t_pack = seconds_per_call(iters, [&] { walk(true); });
  const double t_unpack = seconds_per_call(iters, [&] { walk(false); });
  const double t_field =
      seconds_per_call(std::max(1, iters / 10), [&] { std::memcpy(copy, field, cells * sizeof(double)); });
  // Keep the copies observable.
  volatile double sink = buffer[count / 2] + copy[cells / 2] + field[cells / 3];
  (void)sink;
  std::printf("%zu %llu %.3f %.3f %.3f %.3f %llu\n", p.pieces.size(), static_cast<unsigned long long>(bytes),
              t_memcpy * 1e6, t_pack * 1e6, t_unpack * 1e6, t_field * 1e6,
              static_cast<unsigned long long>(cells) * sizeof(double));
  return 0;
}
