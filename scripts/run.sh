#!/usr/bin/env bash
# The main job: install what building and running need (scripts/setup.sh, as
# root), build the benchmark alone (the host preset's halo-bandwidth target,
# with its progress), and run 2 ranks: ±z faces, N = 64, 128, 256. Extra
# arguments go to halo-bandwidth. The tests' packages and build: scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
echo "run: configuring the host preset (build/)"
cmake --preset host >/dev/null
echo "run: building halo-bandwidth"
cmake --build --preset host -j"$(nproc)" --target halo-bandwidth
source scripts/mpi_env.sh 2
exec "${HALOBW_MPIEXEC[@]}" build/halo-bandwidth --axis z --sizes 64,128,256 "$@"
