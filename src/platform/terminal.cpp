#include "halobw/platform/terminal.hpp"

#include <cstdio>
#include <string>

namespace halobw {

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
