// The peer mode of the message table (--messages peer, the default): every
// piece between two ranks in one message, and the messages of every pair of
// ranks agreeing on both sides, on every kind of grid.
#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/plan/routes.hpp"

using namespace halobw;

namespace {

struct Case {
  Dims3 grid;
  Index3 global;
  int halo;
  bool box;
  AxisSet periodic;
  int fields;
  SelfMode self;
};

std::string name(const Case& c) {
  return std::to_string(c.grid[0]) + "x" + std::to_string(c.grid[1]) + "x" + std::to_string(c.grid[2]) +
         " N=" + std::to_string(c.global[0]) + "," + std::to_string(c.global[1]) + "," +
         std::to_string(c.global[2]) + " h=" + std::to_string(c.halo) + (c.box ? " box" : " faces") +
         " periodic=" + std::to_string(c.periodic[0]) + std::to_string(c.periodic[1]) +
         std::to_string(c.periodic[2]) + " fields=" + std::to_string(c.fields) +
         (c.self == SelfMode::mpi ? " self mpi" : " self copy");
}

std::vector<RankPlan> plans(const Case& c) {
  const ProcGrid g(c.grid);
  Shape s;
  s.global = c.global;
  s.halo = c.halo;
  s.dirs = c.box ? box_directions() : star_directions({true, true, true});
  s.fields = c.fields;
  s.periodic = c.periodic;
  std::vector<RankPlan> out;
  for (int r = 0; r < g.size(); ++r) out.push_back(make_rank_plan(g, s, r));
  return out;
}

// A message's directions, in its order.
std::vector<int> dirs(const RankPlan& p, const Message& m) {
  std::vector<int> d;
  for (const Part& part : m.parts) d.push_back(p.pieces[static_cast<std::size_t>(part.piece)].dir);
  return d;
}

}  // namespace

// What rank r sends to S, message by message, is what S receives from r:
// the same directions in the same order, the same count, the same tag; each
// message goes to one rank and comes from one; every piece that travels is
// in exactly one message, packed back to back; and a rank sends at most one
// message to each rank (none of these cases reaches INT_MAX values).
TEST(PeerMessages, EveryPairOfRanksAgrees) {
  std::vector<Case> cases;
  for (const Dims3& grid : {Dims3{2, 1, 1}, Dims3{1, 1, 2}, Dims3{2, 2, 2}, Dims3{3, 2, 1}, Dims3{3, 3, 3},
                            Dims3{2, 3, 4}, Dims3{4, 1, 1}, Dims3{1, 1, 1}}) {
    for (const bool box : {false, true}) {
      for (const AxisSet& periodic : {AxisSet{true, true, true}, AxisSet{false, true, false}}) {
        for (const SelfMode self : {SelfMode::copy, SelfMode::mpi}) {
          cases.push_back({grid, {13, 14, 15}, 2, box, periodic, 2, self});
        }
      }
    }
  }
  cases.push_back({{2, 2, 2}, {12, 12, 12}, 1, true, {true, true, true}, 1, SelfMode::copy});
  for (const Case& c : cases) {
    const std::vector<RankPlan> all = plans(c);
    std::vector<MessageTable> tables;
    for (const RankPlan& p : all) tables.push_back(make_message_table(p, c.self));
    for (std::size_t r = 0; r < all.size(); ++r) {
      const RankPlan& p = all[r];
      const MessageTable& t = tables[r];
      std::multiset<int> seen(t.copies.begin(), t.copies.end());
      std::set<int> sent_to;
      std::size_t offset = 0;
      for (const Message& m : t.messages) {
        const Piece& first = p.pieces[static_cast<std::size_t>(m.piece())];
        EXPECT_EQ(m.offset, offset) << name(c);
        EXPECT_EQ(m.tag, first.dir) << name(c);
        EXPECT_EQ(m.fields, c.fields) << name(c);
        std::size_t values = 0;
        for (const Part& part : m.parts) {
          const Piece& piece = p.pieces[static_cast<std::size_t>(part.piece)];
          seen.insert(part.piece);
          EXPECT_EQ(piece.send_peer, first.send_peer) << name(c);
          EXPECT_EQ(piece.recv_peer, first.recv_peer) << name(c);
          EXPECT_EQ(part.offset, offset + values) << name(c);
          values += static_cast<std::size_t>(piece.cells()) * static_cast<std::size_t>(m.fields);
        }
        EXPECT_EQ(m.count, values) << name(c);
        offset += m.count;
        if (!first.sends()) continue;
        EXPECT_TRUE(sent_to.insert(first.send_peer).second) << name(c) << ": two messages to one rank";
        // Its twin on the receiver: the message from r with the same tag.
        const RankPlan& q = all[static_cast<std::size_t>(first.send_peer)];
        int twins = 0;
        for (const Message& n : tables[static_cast<std::size_t>(first.send_peer)].messages) {
          if (q.pieces[static_cast<std::size_t>(n.piece())].recv_peer != static_cast<int>(r) ||
              n.tag != m.tag)
            continue;
          ++twins;
          EXPECT_EQ(dirs(q, n), dirs(p, m)) << name(c);
          EXPECT_EQ(n.count, m.count) << name(c);
        }
        EXPECT_EQ(twins, 1) << name(c) << ": rank " << r << " tag " << m.tag;
      }
      EXPECT_EQ(t.buffer_values, offset) << name(c);
      // Every piece that has a peer on either side, once.
      std::multiset<int> travelling;
      for (std::size_t i = 0; i < p.pieces.size(); ++i) {
        if (p.pieces[i].sends() || p.pieces[i].receives()) travelling.insert(static_cast<int>(i));
      }
      EXPECT_EQ(seen, travelling) << name(c);
    }
  }
}

