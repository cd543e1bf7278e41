#include "halobw/platform/reduce.hpp"

#include <algorithm>

namespace halobw {

Spread spread(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  const std::size_t n = values.size();
  const auto at = [&](std::size_t k) { return values[order[k]]; };
  s.median = n % 2 == 1 ? at(n / 2) : 0.5 * (at(n / 2 - 1) + at(n / 2));
  s.median_index = order[(n - 1) / 2];
  s.min = at(0);
  s.max = at(n - 1);
  return s;
}

double reduce_max(const Comm& comm, double mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  double slowest = 0;
  check_mpi(MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm.get()), "MPI_Allreduce");
  return slowest;
}

std::uint64_t reduce_max_bytes(const Comm& comm, std::uint64_t mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  unsigned long long v = mine;
  unsigned long long most = 0;
  check_mpi(MPI_Allreduce(&v, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm.get()), "MPI_Allreduce");
  return most;
}

Spread reduce_spread_max(const Comm& comm, const std::vector<double>& mine) {
  const auto armed = comm.guard("MPI_Allreduce");
  std::vector<double> slowest(mine.size());
  check_mpi(MPI_Allreduce(mine.data(), slowest.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX,
                          comm.get()),
            "MPI_Allreduce");
  return spread(slowest);
}

}  // namespace halobw
