// The exchanger: the only code that moves halo bytes. One class template on
// the Kokkos execution and memory space serves the host and every device
// backend; the transport is a policy type and the method a policy object,
// both fixed at construction. The fields live outside; the execution-space
// instance is passed to each call.
//
// One exchange is start() then finish():
//   start:  post every receive; pack, stage and send (each pack batch's
//           messages as soon as its copy has run on the pipelined schedule,
//           all at once on the bulk one); copy the self pieces;
//   finish: wait; stage back and unpack (each unpack batch as soon as all of
//           its messages have landed where the method can tell, else all
//           after the wait); fence.
// A batch (copy_plan.hpp) is one message on a device, and on the host the
// messages whose boxes share rows, which one pass over those rows serves; to
// stage is only to copy between device and host (the staged transport).
// Between the two, the caller may run work of its own (--overlap).
//
// With the direct method (direct_copy.hpp) the pieces whose peer shares the
// node are no messages: start publishes this rank's fields, finish copies the
// neighbours' boundaries straight into the ghost cells before it waits for the
// messages, and returns once every neighbour has read this rank's boundary.
//
// Both take a phase clock (clock.hpp): NoPhases on the plain timed path,
// PhaseClock for --breakdown, which books the time between its marks to Pack,
// Mpi (posting, waiting, MPI's own copies), Stage and Unpack (self copies
// included) inside the very exchanges that are timed.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "halobw/cli/settings.hpp"
#include "halobw/exchange/allocation.hpp"
#include "halobw/exchange/copy_plan.hpp"
#include "halobw/exchange/direct_copy.hpp"
#include "halobw/exchange/kernels.hpp"
#include "halobw/exchange/method.hpp"
#include "halobw/exchange/method_registry.hpp"
#include "halobw/exchange/phases.hpp"
#include "halobw/exchange/transport.hpp"
#include "halobw/plan/messages.hpp"
#include "halobw/plan/pieces.hpp"
#include "halobw/platform/mpi.hpp"

namespace halobw {

struct ExchangeSetup {
  Schedule schedule = Schedule::pipelined;
  bool breakdown = false;  // packed buffers and a method for transfer(), on every transport
  Placement host_placement = Placement::standard;  // of buffers in host memory (huge pages or not)
  Watchdog* watchdog = nullptr;                    // guards every wait; null: none
  MethodFactory method = method_factory({});       // builds the method over the wires (p2p)
  std::shared_ptr<FieldHome> home;  // where the method placed the fields; null: nowhere special
};

template <class ExecSpace, class MemSpace, class TransportPolicy>
class Exchanger {
 public:
  using Field = FieldView<MemSpace>;
  using Buffer = Values<MemSpace>;
  using HostBuffer = Values<Kokkos::HostSpace>;
  static constexpr bool kPacks = TransportPolicy::packs;
  static constexpr bool kStages = TransportPolicy::stages;

  using Direct = DirectCopy<ExecSpace, MemSpace>;

  // `fields` must outlive the exchanger; `comm` must too. `direct`: the
  // direct method's copies, whose wired plan the messages of `table` follow.
  Exchanger(const Comm& comm, RankPlan plan, MessageTable table, std::vector<Field> fields,
            ExchangeSetup setup, std::unique_ptr<Direct> direct = nullptr)
      : comm_(&comm),
        plan_(std::move(plan)),
        table_(std::move(table)),
        fields_(std::move(fields)),
        setup_(std::move(setup)),
        direct_(std::move(direct)) {
    const BufferSizes sizes = buffer_sizes(table_, TransportPolicy::kind, setup_.breakdown);
    const Placement packed = buffer_placement<MemSpace>(setup_.host_placement);
    const Placement staging = staging_placement<MemSpace>(setup_.host_placement);
    send_ = allocate_values<MemSpace>(sizes.packed, packed, "halobw::send");
    recv_ = allocate_values<MemSpace>(sizes.packed, packed, "halobw::recv");
    send_host_ = allocate_values<MemSpace, Kokkos::HostSpace>(sizes.staging, staging, "halobw::send_host");
    recv_host_ = allocate_values<MemSpace, Kokkos::HostSpace>(sizes.staging, staging, "halobw::recv_host");
    CopyTargets to;
    for (const Field& f : fields_) to.fields.push_back(f.data());
    to.send = send_.view.data();
    to.recv = recv_.view.data();
    copies_ = make_copy_plan<ExecSpace, MemSpace>(wired(), table_, to, kPacks);
    waiting_.resize(copies_.unpack.size());
    for (const CopyBatch<ExecSpace, MemSpace>& batch : copies_.unpack) {
      int landing = 0;
      for (const int m : batch.messages) landing += receives(m) ? 1 : 0;
      landing_.push_back(landing);
    }
    method_ = setup_.method(context(kPacks));
    if (sizes.packed > 0 && setup_.breakdown) xfer_ = setup_.method(context(true));
    Kokkos::fence();
  }

