#include "halobw/report.hpp"

#include <fmt/format.h>

#include <array>

namespace halobw {

std::string format_header(const HeaderInfo& h) {
  std::string out;
  out += fmt::format("# halo-bandwidth {}\n", h.version);
  out += fmt::format("# backend {} device {}\n", h.backend, h.device);
  out += fmt::format("# ranks {} nodes {} grid {} directions {} halo {} iters {} warmup {}\n",
                     h.ranks, h.nodes, h.grid, h.directions, h.halo, h.iters, h.warmup);
  out += fmt::format("# pack {} self {}\n", h.pack, h.self);
  out += fmt::format("# gpu_aware {} contiguous {}\n", h.gpu_aware, h.contiguous ? 1 : 0);
  out += "# rank_device";
  for (std::size_t r = 0; r < h.rank_device.size(); ++r) out += fmt::format(" {}:{}", r, h.rank_device[r]);
  out += "\n# rank_host";
  for (std::size_t r = 0; r < h.rank_host.size(); ++r) out += fmt::format(" {}:{}", r, h.rank_host[r]);
  out += fmt::format("\n# grid_source {} transport {}\n", h.grid_source, h.transport);
  out += "# Uni_GBps = remote send bytes / time / 1e9; Duplex_GBps = 2 * Uni_GBps\n";
  for (const auto& note : h.notes) out += "# " + note + "\n";
  return out;
}

std::string format_columns(bool send_min) {
  std::string s = "# N Send_B Time_us Uni_GBps Duplex_GBps RemoteFaces SelfFaces OffNodeFaces";
  if (send_min) s += " Send_min_B";
  return s + "\n";
}

double uni_gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0.0 ? static_cast<double>(bytes) / seconds / 1.0e9 : 0.0;
}

std::string format_row(const Row& row, bool send_min) {
  const double uni = uni_gbps(row.send_max, row.seconds);
  std::string s = fmt::format("{} {} {:.1f} {:.3f} {:.3f} {} {} {}", row.n, row.send_max,
                              row.seconds * 1.0e6, uni, 2.0 * uni, row.remote_faces,
                              row.self_faces, row.offnode_faces);
  if (send_min) s += fmt::format(" {}", row.send_min);
  return s + "\n";
}

Row reduce_row(const Comm& comm, std::int64_t n, const RankFigures& mine) {
  Row row;
  row.n = n;
  const MPI_Comm c = comm.get();
  check_mpi(MPI_Allreduce(&mine.seconds, &row.seconds, 1, MPI_DOUBLE, MPI_MAX, c), "MPI_Allreduce");
  const auto bytes = static_cast<unsigned long long>(mine.remote_bytes);
  unsigned long long lo = 0;
  unsigned long long hi = 0;
  check_mpi(MPI_Allreduce(&bytes, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, c), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(&bytes, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c), "MPI_Allreduce");
  row.send_min = lo;
  row.send_max = hi;
  const std::array<int, 3> counts{mine.remote_faces, mine.self_faces, mine.offnode_faces};
  std::array<int, 3> maxima{};
  check_mpi(MPI_Allreduce(counts.data(), maxima.data(), 3, MPI_INT, MPI_MAX, c), "MPI_Allreduce");
  row.remote_faces = maxima[0];
  row.self_faces = maxima[1];
  row.offnode_faces = maxima[2];
  return row;
}

}  // namespace halobw
