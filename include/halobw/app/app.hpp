// The program from parsed arguments to exit code: every phase validated on
// every rank and agreed before the next collective.
#pragma once

#include <string>
#include <vector>

#include "halobw/cli/environment.hpp"
#include "halobw/cli/options.hpp"
#include "halobw/plan/layout.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/process.hpp"

namespace halobw {

// parse_options with what this build is: its backends, its version text and
// its MPI library's rule for --messages auto.
[[nodiscard]] Expected<Parsed> parse_for_this_build(const std::vector<std::string>& args,
                                                    const EnvLookup& env);

// The layout of a parsed run, or the first thing one rank refuses alone: a
// dry run's format or a method this MPI library lacks, then the layout, then
// --output's folder (looked at by `root`, rank 0, so that an unwritable path
// fails before any measurement; the file is written once measuring has begun).
[[nodiscard]] Expected<Layout> checked_layout(const Options& opt, int nranks, bool root);

// `args` are the arguments after the program name; `process` starts Kokkos
// once the device is chosen. Collective; returns the exit code (failure.hpp).
int run_app(Process& process, Comm& comm, const std::vector<std::string>& args);

}  // namespace halobw
