#include "halobw/platform/huge_pages.hpp"

#include "halobw/platform/process.hpp"

#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace halobw {

bool huge_pages_available() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const auto mode = Process::thp_mode();
  return mode && *mode != "never";
#else
  return false;
#endif
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)
namespace {
std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
}  // namespace

void* huge_alloc(std::size_t bytes) {
  const std::size_t guard = page_size();
  const std::size_t span = bytes + kHugePage + guard;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  // Offsets from the mapping, not integers turned into pointers: the aligned
  // start, the end of the whole pages, the guard page after them.
  char* const first = static_cast<char*>(raw);
  const auto misalign = reinterpret_cast<std::uintptr_t>(raw) % kHugePage;
  char* const start = first + (misalign == 0 ? 0 : kHugePage - misalign);
  char* const end = start + bytes;  // bytes is whole huge pages
  char* const tail = end + guard;
  // Give back what lies before the aligned start and after the guard page.
  if (start > first) munmap(first, static_cast<std::size_t>(start - first));
  if (first + span > tail) munmap(tail, static_cast<std::size_t>(first + span - tail));
  mprotect(end, guard, PROT_NONE);
  madvise(start, bytes, MADV_HUGEPAGE);
  return start;
}

void huge_free(void* p, std::size_t bytes) noexcept { munmap(p, bytes + page_size()); }
#else
void* huge_alloc(std::size_t /*bytes*/) { throw std::bad_alloc(); }
void huge_free(void*, std::size_t) noexcept {}
#endif

}  // namespace halobw
