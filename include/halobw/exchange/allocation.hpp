// The one allocation function: bytes in a Kokkos memory space with a
// placement, owned by an Allocation (freed on destruction) and seen through
// unmanaged Views. Fields, packed buffers, staging buffers and the --limit
// copies all come from here, so a placement is decided in one place.
#pragma once

#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "halobw/plan/placement.hpp"
#include "halobw/platform/gpu_runtime.hpp"
#include "halobw/platform/huge_pages.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

// Host memory for staging: pinned for the device's memory (where the Kokkos
// version offers it), plain host memory otherwise.
template <class MemSpace>
struct StagingSpace {
  using type =
      std::conditional_t<std::is_same<MemSpace, gpu::Memory>::value, gpu::PinnedHost, Kokkos::HostSpace>;
};

// Owned bytes; move-only.
class Allocation {
 public:
  using Free = void (*)(void*, std::size_t);
  Allocation() = default;
  Allocation(void* ptr, std::size_t bytes, Free free) : ptr_(ptr), bytes_(bytes), free_(free) {
    Process::allocated_bytes() += bytes_;
  }
  ~Allocation() { reset(); }
  Allocation(Allocation&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), free_(o.free_) {}
  Allocation& operator=(Allocation&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      free_ = o.free_;
    }
    return *this;
  }
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;

  [[nodiscard]] void* data() const { return ptr_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void reset() {
    if (ptr_ != nullptr && free_ != nullptr) {
      free_(ptr_, bytes_);
      Process::allocated_bytes() -= bytes_;
    }
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  Free free_ = nullptr;
};

namespace detail {
template <class Space>
Allocation kokkos_allocation(std::size_t bytes, const std::string& label) {
  if (bytes == 0) return {};
  return Allocation(Kokkos::kokkos_malloc<Space>(label, bytes), bytes,
                    [](void* p, std::size_t /*bytes*/) { Kokkos::kokkos_free<Space>(p); });
}
}  // namespace detail

template <class MemSpace>
constexpr bool is_host_memory = std::is_same<MemSpace, Kokkos::HostSpace>::value;

// The placement of memory in MemSpace under the run's host placement: huge
// pages apply to host memory only; a device's memory stays standard.
template <class MemSpace>
constexpr Placement buffer_placement(Placement host) {
  return is_host_memory<MemSpace> ? host : Placement::standard;
}
// Staging buffers: pinned for a device; on the host they are host buffers like any other.
template <class MemSpace>
constexpr Placement staging_placement(Placement host) {
  return is_host_memory<MemSpace> ? host : Placement::pinned;
}

// `bytes` in MemSpace (or, pinned, in the host memory that serves MemSpace's
// staging), uninitialised. Huge pages apply to host memory of at least
// kHugeThreshold where the kernel has them; otherwise the allocation is
// standard. Throws on failure, as Kokkos does.
template <class MemSpace>
Allocation allocate(std::size_t bytes, Placement placement, const std::string& label) {
  if (placement == Placement::pinned) {
    return detail::kokkos_allocation<typename StagingSpace<MemSpace>::type>(bytes, label);
  }
  if (is_host_memory<MemSpace> && placement == Placement::huge_pages && bytes >= kHugeThreshold &&
      huge_pages_available()) {
    const std::size_t held = placed_bytes(bytes, placement);
    return {huge_alloc(held), held, huge_free};
  }
  return detail::kokkos_allocation<MemSpace>(bytes, label);
}

template <class MemSpace>
using Values = Kokkos::View<double*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class MemSpace>
using FieldView =
    Kokkos::View<double***, Kokkos::LayoutLeft, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// `count` doubles owned by `owner`, zeroed (first touch where the memory lives).
template <class MemSpace>
struct OwnedValues {
  Allocation owner;
  Values<MemSpace> view;
};
template <class MemSpace, class ViewSpace = MemSpace>
OwnedValues<ViewSpace> allocate_values(std::size_t count, Placement placement, const std::string& label) {
  OwnedValues<ViewSpace> v;
  v.owner = allocate<MemSpace>(count * sizeof(double), placement, label);
  v.view = Values<ViewSpace>(static_cast<double*>(v.owner.data()), count);
  if (count > 0) Kokkos::deep_copy(v.view, 0.0);
  return v;
}

}  // namespace halobw
