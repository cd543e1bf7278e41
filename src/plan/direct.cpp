#include "halobw/plan/direct.hpp"

#include <algorithm>
#include <cstddef>
#include <map>

namespace halobw {

namespace {

void insert_once(std::vector<int>& ranks, int r) {
  if (std::find(ranks.begin(), ranks.end(), r) == ranks.end()) ranks.push_back(r);
}

}  // namespace

DirectPlan plan_direct(const RankPlan& mine, const ProcGrid& grid, const Shape& shape,
                       const std::vector<int>& node_of_rank, SelfMode self, Messages mode) {
  auto node = [&](int r) { return node_of_rank.empty() ? 0 : node_of_rank[static_cast<std::size_t>(r)]; };
  auto near = [&](int r) { return r != kNoRank && r != mine.rank && node(r) == node(mine.rank); };
  DirectPlan d;
  d.wired = mine;
  std::map<int, RankPlan> peers;  // each source's plan, made once
  for (std::size_t i = 0; i < mine.pieces.size(); ++i) {
    const Piece& p = mine.pieces[i];
    Piece& w = d.wired.pieces[i];
    if (near(p.recv_peer)) {
      auto it = peers.find(p.recv_peer);
      if (it == peers.end()) it = peers.emplace(p.recv_peer, make_rank_plan(grid, shape, p.recv_peer)).first;
      const RankPlan& peer = it->second;
      const auto same = std::find_if(peer.pieces.begin(), peer.pieces.end(),
                                     [&](const Piece& q) { return q.dir == p.dir; });
      d.reads.push_back({static_cast<int>(i), p.recv_peer, peer.padded, same->send_box});
      insert_once(d.sources, p.recv_peer);
      w.recv_peer = kNoRank;
    }
    if (near(p.send_peer)) {
      insert_once(d.readers, p.send_peer);
      w.send_peer = kNoRank;
    }
  }
  std::sort(d.sources.begin(), d.sources.end());
  std::sort(d.readers.begin(), d.readers.end());
  d.table = make_message_table(
      d.wired, self, mode == Messages::peer || mode == Messages::automatic ? Messages::aggregated : mode);
  return d;
}

}  // namespace halobw
