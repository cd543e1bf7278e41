#include "halobw/report/report.hpp"
#include "halobw/platform/reduce.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>

namespace halobw {

std::string format_header(const HeaderInfo& h) {
  std::string out;
  auto settings_line = [&](HeaderLine line) {
    const std::string text = header_line(line, h.run);
    if (!text.empty()) out += "# " + text + "\n";
  };
  for (const HeaderLine line : kHeaderLinesBeforeRanks) settings_line(line);
  if (h.rank_host.size() <= static_cast<std::size_t>(kRankListLimit)) {
    out += "# rank_device";
    for (std::size_t r = 0; r < h.rank_device.size(); ++r) out += fmt::format(" {}:{}", r, h.rank_device[r]);
    out += "\n# rank_host";
    for (std::size_t r = 0; r < h.rank_host.size(); ++r) out += fmt::format(" {}:{}", r, h.rank_host[r]);
    out += "\n";
  } else {
    // At scale the header grows with the nodes, not the ranks (JSON keeps the full map).
    for (const NodeEntry& n : node_map(h.rank_host, h.rank_device)) {
      out += fmt::format("# node {} ranks {} devices {}\n", n.name, compact(n.ranks), compact(n.devices));
    }
  }
  for (const HeaderLine line : kHeaderLinesAfterRanks) settings_line(line);
  out += fmt::format("# {}\n", kRateDefinition);
  for (const auto& note : h.notes) out += "# " + note + "\n";
  return out;
}

std::vector<NodeEntry> node_map(const std::vector<std::string>& rank_host,
                                const std::vector<int>& rank_device, const std::vector<int>& rank_cores) {
  std::vector<NodeEntry> nodes;
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < rank_host.size(); ++r) {
    const auto [it, fresh] = index.emplace(rank_host[r], nodes.size());
    if (fresh) nodes.push_back({rank_host[r], {}, {}});
    NodeEntry& n = nodes[it->second];
    n.ranks.push_back(static_cast<int>(r));
    n.devices.push_back(r < rank_device.size() ? rank_device[r] : -1);
    if (r < rank_cores.size()) n.cores = rank_cores[r];
  }
  return nodes;
}

std::string compact(const std::vector<int>& values) {
  std::string out;
  std::size_t i = 0;
  while (i < values.size()) {
    std::size_t j = i;
    std::string item;
    if (i + 1 < values.size() && values[i + 1] == values[i]) {
      while (j + 1 < values.size() && values[j + 1] == values[i]) ++j;
      item = fmt::format("{}*{}", values[i], j - i + 1);
    } else {
      while (values[i] >= 0 && j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
      item = j > i ? fmt::format("{}-{}", values[i], values[j]) : std::to_string(values[i]);
    }
    out += (out.empty() ? "" : ",") + item;
    i = j + 1;
  }
  return out;
}

double uni_gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0.0 ? static_cast<double>(bytes) / seconds / 1.0e9 : 0.0;
}

std::optional<double> efficiency(const Row& row) {
  if (!row.phases || row.send_max == 0 || row.seconds <= 0.0) return std::nullopt;
  return row.phases->xfer / row.seconds;  // (Send/T) / (Send/Xfer)
}

HiddenVerdict hidden_share(const OverlapFigures& f) {
  constexpr double kUs = 1.0e6;
  const double exchange = f.blocking - f.comp;  // what the exchange adds to the stencil
  const double saved = f.blocking - f.overlapped;
  const std::string noise = fmt::format("the noise {:.1f} us (the largest spread of {} interleaved rounds)",
                                        f.noise * kUs, f.rounds);
  if (exchange <= f.noise) {
    return {std::nullopt, fmt::format("the exchange, Blocking_us - Comp_us = {:.1f} us, is within {}",
                                      exchange * kUs, noise)};
  }
  if (std::abs(saved) <= f.noise) {
    return {std::nullopt,
            fmt::format("what overlapping saved, Blocking_us - Overlap_us = {:.1f} us, is within {}",
                        saved * kUs, noise)};
  }
  if (saved < 0) {
    return {std::nullopt,
            fmt::format("the overlapped step is slower than the blocking one by {:.1f} us, beyond {}",
                        -saved * kUs, noise)};
  }
  if (f.overlapped < f.comp) {
    // Faster than the stencil alone: within the noise that is all of the exchange hidden.
    if (f.comp - f.overlapped <= f.noise) return {1.0, {}};
    return {std::nullopt,
            fmt::format("the overlapped step is faster than the stencil alone by {:.1f} us, beyond {}",
                        (f.comp - f.overlapped) * kUs, noise)};
  }
  return {saved / exchange, {}};
}

Phases reduce_phases(const Comm& comm, const Phases& mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  struct {
    double sum;
    int rank;
  } me{mine.sum(), comm.rank()}, busiest{0, 0};
  check_mpi(MPI_Allreduce(&me, &busiest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm.get()), "MPI_Allreduce");
  std::array<double, 5> v{mine.pack, mine.mpi, mine.stage, mine.unpack, mine.xfer};
  check_mpi(MPI_Bcast(v.data(), 5, MPI_DOUBLE, busiest.rank, comm.get()), "MPI_Bcast");
  return {v[0], v[1], v[2], v[3], mine.xfer};
}

