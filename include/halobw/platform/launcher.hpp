// What the launcher says of the job, from the environment it sets: its
// count of tasks against the ranks MPI sees, and this task's number. Pure.
#pragma once

#include "halobw/base/failure.hpp"
#include "halobw/cli/environment.hpp"

#include <string>

namespace halobw {

// A launcher and an MPI whose PMI do not match (MPICH under srun --mpi=pmix,
// or under Open MPI's mpirun) start each task as a job of one rank: every one
// would print a valid-looking table of self faces. The failure says so, and
// names both sides: the launcher's variable and `library` (MPI_Get_library_version).
[[nodiscard]] Status launcher_agrees(const EnvLookup& env, int mpi_size, const std::string& library);

// The launcher's number for this task (0 when it gives none). Where each task
// runs alone, every one is rank 0 of its own MPI_COMM_WORLD: this tells the
// launcher's first task, the one that speaks for all.
[[nodiscard]] long launcher_rank(const EnvLookup& env);

}  // namespace halobw
