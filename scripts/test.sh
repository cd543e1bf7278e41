#!/usr/bin/env bash
# Set up, build the host preset, and run the whole test suite with ctest
# (MPI tests at 1, 2, 4 and 8 ranks, oversubscribed where cores are few).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset host
cmake --build --preset host -j"$(nproc)"
ctest --preset host -j"$(nproc)"
