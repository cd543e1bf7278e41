// How messages move through MPI, chosen once per run: a Method posts the
// receives, sends each message when the exchanger has it ready, and
// completes them. It sees only Wires (addresses, counts, datatypes, peers,
// tags), never fields or kernels, so every method serves every transport.
// Every blocking call it makes is armed on the watchdog with a description
// written here at set-up.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/plan/routes.hpp"
#include "halobw/platform/watchdog.hpp"

namespace halobw {

// One side of one message as MPI sees it: an address, a count and a
// datatype (packed values, or a field's subarrays, placed from the first
// field's pointer).
struct Endpoint {
  void* address = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// Where a message lands on its receiver, told to the sender so that it can
// put it there (one-sided methods): per part, the byte displacement in the
// receiver's window (packed buffers) or the absolute address of a field
// (a dynamic window over the fields) and the subarray of the padded field
// it fills (sizes, subsizes, starts; none for contiguous values).
struct Landing {
  std::vector<MPI_Aint> where;
  int count = 0;                    // values per part when contiguous
  std::vector<Subarray> subarrays;  // one per part, or none for contiguous values
  [[nodiscard]] bool contiguous() const { return subarrays.empty(); }
};

// One message: what this rank sends in its direction and where the message
// travelling the same way from the opposite neighbour lands.
// The route (peers, tag, the watchdog's words: plan/routes.hpp) with the
// addresses and datatypes of this rank's buffers.
struct Wire : Route {
  Endpoint send;
  Endpoint recv;
  std::vector<Endpoint>
      parts;        // the send as one-sided puts: the packed values, or a subarray per piece and field
  Landing landing;  // this rank's receive of the message, for the peer that puts it
};

class Method {
 public:
  virtual ~Method() = default;
  Method() = default;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;

  // Receives first, before any message is sent.
  virtual void post_receives() = 0;
  // Message m is ready to go (its send buffer is complete).
  virtual void send(std::size_t m) = 0;
  // Every message is ready.
  virtual void send_all() = 0;
  // Blocks until a receive completes; its index, or -1 when none is left.
  // Each message that has a sender is reported once; one from a wall
  // (MPI_PROC_NULL) never is, on every MPI library. Only where lands_one_by_one().
  virtual int wait_any() = 0;
  // Blocks until every receive and send has completed.
  virtual void wait_all() = 0;
  // Drives MPI's progress without blocking (MPI_Testall, or what the method
  // has); true once everything has completed. Completes nothing unless all is
  // done, after which wait_any() hands out the landed messages and wait_all()
  // returns at once. The one-sided method says true once every put into this
  // rank has landed (its wait_all still closes its own puts), and under
  // fences never.
  virtual bool test() = 0;
  // Whether wait_any() can tell receives apart as they land.
  [[nodiscard]] virtual bool lands_one_by_one() const { return true; }
};

// What a method is built from, for one row: the wires, and for one-sided
// methods the memory this rank exposes (the packed receive buffer, or the
// fields) and whether that is one window (packed) or a dynamic one.
struct Region {
  void* base = nullptr;
  std::size_t bytes = 0;
};
struct MethodContext {
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<Wire> wires;
  Watchdog* watchdog = nullptr;
  std::vector<Region> exposed;
  bool dynamic = false;  // one window over `exposed[0]`, or a dynamic window with each attached
};

// Builds the method of a run over the wires of one row.
using MethodFactory = std::function<std::unique_ptr<Method>(MethodContext)>;

// A combination the MPI library cannot do, found while building a method
// (a window it will not create here): the run ends with exit code 2.
class MethodUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Irecv / Isend per message, Waitany / Waitall.
[[nodiscard]] std::unique_ptr<Method> make_p2p(MethodContext ctx);
// Recv_init / Send_init once per row, Startall (Start per message, pipelined), Waitany / Waitall.
[[nodiscard]] std::unique_ptr<Method> make_persistent(MethodContext ctx);
// A distributed-graph communicator of the peers, one MPI_Ineighbor_alltoallw per exchange (bulk only).
[[nodiscard]] std::unique_ptr<Method> make_neighbor(MethodContext ctx);
// One window per row; an MPI_Put per part into the peer's landing; general
// active target (post/start/complete/wait) or MPI_Win_fence.
[[nodiscard]] std::unique_ptr<Method> make_rma(MethodContext ctx, RmaSync sync);

// The factory of a method kind.
[[nodiscard]] MethodFactory method_factory(MethodKind kind, RmaSync sync);

}  // namespace halobw
