// The program from parsed arguments to exit code: every phase validated on
// every rank and agreed before the next collective.
#pragma once

#include <string>
#include <vector>

#include "halobw/cli/environment.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

// parse_options with what this build is: its backends, its version text and
// its MPI library's rule for --messages auto.
[[nodiscard]] Expected<Parsed> parse_for_this_build(const std::vector<std::string>& args,
                                                    const EnvLookup& env);

// `args` are the arguments after the program name; `process` starts Kokkos
// once the device is chosen. Collective; returns the exit code (failure.hpp).
int run_app(Process& process, Comm& comm, const std::vector<std::string>& args);

}  // namespace halobw
