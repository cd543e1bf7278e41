// The message table of one rank: which pieces travel through MPI and which
// are copied locally, the fields each message carries, its tag, and where it
// sits in the packed send and receive buffers. Pure, from the piece table;
// the exchanger moves exactly these messages, the memory preflight counts
// exactly these buffers, and --breakdown's transfer sends the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

struct Message {
  int piece = 0;        // index into RankPlan::pieces
  int first_field = 0;  // the fields it carries, one after another in the packed buffer
  int fields = 1;
  int tag = 0;
  std::size_t offset = 0;  // values, into both packed buffers (a message's send and
                           // receive have the same size: same extents across the face)
  std::size_t count = 0;   // values
};

struct MessageTable {
  std::vector<Message> messages;  // through MPI
  std::vector<int> copies;        // pieces copied locally (self pieces with --self copy), every field
  std::size_t buffer_values = 0;  // the length of each packed buffer (send, receive)
};

// Aggregated: one message per piece carrying every field (tag: the direction);
// separate: one message per piece and field (tag: direction + 26 x field).
// A piece at a wall on one side still has its message on the other (sent, or
// received); one with walls on both sides has none.
[[nodiscard]] MessageTable make_message_table(const RankPlan& plan, SelfMode self,
                                              Messages mode = Messages::aggregated);

// Which box of a message's piece its copies read or fill: the owned cells
// it sends, or the ghost cells its receive fills.
enum class BoxSide { send, recv };

// The messages whose boxes on `side` share a line of a field (the same field,
// and y and z ranges that meet), directly or through others, as groups
// ordered by their first message, each in the table's order. The host packs
// (or unpacks) each group in one pass over its lines: the -x and +x faces
// share all their lines, two z faces none.
[[nodiscard]] std::vector<std::vector<int>> line_groups(const RankPlan& plan, const MessageTable& table,
                                                        BoxSide side);

// What the exchanger allocates besides the fields, in values of 8 bytes.
struct BufferSizes {
  std::size_t packed = 0;   // each of the send and receive buffers, where the field lives
  std::size_t staging = 0;  // each of their host copies (staged transport)
};
// Packed buffers exist on packing transports and, for --breakdown's transfer, on all.
[[nodiscard]] BufferSizes buffer_sizes(const MessageTable& table, Transport transport, bool breakdown);

}  // namespace halobw
