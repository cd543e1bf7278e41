// The best plain program of the exchange halo-bandwidth --pack kernel times,
// written as a C programmer would, without Kokkos or this project's code:
// - one message each way per distinct neighbour (a neighbour that is this rank
//   itself gets its message through MPI too, as with --self mpi);
// - one pass over the brick's rows packs every piece of the stencil: each
//   row's x-face cells at both of its ends and, where the row lies in a y or z
//   face, edge or corner, its run of those cells as well;
// - one pass over the rows unpacks every ghost piece the same way.
// The two x faces of a row (every row but a few on a thin face) are copied
// by a loop made for them: h known at compile time, pointers that step by a
// row, both faces' copies spelled out. Each message holds its pieces one
// after another, each in field order (x fastest), as halo-bandwidth's do.
//
// Timed on the benchmark's clock: warm-up, then REPEATS blocks of barrier, K
// exchanges, barrier, divided by K, the slowest rank; the median block counts
// (halo-bandwidth --repeats). The pack and unpack passes are timed inside
// those exchanges as well, and in the median block the rank whose pack +
// unpack is the largest gives both (as --breakdown gives the busiest rank's phases). Memory is placed
// as halo-bandwidth --hugepages on places host memory: a region of 2 MiB or
// more on whole 2 MiB pages advised to huge pages, zeroed by its rank.
//
// Before timing, one exchange is checked cell by cell: every ghost cell of the
// stencil's pieces holds the owned value of the periodic neighbour it mirrors,
// every other cell is as it was. Exit 1 if not (ctest runs that check).
//
// PACK kernel (the default) is the above. With kernel-pieces each piece is a
// message of its own, as halo-bandwidth --messages aggregated sends them (the
// same passes and buffers): what one message per neighbour saves. With datatype it is the
// datatype path's plain program instead: each piece one message, MPI's
// subarray of the field at both ends (MPI_Irecv into the ghost subarray,
// MPI_Isend of the owned one, MPI_Waitall), which is what halo-bandwidth
// --pack datatype asks of MPI; pack_us and unpack_us are 0.
//
// With newcomm it first makes a communicator and frees it, as halo-bandwidth
// (MPI_Comm_dup, MPI_Comm_split_type) and most solvers (MPI_Cart_create) make
// theirs: Open MPI then polls its nonblocking-collective engine on every
// progress call, for the rest of the run (docs/method.md, "What the time
// contains").
//
// Usage: halobw-onepass-exchange N GX,GY,GZ x|faces|box HALO ITERS WARMUP REPEATS HUGEPAGES(0|1) [PACK
// [newcomm]]
//   x: the two x faces (--axis x); faces: the six faces (--faces); box: all 26 pieces
//   (--stencil box). N must divide by GX, GY and GZ, and each extent be at least 2 HALO.
// Prints (rank 0): time_us pack_us unpack_us send_bytes (to other ranks, this rank's)
#include <mpi.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// `count` doubles, zeroed by this rank; from 2 MiB up with `huge`, whole 2 MiB
// pages advised to huge pages (halo-bandwidth's placement).
double* place(std::size_t count, bool huge) {
  const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(double);
  void* p = nullptr;
  if (huge && bytes >= kHugePage) {
    const std::size_t len = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    p = std::aligned_alloc(kHugePage, len);
    if (p != nullptr) madvise(p, len, MADV_HUGEPAGE);
  } else {
    p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  }
  if (p == nullptr) {
    std::fprintf(stderr, "halobw-onepass-exchange: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::memset(p, 0, bytes);
  return static_cast<double*>(p);
}

// One piece's cells in the rows of one band: [x, x + ex) of each row, and its
// place in a packed buffer (its box's first cell at rows j0, plane k0; strides sy, sz).
struct Segment {
  long x = 0;
  long ex = 0;
  double* buf = nullptr;
  long j0 = 0;
  long k0 = 0;
  long sy = 0;
  long sz = 0;
};

// Rows [lo, hi) along y or z, and which of the directions -1, 0, +1 along that axis hold them.
struct Band {
  long lo = 0;
  long hi = 0;
  bool holds[3] = {false, false, false};
};

// The bands of one axis: owned rows for the pack (the -1 piece holds the first
// h, the +1 piece the last h, the 0 piece all), ghost and owned rows for the unpack.
std::vector<Band> bands(long e, long h, bool pack) {
  if (pack)
    return {
        {h, 2 * h, {true, true, false}}, {2 * h, e, {false, true, false}}, {e, e + h, {false, true, true}}};
  return {{0, h, {true, false, false}},
          {h, e + h, {false, true, false}},
          {e + h, e + 2 * h, {false, false, true}}};
}

// The first cell of a direction's box along one axis: the owned cells it sends, or the ghost cells it fills.
long box_lo(int d, long e, long h, bool send) {
  if (d < 0) return send ? h : 0;
  if (d > 0) return send ? e : e + h;
  return h;
}

// H cells of row `row` at x and at y, to (kPack) or from the buffers at a and b,
// for `rows` rows: the two x faces of a band, each copy spelled out.
template <bool kPack, int H>
void x_faces(double* row, long px, long xa, long xb, double* a, double* b, long rows) {
  for (long r = 0; r < rows; ++r, row += px, a += H, b += H) {
    for (int i = 0; i < H; ++i) {
      if (kPack) {
        a[i] = row[xa + i];
      } else {
        row[xa + i] = a[i];
      }
    }
    for (int i = 0; i < H; ++i) {
      if (kPack) {
        b[i] = row[xb + i];
      } else {
        row[xb + i] = b[i];
      }
    }
  }
}

template <bool kPack>
void copy_cells(double* row, double* buf, long ex) {
  double* d = kPack ? buf : row;
  const double* s = kPack ? row : buf;
  if (ex >= 8) {
    std::memcpy(d, s, static_cast<std::size_t>(ex) * sizeof(double));
  } else {
    for (long i = 0; i < ex; ++i) d[i] = s[i];
  }
}

// Rows [j, j + rows) of plane k (at `row`), each row's segments in turn.
template <bool kPack>
void copy_rows(double* row, long px, long j, long k, long rows, const std::vector<Segment>& segs) {
  auto at = [&](const Segment& s) { return s.buf + (j - s.j0) * s.sy + (k - s.k0) * s.sz; };
  if (segs.size() == 2 && segs[0].ex == segs[1].ex && segs[0].ex <= 3) {
    double* a = at(segs[0]);
    double* b = at(segs[1]);
    switch (segs[0].ex) {
      case 1:
        return x_faces<kPack, 1>(row, px, segs[0].x, segs[1].x, a, b, rows);
      case 2:
        return x_faces<kPack, 2>(row, px, segs[0].x, segs[1].x, a, b, rows);
      default:
        return x_faces<kPack, 3>(row, px, segs[0].x, segs[1].x, a, b, rows);
    }
  }
  for (long r = 0; r < rows; ++r, row += px) {
    for (const Segment& s : segs) copy_cells<kPack>(row + s.x, at(s) + r * s.sy, s.ex);
  }
}

struct Brick {
  long e[3];  // owned cells
  long p[3];  // padded: e + 2h
  long h;
};

// One direction of the stencil (-1, 0, +1 along each axis) and where its cells sit in a packed buffer.
struct Piece {
  int d[3];
  double* buf;
};

// The segments of every band of rows (z band major, then y band), for the
// pieces given: each piece's box in the rows the band holds, left to right.
std::vector<std::vector<Segment>> segments(const Brick& b, const std::vector<Piece>& pieces, bool pack) {
  const std::vector<Band> ys = bands(b.e[1], b.h, pack);
  const std::vector<Band> zs = bands(b.e[2], b.h, pack);
  std::vector<std::vector<Segment>> out;
  for (const Band& z : zs) {
    for (const Band& y : ys) {
      std::vector<Segment> segs;
      for (int dx = -1; dx <= 1; ++dx) {
        for (const Piece& q : pieces) {
          if (q.d[0] != dx || !y.holds[q.d[1] + 1] || !z.holds[q.d[2] + 1]) continue;
          Segment s;
          s.x = box_lo(q.d[0], b.e[0], b.h, pack);
          s.ex = q.d[0] == 0 ? b.e[0] : b.h;
          s.buf = q.buf;
          s.j0 = box_lo(q.d[1], b.e[1], b.h, pack);
          s.k0 = box_lo(q.d[2], b.e[2], b.h, pack);
          s.sy = s.ex;
          s.sz = s.ex * (q.d[1] == 0 ? b.e[1] : b.h);
          segs.push_back(s);
        }
      }
      out.push_back(segs);
    }
  }
  return out;
}

// One pass over the rows of the bands, in memory order. Out of line: one call
// a pass, and a symbol of its own, which callgrind counts (--toggle-collect).
template <bool kPack>
[[gnu::noinline]] void pass(double* f, const Brick& b, const std::vector<std::vector<Segment>>& segs) {
  const std::vector<Band> ys = bands(b.e[1], b.h, kPack);
  const std::vector<Band> zs = bands(b.e[2], b.h, kPack);
  for (std::size_t zb = 0; zb < zs.size(); ++zb) {
    for (long k = zs[zb].lo; k < zs[zb].hi; ++k) {
      for (std::size_t yb = 0; yb < ys.size(); ++yb) {
        const std::vector<Segment>& s = segs[zb * ys.size() + yb];
        if (s.empty() || ys[yb].hi <= ys[yb].lo) continue;
        const long j = ys[yb].lo;
        copy_rows<kPack>(f + b.p[0] * (j + b.p[1] * k), b.p[0], j, k, ys[yb].hi - j, s);
      }
    }
  }
}

struct Options {
  long n = 0;
  int g[3] = {1, 1, 1};
  std::string stencil;
  long h = 0;
  int iters = 0;
  int warmup = 0;
  int repeats = 0;
  bool huge = false;
  bool datatype = false;   // PACK datatype
  bool per_piece = false;  // PACK kernel-pieces
  bool new_comm = false;   // newcomm: create (and free) a communicator first
};

// The same answer on every rank (the same arguments): empty if usable, else why not.
std::string parse(int argc, char** argv, int size, Options& o) {
  if (argc < 9 || argc > 11)
    return "usage: halobw-onepass-exchange N GX,GY,GZ x|faces|box HALO ITERS WARMUP REPEATS HUGEPAGES "
           "[kernel|kernel-pieces|datatype [newcomm]]";
  const std::string pack = argc >= 10 ? argv[9] : "kernel";
  if (argc == 11 && std::string(argv[10]) != "newcomm") return "the last argument is newcomm or nothing";
  o.new_comm = argc == 11;
  if (pack != "kernel" && pack != "kernel-pieces" && pack != "datatype")
    return "PACK is kernel, kernel-pieces or datatype";
  o.datatype = pack == "datatype";
  o.per_piece = pack == "kernel-pieces";
  o.n = std::atol(argv[1]);
  o.stencil = argv[3];
  o.h = std::atol(argv[4]);
  o.iters = std::atoi(argv[5]);
  o.warmup = std::atoi(argv[6]);
  o.repeats = std::atoi(argv[7]);
  o.huge = std::atoi(argv[8]) != 0;
  if (std::sscanf(argv[2], "%d,%d,%d", &o.g[0], &o.g[1], &o.g[2]) != 3 || o.g[0] < 1 || o.g[1] < 1 ||
      o.g[2] < 1 || o.g[0] * o.g[1] * o.g[2] != size)
    return "the grid GX,GY,GZ must multiply to the number of ranks";
  if (o.stencil != "x" && o.stencil != "faces" && o.stencil != "box") return "the stencil is x, faces or box";
  if (o.h < 1 || o.iters < 1 || o.repeats < 1 || o.warmup < 0)
    return "HALO, ITERS and REPEATS must be at least 1, WARMUP at least 0";
  for (const int gi : o.g) {
    if (o.n % gi != 0 || o.n / gi < 2 * o.h) return "N must divide by the grid, each extent at least 2 HALO";
  }
  return "";
}

// The directions of the stencil, in the order (dx + 1) + 3 (dy + 1) + 9 (dz + 1).
std::vector<Piece> directions(const std::string& stencil) {
  std::vector<Piece> out;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        const bool in = stencil == "box"     ? nonzero > 0
                        : stencil == "faces" ? nonzero == 1
                                             : dy == 0 && dz == 0 && dx != 0;
        if (in) out.push_back({{dx, dy, dz}, nullptr});
      }
    }
  }
  return out;
}

}  // namespace

