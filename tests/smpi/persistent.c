/* Does a persistent send of a non-contiguous datatype carry the buffer as it
 * is at MPI_Start, as the standard says, or as it was at MPI_Send_init?
 * Rank 0 sends every other double of 8 (an MPI_Type_vector) to rank 1 twice,
 * changing the values between the two starts. Exit 0 if rank 1 saw both
 * rounds' values; 1 (with a line) if not. Built with the smpi preset and run
 * by tests/smpi/run_smpi.py at 2 ranks; any MPI runs it as is. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank, bad = 0;
  double buf[8] = {0}, got[4];
  MPI_Datatype every_other;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  if (rank == 0) MPI_Send_init(buf, 1, every_other, 1, 7, MPI_COMM_WORLD, &req);
  if (rank == 1) MPI_Recv_init(got, 4, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &req);
  for (int round = 1; round <= 2 && rank < 2; ++round) {
    for (int i = 0; i < 8; ++i) buf[i] = 10 * round + i; /* written after the init */
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; rank == 1 && i < 4; ++i) {
      if (got[i] != 10 * round + 2 * i && !bad++)
        printf("round %d: element %d is %g, expected %d\n", round, i, got[i], 10 * round + 2 * i);
    }
  }
  if (rank < 2) MPI_Request_free(&req);
  MPI_Type_free(&every_other);
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("persistent send of a vector type: %s\n", bad ? "WRONG values" : "right values");
  MPI_Finalize();
  return bad ? 1 : 0;
}
