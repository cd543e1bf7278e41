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

namespace halobw {

// The phases of an exchange, as --breakdown names them.
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
// and halobw::unpack. Whether a tool is loaded is asked once, when the
// exchanger is built (Kokkos loads tools at initialisation): without one a
// region is a test of that answer and nothing else. Kokkos's own push and pop
// cost instructions in every exchange even with no tool, and so does asking
// Kokkos 3.4 each time, which compares every callback of its table
// (docs/results/host.md, "The profiling regions' cost").
// -DHALOBW_PROFILE_REGIONS=OFF compiles them out, for that A/B
// (scripts/bench_host.py --sections regions).
class ProfileRegion {
 public:
  // Whether a Kokkos tool is loaded: asked once, and handed to every region.
  [[nodiscard]] static bool tools_loaded() { return Kokkos::Profiling::profileLibraryLoaded(); }
#if defined(HALOBW_NO_PROFILE_REGIONS)
  ProfileRegion(const char* /*name*/, bool /*on*/) {}
#else
  ProfileRegion(const char* name, bool on) : on_(on) {
    if (on_) Kokkos::Profiling::pushRegion(name);
  }
  ~ProfileRegion() {
    if (on_) Kokkos::Profiling::popRegion();
  }
#endif
  ProfileRegion(const ProfileRegion&) = delete;
  ProfileRegion& operator=(const ProfileRegion&) = delete;

 private:
  [[maybe_unused]] bool on_ = false;
};

}  // namespace halobw
