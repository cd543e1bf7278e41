// The progress line: "size k of n, N=..., ..." on stderr, rewritten in place,
// only where stderr is a terminal (the rank's own, or under mpiexec the
// launcher's: Process::stderr_is_terminal); nothing at all in logs and pipes. Whatever else rank 0 prints
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

}  // namespace halobw