  Exchanger(const Exchanger&) = delete;
  Exchanger& operator=(const Exchanger&) = delete;

  [[nodiscard]] const RankPlan& plan() const { return plan_; }
  [[nodiscard]] const MessageTable& table() const { return table_; }
  [[nodiscard]] const std::vector<Field>& fields() const { return fields_; }

  template <class Clock = NoPhases>
  void start(const ExecSpace& exec, Clock&& clock = Clock()) {
    const ProfileRegion region("halobw::start", regions_);
    exec_ = &exec;
    if (direct_) direct_->start(exec);
    in_region("halobw::mpi", [&] {
      method_->begin();
      method_->post_receives();
    });
    clock.mark(Phase::mpi, exec);
    if constexpr (kPacks) {
      if (setup_.schedule == Schedule::bulk) {
        pack(copies_.pack_all, exec, clock);
        if constexpr (kStages) {
          in_region("halobw::stage", [&] { stage_out(exec); });
          clock.mark(Phase::stage, exec);
        }
        in_region("halobw::mpi", [&] { method_->send_all(); });
      } else {
        for (const CopyBatch<ExecSpace, MemSpace>& batch : copies_.pack) {
          pack(batch.copy, exec, clock);
          if constexpr (kStages) {
            in_region("halobw::stage", [&] {
              for (const int m : batch.messages) {
                const Message& msg = table_.messages[static_cast<std::size_t>(m)];
                Kokkos::deep_copy(exec, slice(send_host_.view, msg), slice(send_.view, msg));
              }
              exec.fence();
            });
            clock.mark(Phase::stage, exec);
          }
          in_region("halobw::mpi", [&] {
            for (const int m : batch.messages) method_->send(static_cast<std::size_t>(m));
          });
          clock.mark(Phase::mpi, exec);
        }
      }
    } else {
      in_region("halobw::mpi", [&] { method_->send_all(); });
    }
    in_region("halobw::mpi", [&] { method_->end(); });
    clock.mark(Phase::mpi, exec);
    exec_ = &default_exec_;
    unpack(copies_.self, "halobw::self_copy", exec, clock);  // booked to Unpack, as --breakdown says
  }