HugeFigures reduce_huge(const Comm& comm, std::uint64_t field_bytes, std::uint64_t huge_bytes) {
  const auto armed = comm.guard("MPI_Allreduce");
  constexpr double kMiB = 1024.0 * 1024.0;
  const std::array<double, 2> mine{static_cast<double>(field_bytes) / kMiB,
                                   static_cast<double>(huge_bytes) / kMiB};
  std::array<double, 2> lo{};
  std::array<double, 2> hi{};
  check_mpi(MPI_Allreduce(mine.data(), lo.data(), 2, MPI_DOUBLE, MPI_MIN, comm.get()), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(mine.data(), hi.data(), 2, MPI_DOUBLE, MPI_MAX, comm.get()), "MPI_Allreduce");
  return {lo[0], hi[0], lo[1], hi[1]};
}

Row row_of(const RowPlan& plan) {
  Row row;
  row.n = plan.spec.cube();
  row.size = plan.spec.size;
  row.offnode_max = plan.all.offnode_max;
  row.node_out_max = plan.all.node_out_max;
  row.global = plan.spec.global;
  row.halo = plan.spec.halo;
  row.send_min = plan.all.send_min;
  row.send_max = plan.all.send_max;
  row.counts = plan.all.most;
  return row;
}

SlowestRank slowest_rank(const std::vector<double>& seconds) {
  SlowestRank out;
  if (seconds.empty()) return out;
  const auto most = std::max_element(seconds.begin(), seconds.end());  // the first of equals
  out.rank = static_cast<int>(most - seconds.begin());
  const double median = seconds[spread(seconds).median_index];
  if (median > 0) out.skew = *most / median;
  return out;
}

void reduce_ranks(const Comm& comm, double own_seconds, std::uint64_t send_bytes,
                  const std::vector<std::string>& hosts, bool per_rank, Row& row) {
  // Two doubles a rank: the bytes are exact as a double up to 2^53, far beyond one exchange's.
  const std::array<double, 2> mine{own_seconds, static_cast<double>(send_bytes)};
  const bool root = comm.rank() == 0;
  std::vector<double> all(root ? 2 * static_cast<std::size_t>(comm.size()) : 0);
  {
    const auto armed = comm.guard("MPI_Gather");
    check_mpi(MPI_Gather(mine.data(), 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, comm.get()), "MPI_Gather");
  }
  if (!root) return;
  std::vector<double> seconds(static_cast<std::size_t>(comm.size()));
  for (std::size_t r = 0; r < seconds.size(); ++r) seconds[r] = all[2 * r];
  const SlowestRank s = slowest_rank(seconds);
  row.slowest = s.rank;
  row.skew = s.skew;
  row.slowest_host = hosts.at(static_cast<std::size_t>(s.rank));
  row.ranks.clear();
  if (!per_rank) return;
  for (std::size_t r = 0; r < seconds.size(); ++r) {
    row.ranks.push_back(
        {static_cast<int>(r), hosts.at(r), seconds[r], static_cast<std::uint64_t>(all[2 * r + 1])});
  }
}

std::vector<std::string> per_rank_lines(const Row& row, const std::string& label) {
  constexpr double kUs = 1.0e6;
  std::vector<std::string> out;
  if (row.ranks.size() <= static_cast<std::size_t>(kRankListLimit)) {
    for (const RankFigures& f : row.ranks) {
      out.push_back(fmt::format("# per-rank {}: rank {} host {} Rank_us {:.1f} Send_B {}{}", label, f.rank,
                                f.host, f.seconds * kUs, f.send_bytes,
                                f.rank == row.slowest ? " (slowest)" : ""));
    }
    return out;
  }
  // At scale, a line per node: the table grows with the nodes, not the ranks (JSON keeps every rank).
  std::vector<std::string> hosts;
  for (const RankFigures& f : row.ranks) hosts.push_back(f.host);
  for (const NodeEntry& n : node_map(hosts, {})) {
    std::vector<double> us;
    std::uint64_t least = UINT64_MAX;
    std::uint64_t most = 0;
    int slowest = n.ranks.front();
    for (const int r : n.ranks) {
      const RankFigures& f = row.ranks[static_cast<std::size_t>(r)];
      us.push_back(f.seconds * kUs);
      least = std::min(least, f.send_bytes);
      most = std::max(most, f.send_bytes);
      if (f.seconds > row.ranks[static_cast<std::size_t>(slowest)].seconds) slowest = r;
    }
    const Spread s = spread(us);
    out.push_back(
        fmt::format("# per-node {}: node {} ranks {} Rank_us min {:.1f} median {:.1f} max {:.1f} "
                    "(rank {}) Send_B min {} max {}{}",
                    label, n.name, compact(n.ranks), s.min, us[s.median_index], s.max, slowest, least, most,
                    slowest == row.slowest ? " (slowest)" : ""));
  }
  return out;
}

void reduce_times(const Comm& comm, const std::vector<double>& mine, Row& row) {
  const Spread s = reduce_spread_max(comm, mine);
  row.seconds = s.median;
  row.median_block = static_cast<int>(s.median_index);
  if (mine.size() > 1) {
    row.min_seconds = s.min;
    row.max_seconds = s.max;
  }
}

}  // namespace halobw