namespace {

// One piece on the datatype path: the subarray sent to the neighbour at its
// direction d, and the ghost subarray on side d that neighbour fills.
struct Typed {
  MPI_Datatype send = MPI_DATATYPE_NULL;
  MPI_Datatype recv = MPI_DATATYPE_NULL;
  int peer = 0;
  int send_tag = 0;  // the index of d; the neighbour sends its piece -d with tag 26 - index
};

// This rank's messages: one per distinct neighbour, each way, and the pieces
// that fill them; the buffers and the two passes over the rows.
// One message of the packed buffers: where, how many values, the peer, the tag.
struct Wire {
  double* buf = nullptr;
  long count = 0;
  int peer = 0;
  int tag = 0;
};

struct Exchange {
  std::vector<Wire> sends;  // one per distinct neighbour (or, kernel-pieces, per piece)
  std::vector<Wire> recvs;
  std::vector<std::vector<Segment>> pack;  // by band of rows
  std::vector<std::vector<Segment>> unpack;
  double* send = nullptr;
  double* recv = nullptr;
  // PACK datatype: one message per piece, MPI's subarray of the field at each end.
  std::vector<Typed> typed;
};

int rank_at(const int g[3], const int c[3]) { return c[0] + g[0] * (c[1] + g[1] * c[2]); }

int neighbour(const int g[3], const int c[3], const int d[3]) {
  int n[3];
  for (int a = 0; a < 3; ++a) n[a] = (c[a] + d[a] + g[a]) % g[a];
  return rank_at(g, n);
}

long cells(const Brick& b, const int d[3]) {
  long v = 1;
  for (int a = 0; a < 3; ++a) v *= d[a] == 0 ? b.e[a] : b.h;
  return v;
}

int index(const int d[3]) { return (d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1); }

// The message to neighbour R holds the pieces of directions d with R at d, in
// the order of d; the one from R the pieces R sends this way (R at -d), in the
// same order, each filling this rank's ghost box on side -d. With
// kernel-pieces each piece is a message of its own (tag: the sender's d),
// at the same place in the buffers.
Exchange plan(const Options& o, const Brick& b, const int c[3]) {
  Exchange x;
  std::vector<Piece> sends = directions(o.stencil);
  std::vector<int> peers;  // the distinct neighbours, in the order of their first direction
  for (const Piece& q : sends) {
    const int peer = neighbour(o.g, c, q.d);
    if (std::find(peers.begin(), peers.end(), peer) == peers.end()) peers.push_back(peer);
  }
  long total = 0;
  for (const Piece& q : sends) total += cells(b, q.d);
  x.send = place(static_cast<std::size_t>(total), o.huge);
  x.recv = place(static_cast<std::size_t>(total), o.huge);
  std::vector<Piece> recvs;
  long at = 0;
  for (const int peer : peers) {
    x.sends.push_back({x.send + at, 0, peer, 0});
    x.recvs.push_back({x.recv + at, 0, peer, 0});
    long landed = at;
    for (Piece& q : sends) {
      if (neighbour(o.g, c, q.d) != peer) continue;
      if (o.per_piece) x.sends.push_back({x.send + at, 0, peer, index(q.d)});
      q.buf = x.send + at;
      at += cells(b, q.d);
      x.sends.back().count += cells(b, q.d);
    }
    for (const Piece& q : directions(o.stencil)) {  // this rank's ghosts on side -d, from the peer at -d
      const int back[3] = {-q.d[0], -q.d[1], -q.d[2]};
      if (neighbour(o.g, c, back) != peer) continue;
      if (o.per_piece) x.recvs.push_back({x.recv + landed, 0, peer, index(q.d)});
      recvs.push_back({{back[0], back[1], back[2]}, x.recv + landed});
      landed += cells(b, q.d);
      x.recvs.back().count += cells(b, q.d);
    }
  }
  auto empty = [](const Wire& w) { return w.count == 0; };  // per piece: the per-neighbour wires left empty
  x.sends.erase(std::remove_if(x.sends.begin(), x.sends.end(), empty), x.sends.end());
  x.recvs.erase(std::remove_if(x.recvs.begin(), x.recvs.end(), empty), x.recvs.end());
  x.pack = segments(b, sends, true);
  x.unpack = segments(b, recvs, false);
  return x;
}

}  // namespace

