// The program from parsed arguments to exit code: every phase validated on
// every rank and agreed before the next collective.
#pragma once

#include <string>
#include <vector>

#include "halobw/platform/mpi.hpp"

namespace halobw {

// `args` are the arguments after the program name; `thread_level` is what
// MPI_Init_thread provided. Collective; returns the exit code (failure.hpp).
int run_app(Comm& comm, const std::vector<std::string>& args, int thread_level);

}  // namespace halobw
