/* Can the MPI library build a distributed-graph communicator and exchange
 * over it, as --method neighbor does? Each rank lists its ring neighbours as
 * sources and destinations (MPI_Dist_graph_create_adjacent), sends its rank
 * to both with MPI_Neighbor_alltoall and checks what it received. Exit 0 if
 * every rank got its neighbours' ranks; 1 (with a line) if not. Built with
 * the smpi preset and run by tests/smpi/run_smpi.py at 4 ranks, where
 * SimGrid 3.32 aborts ("Not yet implemented"); any MPI runs it as is. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank, size, bad = 0;
  MPI_Comm graph;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peers[2] = {(rank + size - 1) % size, (rank + 1) % size}; /* left, right */
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, peers, MPI_UNWEIGHTED, 2, peers, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);
  int out[2] = {rank, rank}, in[2] = {-1, -1};
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, graph);
  for (int i = 0; i < 2; ++i) {
    if (in[i] != peers[i] && !bad++) printf("rank %d: block %d is %d, expected %d\n", rank, i, in[i], peers[i]);
  }
  MPI_Comm_free(&graph);
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("neighbourhood exchange: %s\n", bad ? "WRONG values" : "right values");
  MPI_Finalize();
  return bad ? 1 : 0;
}
