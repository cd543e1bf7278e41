// References for the pack and unpack kernels, timed without Kokkos or MPI:
// for rank 0's selected faces of a given layout, the time of one memcpy of
// the same bytes, and of a plain strided loop copying each face box into a
// contiguous buffer (x fastest, the field's order). scripts/bench_host.py sets
// the pack kernels' times against these.
//
// Usage: halobw-pack-reference N GX,GY,GZ AXIS(x|y|z|all) HALO ITERS
// Prints: faces bytes memcpy_us strided_us
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "halobw/options.hpp"
#include "halobw/pieces.hpp"

namespace {

template <class F>
double seconds_per_call(int iters, F&& f) {
  f();  // warm-up
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s N GX,GY,GZ x|y|z|all HALO ITERS\n", argv[0]);
    return 2;
  }
  const std::int64_t n = std::atoll(argv[1]);
  const auto dims = halobw::parse_grid(argv[2]);
  const std::string axis = argv[3];
  const int halo = std::atoi(argv[4]);
  const int iters = std::atoi(argv[5]);
  if (!dims || n < 1 || halo < 1 || iters < 1) {
    std::fprintf(stderr, "bad arguments %s\n", dims ? "" : dims.failure().message.c_str());
    return 2;
  }
  const halobw::AxisSet axes{axis == "x" || axis == "all", axis == "y" || axis == "all",
                             axis == "z" || axis == "all"};
  halobw::Shape shape;
  shape.global = {n, n, n};
  shape.halo = halo;
  shape.dirs = halobw::star_directions(axes);
  const halobw::RankPlan p = halobw::make_rank_plan(halobw::ProcGrid(*dims), shape, 0);
  std::vector<double> field(static_cast<std::size_t>(p.padded[0] * p.padded[1] * p.padded[2]), 1.0);
  std::uint64_t bytes = 0;
  for (const auto& f : p.pieces) bytes += halobw::piece_bytes(f);
  std::vector<double> buffer(bytes / sizeof(double), 0.0);
  std::vector<double> source(buffer.size(), 2.0);

  const double t_memcpy = seconds_per_call(iters, [&] { std::memcpy(buffer.data(), source.data(), bytes); });
  const std::int64_t px = p.padded[0];
  const std::int64_t py = p.padded[1];
  const double t_strided = seconds_per_call(iters, [&] {
    double* out = buffer.data();
    for (const auto& f : p.pieces) {
      const halobw::Box& b = f.send_box;
      for (std::int64_t k = b.lo[2]; k < b.hi[2]; ++k) {
        for (std::int64_t j = b.lo[1]; j < b.hi[1]; ++j) {
          const double* row = field.data() + px * (j + py * k);
          for (std::int64_t i = b.lo[0]; i < b.hi[0]; ++i) *out++ = row[i];
        }
      }
    }
  });
  // Keep the copies observable.
  volatile double sink = buffer[buffer.size() / 2];
  (void)sink;
  std::printf("%zu %llu %.3f %.3f\n", p.pieces.size(), static_cast<unsigned long long>(bytes), t_memcpy * 1e6,
              t_strided * 1e6);
  return 0;
}
