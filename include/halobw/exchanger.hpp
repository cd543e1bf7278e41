// The exchanger: the only code that moves halo bytes. One class template on
// the Kokkos execution and memory space serves the host and every device
// backend; the transport (datatype, direct, staged) is fixed at construction.
//
// One exchange: post every receive, pack, send, copy self faces, wait,
// unpack, fence. Buffers, datatypes and requests are made once, here.
#pragma once

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "halobw/faces.hpp"
#include "halobw/kernels.hpp"
#include "halobw/mpi.hpp"
#include "halobw/options.hpp"
#include "halobw/transport.hpp"

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

template <class ExecSpace, class MemSpace = typename ExecSpace::memory_space>
class Exchanger {
 public:
  using Field = Kokkos::View<double***, Kokkos::LayoutLeft, MemSpace>;
  using Buffer = Kokkos::View<double*, MemSpace>;
  using HostBuffer = Kokkos::View<double*, typename StagingSpace<MemSpace>::type>;

  Exchanger(const Comm& comm, RankPlan plan, Transport transport, SelfMode self,
            ExecSpace exec = ExecSpace())
      : comm_(comm), plan_(std::move(plan)), transport_(transport), exec_(exec) {
    field_ = Field(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::field"),
                   plan_.padded[0], plan_.padded[1], plan_.padded[2]);
    Kokkos::deep_copy(field_, 0.0);
    std::size_t offset = 0;
    for (std::size_t f = 0; f < plan_.faces.size(); ++f) {
      const Face& face = plan_.faces[f];
      if (face.self && self == SelfMode::copy) {
        copies_.push_back(static_cast<int>(f));
        continue;
      }
      Message m;
      m.face = static_cast<int>(f);
      m.offset = offset;
      m.count = static_cast<int>(face.cells());
      offset += static_cast<std::size_t>(face.cells());
      if (transport_ == Transport::datatype) {
        m.send_type = subarray(face.send_box);
        m.recv_type = subarray(face.recv_box);
      }
      messages_.push_back(std::move(m));
    }
    if (packs(transport_)) {
      send_ = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::send"), offset);
      recv_ = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::recv"), offset);
    }
    if (transport_ == Transport::staged) {
      send_host_ = HostBuffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::send_host"), offset);
      recv_host_ = HostBuffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::recv_host"), offset);
    }
    requests_.assign(2 * messages_.size(), MPI_REQUEST_NULL);
    exec_.fence();
  }

  Exchanger(const Exchanger&) = delete;
  Exchanger& operator=(const Exchanger&) = delete;

  [[nodiscard]] const Field& field() const { return field_; }
  [[nodiscard]] const RankPlan& plan() const { return plan_; }
  [[nodiscard]] Transport transport() const { return transport_; }
  [[nodiscard]] const ExecSpace& exec() const { return exec_; }

  void exchange() {
    post_receives();
    pack();
    post_sends();
    copy_self();
    wait();
    unpack();
  }

  // The phases of one exchange, in order.
  void post_receives() {
    for (std::size_t m = 0; m < messages_.size(); ++m) {
      const Message& msg = messages_[m];
      const Face& face = plan_.faces[msg.face];
      check_mpi(MPI_Irecv(recv_address(msg), count(msg), type(msg, false), face.recv_peer, face.tag,
                          comm_.get(), &requests_[m]),
                "MPI_Irecv", face.recv_peer);
    }
  }

  // Packs every message face into the send buffer and makes it ready for MPI:
  // fenced, and copied to host memory on the staged transport.
  void pack() {
    if (!packs(transport_)) return;
    for (const Message& msg : messages_) {
      const Face& face = plan_.faces[msg.face];
      copy_box(exec_, buffer_box(send_, msg, face.send_box), field_box(face.send_box),
               box_extent(face.send_box), "halobw::pack");
    }
    if (transport_ == Transport::staged) Kokkos::deep_copy(exec_, send_host_, send_);
    exec_.fence();
  }

  void post_sends() {
    const std::size_t base = messages_.size();
    for (std::size_t m = 0; m < messages_.size(); ++m) {
      const Message& msg = messages_[m];
      const Face& face = plan_.faces[msg.face];
      check_mpi(MPI_Isend(send_address(msg), count(msg), type(msg, true), face.send_peer, face.tag,
                          comm_.get(), &requests_[base + m]),
                "MPI_Isend", face.send_peer);
    }
  }

  // Self faces by local copy: owned layers into the opposite ghost layers.
  void copy_self() {
    for (int f : copies_) {
      const Face& face = plan_.faces[f];
      copy_box(exec_, field_box(face.recv_box), field_box(face.send_box), box_extent(face.send_box),
               "halobw::self_copy");
    }
  }

  void wait() {
    if (requests_.empty()) return;
    check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }

  // Received buffers into the ghost layers; fences, so the exchange is complete on return.
  void unpack() {
    if (packs(transport_)) {
      if (transport_ == Transport::staged) Kokkos::deep_copy(exec_, recv_, recv_host_);
      for (const Message& msg : messages_) {
        const Face& face = plan_.faces[msg.face];
        copy_box(exec_, field_box(face.recv_box), buffer_box(recv_, msg, face.recv_box),
                 box_extent(face.recv_box), "halobw::unpack");
      }
    }
    exec_.fence();
  }

 private:
  struct Message {
    int face = 0;
    std::size_t offset = 0;  // in the packed buffers, in values
    int count = 0;           // values
    Datatype send_type;
    Datatype recv_type;
  };

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
    if (rc != MPI_SUCCESS) MPI_Type_free(&t);
    check_mpi(rc, "MPI_Type_commit");
    return Datatype(t);
  }

  // Where MPI reads and writes: the field itself (datatype), the packed
  // buffers in the field's memory (direct) or their host copies (staged).
  void* send_address(const Message& m) const {
    switch (transport_) {
      case Transport::datatype: return field_.data();
      case Transport::direct: return send_.data() + m.offset;
      default: return send_host_.data() + m.offset;
    }
  }
  void* recv_address(const Message& m) const {
    switch (transport_) {
      case Transport::datatype: return field_.data();
      case Transport::direct: return recv_.data() + m.offset;
      default: return recv_host_.data() + m.offset;
    }
  }
  int count(const Message& m) const { return transport_ == Transport::datatype ? 1 : m.count; }
  MPI_Datatype type(const Message& m, bool send) const {
    if (transport_ != Transport::datatype) return MPI_DOUBLE;
    return send ? m.send_type.get() : m.recv_type.get();
  }

  const Comm& comm_;
  RankPlan plan_;
  Transport transport_;
  ExecSpace exec_;
  Field field_;
  Buffer send_;
  Buffer recv_;
  HostBuffer send_host_;
  HostBuffer recv_host_;
  std::vector<Message> messages_;
  std::vector<int> copies_;
  std::vector<MPI_Request> requests_;
};

}  // namespace halobw
