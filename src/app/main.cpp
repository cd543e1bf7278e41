// halo-bandwidth: wiring only. The process (MPI, then Kokkos once the device
// is chosen) comes up first and goes down last; an error that escapes a phase
// (a failed MPI call mid-exchange) may leave other ranks waiting, so it is
// printed by the rank that saw it, which ends the job (Process::end_job).
#include <mpi.h>

#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include "halobw/app/app.hpp"
#include "halobw/app/dry_run.hpp"
#include "halobw/base/failure.hpp"
#include "halobw/platform/mpi.hpp"
#include "halobw/platform/process.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  // A dry run of R ranks plans in this one process: MPI is not started at all.
  const halobw::EnvLookup env = halobw::process_environment();
  if (const auto dry = halobw::dry_run_alone_requested(args, env)) return halobw::dry_run_alone(*dry, env);
  halobw::Process process(argc, argv);
  int code = 0;
  try {
    halobw::Comm comm(MPI_COMM_WORLD);
    code = halobw::run_app(process, comm, args);
  } catch (const std::exception& e) {
    int rank = -1;
    halobw::report_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    // The launcher forwards the line through a pipe; on a loaded machine MPICH's
    // proxy was seen to end the job before it had (the line lost, exit 3): the
    // half second gives it time, as the watchdog's grace does.
    halobw::Process::end_job("halo-bandwidth: error on rank " + std::to_string(rank) + ": " + e.what(),
                             halobw::ExitCode::runtime_error, std::chrono::milliseconds(500));
  }
  return code;
}
