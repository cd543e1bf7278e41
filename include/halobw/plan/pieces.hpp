// The piece table of one rank: for each direction exchanged, the owned cells
// it sends, the ghost cells it fills, the peers, the tag, the cells and the
// class (remote, self, off-node). A piece is a face, an edge or a corner of
// the brick: one box of owned cells sent to the neighbour at offset (dx, dy,
// dz), and one box of ghost cells filled from the opposite neighbour. Pure
// data, computed once per row; the exchanger, the checker, the memory count
// and the reporter all read the same table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/plan/grid.hpp"

namespace halobw {

// The 26 directions of travel, numbered once: faces 0..5 (-x, +x, -y, +y,
// -z, +z), edges 6..17, corners 18..25. A message travelling in direction d
// has tag d; its receiver files it under the same d.
constexpr int kDirections = 26;
constexpr int kFaceDirections = 6;
using Offset3 = std::array<int, 3>;
[[nodiscard]] const Offset3& offset_of(int dir);
[[nodiscard]] int direction_of(const Offset3& d);  // -1 for (0, 0, 0)
[[nodiscard]] int opposite(int dir);
[[nodiscard]] std::string direction_name(int dir);  // "-x", "+x-y", "-x+y+z"

// Face directions 0..5 as (axis, side).
[[nodiscard]] constexpr int direction(int axis, int side) { return 2 * axis + (side > 0 ? 1 : 0); }
[[nodiscard]] constexpr int axis_of(int dir) { return dir / 2; }
[[nodiscard]] constexpr int side_of(int dir) { return dir % 2 == 0 ? -1 : +1; }

enum class PieceKind { face = 1, edge = 2, corner = 3 };  // the number of axes crossed
[[nodiscard]] const char* kind_name(PieceKind k);         // "face", "edge", "corner"

// The directions of a star exchange over `axes` (faces only), or all 26.
[[nodiscard]] std::vector<int> star_directions(const AxisSet& axes);
[[nodiscard]] std::vector<int> box_directions();

struct Piece {
  int dir = 0;            // direction of travel of the message this piece sends
  int send_peer = 0;      // rank that receives what this rank sends in `dir`; kNoRank across a wall
  int recv_peer = 0;      // rank whose message travelling in `dir` lands here; kNoRank across a wall
  bool self = false;      // the neighbour is this rank (an undivided periodic axis)
  bool off_node = false;  // sent to a rank on another node
  Box send_box;           // owned cells next to the `dir` side, padded local indices
  Box recv_box;           // ghost cells on the opposite side, padded local indices

  [[nodiscard]] PieceKind kind() const;
  [[nodiscard]] std::int64_t cells() const { return send_box.cells(); }  // per field
  [[nodiscard]] bool sends() const { return send_peer != kNoRank; }      // else its owned cells stay
  [[nodiscard]] bool receives() const { return recv_peer != kNoRank; }   // else its ghost cells stay
};

// What one row exchanges: the global box, the halo width, the directions,
// the fields, and which axes wrap around (the others have walls: the pieces
// at a wall have no neighbour and are neither sent nor filled).
struct Shape {
  Index3 global{0, 0, 0};
  int halo = 1;
  std::vector<int> dirs;
  int fields = 1;
  AxisSet periodic{true, true, true};
};

struct PieceCounts {
  int remote_faces = 0;
  int self_faces = 0;
  int offnode_faces = 0;
  int boundary_faces = 0;  // faces at a wall: no neighbour to send to
  int remote_edges = 0;
  int remote_corners = 0;
};

struct RankPlan {
  int rank = 0;
  int halo = 1;
  int fields = 1;
  Index3 global{0, 0, 0};
  Brick brick{};
  Index3 padded{};  // local extents with h ghost layers on each side
  std::vector<Piece> pieces;
  std::uint64_t remote_bytes = 0;   // every field's bytes to other ranks
  std::uint64_t offnode_bytes = 0;  // of those, to ranks on other nodes
  PieceCounts counts;

  [[nodiscard]] std::uint64_t field_values() const {
    return static_cast<std::uint64_t>(padded[0]) * static_cast<std::uint64_t>(padded[1]) *
           static_cast<std::uint64_t>(padded[2]);
  }
};

// `node_of_rank[r]` is the node of rank r; empty means one node for all.
[[nodiscard]] RankPlan make_rank_plan(const ProcGrid& grid, const Shape& shape, int rank,
                                      const std::vector<int>& node_of_rank = {});

// What a stencil of reach h touches on one rank (--overlap): the owned box,
// the interior whose stencil needs no ghost cell, and the border (the owned
// cells that do), as disjoint boxes. `reach` holds the axes the stencil
// reaches along (the exchanged ones); along the others it needs no ghost.
struct StencilBoxes {
  Box owned;
  Box interior;             // empty where an axis is shorter than 2h
  std::vector<Box> border;  // at most 6 slabs: z first (whole x-y planes), then y, then x
};
[[nodiscard]] StencilBoxes stencil_boxes(const RankPlan& plan, const AxisSet& reach);

// The bytes of one field's piece: 8 * (product of its extents); a face is
// 8·h·(the two other local extents), an edge 8·h²·(the extent along it), a corner 8·h³.
[[nodiscard]] std::uint64_t piece_bytes(const Piece& p);

}  // namespace halobw
