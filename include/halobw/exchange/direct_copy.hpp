// The direct method's half of an exchange (--method shm): the pieces whose
// sender shares this rank's node are copied straight from the sender's field
// into this rank's ghost cells, all of them as one copy list (on the host one
// pass over the lines they share: line_pass.hpp), under the flags of the
// node's windows (node_sync.hpp). The exchanger runs the messages to and from
// other nodes around it, from the plan in which these peers are walls.
//
// One exchange:
//   start:  fence; publish ready (this rank's fields are final);
//   finish: await every source's ready; copy; publish copied;
//   done:   await every reader's copied: the caller may write its fields again.
// --breakdown books the waits to Mpi and the copy to Unpack.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "halobw/exchange/copy_plan.hpp"
#include "halobw/exchange/node_home.hpp"
#include "halobw/exchange/node_sync.hpp"
#include "halobw/exchange/phases.hpp"
#include "halobw/plan/direct.hpp"

namespace halobw {

template <class ExecSpace, class MemSpace>
class DirectCopy {
 public:
  // `fields`: this rank's, in `home`; `plan`: this rank's plan (its pieces' ghost boxes).
  DirectCopy(std::shared_ptr<const NodeHome> home, const RankPlan& plan, DirectPlan direct,
             const std::vector<double*>& fields, Watchdog* watchdog, NodeSync::Hooks hooks)
      : home_(std::move(home)),
        direct_(std::move(direct)),
        sync_(*home_, plan.rank, direct_.sources, direct_.readers, watchdog, hooks),
        copy_(Flow::into_field, plan.padded) {
    for (const DirectRead& r : direct_.reads) {
      const Piece& piece = plan.pieces[static_cast<std::size_t>(r.piece)];
      for (std::size_t f = 0; f < fields.size(); ++f) {
        double* peer = home_->field_of(r.peer, static_cast<int>(f));
        copy_.add({fields[f], piece.recv_box, field_box(peer, r.peer_padded, r.peer_box)});
      }
    }
    copy_.commit();
  }

  // The plan the messages are made from: this rank's, with the peers on its node as walls.
  [[nodiscard]] const RankPlan& wired() const { return direct_.wired; }

  void start(const ExecSpace& exec) {
    exec.fence();
    sync_.publish_ready(++epoch_);
  }

  template <class Clock>
  void copy(const ExecSpace& exec, Clock& clock) {
    sync_.await_sources(epoch_);
    clock.mark(Phase::mpi, exec);
    copy_.run(exec, "halobw::direct_copy");
    exec.fence();
    sync_.publish_copied(epoch_);
    clock.mark(Phase::unpack, exec);
  }

  template <class Clock>
  void done(const ExecSpace& exec, Clock& clock) {
    sync_.await_readers(epoch_);
    clock.mark(Phase::mpi, exec);
  }

 private:
  std::shared_ptr<const NodeHome> home_;
  DirectPlan direct_;
  NodeSync sync_;
  CopyList<ExecSpace, MemSpace> copy_;
  std::uint64_t epoch_ = 0;
};

}  // namespace halobw