  template <class Clock = NoPhases>
  void finish(const ExecSpace& exec, Clock&& clock = Clock()) {
    const ProfileRegion region("halobw::finish", regions_);
    exec_ = &exec;
    if (direct_) direct_->copy(exec, clock);
    if constexpr (kPacks) {
      if (setup_.schedule == Schedule::pipelined && method_->lands_one_by_one()) {
        waiting_ = landing_;
        for (int m = wait_any(); m >= 0; m = wait_any()) {
          clock.mark(Phase::mpi, exec);
          const Message& msg = table_.messages[static_cast<std::size_t>(m)];
          if constexpr (kStages) {
            in_region("halobw::stage",
                      [&] { Kokkos::deep_copy(exec, slice(recv_.view, msg), slice(recv_host_.view, msg)); });
            clock.mark(Phase::stage, exec);
          }
          const auto s = static_cast<std::size_t>(copies_.unpack_batch[static_cast<std::size_t>(m)]);
          if (--waiting_[s] == 0) unpack(copies_.unpack[s].copy, "halobw::unpack", exec, clock);
        }
        in_region("halobw::mpi", [&] { method_->wait_all(); });  // the sends
        clock.mark(Phase::mpi, exec);
      } else {
        in_region("halobw::mpi", [&] { method_->wait_all(); });
        clock.mark(Phase::mpi, exec);
        if constexpr (kStages) {
          in_region("halobw::stage", [&] { stage_in(exec); });
          clock.mark(Phase::stage, exec);
        }
        in_region("halobw::unpack", [&] { copies_.unpack_all.run(exec, "halobw::unpack"); });
      }
    } else {
      in_region("halobw::mpi", [&] { method_->wait_all(); });
      clock.mark(Phase::mpi, exec);
    }
    exec.fence();
    exec_ = &default_exec_;
    clock.mark(Phase::unpack, exec);
    if (direct_) direct_->done(exec, clock);
  }

  // One complete exchange; every ghost cell of the exchanged pieces is filled on return.
  template <class Clock = NoPhases>
  void exchange(const ExecSpace& exec, Clock&& clock = Clock()) {
    start(exec, clock);
    finish(exec, clock);
  }

  // Between start() and finish(): drives MPI without blocking (--progress poll).
  bool progress() { return method_->test(); }

  // --breakdown's reference, not a phase: MPI alone on packed contiguous
  // buffers of the same sizes and pattern, with the same method: receives
  // first, then sends, wait. Needs a packing transport or --breakdown.
  void transfer() {
    if (!setup_.breakdown && !kPacks)
      throw std::logic_error("transfer() on the datatype transport needs --breakdown's buffers");
    Method& m = xfer_ ? *xfer_ : *method_;
    m.begin();
    m.post_receives();
    m.send_all();
    m.end();
    m.wait_all();
  }

 private:
  // What the method is built from: the wires of every message, over the
  // packed buffers or the fields' blocks, what this rank exposes to
  // one-sided writes (the receive buffer, or every field), and the device
  // work it may run on the exchange's execution instance.
  MethodContext context(bool packed) {
    MethodContext ctx;
    ctx.comm = comm_;
    ctx.watchdog = setup_.watchdog;
    ctx.home = setup_.home;
    ctx.device.copy = [this](double* to, const double* from, std::size_t count) {
      Kokkos::deep_copy(
          *exec_, Buffer(to, count),
          Kokkos::View<const double*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(from, count));
    };
    ctx.device.fence = [this] { exec_->fence(); };
    double* send = mpi_buffer(send_, send_host_);
    double* recv = mpi_buffer(recv_, recv_host_);
    if (packed) {
      ctx.exposed.push_back({recv, table_.buffer_values * sizeof(double)});
    } else {
      for (const Field& f : fields_) ctx.exposed.push_back({f.data(), plan_.field_values() * sizeof(double)});
    }
    const std::vector<Route> routes = plan_routes(wired(), table_);
    for (std::size_t m = 0; m < table_.messages.size(); ++m) {
      const Message& msg = table_.messages[m];
      Wire w;
      static_cast<Route&>(w) = routes[m];
      if (packed) {
        w.send = {send + msg.offset, msg.count, {}};
        w.recv = {recv + msg.offset, msg.count, {}};
      } else {
        w.send.blocks = blocks(msg, BoxSide::send);
        w.recv.blocks = blocks(msg, BoxSide::recv);
      }
      ctx.wires.push_back(std::move(w));
    }
    return ctx;
  }

  // Field f of message msg's fields (its first_field, first_field + 1, ...).
  [[nodiscard]] double* field(const Message& msg, int f) const {
    return fields_[static_cast<std::size_t>(msg.first_field) + static_cast<std::size_t>(f)].data();
  }

