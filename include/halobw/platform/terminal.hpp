// The progress line: "size k of n, N=..., ..." on stderr, rewritten in place,
// only where stderr is a terminal (the rank's own, or under mpiexec the
// launcher's); nothing at all in logs and pipes. Whatever else rank 0 prints
// clears it first, so that no line starts behind it.
#pragma once

#include <string>

namespace halobw {

class Progress {
 public:
  explicit Progress(bool enabled);
  void show(const std::string& text);
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
};

// Whether a person watches stderr: this process's, or under mpiexec (whose
// ranks write into pipes) the launcher's. Reads /proc on Linux.
[[nodiscard]] bool stderr_is_terminal();

}  // namespace halobw
