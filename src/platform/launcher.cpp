#include "halobw/platform/launcher.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string>

namespace halobw {

// The launcher's own count of tasks, against the ranks MPI sees. A launcher
// and an MPI whose PMI do not match (MPICH under srun --mpi=pmix, or under
// Open MPI's mpirun) start each task as a job of one rank: every one would
// print a valid-looking table of self faces. Pure.
Status launcher_agrees(const EnvLookup& env, int mpi_size, const std::string& library) {
  // The library by its name and version (Open MPI's first line goes on past a comma).
  const std::string named = library.substr(0, library.find(','));
  for (const char* name : env_var::kTaskCounts) {
    const auto v = env(name);
    if (!v || v->empty()) continue;
    const long tasks = std::strtol(v->c_str(), nullptr, 10);
    // Slurm's counts describe the step or allocation, which may hold more than
    // this job (mpirun inside an allocation): only a lone rank among many is sure.
    const bool slurm = std::string(name).rfind("SLURM_", 0) == 0;
    if (tasks > 0 && tasks != mpi_size && (!slurm || mpi_size == 1)) {
      return fail(fmt::format(
          "the launcher started {} tasks ({}={}) but MPI ({}) sees {} rank{}: each task runs alone, "
          "so the launcher and "
          "the MPI library do not speak the same PMI (start it with the mpiexec of the library "
          "it was built with; under srun: --mpi=pmix for Open MPI, --mpi=pmi2 for MPICH and "
          "Intel MPI)",
          tasks, name, *v, named, mpi_size, mpi_size == 1 ? "" : "s"));
    }
    if (slurm) break;  // the step's count, when there is one, over the allocation's
  }
  return {};
}

// The launcher's number for this task (0 when it gives none). Where each task
// runs alone, every one is rank 0 of its own MPI_COMM_WORLD: this tells the
// launcher's first task, the one that speaks for all. Pure.
long launcher_rank(const EnvLookup& env) {
  for (const char* name : env_var::kTaskNumbers) {
    const auto v = env(name);
    if (v && !v->empty()) return std::strtol(v->c_str(), nullptr, 10);
  }
  return 0;
}

}  // namespace halobw
