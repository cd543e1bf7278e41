// How messages move through MPI, chosen once per run: a Method posts the
// receives, sends each message when the exchanger has it ready, and
// completes them. It sees only Wires (addresses, counts, datatypes, peers,
// tags), never fields or kernels, so every method serves every transport.
// Every blocking call it makes is armed on the watchdog with a description
// written here at set-up.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "halobw/watchdog.hpp"

namespace halobw {

// One side of one message as MPI sees it: a buffer, or MPI_BOTTOM with a
// datatype of absolute addresses.
struct Endpoint {
  void* address = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// One message: what this rank sends in its direction and where the message
// travelling the same way from the opposite neighbour lands.
struct Wire {
  Endpoint send;
  Endpoint recv;
  int send_peer = 0;
  int recv_peer = 0;
  int tag = 0;
  std::string what_send;  // for the watchdog: "rank 1 to take the face sent +z (send, tag 5)"
  std::string what_recv;  // "the -z ghost face from rank 1 (receive, tag 5)"
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
  // Only where lands_one_by_one().
  virtual int wait_any() = 0;
  // Blocks until every receive and send has completed.
  virtual void wait_all() = 0;
  // Drives MPI's progress without blocking (MPI_Testall, or what the method
  // has); true once everything has completed. Completes nothing unless all is
  // done, after which wait_any() hands out the landed messages and wait_all()
  // returns at once.
  virtual bool test() = 0;
  // Whether wait_any() can tell receives apart as they land.
  [[nodiscard]] virtual bool lands_one_by_one() const { return true; }
};

// Builds the method of a run over the wires of one row.
using MethodFactory = std::function<std::unique_ptr<Method>(MPI_Comm, std::vector<Wire>, Watchdog*)>;

// Irecv / Isend per message, Waitany / Waitall.
[[nodiscard]] std::unique_ptr<Method> make_p2p(MPI_Comm comm, std::vector<Wire> wires, Watchdog* watchdog);

}  // namespace halobw
