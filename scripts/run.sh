#!/usr/bin/env bash
# Set up, build the host preset, and run the main job: 2 ranks, ±z faces,
# N = 64, 128, 256. Extra arguments go to halo-bandwidth.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset host >/dev/null
cmake --build --preset host -j"$(nproc)" >/dev/null
source scripts/mpi_env.sh 2
exec "${HALOBW_MPIEXEC[@]}" build/halo-bandwidth --axis z --sizes 64,128,256 "$@"
