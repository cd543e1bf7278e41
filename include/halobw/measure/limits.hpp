// The limits a halo rate is set against, measured in the same run with the
// same clock: a contiguous copy of each rank's remote bytes (the busiest
// rank's are Send_B) within the memory the field lives in (memcpy on the
// host, device-to-device on a GPU).
#pragma once

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "halobw/exchange/allocation.hpp"
#include "halobw/plan/memory.hpp"

namespace halobw {

template <class ExecSpace, class MemSpace>
class CopyLimit {
 public:
  // A copy of `remote_bytes`, this rank's remote bytes (Send_B on the busiest rank).
  CopyLimit(std::uint64_t remote_bytes, Placement host)
      : src_(allocate_values<MemSpace>(copy_limit_bytes(remote_bytes) / sizeof(double),
                                       buffer_placement<MemSpace>(host), "halobw::limit_src")),
        dst_(allocate_values<MemSpace>(copy_limit_bytes(remote_bytes) / sizeof(double),
                                       buffer_placement<MemSpace>(host), "halobw::limit_dst")) {
    Kokkos::deep_copy(src_.view, 1.0);
    Kokkos::fence();
  }

  void copy(const ExecSpace& exec) {
    Kokkos::deep_copy(exec, dst_.view, src_.view);
    exec.fence();
  }

 private:
  OwnedValues<MemSpace> src_;
  OwnedValues<MemSpace> dst_;
};

}  // namespace halobw
