#include "halobw/platform/simulator.hpp"

#include <string_view>

#include "halobw/platform/mpi.hpp"

namespace halobw {

std::optional<std::string> simulator() {
  constexpr std::string_view kSmpi = "SMPI Version ";
  const std::string library = mpi_library_version();
  if (library.rfind(kSmpi, 0) != 0) return std::nullopt;
  const std::string rest = library.substr(kSmpi.size());
  return "SimGrid SMPI " + rest.substr(0, rest.find_first_of(". ", rest.find('.') + 1));
}

}  // namespace halobw
