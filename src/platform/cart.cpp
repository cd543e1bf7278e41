#include "halobw/platform/cart.hpp"

#include <fmt/format.h>

namespace halobw {

RankMap cart_placement(const Comm& comm, const Dims3& grid, const AxisSet& periodic) {
  int dims[3] = {grid[0], grid[1], grid[2]};
  int periods[3] = {periodic[0] ? 1 : 0, periodic[1] ? 1 : 0, periodic[2] ? 1 : 0};
  MPI_Comm cart = MPI_COMM_NULL;
  check_mpi(MPI_Cart_create(comm.get(), 3, dims, periods, 1, &cart), "MPI_Cart_create");
  int coords[3] = {0, 0, 0};
  int cart_rank = 0;
  check_mpi(MPI_Comm_rank(cart, &cart_rank), "MPI_Comm_rank");
  check_mpi(MPI_Cart_coords(cart, cart_rank, 3, coords), "MPI_Cart_coords");
  check_mpi(MPI_Comm_free(&cart), "MPI_Comm_free");
  // MPI numbers Cartesian coordinates with the last fastest; the grid's cells go x fastest.
  const int mine = coords[0] + grid[0] * (coords[1] + grid[1] * coords[2]);
  RankMap m;
  m.asked = m.used = RankPlacement::cart;
  m.cell_of_rank.assign(static_cast<std::size_t>(comm.size()), 0);
  {
    const auto armed = comm.guard("MPI_Allgather");
    check_mpi(MPI_Allgather(&mine, 1, MPI_INT, m.cell_of_rank.data(), 1, MPI_INT, comm.get()),
              "MPI_Allgather");
  }
  int moved = 0;
  int linear = 0;  // the cell each rank holds in rank order, x fastest
  for (std::size_t r = 0; r < m.cell_of_rank.size(); ++r) {
    const int cz = static_cast<int>(r) % grid[2];  // MPI's row-major rank order: z fastest
    const int cy = static_cast<int>(r) / grid[2] % grid[1];
    const int cx = static_cast<int>(r) / (grid[2] * grid[1]);
    linear = cx + grid[0] * (cy + grid[1] * cz);
    moved += m.cell_of_rank[r] != linear ? 1 : 0;
  }
  m.note = moved == 0 ? "placement cart: MPI_Cart_create (reorder 1) kept every rank where it was"
                      : fmt::format("placement cart: MPI_Cart_create (reorder 1) moved {} of {} ranks", moved,
                                    m.cell_of_rank.size());
  return m;
}

}  // namespace halobw
