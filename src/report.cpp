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
  out += "# Uni_GBps = remote send bytes / time / 1e9; Duplex_GBps = 2 * Uni_GBps\n";
  for (const auto& note : h.notes) out += "# " + note + "\n";
  return out;
}

std::vector<std::string> column_names(const Columns& c) {
  std::vector<std::string> names{"N",           "Send_B",      "Time_us",   "Uni_GBps",
                                 "Duplex_GBps", "RemoteFaces", "SelfFaces", "OffNodeFaces"};
  if (c.send_min) names.emplace_back("Send_min_B");
  if (c.min_max) names.insert(names.end(), {"Min_us", "Max_us"});
  if (c.breakdown)
    names.insert(names.end(), {"Pack_us", "Xfer_us", "Stage_us", "Unpack_us", "Xfer_GBps", "Eff"});
  if (c.limit) names.insert(names.end(), {"Copy_GBps", "Peer_GBps"});
  return names;
}

std::string format_columns(const Columns& c) {
  std::string s = "#";
  for (const auto& name : column_names(c)) s += " " + name;
  return s + "\n";
}

double uni_gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0.0 ? static_cast<double>(bytes) / seconds / 1.0e9 : 0.0;
}

std::optional<double> efficiency(const Row& row) {
  if (!row.phases || row.send_max == 0 || row.seconds <= 0.0) return std::nullopt;
  return row.phases->xfer / row.seconds;  // (Send/T) / (Send/Xfer)
}

namespace {
std::string us(double seconds) { return fmt::format("{:.1f}", seconds * 1.0e6); }
std::string rate(std::optional<double> gbps) { return gbps ? fmt::format("{:.3f}", *gbps) : "n/a"; }
}  // namespace

std::vector<std::string> row_fields(const Row& row, const Columns& c) {
  const double uni = uni_gbps(row.send_max, row.seconds);
  std::vector<std::string> f{
      std::to_string(row.n),          std::to_string(row.send_max),     us(row.seconds),
      fmt::format("{:.3f}", uni),     fmt::format("{:.3f}", 2.0 * uni), std::to_string(row.remote_faces),
      std::to_string(row.self_faces), std::to_string(row.offnode_faces)};
  if (c.send_min) f.push_back(std::to_string(row.send_min));
  if (c.min_max) {
    f.push_back(us(row.min_seconds.value_or(row.seconds)));
    f.push_back(us(row.max_seconds.value_or(row.seconds)));
  }
  if (c.breakdown) {
    const Phases p = row.phases.value_or(Phases{});
    const auto eff = efficiency(row);
    f.insert(f.end(), {us(p.pack), us(p.xfer), us(p.stage), us(p.unpack),
                       fmt::format("{:.3f}", uni_gbps(row.send_max, p.xfer)),
                       eff ? fmt::format("{:.2f}", *eff) : "n/a"});
  }
  if (c.limit) {
    f.push_back(rate(row.copy_gbps));
    f.push_back(rate(row.peer_gbps));
  }
  return f;
}

std::string format_row(const Row& row, const Columns& c) {
  std::string s;
  for (const auto& field : row_fields(row, c)) s += (s.empty() ? "" : " ") + field;
  return s + "\n";
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
  double slowest = 0;
  check_mpi(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm.get()), "MPI_Allreduce");
  return slowest;
}

Row reduce_row(const Comm& comm, std::int64_t n, const RankFigures& mine) {
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
  const std::array<int, 3> counts{mine.remote_faces, mine.self_faces, mine.offnode_faces};
  std::array<int, 3> maxima{};
  check_mpi(MPI_Allreduce(counts.data(), maxima.data(), 3, MPI_INT, MPI_MAX, c), "MPI_Allreduce");
  row.remote_faces = maxima[0];
  row.self_faces = maxima[1];
  row.offnode_faces = maxima[2];
  return row;
}

}  // namespace halobw
