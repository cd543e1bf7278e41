#!/usr/bin/env bash
# Set up, build a preset (default: host, the release build; also: debug,
# with AddressSanitizer and UBSan), and run the whole test suite with ctest
# (MPI tests at 1, 2, 4 and 8 ranks, oversubscribed where cores are few).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-host}
./scripts/setup.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)"
