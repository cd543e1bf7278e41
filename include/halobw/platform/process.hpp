// What belongs to the process rather than to a rank, in one object built once
// in main. One rank is one process, except under a simulator (SimGrid's SMPI
// puts every rank in one process); this header and its source are the one
// place that knows which:
// - MPI's and Kokkos's lifetimes (MPI_Init_thread, Kokkos::initialize, and
//   their ends);
// - the one way a rank ends the job from inside: a last word on stderr, a
//   wait so that the launcher forwards it, then MPI_Abort;
// - whether helper threads (the watchdog's) may run, and the clock they watch;
// - pauses (a test hook's slow rank, the wait before an abort);
// - the host's own figures (/proc, /sys, cores);
// - the per-process counters (bytes held through Allocation);
// - whether a simulator runs the ranks, and which (simulation()). Where one
//   does, the host's figures are the simulating machine's, shared by every
//   rank, not a simulated node's, and their callers say so rather than print
//   them as the node's; cores() alone gives the simulated node's instead.
// Nothing else in src/ or include/ calls MPI_Init, Kokkos::initialize,
// MPI_Abort or _Exit, sleeps, reads /proc, or tells a simulator from an MPI
// library (the test layers/process_boundary greps for them). Beyond this
// object, a simulator needs only its build files (cmake/HalobwSmpi.cmake).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "halobw/base/failure.hpp"

namespace halobw {

// The engine that runs the ranks where a simulator does, from the MPI
// library's own description: SimGrid's SMPI names itself in
// MPI_Get_library_version ("SMPI Version 3.32. ..."), so a program built with
// smpicxx knows it at run time, with no build flag.
struct Simulation {
  std::string engine;   // "SimGrid SMPI"
  std::string version;  // "3.32"
  [[nodiscard]] std::string name() const { return engine + " " + version; }
};

class Process {
 public:
  // MPI_Init_thread, asking for MPI_THREAD_FUNNELED: only the main thread
  // calls MPI, but to end the job (end_job, from the watchdog's thread).
  Process(int& argc, char**& argv);
  // Kokkos::finalize where start_kokkos ran, then MPI_Finalize.
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // What MPI_Init_thread granted.
  [[nodiscard]] int thread_level() const { return thread_level_; }
  // Whether a helper thread (the watchdog's) may run beside the main one at
  // the thread level MPI granted.
  [[nodiscard]] bool helper_threads() const;
  // The clock a helper thread watches: real time, whatever MPI_Wtime says.
  using WatchClock = std::chrono::steady_clock;

  // Kokkos::initialize on a device (-1: the host), once; finalized by ~Process.
  void start_kokkos(int device_id);

  // The calling thread sleeps for `d`.
  static void pause(std::chrono::duration<double> d);

  // Ends the job from any thread of any rank: prints `line` on stderr, runs
  // `then` (rank 0 records the line with its results), waits `grace` (so that
  // the launcher forwards the line, and other stuck ranks print theirs), then
  // MPI_Abort(MPI_COMM_WORLD, code) and, should that return, _Exit(code).
  [[noreturn]] static void end_job(const std::string& line, ExitCode code,
                                   std::chrono::duration<double> grace,
                                   const std::function<void()>& then = {});

  // The simulator that runs every rank in this process; nullopt under a real
  // MPI library (every rank a process of its own). Decided once, from
  // MPI_Get_library_version (which MPI allows before MPI_Init).
  [[nodiscard]] static const std::optional<Simulation>& simulation();
  // The simulator an MPI library's description names: "SMPI Version 3.32. ..."
  // is SimGrid SMPI 3.32; nothing for a real MPI library.
  [[nodiscard]] static std::optional<Simulation> simulation_of(const std::string& library);

  // The host's own figures; nullopt where they cannot be read. Under a
  // simulation they are the simulating machine's, shared by every rank.
  // MemAvailable of /proc/meminfo.
  [[nodiscard]] static std::optional<std::uint64_t> host_available_bytes();
  // This process's peak resident set (VmHWM of /proc/self/status).
  [[nodiscard]] static std::optional<std::uint64_t> peak_resident_bytes();
  // The kernel's transparent huge page mode ("always", "madvise", "never").
  [[nodiscard]] static std::optional<std::string> thp_mode();
  // The bytes of [p, p + bytes) that the kernel backs with huge pages now
  // (AnonHugePages of /proc/self/smaps).
  [[nodiscard]] static std::optional<std::size_t> huge_page_bytes(const void* p, std::size_t bytes);
  // The cores of this rank's node (at least 1): those this process may run
  // on or, under a simulation, the simulated host's (the platform file's
  // `core`, which the model shares among the host's ranks), not this
  // machine's, which every simulated rank shares.
  [[nodiscard]] static int cores();
  // Whether a person watches stderr: this process's, or under mpiexec (whose
  // ranks write into pipes) the launcher's, found through /proc.
  [[nodiscard]] static bool stderr_is_terminal();

  // The bytes this process holds through Allocation now; what the memory
  // preflight counts is tested against it.
  [[nodiscard]] static std::atomic<std::size_t>& allocated_bytes();

 private:
  int thread_level_ = 0;
  bool kokkos_ = false;
};

}  // namespace halobw
