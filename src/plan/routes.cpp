#include "halobw/plan/routes.hpp"

#include <fmt/format.h>

namespace halobw {

namespace {

// The kind of every part ("face"), or "faces", "edges", "pieces" for several.
std::string kinds(const RankPlan& plan, const Message& msg) {
  const PieceKind k = plan.pieces[static_cast<std::size_t>(msg.piece())].kind();
  if (msg.parts.size() == 1) return kind_name(k);
  for (const Part& part : msg.parts) {
    if (plan.pieces[static_cast<std::size_t>(part.piece)].kind() != k) return "pieces";
  }
  return std::string(kind_name(k)) + "s";
}

// The directions of the parts, each as its piece travels (`sent`) or as its ghost cells lie.
std::string directions(const RankPlan& plan, const Message& msg, bool sent) {
  std::string out;
  for (const Part& part : msg.parts) {
    const int dir = plan.pieces[static_cast<std::size_t>(part.piece)].dir;
    out += (out.empty() ? "" : ", ") + direction_name(sent ? dir : opposite(dir));
  }
  return out;
}

}  // namespace

std::vector<Route> plan_routes(const RankPlan& plan, const MessageTable& table) {
  std::vector<Route> routes;
  for (const Message& msg : table.messages) {
    const Piece& piece = plan.pieces[static_cast<std::size_t>(msg.piece())];
    Route r;
    r.send_peer = piece.send_peer;
    r.recv_peer = piece.recv_peer;
    r.tag = msg.tag;
    const std::string kind = kinds(plan, msg);
    const std::string field =
        msg.fields == plan.fields ? std::string() : " field " + std::to_string(msg.first_field);
    const std::string tag = std::to_string(msg.tag);
    r.what_recv = fmt::format("the {} ghost {}{} from rank {} (receive, tag {})",
                              directions(plan, msg, false), kind, field, piece.recv_peer, tag);
    r.what_send = fmt::format("rank {} to take the {}{} sent {} (send, tag {})", piece.send_peer, kind, field,
                              directions(plan, msg, true), tag);
    routes.push_back(std::move(r));
  }
  return routes;
}

}  // namespace halobw
