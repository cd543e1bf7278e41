#include "halobw/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace halobw {

std::string format_header(const HeaderInfo& h) {
  std::string out;
  out += fmt::format("# halo-bandwidth {}\n", h.version);
  out += fmt::format("# backend {} device {}\n", h.backend, h.device);
  out += fmt::format("# ranks {} nodes {} grid {} directions {} halo {} iters {} warmup {}\n", h.ranks,
                     h.nodes, h.grid, h.directions, h.halo, h.iters, h.warmup);
  out += fmt::format("# pack {} self {}\n", h.pack, h.self);
  out += fmt::format("# gpu_aware {} contiguous {}\n", h.gpu_aware, h.contiguous ? 1 : 0);
  out += "# rank_device";
  for (std::size_t r = 0; r < h.rank_device.size(); ++r) out += fmt::format(" {}:{}", r, h.rank_device[r]);
  out += "\n# rank_host";
  for (std::size_t r = 0; r < h.rank_host.size(); ++r) out += fmt::format(" {}:{}", r, h.rank_host[r]);
  out += fmt::format("\n# grid_source {} transport {} schedule {}\n", h.grid_source, h.transport, h.schedule);
  out += fmt::format("# {}\n", kRateDefinition);
  for (const auto& note : h.notes) out += "# " + note + "\n";
  return out;
}

double uni_gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0.0 ? static_cast<double>(bytes) / seconds / 1.0e9 : 0.0;
}

std::optional<double> efficiency(const Row& row) {
  if (!row.phases || row.send_max == 0 || row.seconds <= 0.0) return std::nullopt;
  return row.phases->xfer / row.seconds;  // (Send/T) / (Send/Xfer)
}

Spread spread(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  s.median = n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  s.min = values.front();
  s.max = values.back();
  return s;
}

double reduce_max(const Comm& comm, double mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  double slowest = 0;
  check_mpi(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm.get()), "MPI_Allreduce");
  return slowest;
}

Row reduce_row(const Comm& comm, std::int64_t n, const RankFigures& mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  Row row;
  row.n = n;
  const MPI_Comm c = comm.get();
  std::vector<double> slowest(mine.seconds.size());
  check_mpi(MPI_Allreduce(mine.seconds.data(), slowest.data(), static_cast<int>(slowest.size()), MPI_DOUBLE,
                          MPI_MAX, c),
            "MPI_Allreduce");
  const Spread s = spread(slowest);
  row.seconds = s.median;
  if (slowest.size() > 1) {
    row.min_seconds = s.min;
    row.max_seconds = s.max;
  }
  const auto bytes = static_cast<unsigned long long>(mine.remote_bytes);
  unsigned long long lo = 0;
  unsigned long long hi = 0;
  check_mpi(MPI_Allreduce(&bytes, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, c), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(&bytes, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c), "MPI_Allreduce");
  row.send_min = lo;
  row.send_max = hi;
  const PieceCounts& m = mine.counts;
  const std::array<int, 5> counts{m.remote_faces, m.self_faces, m.offnode_faces, m.remote_edges,
                                  m.remote_corners};
  std::array<int, 5> maxima{};
  check_mpi(MPI_Allreduce(counts.data(), maxima.data(), 5, MPI_INT, MPI_MAX, c), "MPI_Allreduce");
  row.counts = {maxima[0], maxima[1], maxima[2], maxima[3], maxima[4]};
  return row;
}

}  // namespace halobw
