/* The simulator's own floor for the cost of a simulated run: the message
 * pattern of `halo-bandwidth --faces --local L` (six faces of L x L doubles
 * to the six neighbours of a periodic 3D process grid, MPI_Irecv/MPI_Isend,
 * MPI_Waitall) in a plain C program with no set-up, no packing and no
 * Kokkos, timed like the benchmark (warm-up, barrier, K exchanges, barrier,
 * the slowest rank). Run under SimGrid's SMPI beside the benchmark, its
 * wall time tells what the simulator costs for these messages alone
 * (docs/results/simulate.md):
 *   smpicc -O2 -fPIC -shared bench/smpi_floor.c -o /tmp/smpi-floor
 *   scripts/simulate --platform platforms/fat-tree-1024.xml -n 512 --exe /tmp/smpi-floor -- 32 10
 * Not built by CMake: it needs SMPI's compiler, and a real MPI run of it
 * would say nothing the benchmark does not. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int L = argc > 1 ? atoi(argv[1]) : 32;
  const int iters = argc > 2 ? atoi(argv[2]) : 10;
  int size = 0;
  int rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[3] = {0, 0, 0};
  const int periods[3] = {1, 1, 1};
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  int peers[6];
  for (int a = 0; a < 3; ++a) MPI_Cart_shift(cart, a, 1, &peers[2 * a], &peers[2 * a + 1]);
  const size_t face = (size_t)L * L;
  double* send = calloc(6 * face, sizeof(double));
  double* recv = calloc(6 * face, sizeof(double));
  MPI_Request req[12];
  double t = 0;
  for (int i = -5; i < iters; ++i) { /* 5 warm-up exchanges */
    if (i == 0) {
      MPI_Barrier(cart);
      t = MPI_Wtime();
    }
    for (int d = 0; d < 6; ++d) /* from the neighbour on the other side, tagged by direction */
      MPI_Irecv(recv + d * face, (int)face, MPI_DOUBLE, peers[d ^ 1], d, cart, &req[d]);
    for (int d = 0; d < 6; ++d)
      MPI_Isend(send + d * face, (int)face, MPI_DOUBLE, peers[d], d, cart, &req[6 + d]);
    MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
  }
  MPI_Barrier(cart);
  t = (MPI_Wtime() - t) / iters;
  double slowest = 0;
  MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
  if (rank == 0)
    printf("%d ranks %dx%dx%d L %d: %.1f us an exchange (simulated)\n", size, dims[0], dims[1], dims[2], L,
           slowest * 1e6);
  free(send);
  free(recv);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
