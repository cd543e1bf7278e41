#!/usr/bin/env bash
# Sourced: what Open MPI needs to start here. As root it refuses to run unless
# told it may; on fewer cores than ranks it needs --oversubscribe.
# Usage: source scripts/mpi_env.sh RANKS   (sets HALOBW_MPIEXEC as an array)
halobw_ranks=${1:-2}
HALOBW_MPIEXEC=(mpiexec -n "$halobw_ranks")
if mpiexec --version 2>/dev/null | grep -qE "Open MPI|OpenRTE"; then
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  if [ "$(nproc)" -lt "$halobw_ranks" ]; then
    HALOBW_MPIEXEC+=(--oversubscribe)
  fi
fi