  // The blocks of one side of a message: per part, per field, the part's box in that field.
  [[nodiscard]] std::vector<FieldBox> blocks(const Message& msg, BoxSide side) const {
    std::vector<FieldBox> out;
    for (const Part& part : msg.parts) {
      const Piece& piece = plan_.pieces[static_cast<std::size_t>(part.piece)];
      const Subarray box = subarray_of(plan_.padded, side == BoxSide::send ? piece.send_box : piece.recv_box);
      for (int f = 0; f < msg.fields; ++f) out.push_back({field(msg, f), box});
    }
    return out;
  }

  // Runs f inside a named region for the Kokkos tools (phases.hpp), the names
  // those of --breakdown's phases.
  template <class F>
  decltype(auto) in_region(const char* name, F&& f) const {
    const ProfileRegion region(name, regions_);
    return std::forward<F>(f)();
  }
  // The plan the messages follow: this rank's, or the direct method's with its node's peers as walls.
  [[nodiscard]] const RankPlan& wired() const { return direct_ ? direct_->wired() : plan_; }
  // Whether message m has a sender (else a wall, its ghosts left as they are).
  [[nodiscard]] bool receives(int m) const {
    return wired()
        .pieces[static_cast<std::size_t>(table_.messages[static_cast<std::size_t>(m)].piece())]
        .receives();
  }
  int wait_any() {
    return in_region("halobw::mpi", [&] { return method_->wait_any(); });
  }
  // A pack copy, fenced so that MPI sends what it wrote, and booked to Pack.
  template <class Clock>
  void pack(const CopyList<ExecSpace, MemSpace>& copy, const ExecSpace& exec, Clock& clock) {
    in_region("halobw::pack", [&] {
      copy.run(exec, "halobw::pack");
      exec.fence();
    });
    clock.mark(Phase::pack, exec);
  }
  // An unpack (or self) copy, booked to Unpack.
  template <class Clock>
  void unpack(const CopyList<ExecSpace, MemSpace>& copy, const char* label, const ExecSpace& exec,
              Clock& clock) {
    in_region("halobw::unpack", [&] { copy.run(exec, label); });
    clock.mark(Phase::unpack, exec);
  }

  void stage_out(const ExecSpace& exec) {
    if constexpr (kStages) {
      Kokkos::deep_copy(exec, send_host_.view, send_.view);
      exec.fence();
    }
  }
  void stage_in(const ExecSpace& exec) {
    if constexpr (kStages) Kokkos::deep_copy(exec, recv_.view, recv_host_.view);
  }

  // Where MPI reads and writes contiguous messages: the host copies on the
  // staged transport, else the buffers in the field's memory.
  double* mpi_buffer(const OwnedValues<MemSpace>& in_space,
                     const OwnedValues<Kokkos::HostSpace>& on_host) const {
    return kStages ? on_host.view.data() : in_space.view.data();
  }

  template <class View>
  static auto slice(const View& v, const Message& m) {
    return Kokkos::subview(v, Kokkos::pair<std::size_t, std::size_t>(m.offset, m.offset + m.count));
  }

  const Comm* comm_;
  RankPlan plan_;
  MessageTable table_;
  std::vector<Field> fields_;
  ExchangeSetup setup_;
  std::unique_ptr<Direct> direct_;
  OwnedValues<MemSpace> send_;
  OwnedValues<MemSpace> recv_;
  OwnedValues<Kokkos::HostSpace> send_host_;
  OwnedValues<Kokkos::HostSpace> recv_host_;
  CopyPlan<ExecSpace, MemSpace> copies_;
  std::vector<int> landing_;                      // per unpack batch: its messages that have a sender
  bool regions_ = ProfileRegion::tools_loaded();  // the phases as Kokkos regions (phases.hpp)
  std::vector<int> waiting_;                      // per unpack batch: its messages yet to land (pipelined)
  ExecSpace default_exec_;
  const ExecSpace* exec_ =
      &default_exec_;  // the instance of the exchange in progress, for the method's device work
  std::unique_ptr<Method> method_;
  std::unique_ptr<Method> xfer_;  // on packed buffers, for transfer() with --breakdown (every transport)
};

}  // namespace halobw
