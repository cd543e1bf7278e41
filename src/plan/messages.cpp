#include "halobw/plan/messages.hpp"

#include <climits>
#include <numeric>
#include <utility>

namespace halobw {

namespace {

bool share_lines(const Box& a, const Box& b) {
  for (int axis = 1; axis < 3; ++axis) {
    if (a.lo[axis] >= b.hi[axis] || b.lo[axis] >= a.hi[axis]) return false;
  }
  return true;
}

bool share_lines(const RankPlan& plan, const Message& a, const Message& b, BoxSide side) {
  if (a.first_field >= b.first_field + b.fields || b.first_field >= a.first_field + a.fields) return false;
  auto box = [&](const Part& part) -> const Box& {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(part.piece)];
    return side == BoxSide::send ? piece.send_box : piece.recv_box;
  };
  for (const Part& pa : a.parts) {
    for (const Part& pb : b.parts) {
      if (share_lines(box(pa), box(pb))) return true;
    }
  }
  return false;
}

// The pieces that travel through MPI, each list one message's, in direction order.
std::vector<std::vector<int>> message_pieces(const RankPlan& plan, const std::vector<int>& travelling,
                                             Messages mode, PackMode pack, const StructRule& rule) {
  std::vector<std::vector<int>> out;
  if (mode != Messages::peer && mode != Messages::automatic) {
    for (const int p : travelling) out.push_back({p});
    return out;
  }
  const bool by_size = mode == Messages::automatic && pack == PackMode::datatype;
  const std::size_t limit = INT_MAX / static_cast<std::size_t>(plan.fields);  // cells in one MPI count
  std::vector<std::pair<int, int>> peers;  // the pairs of peers met so far (sent to, received from)
  std::vector<int> open;                   // per pair: its message in `out` that takes its next piece
  std::vector<std::size_t> cells;          // per message of `out`: its cells
  for (const int p : travelling) {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(p)];
    if (by_size && rule.alone(piece_bytes(piece) * static_cast<std::uint64_t>(plan.fields))) {
      out.push_back({p});
      cells.push_back(static_cast<std::size_t>(piece.cells()));
      continue;
    }
    const std::pair<int, int> key{piece.send_peer, piece.recv_peer};
    const auto n = static_cast<std::size_t>(piece.cells());
    std::size_t k = 0;
    while (k < peers.size() && peers[k] != key) ++k;
    if (k == peers.size()) {
      peers.push_back(key);
      open.push_back(-1);
    }
    int& m = open[k];
    if (m < 0 || cells[static_cast<std::size_t>(m)] + n > limit) {
      m = static_cast<int>(out.size());
      out.emplace_back();
      cells.push_back(0);
    }
    out[static_cast<std::size_t>(m)].push_back(p);
    cells[static_cast<std::size_t>(m)] += n;
  }
  return out;
}

}  // namespace

MessageTable make_message_table(const RankPlan& plan, SelfMode self, Messages mode, PackMode pack,
                                const StructRule& rule) {
  MessageTable t;
  std::vector<int> travelling;
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    const Piece& piece = plan.pieces[p];
    if (!piece.sends() && !piece.receives()) continue;  // walls on both sides: nothing travels
    if (piece.self && self == SelfMode::copy) {
      t.copies.push_back(static_cast<int>(p));
    } else {
      travelling.push_back(static_cast<int>(p));
    }
  }
  std::size_t offset = 0;
  const bool one = mode != Messages::separate || plan.fields == 1;
  for (const std::vector<int>& pieces : message_pieces(plan, travelling, mode, pack, rule)) {
    const Piece& first = plan.pieces[static_cast<std::size_t>(pieces.front())];
    for (int f = 0; f < (one ? 1 : plan.fields); ++f) {
      Message m;
      m.first_field = f;
      m.fields = one ? plan.fields : 1;
      m.tag = first.dir + (one ? 0 : kDirections * f);
      m.offset = offset;
      for (const int p : pieces) {
        m.parts.push_back({p, offset});
        offset += static_cast<std::size_t>(plan.pieces[static_cast<std::size_t>(p)].cells()) *
                  static_cast<std::size_t>(m.fields);
      }
      m.count = offset - m.offset;
      t.messages.push_back(std::move(m));
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
