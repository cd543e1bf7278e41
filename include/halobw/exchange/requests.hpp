// The base of every MPI method that completes one request per message and
// side (p2p, persistent, partitioned): the requests of one exchange, the
// MPI view of each message, and their completion. A message to or from a
// wall has no request at all: MPI libraries differ on what MPI_Waitany says
// of such a request (MPICH never reports a started persistent one, Open MPI
// does), so wait_any reports exactly the messages that have a sender, on
// every library.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "halobw/exchange/method.hpp"
#include "halobw/exchange/mpi_spans.hpp"

namespace halobw {

class Requests : public Method {
 public:
  // `how` names the requests for the watchdog (" (partitioned)"), appended to each awaited message.
  explicit Requests(MethodContext ctx, const std::string& how = "");

  bool test() override;
  int wait_any() override;
  void wait_all() override;

 protected:
  // A new exchange: nothing has landed yet.
  void restart();
  // Message m's receive (send) request; null where its peer is a wall.
  MPI_Request* recv_request(std::size_t m) { return slot(recv_slot_[m]); }
  MPI_Request* send_request(std::size_t m) { return slot(send_slot_[m]); }
  // The receive requests, then the send requests: each group contiguous, for MPI_Startall.
  MPI_Request* receive_requests() { return requests_.data(); }
  MPI_Request* send_requests() { return requests_.data() + received_.size(); }
  [[nodiscard]] int receive_count() const { return static_cast<int>(received_.size()); }
  [[nodiscard]] int send_count() const { return static_cast<int>(sent_); }
  // Frees every request made once per row (persistent and partitioned).
  void free_requests() noexcept;
  // Whether test() saw every request complete.
  [[nodiscard]] bool finished() const { return done_; }
  // The message of receive request `slot`.
  [[nodiscard]] std::size_t received(std::size_t slot) const { return received_[slot]; }
  // Receive request `slot` has completed: no longer awaited; its message.
  int landed(int slot);

  MPI_Comm comm_;
  std::vector<Wire> wires_;
  Watchdog* watchdog_;
  MpiTypes types_;
  std::vector<MpiSpan> send_;  // per message, as MPI sees it
  std::vector<MpiSpan> recv_;
  std::vector<int> send_peer_;  // per message, MPI_PROC_NULL at a wall
  std::vector<int> recv_peer_;
  std::vector<MPI_Request> requests_;  // the receives with a sender, then the sends with a receiver

 private:
  MPI_Request* slot(int i) { return i < 0 ? nullptr : &requests_[static_cast<std::size_t>(i)]; }

  std::vector<std::size_t> received_;  // the messages that have a sender, in request order
  std::size_t sent_ = 0;               // the messages that have a receiver
  std::vector<int> recv_slot_;         // per message: its receive request, or -1 (a wall)
  std::vector<int> send_slot_;         // per message: its send request, or -1 (a wall)
  Awaited receives_;
  Awaited everything_;
  bool done_ = false;        // test() saw every request complete
  std::size_t drained_ = 0;  // landed messages handed out by wait_any() since
};

}  // namespace halobw
