// How messages move, chosen once per run: a Method receives and sends the
// messages of one row and completes them. It is handed what any transport
// needs to move a message (buffers, counts, peers, tags, hooks that run on
// the exchange's execution instance, and where the fields live) and speaks
// no MPI here: MPI's types stay inside the MPI methods (mpi_spans.hpp).
// Every blocking call a method makes is armed on the watchdog with a
// description written at set-up. The registry (method_registry.hpp) lists
// the methods, what each needs, and builds them.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "halobw/exchange/allocation.hpp"
#include "halobw/plan/routes.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/watchdog.hpp"

namespace halobw {

// One field's box: a subarray of its padded array of doubles.
struct FieldBox {
  double* field = nullptr;
  Subarray box{};
};

// One side of one message: `count` packed values at `values`, or, where
// nothing packs, the blocks of the fields it carries, in order (per part,
// then per field).
struct Span {
  double* values = nullptr;
  std::size_t count = 0;
  std::vector<FieldBox> blocks;
  [[nodiscard]] bool packed() const { return blocks.empty(); }
};

// One message: the route (peers, tag, the watchdog's words: plan/routes.hpp),
// what this rank sends in its direction, and where the message travelling
// the same way from the opposite neighbour lands here. A wall's peer is
// kNoRank.
struct Wire : Route {
  Span send;
  Span recv;
};

// Memory of this rank that its peers may write into (one-sided methods).
struct Region {
  void* base = nullptr;
  std::size_t bytes = 0;
};

// Device work a method may need, run on the execution instance of the
// exchange in progress: a copy of `count` doubles (either side may be a
// peer's memory that the method mapped) and a fence of that instance.
struct DeviceWork {
  std::function<void(double* to, const double* from, std::size_t count)> copy;
  std::function<void()> fence;
};

// Where the fields live, for a method that must own that memory (a window
// its peers can reach): made once per row before the fields are allocated,
// asked for each field, and handed to the method it was made for.
class FieldHome {
 public:
  virtual ~FieldHome() = default;
  FieldHome() = default;
  FieldHome(const FieldHome&) = delete;
  FieldHome& operator=(const FieldHome&) = delete;
  // `bytes` for one field, owned by the home (the Allocation frees nothing).
  virtual Allocation allocate(std::size_t bytes, const std::string& label) = 0;
};

class Method {
 public:
  virtual ~Method() = default;
  Method() = default;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;

  // The exchange's group: begin() comes before post_receives(), end() after
  // the last send. A transport that batches its calls (NCCL's group) does it here.
  virtual void begin() {}
  virtual void end() {}
  // Receives first, before any message is sent.
  virtual void post_receives() = 0;
  // Message m is ready to go (its send buffer is complete).
  virtual void send(std::size_t m) = 0;
  // Every message is ready.
  virtual void send_all() = 0;
  // Blocks until a receive completes; its index, or -1 when none is left.
  // Each message that has a sender is reported once; one from a wall
  // never is, on every library. Only where lands_one_by_one().
  virtual int wait_any() = 0;
  // Blocks until every receive and send has completed.
  virtual void wait_all() = 0;
  // Drives progress without blocking (MPI_Testall, or what the method has);
  // true once everything has completed. Completes nothing unless all is
  // done, after which wait_any() hands out the landed messages and wait_all()
  // returns at once. The one-sided method says true once every put into this
  // rank has landed (its wait_all still closes its own puts), and under
  // fences never.
  virtual bool test() = 0;
  // Whether wait_any() can tell receives apart as they land.
  [[nodiscard]] virtual bool lands_one_by_one() const { return true; }
};

// What a method is built from, for one row.
struct MethodContext {
  const Comm* comm = nullptr;
  std::vector<Wire> wires;
  Watchdog* watchdog = nullptr;
  // What this rank exposes to one-sided writes: the packed receive buffer
  // (packed wires), or every field.
  std::vector<Region> exposed;
  DeviceWork device;
  std::shared_ptr<FieldHome> home;  // where the fields live, when the method made it; else null
};

// Builds the method of a run over the wires of one row.
using MethodFactory = std::function<std::unique_ptr<Method>(MethodContext)>;

// A combination the library cannot do, found while building a method (a
// window it will not create here): the run ends with exit code 2.
class MethodUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace halobw
