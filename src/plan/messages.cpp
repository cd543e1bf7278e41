#include "halobw/plan/messages.hpp"

#include <numeric>

namespace halobw {

namespace {

bool share_lines(const RankPlan& plan, const Message& a, const Message& b, BoxSide side) {
  if (a.first_field >= b.first_field + b.fields || b.first_field >= a.first_field + a.fields) return false;
  const Piece& pa = plan.pieces[static_cast<std::size_t>(a.piece)];
  const Piece& pb = plan.pieces[static_cast<std::size_t>(b.piece)];
  const Box& ba = side == BoxSide::send ? pa.send_box : pa.recv_box;
  const Box& bb = side == BoxSide::send ? pb.send_box : pb.recv_box;
  for (int axis = 1; axis < 3; ++axis) {
    if (ba.lo[axis] >= bb.hi[axis] || bb.lo[axis] >= ba.hi[axis]) return false;
  }
  return true;
}

}  // namespace

MessageTable make_message_table(const RankPlan& plan, SelfMode self, Messages mode) {
  MessageTable t;
  std::size_t offset = 0;
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    const Piece& piece = plan.pieces[p];
    if (!piece.sends() && !piece.receives()) continue;  // walls on both sides: nothing travels
    if (piece.self && self == SelfMode::copy) {
      t.copies.push_back(static_cast<int>(p));
      continue;
    }
    const bool one = mode == Messages::aggregated || plan.fields == 1;
    for (int f = 0; f < (one ? 1 : plan.fields); ++f) {
      Message m;
      m.piece = static_cast<int>(p);
      m.first_field = f;
      m.fields = one ? plan.fields : 1;
      m.tag = piece.dir + (one ? 0 : kDirections * f);
      m.offset = offset;
      m.count = static_cast<std::size_t>(piece.cells()) * static_cast<std::size_t>(m.fields);
      offset += m.count;
      t.messages.push_back(m);
    }
  }
  t.buffer_values = offset;
  return t;
}

std::vector<std::vector<int>> line_groups(const RankPlan& plan, const MessageTable& table, BoxSide side) {
  const std::size_t n = table.messages.size();
  std::vector<std::size_t> root(n);  // union-find over the messages
  std::iota(root.begin(), root.end(), std::size_t{0});
  auto find = [&root](std::size_t m) {
    while (root[m] != m) m = root[m] = root[root[m]];
    return m;
  };
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (share_lines(plan, table.messages[a], table.messages[b], side)) root[find(a)] = find(b);
    }
  }
  std::vector<std::vector<int>> groups;
  std::vector<int> group_of(n, -1);  // by root
  for (std::size_t m = 0; m < n; ++m) {
    const std::size_t r = find(m);
    if (group_of[r] < 0) {
      group_of[r] = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    groups[static_cast<std::size_t>(group_of[r])].push_back(static_cast<int>(m));
  }
  return groups;
}

BufferSizes buffer_sizes(const MessageTable& table, Transport transport, bool breakdown) {
  BufferSizes b;
  if (packs(transport) || breakdown) b.packed = table.buffer_values;
  if (transport == Transport::staged) b.staging = table.buffer_values;
  return b;
}

}  // namespace halobw
