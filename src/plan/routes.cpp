#include "halobw/plan/routes.hpp"

#include <fmt/format.h>

namespace halobw {

std::vector<Route> plan_routes(const RankPlan& plan, const MessageTable& table) {
  std::vector<Route> routes;
  for (const Message& msg : table.messages) {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(msg.piece)];
    Route r;
    r.send_peer = piece.send_peer;
    r.recv_peer = piece.recv_peer;
    r.tag = msg.tag;
    r.landing_box = subarray_of(plan.padded, piece.recv_box);
    const std::string kind = kind_name(piece.kind());
    const std::string field =
        msg.fields == plan.fields ? std::string() : " field " + std::to_string(msg.first_field);
    const std::string tag = std::to_string(msg.tag);
    r.what_recv = fmt::format("the {} ghost {}{} from rank {} (receive, tag {})",
                              direction_name(opposite(piece.dir)), kind, field, piece.recv_peer, tag);
    r.what_send = fmt::format("rank {} to take the {}{} sent {} (send, tag {})", piece.send_peer, kind, field,
                              direction_name(piece.dir), tag);
    routes.push_back(std::move(r));
  }
  return routes;
}

}  // namespace halobw
