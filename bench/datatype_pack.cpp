// The MPI library's datatype engine on the faces halo-bandwidth --pack
// datatype sends: for rank 0's faces of a given layout, MPI_Pack of each send
// box (box_datatype, the subarray the exchanger sends) into one contiguous
// buffer and MPI_Unpack back into the receive boxes, against the plain
// strided loop over the same boxes, in the same process. The four are timed
// in rounds, one after the other, and each figure is the median over the
// rounds. The datatype path moves a face no faster than the engine packs and
// unpacks it. scripts/bench_host.py runs two copies at once, as the two ranks
// of the x-face run share the machine. Before it times anything it
// checks that the engine and the loop move the same values to the same
// places, and exits 1 if they do not (ctest runs that check).
//
// Usage: halobw-datatype-pack N GX,GY,GZ AXIS(x|y|z|all) HALO ITERS HUGEPAGES(0|1)
// Prints: values engine_pack_us engine_unpack_us loop_pack_us loop_unpack_us
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "halobw/cli/options.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/platform/mpi.hpp"
#include "reference.hpp"

namespace {

// Whether `engine` and `loop` pack the same values in the same order, and
// unpack a buffer into the same cells: distinct values in, bit for bit out.
template <class Engine, class Loop>
bool same_moves(std::size_t cells, std::size_t count, double* field, double* buffer, Engine& engine,
                Loop& loop) {
  std::vector<double> packed(count);
  for (std::size_t i = 0; i < cells; ++i) field[i] = static_cast<double>(i);
  engine(true);
  std::copy(buffer, buffer + count, packed.begin());
  std::fill(buffer, buffer + count, -1.0);
  loop(true);
  bool same = std::equal(packed.begin(), packed.end(), buffer);
  std::vector<double> unpacked(cells);
  for (std::size_t i = 0; i < count; ++i) buffer[i] = -1.0 - static_cast<double>(i);
  engine(false);
  std::copy(field, field + cells, unpacked.begin());
  for (std::size_t i = 0; i < cells; ++i) field[i] = static_cast<double>(i);
  loop(false);
  same = same && std::equal(unpacked.begin(), unpacked.end(), field);
  std::fill(field, field + cells, 1.0);
  return same;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Checks, times and prints one layout (see the top); the datatypes are freed on return.
void measure(const halobw::RankPlan& p, int iters, bool huge) {
  std::uint64_t bytes = 0;
  for (const auto& f : p.pieces) bytes += halobw::piece_bytes(f);
  const std::size_t count = bytes / sizeof(double);
  const halobw::bench::Values field_values(p.field_values(), huge, 1.0);
  const halobw::bench::Values buffer_values(count, huge, 0.0);
  double* field = field_values.get();
  double* buffer = buffer_values.get();
  std::vector<halobw::Datatype> sends;
  std::vector<halobw::Datatype> recvs;
  for (const auto& f : p.pieces) {
    sends.push_back(halobw::box_datatype(p.padded, f.send_box));
    recvs.push_back(halobw::box_datatype(p.padded, f.recv_box));
  }
  const int size = static_cast<int>(bytes);
  auto engine = [&](bool pack) {
    int at = 0;
    for (std::size_t i = 0; i < sends.size(); ++i) {
      if (pack) {
        MPI_Pack(field, 1, sends[i].get(), buffer, size, &at, MPI_COMM_SELF);
      } else {
        MPI_Unpack(buffer, size, &at, field, 1, recvs[i].get(), MPI_COMM_SELF);
      }
    }
  };
  auto loop = [&](bool pack) { halobw::bench::strided_walk(p, field, buffer, pack); };
  if (!same_moves(p.field_values(), count, field, buffer, engine, loop)) {
    std::fprintf(stderr, "halobw-datatype-pack: MPI_Pack/MPI_Unpack and the strided loop disagree\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::vector<double> t[4];
  for (int round = 0; round < 5; ++round) {
    t[0].push_back(halobw::bench::seconds_per_call(iters, [&] { engine(true); }));
    t[2].push_back(halobw::bench::seconds_per_call(iters, [&] { loop(true); }));
    t[1].push_back(halobw::bench::seconds_per_call(iters, [&] { engine(false); }));
    t[3].push_back(halobw::bench::seconds_per_call(iters, [&] { loop(false); }));
  }
  volatile double sink = buffer[count / 2] + field[p.field_values() / 3];
  (void)sink;
  std::printf("%llu %.3f %.3f %.3f %.3f\n", static_cast<unsigned long long>(count), median(t[0]) * 1e6,
              median(t[1]) * 1e6, median(t[2]) * 1e6, median(t[3]) * 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s N GX,GY,GZ x|y|z|all HALO ITERS HUGEPAGES\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  const std::int64_t n = std::atoll(argv[1]);
  const auto dims = halobw::parse_grid(argv[2]);
  const int halo = std::atoi(argv[4]);
  const int iters = std::atoi(argv[5]);
  const bool huge = std::atoi(argv[6]) != 0;
  if (!dims || n < 1 || halo < 1 || iters < 1) {
    std::fprintf(stderr, "bad arguments %s\n", dims ? "" : dims.failure().message.c_str());
    MPI_Finalize();
    return 2;
  }
  measure(halobw::bench::rank0_plan(n, halobw::ProcGrid(*dims), argv[3], halo), iters, huge);
  MPI_Finalize();
  return 0;
}
