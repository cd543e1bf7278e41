#include "halobw/app/summary.hpp"

#include <cstdint>

namespace halobw {

namespace {

// A summary's figures in one order, as the least and the most are reduced:
// the least send and brick; the most of the rest.
constexpr std::size_t kLeast = 4;  // send_min, brick_min x3
constexpr std::size_t kMost = 12;  // send_max, offnode_max, node_out_max, brick_max x3, the 6 counts

void put(const RowSummary& s, long long* least, long long* most) {
  least[0] = static_cast<long long>(s.send_min);
  most[0] = static_cast<long long>(s.send_max);
  most[1] = static_cast<long long>(s.offnode_max);
  most[2] = static_cast<long long>(s.node_out_max);
  for (std::size_t a = 0; a < 3; ++a) {
    least[1 + a] = s.brick_min[a];
    most[3 + a] = s.brick_max[a];
  }
  const PieceCounts& c = s.most;
  const int counts[] = {c.remote_faces,   c.self_faces,   c.offnode_faces,
                        c.boundary_faces, c.remote_edges, c.remote_corners};
  for (std::size_t i = 0; i < 6; ++i) most[6 + i] = counts[i];
}

void get(RowSummary& s, const long long* least, const long long* most) {
  s.send_min = static_cast<std::uint64_t>(least[0]);
  s.send_max = static_cast<std::uint64_t>(most[0]);
  s.offnode_max = static_cast<std::uint64_t>(most[1]);
  s.node_out_max = static_cast<std::uint64_t>(most[2]);
  for (std::size_t a = 0; a < 3; ++a) {
    s.brick_min[a] = least[1 + a];
    s.brick_max[a] = most[3 + a];
  }
  PieceCounts& c = s.most;
  int* counts[] = {&c.remote_faces,   &c.self_faces,   &c.offnode_faces,
                   &c.boundary_faces, &c.remote_edges, &c.remote_corners};
  for (std::size_t i = 0; i < 6; ++i) *counts[i] = static_cast<int>(most[6 + i]);
}

}  // namespace

void reduce_summaries(const Comm& comm, std::vector<RowPlan>& rows) {
  // node_out_max: what this rank's node sends off it, summed over the node first.
  std::vector<std::uint64_t> node_out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) node_out[i] = rows[i].all.node_out_max;
  node_out = sum_over_node(comm, node_out);
  std::vector<long long> least(kLeast * rows.size());
  std::vector<long long> most(kMost * rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    RowSummary s = rows[i].all;
    s.node_out_max = node_out[i];
    put(s, &least[kLeast * i], &most[kMost * i]);
  }
  {
    const auto armed = comm.guard("MPI_Allreduce");
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, least.data(), static_cast<int>(least.size()), MPI_LONG_LONG,
                            MPI_MIN, comm.get()),
              "MPI_Allreduce");
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, most.data(), static_cast<int>(most.size()), MPI_LONG_LONG, MPI_MAX,
                            comm.get()),
              "MPI_Allreduce");
  }
  for (std::size_t i = 0; i < rows.size(); ++i) get(rows[i].all, &least[kLeast * i], &most[kMost * i]);
}

}  // namespace halobw
