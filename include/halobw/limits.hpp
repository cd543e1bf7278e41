// The limits a halo rate is set against, measured in the same run with the
// same clock: a contiguous copy of Send_B bytes within the memory the field
// lives in (memcpy on the host, device-to-device on a GPU).
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace halobw {

template <class ExecSpace, class MemSpace>
class CopyLimit {
 public:
  CopyLimit(std::uint64_t bytes, ExecSpace exec = ExecSpace())
      : exec_(exec),
        src_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::limit_src"), bytes / sizeof(double)),
        dst_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "halobw::limit_dst"), bytes / sizeof(double)) {
    Kokkos::deep_copy(src_, 1.0);
    exec_.fence();
  }

  void copy() {
    Kokkos::deep_copy(exec_, dst_, src_);
    exec_.fence();
  }

 private:
  ExecSpace exec_;
  Kokkos::View<double*, MemSpace> src_;
  Kokkos::View<double*, MemSpace> dst_;
};

}  // namespace halobw
