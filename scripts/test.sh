#!/usr/bin/env bash
# Set up (scripts/setup.sh --tests: the build's packages and the tests'), build
# a preset (default: host, the release build with Open MPI; also: mpich, the
# same against MPICH; ompi5, mpich5 and impi, against Open MPI 5, MPICH 5 and
# Intel MPI from PyPI, which setup.sh pip-installs into .mpi/PRESET; debug, with
# AddressSanitizer and UBSan), and run the whole test suite with ctest (MPI tests
# at 1, 2, 4 and 8 ranks, oversubscribed where cores are few; the release builds
# of each MPI also launch their build under srun and on simulated nodes).
# The srun tests' fixture (launch/slurm_up: scripts/slurm_up.sh, as root) starts
# munged, slurmctld and slurmd; the fixture's clean-up (launch/slurm_down) stops them
# and removes their folder and config link, and so does the end of this script
# (scripts/slurm_down.sh with PURGE=1), pass or fail, unless they were up before.
# Usage: scripts/test.sh [PRESET] [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-host}
shift || true

# Whether the one-node Slurm of scripts/slurm_up.sh is up now: its slurmctld's pid file
# names a live slurmctld.
slurm_pid=${HALOBW_SLURM_DIR:-/var/spool/halobw-slurm}/slurmctld.pid
slurm_was_up=0
if [ -s "$slurm_pid" ] && [ "$(cat "/proc/$(cat "$slurm_pid")/comm" 2>/dev/null)" = slurmctld ]; then
  slurm_was_up=1
fi
stop_slurm() {
  # PURGE=1: its folder and the /etc/slurm/slurm.conf link it made go too.
  [ "$slurm_was_up" = 1 ] || PURGE=1 ./scripts/slurm_down.sh >/dev/null 2>&1 || true
}
trap stop_slurm EXIT

./scripts/setup.sh --tests "$preset"
cmake --preset "$preset"
# The tests labelled `library` (CI on each of PyPI's libraries) need three of the build's
# programs: only those are built for them (tests/CMakeLists.txt, halobw-library-tests).
targets=()
if [ "$*" = "-L library" ]; then
  targets=(--target halobw-library-tests)
fi
cmake --build --preset "$preset" -j"$(nproc)" "${targets[@]}"
ctest --preset "$preset" -j"$(nproc)" "$@"
