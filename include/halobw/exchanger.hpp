// The exchanger: the only code that moves halo bytes. One class template on
// the Kokkos execution and memory space serves the host and every device
// backend; the transport (datatype, direct, staged) and the schedule (bulk,
// pipelined) are fixed at construction, never chosen per face in the loop.
//
// One exchange: post every receive, pack, send, copy self faces, wait,
// unpack, fence. Buffers, datatypes and requests are made once, here.
// The phases are also callable one by one, for --breakdown.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "halobw/faces.hpp"
#include "halobw/kernels.hpp"
#include "halobw/mpi.hpp"
#include "halobw/options.hpp"
#include "halobw/test_hooks.hpp"
#include "halobw/transport.hpp"
#include "halobw/watchdog.hpp"

namespace halobw {

// Host memory for staging: pinned where the Kokkos version offers it.
template <class MemSpace>
struct StagingSpace {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct StagingSpace<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
template <>
struct StagingSpace<Kokkos::HIPSpace> {
  using type = Kokkos::HIPHostPinnedSpace;
};
#else
template <>
struct StagingSpace<Kokkos::Experimental::HIPSpace> {
  using type = Kokkos::Experimental::HIPHostPinnedSpace;
};
#endif
#endif

struct ExchangerConfig {
  Transport transport = Transport::datatype;
  SelfMode self = SelfMode::copy;
  Schedule schedule = Schedule::pipelined;
  bool breakdown = false;  // contiguous buffers for transfer() on the datatype transport too
  double timeout = 0;      // seconds a wait may last before the watchdog aborts; 0: none
};

template <class ExecSpace, class MemSpace = typename ExecSpace::memory_space>
class Exchanger {
 public:
  using Field = Kokkos::View<double***, Kokkos::LayoutLeft, MemSpace>;
  using Buffer = Kokkos::View<double*, MemSpace>;
  using HostBuffer = Kokkos::View<double*, typename StagingSpace<MemSpace>::type>;

  Exchanger(const Comm& comm, RankPlan plan, const ExchangerConfig& config, ExecSpace exec = ExecSpace())
      : comm_(comm),
        plan_(std::move(plan)),
        config_(config),
        exec_(exec),
        watchdog_(comm.get(), config.timeout, [this](int i) { return describe_request(i); }),
        hooks_(TestHooks::from_environment()) {
    field_ = Field(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::field"), plan_.padded[0],
                   plan_.padded[1], plan_.padded[2]);
    Kokkos::deep_copy(field_, 0.0);
    std::size_t offset = 0;
    for (std::size_t f = 0; f < plan_.faces.size(); ++f) {
      const Face& face = plan_.faces[f];
      if (face.self && config_.self == SelfMode::copy) {
        copies_.push_back(static_cast<int>(f));
        continue;
      }
      Message m;
      m.face = static_cast<int>(f);
      m.offset = offset;
      m.count = static_cast<int>(face.cells());
      offset += static_cast<std::size_t>(face.cells());
      if (config_.transport == Transport::datatype) {
        m.send_type = subarray(face.send_box);
        m.recv_type = subarray(face.recv_box);
      }
      messages_.push_back(std::move(m));
    }
    if (packs(config_.transport) || config_.breakdown) {
      // Zeroed: transfer() on the datatype transport sends them unpacked.
      send_ = Buffer("halobw::send", offset);
      recv_ = Buffer("halobw::recv", offset);
    }
    if (config_.transport == Transport::staged) {
      send_host_ = HostBuffer("halobw::send_host", offset);
      recv_host_ = HostBuffer("halobw::recv_host", offset);
    }
    requests_.assign(2 * messages_.size(), MPI_REQUEST_NULL);
    exec_.fence();
  }

  Exchanger(const Exchanger&) = delete;
  Exchanger& operator=(const Exchanger&) = delete;

  [[nodiscard]] const Field& field() const { return field_; }
  [[nodiscard]] const RankPlan& plan() const { return plan_; }
  [[nodiscard]] const ExchangerConfig& config() const { return config_; }
  [[nodiscard]] const ExecSpace& exec() const { return exec_; }

  // What the exchanges that follow are for, named if one of them never completes.
  void set_phase(std::string phase) { watchdog_.set_phase(std::move(phase)); }