namespace {

// The subarray of the padded field that direction d's box covers: owned cells sent, or ghost cells filled.
MPI_Datatype subarray(const Brick& b, const int d[3], bool send) {
  int sizes[3];
  int subsizes[3];
  int starts[3];
  for (int a = 0; a < 3; ++a) {
    sizes[a] = static_cast<int>(b.p[a]);
    subsizes[a] = static_cast<int>(d[a] == 0 ? b.e[a] : b.h);
    starts[a] = static_cast<int>(box_lo(d[a], b.e[a], b.h, send));
  }
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

// The datatype path's messages, one per piece of the stencil.
std::vector<Typed> typed_pieces(const Options& o, const Brick& b, const int c[3]) {
  std::vector<Typed> out;
  for (const Piece& q : directions(o.stencil)) {
    Typed t;
    t.send = subarray(b, q.d, true);
    t.recv = subarray(b, q.d, false);
    t.peer = neighbour(o.g, c, q.d);
    t.send_tag = index(q.d);
    out.push_back(t);
  }
  return out;
}

// The datatype path: receive every ghost subarray, send every owned one, wait.
void exchange_typed(Exchange& x, double* f, std::vector<MPI_Request>& req) {
  const std::size_t m = x.typed.size();
  for (std::size_t i = 0; i < m; ++i)
    MPI_Irecv(f, 1, x.typed[i].recv, x.typed[i].peer, 26 - x.typed[i].send_tag, MPI_COMM_WORLD, &req[i]);
  for (std::size_t i = 0; i < m; ++i)
    MPI_Isend(f, 1, x.typed[i].send, x.typed[i].peer, x.typed[i].send_tag, MPI_COMM_WORLD, &req[m + i]);
  MPI_Waitall(static_cast<int>(2 * m), req.data(), MPI_STATUSES_IGNORE);
}

// Receive from every neighbour, pack in one pass, send, wait, unpack in one
// pass; the seconds of the two passes are added to pack_s and unpack_s.
void exchange(Exchange& x, double* f, const Brick& b, std::vector<MPI_Request>& req, double& pack_s,
              double& unpack_s) {
  if (!x.typed.empty()) return exchange_typed(x, f, req);
  const std::size_t m = x.recvs.size();
  for (std::size_t i = 0; i < m; ++i) {
    const Wire& w = x.recvs[i];
    MPI_Irecv(w.buf, static_cast<int>(w.count), MPI_DOUBLE, w.peer, w.tag, MPI_COMM_WORLD, &req[i]);
  }
  const double t0 = MPI_Wtime();
  pass<true>(f, b, x.pack);
  const double t1 = MPI_Wtime();
  for (std::size_t i = 0; i < x.sends.size(); ++i) {
    const Wire& w = x.sends[i];
    MPI_Isend(w.buf, static_cast<int>(w.count), MPI_DOUBLE, w.peer, w.tag, MPI_COMM_WORLD, &req[m + i]);
  }
  MPI_Waitall(static_cast<int>(m + x.sends.size()), req.data(), MPI_STATUSES_IGNORE);
  const double t2 = MPI_Wtime();
  pass<false>(f, b, x.unpack);
  pack_s += t1 - t0;
  unpack_s += MPI_Wtime() - t2;
}

// The value of global cell g: distinct for every cell (exact while N^3 < 2^53).
double value(long n, const long g[3]) { return 1.0 + static_cast<double>(g[0] + n * (g[1] + n * g[2])); }
constexpr double kSentinel = -1.0;

// Cell (i, j, k) of the padded brick: its global cell (periodic) and its side (-1, 0, +1) along each axis.
void locate(const Brick& b, const int c[3], long n, const long at[3], long g[3], int side[3]) {
  for (int a = 0; a < 3; ++a) {
    g[a] = ((c[a] * b.e[a] + at[a] - b.h) % n + n) % n;
    side[a] = at[a] < b.h ? -1 : at[a] >= b.e[a] + b.h ? 1 : 0;
  }
}

// Owned cells get their global value, ghost cells the sentinel (check == false);
// or the cells that one exchange left other than it should (check == true).
long visit(double* f, const Brick& b, const int c[3], const Options& o, bool check) {
  const std::vector<Piece> stencil = directions(o.stencil);
  long wrong = 0;
  long at[3];
  for (at[2] = 0; at[2] < b.p[2]; ++at[2]) {
    for (at[1] = 0; at[1] < b.p[1]; ++at[1]) {
      for (at[0] = 0; at[0] < b.p[0]; ++at[0]) {
        long g[3];
        int side[3];
        locate(b, c, o.n, at, g, side);
        const bool owned = side[0] == 0 && side[1] == 0 && side[2] == 0;
        const bool filled = std::any_of(stencil.begin(), stencil.end(), [&](const Piece& q) {
          return q.d[0] == side[0] && q.d[1] == side[1] && q.d[2] == side[2];
        });
        double& cell = f[at[0] + b.p[0] * (at[1] + b.p[1] * at[2])];
        if (!check) {
          cell = owned ? value(o.n, g) : kSentinel;
        } else if (cell != (owned || filled ? value(o.n, g) : kSentinel)) {
          ++wrong;
        }
      }
    }
  }
  return wrong;
}

// One timed block, as rank 0 has it: seconds per exchange of the slowest
// rank, and the pack and unpack seconds per exchange of the busiest.
struct Block {
  double time = 0;
  double pack = 0;
  double unpack = 0;
};

// The REPEATS blocks of K exchanges; on rank 0 the median block by time.
Block timed(const Options& o, Exchange& x, double* f, const Brick& b, std::vector<MPI_Request>& req,
            int size) {
  std::vector<Block> blocks;
  std::vector<double> all(2 * static_cast<std::size_t>(size));
  for (int r = 0; r < o.repeats; ++r) {
    double pack_s = 0;
    double unpack_s = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int k = 0; k < o.iters; ++k) exchange(x, f, b, req, pack_s, unpack_s);
    MPI_Barrier(MPI_COMM_WORLD);
    const double mine = (MPI_Wtime() - t0) / o.iters;
    Block block;
    MPI_Reduce(&mine, &block.time, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    const double phases[2] = {pack_s / o.iters, unpack_s / o.iters};
    MPI_Gather(phases, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (std::size_t q = 0; q < all.size(); q += 2) {
      if (all[q] + all[q + 1] > block.pack + block.unpack) block.pack = all[q], block.unpack = all[q + 1];
    }
    blocks.push_back(block);
  }
  std::sort(blocks.begin(), blocks.end(), [](const Block& l, const Block& r) { return l.time < r.time; });
  return blocks[blocks.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  const std::string why = parse(argc, argv, size, o);
  if (!why.empty()) {
    if (rank == 0) std::fprintf(stderr, "halobw-onepass-exchange: %s\n", why.c_str());
    MPI_Finalize();
    return 2;
  }
  if (o.new_comm) {  // what any program that makes a communicator leaves its MPI doing (docs/method.md)
    MPI_Comm made = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &made);
    MPI_Comm_free(&made);
  }
  const int c[3] = {rank % o.g[0], rank / o.g[0] % o.g[1], rank / (o.g[0] * o.g[1])};
  Brick b{};
  b.h = o.h;
  for (int a = 0; a < 3; ++a) b.e[a] = o.n / o.g[a], b.p[a] = b.e[a] + 2 * o.h;
  double* f = place(static_cast<std::size_t>(b.p[0] * b.p[1] * b.p[2]), o.huge);
  Exchange x = plan(o, b, c);
  if (o.datatype) x.typed = typed_pieces(o, b, c);
  std::vector<MPI_Request> req(2 * std::max(x.sends.size(), x.typed.size()));
  double pack_s = 0;
  double unpack_s = 0;
  visit(f, b, c, o, false);
  exchange(x, f, b, req, pack_s, unpack_s);
  long wrong = visit(f, b, c, o, true);
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (wrong != 0) {
    if (rank == 0)
      std::fprintf(stderr, "halobw-onepass-exchange: %ld cells wrong after one exchange\n", wrong);
    MPI_Finalize();
    return 1;
  }
  for (int w = 0; w < o.warmup; ++w) exchange(x, f, b, req, pack_s, unpack_s);
  const Block median = timed(o, x, f, b, req, size);
  long sent = 0;
  for (const Wire& w : x.sends) sent += w.peer == rank ? 0 : 8 * w.count;
  if (rank == 0)
    std::printf("%.3f %.3f %.3f %ld\n", median.time * 1e6, median.pack * 1e6, median.unpack * 1e6, sent);
  for (Typed& t : x.typed) MPI_Type_free(&t.send), MPI_Type_free(&t.recv);
  std::free(f);
  std::free(x.send);
  std::free(x.recv);
  MPI_Finalize();
  return 0;
}
