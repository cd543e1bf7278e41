// What belongs to the process rather than to a rank, in one object built once
// in main. Today one rank is one process; this header and its source are the
// one place that assumes it:
// - MPI's and Kokkos's lifetimes (MPI_Init_thread, Kokkos::initialize, and
//   their ends);
// - the one way a rank ends the job from inside: a last word on stderr, a
//   wait so that the launcher forwards it, then MPI_Abort;
// - whether helper threads (the watchdog's) may run, and the clock they watch;
// - pauses (a test hook's slow rank, the wait before an abort);
// - the host's own figures (/proc, /sys, cores);
// - the per-process counters (bytes held through Allocation).
// Nothing else in src/ or include/ calls MPI_Init, Kokkos::initialize,
// MPI_Abort or _Exit, sleeps, or reads /proc (the test
// layers/process_boundary greps for them). A runtime that puts every rank in
// one process (a simulator) replaces this object and the build files.
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

  // The host's own figures; nullopt where they cannot be read.
  // MemAvailable of /proc/meminfo.
  [[nodiscard]] static std::optional<std::uint64_t> host_available_bytes();
  // This process's peak resident set (VmHWM of /proc/self/status).
  [[nodiscard]] static std::optional<std::uint64_t> peak_resident_bytes();
  // The kernel's transparent huge page mode ("always", "madvise", "never").
  [[nodiscard]] static std::optional<std::string> thp_mode();
  // The bytes of [p, p + bytes) that the kernel backs with huge pages now
  // (AnonHugePages of /proc/self/smaps).
  [[nodiscard]] static std::optional<std::size_t> huge_page_bytes(const void* p, std::size_t bytes);
  // The cores this process may run on (at least 1).
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
