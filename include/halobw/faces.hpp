// The face table of one rank: for each selected direction, the owned cells it
// sends, the ghost cells it fills, the peers, the tag, the bytes and the class
// (remote, self, off-node). Pure data, computed once per size; the exchanger,
// the checker and the reporter all read the same table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/box.hpp"
#include "halobw/grid.hpp"

namespace halobw {

using AxisSet = std::array<bool, 3>;

// Directions 0..5 are -x, +x, -y, +y, -z, +z: the way the message travels.
constexpr int kDirections = 6;
[[nodiscard]] constexpr int direction(int axis, int side) { return 2 * axis + (side > 0 ? 1 : 0); }
[[nodiscard]] constexpr int axis_of(int dir) { return dir / 2; }
[[nodiscard]] constexpr int side_of(int dir) { return dir % 2 == 0 ? -1 : +1; }
[[nodiscard]] std::string direction_name(int dir);  // "-x" ... "+z"

struct Face {
  int dir = 0;        // direction of travel of the message this face sends
  int send_peer = 0;  // rank that receives what this rank sends in `dir`
  int recv_peer = 0;  // rank whose message travelling in `dir` lands here
  int tag = 0;        // the direction: both messages between one pair never cross
  bool self = false;  // the neighbour is this rank (undivided periodic axis)
  bool off_node = false;
  Box send_box;  // owned layers next to the `dir` side, padded local indices
  Box recv_box;  // ghost layers on the opposite side, padded local indices
  std::uint64_t bytes = 0;

  [[nodiscard]] std::int64_t cells() const { return send_box.cells(); }
};

struct RankPlan {
  int rank = 0;
  int halo = 1;
  std::int64_t n = 0;  // global cube side
  Brick brick{};
  Index3 padded{};  // local extents with h ghost layers on each side
  std::vector<Face> faces;
  std::uint64_t remote_bytes = 0;
  int remote_faces = 0;
  int self_faces = 0;
  int offnode_faces = 0;
};

// `hosts[r]` is the host name of rank r; empty means one host for all.
[[nodiscard]] RankPlan make_rank_plan(const ProcGrid& grid, std::int64_t n, int halo, const AxisSet& axes,
                                      int rank, const std::vector<std::string>& hosts = {});

// 8 * h * (product of the two other local extents).
[[nodiscard]] std::uint64_t face_bytes(const Index3& extent, int axis, int halo);

// Remote send bytes of the least and the most sending rank, from the plans of all ranks.
struct SendRange {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};
[[nodiscard]] SendRange send_range(const ProcGrid& grid, std::int64_t n, int halo, const AxisSet& axes);

}  // namespace halobw
