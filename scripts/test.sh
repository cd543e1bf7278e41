#!/usr/bin/env bash
# Set up, build a preset (default: host, the release build with Open MPI; also:
# mpich, the same against MPICH; debug, with AddressSanitizer and UBSan), and
# run the whole test suite with ctest (MPI tests at 1, 2, 4 and 8 ranks,
# oversubscribed where cores are few; host and mpich also launch their build
# under srun and on simulated nodes).
# Usage: scripts/test.sh [PRESET] [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-host}
shift || true
./scripts/setup.sh "$preset"
cmake --preset "$preset"
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)" "$@"
