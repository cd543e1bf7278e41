#include "halobw/faces.hpp"

#include <algorithm>

namespace halobw {

std::string direction_name(int dir) {
  const char* names[kDirections] = {"-x", "+x", "-y", "+y", "-z", "+z"};
  return names[dir];
}

std::uint64_t face_bytes(const Index3& extent, int axis, int halo) {
  auto elems = static_cast<std::uint64_t>(halo);
  for (int a = 0; a < 3; ++a) {
    if (a != axis) elems *= static_cast<std::uint64_t>(extent[a]);
  }
  return elems * sizeof(double);
}

namespace {

// Owned cells are [h, h + n) along each axis of the padded brick.
Box owned_box(const Index3& extent, std::int64_t h) {
  Box b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = h;
    b.hi[a] = h + extent[a];
  }
  return b;
}

Face make_face(const ProcGrid& grid, const Index3& extent, std::int64_t h, int rank, int dir,
               const std::vector<std::string>& hosts) {
  const int axis = axis_of(dir);
  const int side = side_of(dir);
  const std::int64_t n = extent[axis];
  Face f;
  f.dir = dir;
  f.tag = dir;
  f.send_peer = grid.neighbour(rank, axis, side);
  f.recv_peer = grid.neighbour(rank, axis, -side);
  f.self = f.send_peer == rank;
  f.off_node = !f.self && !hosts.empty() && hosts[f.send_peer] != hosts[rank];
  f.send_box = owned_box(extent, h);
  f.recv_box = owned_box(extent, h);
  if (side > 0) {  // last h owned layers go up; they land in the low ghost layers
    f.send_box.lo[axis] = n;
    f.send_box.hi[axis] = n + h;
    f.recv_box.lo[axis] = 0;
    f.recv_box.hi[axis] = h;
  } else {  // first h owned layers go down; they land in the high ghost layers
    f.send_box.lo[axis] = h;
    f.send_box.hi[axis] = 2 * h;
    f.recv_box.lo[axis] = n + h;
    f.recv_box.hi[axis] = n + 2 * h;
  }
  f.bytes = face_bytes(extent, axis, h);
  return f;
}

}  // namespace

RankPlan make_rank_plan(const ProcGrid& grid, std::int64_t n, int halo, const AxisSet& axes, int rank,
                        const std::vector<std::string>& hosts) {
  RankPlan p;
  p.rank = rank;
  p.halo = halo;
  p.n = n;
  p.brick = brick_of(grid, n, rank);
  for (int a = 0; a < 3; ++a) p.padded[a] = p.brick.extent[a] + 2 * std::int64_t{halo};
  for (int dir = 0; dir < kDirections; ++dir) {
    if (!axes[axis_of(dir)]) continue;
    Face f = make_face(grid, p.brick.extent, halo, rank, dir, hosts);
    if (f.self) {
      ++p.self_faces;
    } else {
      ++p.remote_faces;
      p.remote_bytes += f.bytes;
      if (f.off_node) ++p.offnode_faces;
    }
    p.faces.push_back(f);
  }
  return p;
}

SendRange send_range(const ProcGrid& grid, std::int64_t n, int halo, const AxisSet& axes) {
  SendRange r{};
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::uint64_t b = make_rank_plan(grid, n, halo, axes, rank).remote_bytes;
    r.min = rank == 0 ? b : std::min(r.min, b);
    r.max = std::max(r.max, b);
  }
  return r;
}

}  // namespace halobw
