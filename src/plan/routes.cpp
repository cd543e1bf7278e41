#include "halobw/plan/routes.hpp"

namespace halobw {

std::vector<Route> plan_routes(const RankPlan& plan, const MessageTable& table) {
  std::vector<Route> routes;
  for (const Message& msg : table.messages) {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(msg.piece)];
    Route r;
    r.send_peer = piece.send_peer;
    r.recv_peer = piece.recv_peer;
    r.tag = msg.tag;
    for (int a = 0; a < 3; ++a) {
      r.landing_box[static_cast<std::size_t>(a)] = static_cast<int>(plan.padded[static_cast<std::size_t>(a)]);
      r.landing_box[static_cast<std::size_t>(3 + a)] = static_cast<int>(piece.recv_box.extent(a));
      r.landing_box[static_cast<std::size_t>(6 + a)] =
          static_cast<int>(piece.recv_box.lo[static_cast<std::size_t>(a)]);
    }
    const std::string kind = kind_name(piece.kind());
    const std::string field =
        msg.fields == plan.fields ? std::string() : " field " + std::to_string(msg.first_field);
    const std::string tag = std::to_string(msg.tag);
    r.what_recv = "the " + direction_name(opposite(piece.dir)) + " ghost " + kind + field + " from rank " +
                  std::to_string(piece.recv_peer) + " (receive, tag " + tag + ")";
    r.what_send = "rank " + std::to_string(piece.send_peer) + " to take the " + kind + field + " sent " +
                  direction_name(piece.dir) + " (send, tag " + tag + ")";
    routes.push_back(std::move(r));
  }
  return routes;
}

}  // namespace halobw
