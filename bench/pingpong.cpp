// A plain MPI ping-pong between ranks 0 and 1: for each size, the median
// over rounds of half a round trip of MPI_Send/MPI_Recv. Prints one line per
// size: bytes, half round trip in microseconds, bytes / half round trip in
// GB/s. It calibrates platforms/ (latency from the smallest size, bandwidth
// from the largest), and run under SMPI on such a platform it shows what the
// model gives back. Not a test.
// usage: mpiexec -n 2 halobw-pingpong [ROUNDS]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<char> buf(std::size_t{1} << 24);
  for (long bytes = 8; bytes <= (1L << 24); bytes *= 8) {
    std::vector<double> half;
    for (int r = 0; r < rounds + 5 && rank < 2; ++r) {  // the first 5 warm up
      const int n = static_cast<int>(bytes);
      const double t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buf.data(), n, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf.data(), n, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf.data(), n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf.data(), n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
      if (r >= 5) half.push_back((MPI_Wtime() - t0) / 2);
    }
    if (rank == 0) {
      std::nth_element(half.begin(), half.begin() + half.size() / 2, half.end());
      const double t = half[half.size() / 2];
      std::printf("%ld %.3f %.3f\n", bytes, t * 1e6, bytes / t / 1e9);
    }
  }
  MPI_Finalize();
  return 0;
}
