#include "halobw/platform/terminal.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace halobw {

bool stderr_is_terminal() {
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

Progress::Progress(bool enabled) : enabled_(enabled) {}

void Progress::show(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!enabled_ || !shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace halobw
