// The direct method's plan (--method shm) for one rank: which pieces it fills
// straight from a neighbour's field on its node, where in that neighbour's
// field their cells lie, which neighbours read its own field, and the messages
// that remain for the pieces whose peer is on another node. Pure, from the
// plan of the rank, the grid, the shape and the node of every rank.
#pragma once

#include <vector>

#include "halobw/base/box.hpp"
#include "halobw/cli/settings.hpp"
#include "halobw/plan/grid.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

// A piece whose ghost cells are copied from the owned cells of the rank that
// sends it, on this rank's node: that rank's field has its own padded
// extents (uneven splits), so its box is in its own indices.
struct DirectRead {
  int piece = 0;  // into this rank's pieces
  int peer = 0;   // the rank read from (the piece's recv_peer)
  Index3 peer_padded{0, 0, 0};
  Box peer_box;  // the peer's send box of the same direction
};

struct DirectPlan {
  // This rank's plan with every peer on its node turned into a wall: what the
  // messages (and their copies) are made from.
  RankPlan wired;
  MessageTable table;             // the messages to and from other nodes
  std::vector<DirectRead> reads;  // in the order of the pieces
  std::vector<int> sources;       // the ranks read from, each once, ascending
  std::vector<int> readers;       // the ranks that read this rank's field, each once, ascending
};

// `node_of_rank[r]` is the node of rank r (empty: one node for all). The
// messages are one per piece (Messages::aggregated, or separate where asked):
// which peers a rank reaches directly depends on its node, so two ranks on
// different nodes may group their pieces into peer messages differently,
// while a piece's message is the same on both sides.
[[nodiscard]] DirectPlan plan_direct(const RankPlan& mine, const ProcGrid& grid, const Shape& shape,
                                     const std::vector<int>& node_of_rank, SelfMode self, Messages mode);

}  // namespace halobw
