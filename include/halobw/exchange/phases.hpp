// The phases of an exchange, as --breakdown names them, and the clocks the
// exchanger marks them with inside the timed exchanges themselves: NoPhases,
// the plain path, compiles to nothing; PhaseClock fences the execution space
// and reads MPI_Wtime between phases, so that the phases of one rank add up
// to its time in the loop.
#pragma once

#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <array>
#include <string>
#if __has_include(<Kokkos_Profiling_ScopedRegion.hpp>)
#include <Kokkos_Profiling_ScopedRegion.hpp>
#endif

namespace halobw {

// The stages of an exchange, as --breakdown names them.
enum class Phase { pack = 0, mpi = 1, stage = 2, unpack = 3 };
constexpr int kPhases = 4;
using PhaseSeconds = std::array<double, kPhases>;

// The plain path: no clock read, no fence.
struct NoPhases {
  void restart() {}
  template <class ExecSpace>
  void mark(Phase /*ended*/, const ExecSpace& /*exec*/) {}
};

// Inside the timed exchanges: each mark fences `exec` (so a device's queued
// kernels count where they ran) and books the time since the last mark to the
// phase that just ended.
class PhaseClock {
 public:
  // Starts a new exchange: the time before it belongs to no phase.
  void restart() { last_ = MPI_Wtime(); }
  template <class ExecSpace>
  void mark(Phase ended, const ExecSpace& exec) {
    exec.fence();
    const double now = MPI_Wtime();
    sums_[static_cast<std::size_t>(ended)] += now - last_;
    last_ = now;
  }
  [[nodiscard]] const PhaseSeconds& sums() const { return sums_; }
  void clear() { sums_ = {}; }

 private:
  PhaseSeconds sums_{};
  double last_ = 0;
};

// A named region for the Kokkos tools (the kernel logger, the space-time
// stack, the Nsight and rocprof connectors), so that they show the phases of
// an exchange by the names --breakdown uses: halobw::start and
// halobw::finish, and within them halobw::pack, halobw::mpi, halobw::stage
// and halobw::unpack. Without a tool loaded it is a test of one pointer on
// entry and on exit; the names fit std::string's short buffer, so nothing is
// allocated. Kokkos 4 has the type; Kokkos 3.4 (Debian's) has only the calls.
#if __has_include(<Kokkos_Profiling_ScopedRegion.hpp>)
using ProfileRegion = Kokkos::Profiling::ScopedRegion;
#else
class ProfileRegion {
 public:
  explicit ProfileRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ProfileRegion() { Kokkos::Profiling::popRegion(); }
  ProfileRegion(const ProfileRegion&) = delete;
  ProfileRegion& operator=(const ProfileRegion&) = delete;
};
#endif

}  // namespace halobw
