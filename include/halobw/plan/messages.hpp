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

// One piece of a message: its cells of each field the message carries, the
// fields one after another, from `offset` in both packed buffers.
struct Part {
  int piece = 0;           // index into RankPlan::pieces
  std::size_t offset = 0;  // values
};

struct Message {
  // Its pieces in direction order: every one goes to the same rank and comes
  // from the same rank (the peers of its first).
  std::vector<Part> parts;
  int first_field = 0;  // the fields it carries
  int fields = 1;
  int tag = 0;
  std::size_t offset = 0;  // values, into both packed buffers (a message's send and
                           // receive have the same size: same extents across the face)
  std::size_t count = 0;   // values, all its parts
  [[nodiscard]] int piece() const { return parts.front().piece; }  // the first
};

struct MessageTable {
  std::vector<Message> messages;  // through MPI
  std::vector<int> copies;        // pieces copied locally (self pieces with --self copy), every field
  std::size_t buffer_values = 0;  // the length of each packed buffer (send, receive)
};

// Peer: one message per pair of peers (the rank sent to, the rank received
// from) carrying every field of every piece between them, tagged by its
// first piece's direction; past INT_MAX values (one MPI count) the next piece
// starts a new message. Aggregated: one message per piece carrying every
// field (tag: the direction); separate: one message per piece and field
// (tag: direction + 26 x field). A piece at a wall on one side still has its
// message on the other (sent, or received); one with walls on both sides has
// none.
//
// Why the peer mode pairs up: on a Cartesian grid the rank a piece goes to
// fixes its direction along each divided axis (up to the wrap of 2 ranks, on
// which -1 and +1 reach the same rank), so it also fixes the rank it comes
// from, and the pieces this rank sends to R are exactly those R receives from
// it, in the same direction order, with the same extents.
//
// Automatic, the default, is peer on the kernel path. On the datatype path a
// peer's message is one struct of its pieces' subarrays; MPI libraries move a
// struct of large subarrays more slowly than the same subarrays sent one by
// one, while a struct of small ones saves their messages' costs. So there a
// piece that `rule` sends alone (by its bytes, all fields; cli/settings.hpp:
// the MPI library's rule) travels as its own message, and the others share
// their peer's struct.
// Both ranks of a pair see the same pieces with the same extents, so they
// split alike. The figures behind the limit: docs/method.md, "The messages".
[[nodiscard]] MessageTable make_message_table(const RankPlan& plan, SelfMode self,
                                              Messages mode = Messages::automatic,
                                              PackMode pack = PackMode::kernel,
                                              const StructRule& rule = StructRule{});

// Which box of a message's pieces its copies read or fill: the owned cells
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
