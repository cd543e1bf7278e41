#include "halobw/plan/pieces.hpp"

#include <algorithm>

namespace halobw {

namespace {

// Faces in the order of the seed (-x, +x, -y, +y, -z, +z), then the 12 edges
// (axis pairs xy, xz, yz; signs --, +-, -+, ++), then the 8 corners (x fastest).
std::array<Offset3, kDirections> make_offsets() {
  std::array<Offset3, kDirections> o{};
  int n = 0;
  for (int a = 0; a < 3; ++a) {
    for (int side : {-1, +1}) {
      Offset3 d{0, 0, 0};
      d[a] = side;
      o[n++] = d;
    }
  }
  for (const auto& [a, b] : {std::pair<int, int>{0, 1}, {0, 2}, {1, 2}}) {
    for (int sb : {-1, +1}) {
      for (int sa : {-1, +1}) {
        Offset3 d{0, 0, 0};
        d[a] = sa;
        d[b] = sb;
        o[n++] = d;
      }
    }
  }
  for (int sz : {-1, +1}) {
    for (int sy : {-1, +1}) {
      for (int sx : {-1, +1}) o[n++] = {sx, sy, sz};
    }
  }
  return o;
}

const std::array<Offset3, kDirections>& offsets() {
  static const std::array<Offset3, kDirections> o = make_offsets();
  return o;
}

// Along one axis: owned cells [h, h+n); an offset of +1 sends the last h owned
// layers and fills the low ghost layers, -1 the first h and the high ghosts.
void set_range(Box& send, Box& recv, int axis, int d, std::int64_t n, std::int64_t h) {
  if (d > 0) {
    send.lo[axis] = n;
    send.hi[axis] = n + h;
    recv.lo[axis] = 0;
    recv.hi[axis] = h;
  } else if (d < 0) {
    send.lo[axis] = h;
    send.hi[axis] = 2 * h;
    recv.lo[axis] = n + h;
    recv.hi[axis] = n + 2 * h;
  } else {
    send.lo[axis] = recv.lo[axis] = h;
    send.hi[axis] = recv.hi[axis] = h + n;
  }
}

// Counts the piece into its rank's plan: the bytes it sends and its class.
void count_piece(const Piece& piece, int fields, RankPlan& p) {
  PieceCounts& c = p.counts;
  const PieceKind kind = piece.kind();
  if (!piece.sends()) {
    c.boundary_faces += kind == PieceKind::face;
    return;
  }
  if (piece.self) {
    c.self_faces += kind == PieceKind::face;
    return;
  }
  const std::uint64_t bytes = piece_bytes(piece) * static_cast<std::uint64_t>(fields);
  p.remote_bytes += bytes;
  p.offnode_bytes += piece.off_node ? bytes : 0;
  c.remote_faces += kind == PieceKind::face;
  c.offnode_faces += kind == PieceKind::face && piece.off_node;
  c.remote_edges += kind == PieceKind::edge;
  c.remote_corners += kind == PieceKind::corner;
}

}  // namespace

const Offset3& offset_of(int dir) { return offsets()[static_cast<std::size_t>(dir)]; }

int direction_of(const Offset3& d) {
  const auto& o = offsets();
  const auto it = std::find(o.begin(), o.end(), d);
  return it == o.end() ? -1 : static_cast<int>(it - o.begin());
}

int opposite(int dir) {
  const Offset3& d = offset_of(dir);
  return direction_of({-d[0], -d[1], -d[2]});
}

std::string direction_name(int dir) {
  const Offset3& d = offset_of(dir);
  std::string s;
  for (int a = 0; a < 3; ++a) {
    if (d[a] != 0) s += std::string(d[a] < 0 ? "-" : "+") + "xyz"[a];
  }
  return s;
}

std::vector<int> star_directions(const AxisSet& axes) {
  std::vector<int> dirs;
  for (int dir = 0; dir < kFaceDirections; ++dir) {
    if (axes[static_cast<std::size_t>(axis_of(dir))]) dirs.push_back(dir);
  }
  return dirs;
}

std::vector<int> box_directions() {
  std::vector<int> dirs(kDirections);
  for (int d = 0; d < kDirections; ++d) dirs[static_cast<std::size_t>(d)] = d;
  return dirs;
}

const char* kind_name(PieceKind k) {
  return k == PieceKind::face ? "face" : k == PieceKind::edge ? "edge" : "corner";
}

PieceKind Piece::kind() const {
  const Offset3& d = offset_of(dir);
  return static_cast<PieceKind>((d[0] != 0) + (d[1] != 0) + (d[2] != 0));
}

std::uint64_t piece_bytes(const Piece& p) { return static_cast<std::uint64_t>(p.cells()) * sizeof(double); }

RankPlan make_rank_plan(const ProcGrid& grid, const Shape& shape, int rank,
                        const std::vector<int>& node_of_rank) {
  RankPlan p;
  p.rank = rank;
  p.halo = shape.halo;
  p.fields = shape.fields;
  p.global = shape.global;
  p.brick = brick_of(grid, shape.global, rank);
  const std::int64_t h = shape.halo;
  for (int a = 0; a < 3; ++a) p.padded[a] = p.brick.extent[a] + 2 * h;
  auto node = [&](int r) { return node_of_rank.empty() ? 0 : node_of_rank[static_cast<std::size_t>(r)]; };
  for (const int dir : shape.dirs) {
    const Offset3& d = offset_of(dir);
    Piece piece;
    piece.dir = dir;
    piece.send_peer = grid.neighbour_at(rank, d, shape.periodic);
    piece.recv_peer = grid.neighbour_at(rank, {-d[0], -d[1], -d[2]}, shape.periodic);
    piece.self = piece.send_peer == rank;
    piece.off_node = piece.sends() && !piece.self && node(piece.send_peer) != node(rank);
    for (int a = 0; a < 3; ++a) set_range(piece.send_box, piece.recv_box, a, d[a], p.brick.extent[a], h);
    count_piece(piece, shape.fields, p);
    p.pieces.push_back(piece);
  }
  return p;
}

StencilBoxes stencil_boxes(const RankPlan& plan, const AxisSet& reach) {
  StencilBoxes s;
  const std::int64_t h = plan.halo;
  for (int a = 0; a < 3; ++a) {
    s.owned.lo[a] = h;
    s.owned.hi[a] = h + plan.brick.extent[a];
  }
  s.interior = s.owned;
  bool any = true;
  for (int a = 0; a < 3; ++a) {
    if (!reach[static_cast<std::size_t>(a)]) continue;
    s.interior.lo[a] = 2 * h;
    s.interior.hi[a] = plan.brick.extent[a];  // h + n - h
    any = any && s.interior.hi[a] > s.interior.lo[a];
  }
  if (!any) {  // too thin for an interior: all of it is border
    s.interior = Box{};
    s.border.push_back(s.owned);
    return s;
  }
  // Peel the slabs off axis by axis, z first, so each is one long run in memory.
  Box rest = s.owned;
  for (int a = 2; a >= 0; --a) {
    if (!reach[static_cast<std::size_t>(a)]) continue;
    Box low = rest;
    low.hi[a] = s.interior.lo[a];
    Box high = rest;
    high.lo[a] = s.interior.hi[a];
    if (!low.empty()) s.border.push_back(low);
    if (!high.empty()) s.border.push_back(high);
    rest.lo[a] = s.interior.lo[a];
    rest.hi[a] = s.interior.hi[a];
  }
  return s;
}

}  // namespace halobw
