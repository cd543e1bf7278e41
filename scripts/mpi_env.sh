#!/usr/bin/env bash
# Sourced: what the launcher needs to start RANKS ranks here. Open MPI's
# launcher (4's orterun, 5's PRRTE prterun) refuses to run as root unless told it
# may (both read the same two variables), and on fewer cores than ranks it needs
# --oversubscribe; hydra (MPICH's, Intel MPI's) needs neither.
# Usage: source scripts/mpi_env.sh RANKS [MPIEXEC]   (sets HALOBW_MPIEXEC as an array)
#   MPIEXEC: default $HALOBW_MPIEXEC_EXE, else mpiexec (the `mpi` alternative:
#   Open MPI on Debian); /usr/bin/mpiexec.mpich for a build of the mpich preset,
#   .mpi/PRESET/bin/mpiexec for one of ompi5, mpich5 or impi.
halobw_ranks=${1:-2}
halobw_launcher=${2:-${HALOBW_MPIEXEC_EXE:-mpiexec}}
HALOBW_MPIEXEC=("$halobw_launcher" -n "$halobw_ranks")
if "$halobw_launcher" --version 2>/dev/null | grep -qE "Open MPI|OpenRTE|PRRTE"; then
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  if [ "$(nproc)" -lt "$halobw_ranks" ]; then
    HALOBW_MPIEXEC+=(--oversubscribe)
  fi
fi
