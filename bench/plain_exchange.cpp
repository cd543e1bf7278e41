// The plain reference for the kernel path: what a C programmer writes for
// one face pair without Kokkos or this project's code. Per exchange: copy the
// owned layers of both faces of one axis into contiguous buffers (a memcpy
// per row of the face, or an element loop where rows are short), MPI_Irecv
// both, MPI_Isend both, MPI_Waitall, copy back into the ghost layers. Timed
// like the benchmark: warm-up, barrier, K exchanges, barrier, the slowest
// rank. scripts/bench_host.py sets halo-bandwidth --pack kernel against it.
//
// Usage: halobw-plain-exchange N GX,GY,GZ x|y|z HALO ITERS WARMUP HUGEPAGES(0|1)
// Prints: time_us send_bytes
#include <mpi.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// The field, optionally on 2 MiB pages advised to transparent huge pages.
double* field_alloc(std::size_t bytes, bool huge) {
  if (!huge) return static_cast<double*>(std::calloc(bytes, 1));
  const std::size_t page = std::size_t{2} << 20;
  const std::size_t len = (bytes + page - 1) / page * page;
  void* p = std::aligned_alloc(page, len);
  madvise(p, len, MADV_HUGEPAGE);
  std::memset(p, 0, len);
  return static_cast<double*>(p);
}

struct Face {
  long lo[3], hi[3];    // owned layers sent
  long glo[3], ghi[3];  // ghost layers filled
};

// Copies box [lo, hi) of the padded field f (px, py) to or from buf.
void copy(double* f, long px, long py, const long lo[3], const long hi[3], double* buf, bool out) {
  const long ex = hi[0] - lo[0];
  for (long k = lo[2]; k < hi[2]; ++k) {
    for (long j = lo[1]; j < hi[1]; ++j) {
      double* row = f + lo[0] + px * (j + py * k);
      if (ex >= 8) {
        if (out)
          std::memcpy(buf, row, ex * sizeof(double));
        else
          std::memcpy(row, buf, ex * sizeof(double));
        buf += ex;
      } else {
        for (long i = 0; i < ex; ++i, ++buf) {
          if (out)
            *buf = row[i];
          else
            row[i] = *buf;
        }
      }
    }
  }
}

// The two faces normal to `axis` of this rank's brick (owned cells sent, ghost
// cells filled), the rank each goes to, and the values of one face.
long plan_faces(const int g[3], const int c[3], const long e[3], long h, int axis, Face faces[2],
                int peers[2]) {
  long count = h;
  for (int b = 0; b < 3; ++b) count *= b == axis ? 1 : e[b];
  for (int s = 0; s < 2; ++s) {
    Face& fc = faces[s];
    for (int b = 0; b < 3; ++b) fc.lo[b] = fc.glo[b] = h, fc.hi[b] = fc.ghi[b] = h + e[b];
    if (s == 0) {  // -: first h owned layers, land in the neighbour's high ghosts; mine fill from +
      fc.lo[axis] = h, fc.hi[axis] = 2 * h, fc.glo[axis] = e[axis] + h, fc.ghi[axis] = e[axis] + 2 * h;
    } else {
      fc.lo[axis] = e[axis], fc.hi[axis] = e[axis] + h, fc.glo[axis] = 0, fc.ghi[axis] = h;
    }
    int nc[3] = {c[0], c[1], c[2]};
    nc[axis] = (c[axis] + (s == 0 ? -1 : 1) + g[axis]) % g[axis];
    peers[s] = nc[0] + g[0] * (nc[1] + g[1] * nc[2]);
  }
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int g[3] = {1, 1, 1};
  if (argc != 8 || std::sscanf(argv[2], "%d,%d,%d", &g[0], &g[1], &g[2]) != 3 || g[0] * g[1] * g[2] != size) {
    if (rank == 0) std::fprintf(stderr, "usage: %s N GX,GY,GZ x|y|z HALO ITERS WARMUP HUGEPAGES\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  const long n = std::atol(argv[1]);
  const int axis = argv[3][0] - 'x';
  const long h = std::atol(argv[4]);
  const int iters = std::atoi(argv[5]);
  const int warmup = std::atoi(argv[6]);
  const bool huge = std::atoi(argv[7]) != 0;
  const int c[3] = {rank % g[0], rank / g[0] % g[1], rank / (g[0] * g[1])};
  long e[3], p[3];
  for (int a = 0; a < 3; ++a) {
    e[a] = n / g[a];  // N must divide: this reference has no remainders
    p[a] = e[a] + 2 * h;
  }
  double* f = field_alloc(sizeof(double) * p[0] * p[1] * p[2], huge);
  Face faces[2];
  int peers[2];  // the rank each face goes to: the - and the + neighbour
  const long count = plan_faces(g, c, e, h, axis, faces, peers);
  std::vector<double> send(2 * count), recv(2 * count);
  auto exchange = [&] {
    MPI_Request req[4];
    // Receive into slot s the message that travels in direction s (tag s), from the opposite neighbour.
    for (int s = 0; s < 2; ++s)
      MPI_Irecv(recv.data() + s * count, count, MPI_DOUBLE, peers[1 - s], s, MPI_COMM_WORLD, &req[s]);
    for (int s = 0; s < 2; ++s) {
      copy(f, p[0], p[1], faces[s].lo, faces[s].hi, send.data() + s * count, true);
      MPI_Isend(send.data() + s * count, count, MPI_DOUBLE, peers[s], s, MPI_COMM_WORLD, &req[2 + s]);
    }
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int s = 0; s < 2; ++s)
      copy(f, p[0], p[1], faces[s].glo, faces[s].ghi, recv.data() + s * count, false);
  };
  for (int w = 0; w < warmup; ++w) exchange();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int k = 0; k < iters; ++k) exchange();
  MPI_Barrier(MPI_COMM_WORLD);
  const double mine = (MPI_Wtime() - t0) / iters;
  double slowest = 0;
  MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  long sent = 0;
  for (const int peer : peers) sent += peer == rank ? 0 : 8 * count;
  if (rank == 0) std::printf("%.3f %ld\n", slowest * 1e6, sent);
  std::free(f);
  MPI_Finalize();
  return 0;
}