  // One complete exchange; every ghost layer of the selected faces is filled on return.
  void exchange() {
    if (!packs(config_.transport)) {
      post_receives(false);
      post_sends(false);
      copy_self();
      wait_all();
    } else if (config_.schedule == Schedule::bulk) {
      post_receives(true);
      pack_faces();
      stage_out();
      post_sends(true);
      copy_self();
      wait_all();
      stage_in();
      unpack_messages();
    } else {
      pipelined_exchange();
    }
    exec_.fence();
  }

  // --- The phases, for --breakdown; each is complete (fenced) on return. ---

  // Packs every message face into the contiguous send buffer (nothing on the datatype transport).
  void pack_faces() {
    if (!packs(config_.transport)) return;
    for (const Message& msg : messages_) pack(msg);
    exec_.fence();
  }

  // The two host copies of the staged transport (nothing otherwise).
  void stage_out() {
    if (config_.transport != Transport::staged) return;
    Kokkos::deep_copy(exec_, send_host_, send_);
    exec_.fence();
  }
  void stage_in() {
    if (config_.transport != Transport::staged) return;
    Kokkos::deep_copy(exec_, recv_, recv_host_);
    exec_.fence();
  }

  // MPI alone on packed contiguous buffers of the same sizes and pattern:
  // receives first, then sends, wait. Needs packing transport or breakdown.
  void transfer() {
    post_receives(true);
    post_sends(true);
    wait_all();
  }

  // Unpacks every received face and copies the self faces.
  void unpack_faces() {
    if (packs(config_.transport)) unpack_messages();
    copy_self();
    exec_.fence();
  }

  // Self faces by local copy: owned layers into the opposite ghost layers.
  void copy_self() {
    for (int f : copies_) {
      const Face& face = plan_.faces[f];
      copy_box(exec_, field_box(face.recv_box), field_box(face.send_box), box_extent(face.send_box),
               "halobw::self_copy");
    }
  }

 private:
  struct Message {
    int face = 0;
    std::size_t offset = 0;  // in the packed buffers, in values
    int count = 0;           // values
    Datatype send_type;
    Datatype recv_type;
  };

  // Each face is sent as soon as it is packed (and staged), and unpacked as
  // soon as it lands, so packing and unpacking overlap the transfers in flight.
  void pipelined_exchange() {
    post_receives(true);
    const std::size_t n = messages_.size();
    for (std::size_t m = 0; m < n; ++m) {
      pack(messages_[m]);
      exec_.fence();
      if (config_.transport == Transport::staged) {
        Kokkos::deep_copy(exec_, slice(send_host_, messages_[m]), slice(send_, messages_[m]));
        exec_.fence();
      }
      post_send(m, true);
    }
    copy_self();
    for (std::size_t done = 0; done < n; ++done) {
      const int index = watchdog_.wait_any(requests_, static_cast<int>(n));
      if (index == MPI_UNDEFINED) break;
      const Message& msg = messages_[static_cast<std::size_t>(index)];
      if (config_.transport == Transport::staged) {
        Kokkos::deep_copy(exec_, slice(recv_, msg), slice(recv_host_, msg));
      }
      unpack(msg);
    }
    wait_all();  // the sends
  }

  void pack(const Message& msg) {
    const Face& face = plan_.faces[msg.face];
    copy_box(exec_, buffer_box(send_, msg, face.send_box), field_box(face.send_box),
             box_extent(face.send_box), "halobw::pack");
  }

  void unpack(const Message& msg) {
    const Face& face = plan_.faces[msg.face];
    copy_box(exec_, field_box(face.recv_box), buffer_box(recv_, msg, face.recv_box),
             box_extent(face.recv_box), "halobw::unpack");
  }

  void unpack_messages() {
    for (const Message& msg : messages_) unpack(msg);
  }

  void post_receives(bool contiguous) {
    for (std::size_t m = 0; m < messages_.size(); ++m) {
      const Message& msg = messages_[m];
      const Face& face = plan_.faces[msg.face];
      void* where =
          contiguous ? static_cast<void*>(mpi_buffer(recv_, recv_host_) + msg.offset) : field_.data();
      check_mpi(MPI_Irecv(where, contiguous ? msg.count : 1, contiguous ? MPI_DOUBLE : msg.recv_type.get(),
                          face.recv_peer, face.tag, comm_.get(), &requests_[m]),
                "MPI_Irecv", face.recv_peer);
    }
  }

