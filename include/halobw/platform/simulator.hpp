// Whether the MPI library is a simulator, and which: the one place that
// decides (a simulated run is told apart from a measured one by it, and the
// methods refuse what the simulator gets wrong by it). SimGrid's SMPI names
// itself in MPI_Get_library_version ("SMPI Version 3.32. ..."), so no build
// flag is needed: a program built with smpicxx knows it at run time.
#pragma once

#include <optional>
#include <string>

namespace halobw {

// "SimGrid SMPI 3.32" under SMPI; nothing under a real MPI library.
[[nodiscard]] std::optional<std::string> simulator();

}  // namespace halobw
