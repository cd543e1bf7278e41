// A Kokkos tool for the test of the exchange's profiling regions (the
// e2e/regions suite): Kokkos loads it from KOKKOS_TOOLS_LIBS (Kokkos 4) or
// KOKKOS_PROFILE_LIBRARY (Kokkos 3), and it writes to the file named by
// HALOBW_REGION_LOG (a %r in it becomes the MPI rank, from the launcher's
// environment), at finalize, one line per region name: the name, how
// often it was entered, how often inside halobw::start or halobw::finish,
// and the deepest nesting seen; and a last line with the pushes left open.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

struct Count {
  long entered = 0;
  long inside_exchange = 0;  // entered with halobw::start or halobw::finish open
  std::size_t deepest = 0;
};

std::map<std::string, Count>& counts() {
  static std::map<std::string, Count> c;
  return c;
}
std::vector<std::string>& open_regions() {
  static std::vector<std::string> o;
  return o;
}

}  // namespace

extern "C" {

void kokkosp_push_profile_region(const char* name) {
  Count& c = counts()[name];
  ++c.entered;
  for (const std::string& o : open_regions()) {
    if (o == "halobw::start" || o == "halobw::finish") {
      ++c.inside_exchange;
      break;
    }
  }
  open_regions().emplace_back(name);
  if (open_regions().size() > c.deepest) c.deepest = open_regions().size();
}

void kokkosp_pop_profile_region() {
  if (!open_regions().empty()) open_regions().pop_back();
}

void kokkosp_finalize_library() {
  const char* log = std::getenv("HALOBW_REGION_LOG");
  if (log == nullptr) return;
  std::string path = log;
  const std::string::size_type r = path.find("%r");
  if (r != std::string::npos) {
    const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (rank == nullptr) rank = std::getenv("PMI_RANK");
    path.replace(r, 2, rank != nullptr ? rank : "0");
  }
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  for (const auto& [name, c] : counts())
    std::fprintf(f, "%s %ld %ld %zu\n", name.c_str(), c.entered, c.inside_exchange, c.deepest);
  std::fprintf(f, "open %zu\n", open_regions().size());
  std::fclose(f);
}

}  // extern "C"