  void post_sends(bool contiguous) {
    for (std::size_t m = 0; m < messages_.size(); ++m) post_send(m, contiguous);
  }

  void post_send(std::size_t m, bool contiguous) {
    const Message& msg = messages_[m];
    const Face& face = plan_.faces[msg.face];
    if (hooks_.skip_sends_rank == comm_.rank()) return;  // test hook: a send that never happens
    const int peer = hooks_.bad_peer_rank == comm_.rank() ? comm_.size() : face.send_peer;
    void* what = contiguous ? static_cast<void*>(mpi_buffer(send_, send_host_) + msg.offset) : field_.data();
    check_mpi(MPI_Isend(what, contiguous ? msg.count : 1, contiguous ? MPI_DOUBLE : msg.send_type.get(), peer,
                        face.tag, comm_.get(), &requests_[messages_.size() + m]),
              "MPI_Isend", peer);
  }

  void wait_all() { watchdog_.wait_all(requests_); }

  // Request i: the receives of the messages first, then their sends.
  std::string describe_request(int i) const {
    const std::size_t n = messages_.size();
    const bool receive = static_cast<std::size_t>(i) < n;
    const Face& face = plan_.faces[messages_[receive ? static_cast<std::size_t>(i) : i - n].face];
    if (receive) {
      return "the " + direction_name(face.dir ^ 1) + " ghost face from rank " +
             std::to_string(face.recv_peer) + " (receive, tag " + std::to_string(face.tag) + ")";
    }
    return "rank " + std::to_string(face.send_peer) + " to take the face sent " + direction_name(face.dir) +
           " (send, tag " + std::to_string(face.tag) + ")";
  }

  // Where MPI reads and writes contiguous faces: host copies on the staged
  // transport, else the buffers in the field's memory.
  double* mpi_buffer(const Buffer& in_space, const HostBuffer& on_host) const {
    return config_.transport == Transport::staged ? on_host.data() : in_space.data();
  }

  template <class View>
  static auto slice(const View& v, const Message& m) {
    return Kokkos::subview(
        v, Kokkos::pair<std::size_t, std::size_t>(m.offset, m.offset + static_cast<std::size_t>(m.count)));
  }

  static Index3 box_extent(const Box& b) { return {b.extent(0), b.extent(1), b.extent(2)}; }

  StridedBox field_box(const Box& b) const {
    const std::int64_t px = plan_.padded[0];
    const std::int64_t py = plan_.padded[1];
    return {field_.data() + b.lo[0] + px * (b.lo[1] + py * b.lo[2]), px, px * py};
  }

  static StridedBox buffer_box(const Buffer& buf, const Message& msg, const Box& b) {
    return {buf.data() + msg.offset, b.extent(0), b.extent(0) * b.extent(1)};
  }

  // The face as an MPI subarray of the padded field (x fastest: Fortran order).
  Datatype subarray(const Box& b) const {
    int sizes[3];
    int subsizes[3];
    int starts[3];
    for (int a = 0; a < 3; ++a) {
      sizes[a] = static_cast<int>(plan_.padded[a]);
      subsizes[a] = static_cast<int>(b.extent(a));
      starts[a] = static_cast<int>(b.lo[a]);
    }
    MPI_Datatype t = MPI_DATATYPE_NULL;
    check_mpi(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &t),
              "MPI_Type_create_subarray");
    const int rc = MPI_Type_commit(&t);
    if (rc != MPI_SUCCESS) report_mpi(MPI_Type_free(&t), "MPI_Type_free");
    check_mpi(rc, "MPI_Type_commit");
    return Datatype(t);
  }

  const Comm& comm_;
  RankPlan plan_;
  ExchangerConfig config_;
  ExecSpace exec_;
  Field field_;
  Buffer send_;
  Buffer recv_;
  HostBuffer send_host_;
  HostBuffer recv_host_;
  std::vector<Message> messages_;
  std::vector<int> copies_;
  std::vector<MPI_Request> requests_;
  Watchdog watchdog_;
  TestHooks hooks_;
};

}  // namespace halobw
