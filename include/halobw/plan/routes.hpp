// The route of every message of one rank: its peers, its tag, and how the
// watchdog names what is awaited. Pure, from the piece and message tables;
// the exchanger adds what is sent and where it lands (exchange/method.hpp: Wire).
#pragma once

#include <string>
#include <vector>

#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"

namespace halobw {

struct Route {
  int send_peer = 0;  // the rank this message goes to
  int recv_peer = 0;  // the rank whose message travelling the same way lands here
  int tag = 0;
  std::string what_send;  // "rank 1 to take the face sent +z (send, tag 5)", "the faces sent -x, +x"
  std::string what_recv;  // "the -z ghost face from rank 1 (receive, tag 5)", "the +x, -x ghost faces"
};

// One route per message of `table`, in its order.
[[nodiscard]] std::vector<Route> plan_routes(const RankPlan& plan, const MessageTable& table);

}  // namespace halobw
