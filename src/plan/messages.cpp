#include "halobw/plan/messages.hpp"

namespace halobw {

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

BufferSizes buffer_sizes(const MessageTable& table, Transport transport, bool breakdown) {
  BufferSizes b;
  if (packs(transport) || breakdown) b.packed = table.buffer_values;
  if (transport == Transport::staged) b.staging = table.buffer_values;
  return b;
}

}  // namespace halobw