// The peer mode sends no more values than the per-piece mode, in fewer
// messages where several pieces go to one rank: ±x on 2x1x1 is one message
// each way, the box on 2x2x2 one per neighbour (7), not one per piece (26).
TEST(PeerMessages, OnePerNeighbour) {
  const Case x{{2, 1, 1}, {16, 16, 16}, 1, false, {true, true, true}, 1, SelfMode::copy};
  Shape s;
  s.global = x.global;
  s.dirs = star_directions({true, false, false});
  const RankPlan px = make_rank_plan(ProcGrid(x.grid), s, 0);
  const MessageTable one = make_message_table(px, SelfMode::copy);
  ASSERT_EQ(one.messages.size(), 1u);
  EXPECT_EQ(dirs(px, one.messages[0]), (std::vector<int>{0, 1}));
  EXPECT_EQ(one.buffer_values, make_message_table(px, SelfMode::copy, Messages::aggregated).buffer_values);
  const std::vector<Route> routes = plan_routes(px, one);
  EXPECT_EQ(routes[0].what_recv, "the +x, -x ghost faces from rank 1 (receive, tag 0)");
  EXPECT_EQ(routes[0].what_send, "rank 1 to take the faces sent -x, +x (send, tag 0)");

  const Case box{{2, 2, 2}, {16, 16, 16}, 1, true, {true, true, true}, 1, SelfMode::copy};
  const RankPlan pb = plans(box)[0];
  const MessageTable t = make_message_table(pb, SelfMode::copy);
  ASSERT_EQ(t.messages.size(), 7u);
  std::map<std::size_t, int> parts;  // parts per message -> messages
  for (const Message& m : t.messages) ++parts[m.parts.size()];
  EXPECT_EQ(parts, (std::map<std::size_t, int>{{2, 3}, {4, 3}, {8, 1}}));  // faces, edges, corners
  EXPECT_EQ(plan_routes(pb, t)[6].what_recv.find("the "), 0u);
  EXPECT_NE(plan_routes(pb, t)[6].what_recv.find(" ghost corners from rank 7"), std::string::npos);
  EXPECT_EQ(make_message_table(pb, SelfMode::copy, Messages::aggregated).messages.size(), 26u);
}

// One MPI count holds at most INT_MAX values: the next piece for the same
// rank starts a new message, on both sides alike. Two x faces of 40,000^2
// cells (1.6e9 each, 3.2e9 together) are two messages, each its own tag.
TEST(PeerMessages, SplitBeforeIntMax) {
  const Case c{{2, 1, 1}, {40000, 40000, 40000}, 1, false, {true, true, true}, 1, SelfMode::copy};
  Shape s;
  s.global = c.global;
  s.dirs = star_directions({true, false, false});
  for (int r = 0; r < 2; ++r) {
    const RankPlan p = make_rank_plan(ProcGrid(c.grid), s, r);
    const MessageTable t = make_message_table(p, SelfMode::copy);
    ASSERT_EQ(t.messages.size(), 2u);
    for (const Message& m : t.messages) {
      EXPECT_EQ(m.parts.size(), 1u);
      EXPECT_LE(m.count, static_cast<std::size_t>(INT_MAX));
    }
    EXPECT_EQ(t.messages[0].tag, 0);
    EXPECT_EQ(t.messages[1].tag, 1);
  }
}
