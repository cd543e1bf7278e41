#include "halobw/exchange/method.hpp"

namespace halobw {

MethodFactory method_factory(MethodKind kind, RmaSync sync) {
  switch (kind) {
    case MethodKind::p2p:
    case MethodKind::shm:  // its messages, to and from other nodes
      return make_p2p;
    case MethodKind::persistent:
      return make_persistent;
    case MethodKind::neighbor:
      return make_neighbor;
    case MethodKind::rma:
      return [sync](MethodContext ctx) { return make_rma(std::move(ctx), sync); };
  }
  return make_p2p;
}

}  // namespace halobw
