#!/usr/bin/env bash
# The main job: install what building and running need (scripts/setup.sh, as
# root), build the benchmark alone (the preset's halo-bandwidth target, with its
# progress), and run 2 ranks: ±z faces, N = 64, 128, 256. Extra arguments go to
# halo-bandwidth. The tests' packages and build: scripts/test.sh.
# HALOBW_PRESET picks the preset (default host; also mpich, ompi5, mpich5, impi):
# the run goes through the launcher of the library that preset builds with.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${HALOBW_PRESET:-host}
build=build
[ "$preset" = host ] || build=build-$preset
./scripts/setup.sh "$preset"
echo "run: configuring the $preset preset ($build/)"
cmake --preset "$preset" >/dev/null
echo "run: building halo-bandwidth"
cmake --build --preset "$preset" -j"$(nproc)" --target halo-bandwidth
# The launcher CMake found beside the library's wrapper (mpi_env.sh adds what it needs).
source scripts/mpi_env.sh 2 "$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")"
exec "${HALOBW_MPIEXEC[@]}" "$build/halo-bandwidth" --axis z --sizes 64,128,256 "$@"
