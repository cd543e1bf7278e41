#include "halobw/platform/process.hpp"

#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>

#include "halobw/platform/mpi.hpp"

namespace halobw {

Process::Process(int& argc, char**& argv) {
  check_mpi(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &thread_level_), "MPI_Init_thread");
}

Process::~Process() {
  if (kokkos_) Kokkos::finalize();
  int finalized = 0;
  if (report_mpi(MPI_Finalized(&finalized), "MPI_Finalized") && !finalized) {
    report_mpi(MPI_Finalize(), "MPI_Finalize");
  }
}

bool Process::helper_threads() const { return thread_level_ >= MPI_THREAD_FUNNELED; }

void Process::start_kokkos(int device_id) {
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings settings;
  if (device_id >= 0) settings.set_device_id(device_id);
  Kokkos::initialize(settings);
#else
  Kokkos::InitArguments args;
  if (device_id >= 0) args.device_id = device_id;
  Kokkos::initialize(args);
#endif
  kokkos_ = true;
}

void Process::pause(std::chrono::duration<double> d) { std::this_thread::sleep_for(d); }

void Process::end_job(const std::string& line, ExitCode code, std::chrono::duration<double> grace,
                      const std::function<void()>& then) {
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  if (then) then();
  pause(grace);
  // From the watchdog's thread this is more than MPI_THREAD_FUNNELED
  // promises, but it is the one way the exit code reaches the shell intact on
  // Open MPI 4.1 and MPICH 4.0 (docs/method.md, "The watchdog and the clock");
  // a plain exit is reported by MPICH's launcher as a bystander's signal 9.
  report_mpi(MPI_Abort(MPI_COMM_WORLD, exit_status(code)), "MPI_Abort");
  std::_Exit(exit_status(code));
}

namespace {

// A "Key: <n> kB" line of a /proc file, in bytes.
std::optional<std::uint64_t> proc_kib(const char* path, const std::string& wanted) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == wanted) return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Simulation> Process::simulation_of(const std::string& library) {
  constexpr std::string_view kSmpi = "SMPI Version ";
  if (library.rfind(kSmpi, 0) != 0) return std::nullopt;
  const std::string rest = library.substr(kSmpi.size());
  return Simulation{"SimGrid SMPI", rest.substr(0, rest.find_first_of(". ", rest.find('.') + 1))};
}

const std::optional<Simulation>& Process::simulation() {
  static const std::optional<Simulation> found = simulation_of(mpi_library_version());
  return found;
}

std::optional<std::uint64_t> Process::host_available_bytes() {
  return proc_kib("/proc/meminfo", "MemAvailable:");
}

std::optional<std::uint64_t> Process::peak_resident_bytes() {
  return proc_kib("/proc/self/status", "VmHWM:");
}

std::optional<std::string> Process::thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  const auto open = line.find('[');
  const auto close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  return line.substr(open + 1, close - open - 1);
}

std::optional<std::size_t> Process::huge_page_bytes(const void* p, std::size_t bytes) {
  std::ifstream in("/proc/self/smaps");
  if (!in) return std::nullopt;
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t hi = lo + bytes;
  std::size_t huge = 0;
  bool inside = false;
  std::string line;
  while (std::getline(in, line)) {
    const auto dash = line.find('-');
    const auto space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find_first_not_of("0123456789abcdef") == dash) {
      const std::uintptr_t a = std::stoull(line.substr(0, dash), nullptr, 16);
      const std::uintptr_t b = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
      inside = a < hi && b > lo;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
      huge += std::stoull(line.substr(14)) * 1024;
    }
  }
  return huge;
}

namespace {

// The cores of the simulated host this rank runs on, from SimGrid's C API
// (simgrid/host.h: sg_host_core_count(sg_host_self())), looked up at run time:
// a program built with smpicxx links libsimgrid, any other build has no such
// symbol and no SimGrid header to compile against. Nothing where not found.
std::optional<int> simulated_host_cores() {
  using HostSelf = const void* (*)();
  using CoreCount = int (*)(const void*);
  void* self = dlsym(RTLD_DEFAULT, "sg_host_self");
  void* count = dlsym(RTLD_DEFAULT, "sg_host_core_count");
  if (self == nullptr || count == nullptr) return std::nullopt;
  const void* host = reinterpret_cast<HostSelf>(self)();
  if (host == nullptr) return std::nullopt;
  return reinterpret_cast<CoreCount>(count)(host);
}

}  // namespace

int Process::cores() {
  if (simulation()) {
    if (const auto n = simulated_host_cores()) return std::max(1, *n);
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

bool Process::stderr_is_terminal() {
  if (isatty(fileno(stderr)) == 1) return true;
  // Under mpiexec a rank's stderr is a pipe to the launcher; the launcher's
  // own stderr tells whether a person is watching. Open MPI's orted is the
  // rank's parent; MPICH's hydra puts hydra_pmi_proxy (stderr a pipe too)
  // between the rank and mpiexec: follow pipes up two levels.
  pid_t pid = getppid();
  for (int level = 0; level < 2 && pid > 1; ++level) {
    const std::string link = "/proc/" + std::to_string(pid) + "/fd/2";
    char target[256] = {};
    const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0) return false;
    const std::string path(target, static_cast<std::size_t>(n));
    if (path.rfind("/dev/pts/", 0) == 0 || path.rfind("/dev/tty", 0) == 0) return true;
    if (path.rfind("pipe:", 0) != 0) return false;
    // The parent's parent: /proc/<pid>/stat is "pid (comm) state ppid ...", comm may hold spaces.
    std::FILE* stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (stat == nullptr) return false;
    char line[512] = {};
    const bool got = std::fgets(line, sizeof line, stat) != nullptr;
    std::fclose(stat);
    const char* close = got ? std::strrchr(line, ')') : nullptr;
    int ppid = 0;
    if (close == nullptr || std::sscanf(close + 1, " %*c %d", &ppid) != 1) return false;
    pid = static_cast<pid_t>(ppid);
  }
  return false;
}

std::atomic<std::size_t>& Process::allocated_bytes() {
  static std::atomic<std::size_t> live{0};
  return live;
}

}  // namespace halobw
