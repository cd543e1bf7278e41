#!/usr/bin/env bash
# The GPU check of docs/gpu.md, as one script for a machine with one GPU:
# --check, then the table on 1 rank with all six faces (all self) on the
# staged transport and as device copies, N = 256, 512, 1024, with the
# pack, staging and unpack phases timed separately (--breakdown, fenced)
# and the device copy limit (--limit). Results go to OUT as JSON and text.
# Usage: scripts/gpu_check.sh [BUILD_DIR=build-cuda] [BACKEND=cuda] [OUT=docs/results]
set -euo pipefail
build=${1:-build-cuda}
backend=${2:-cuda}
out=${3:-docs/results}
exe="$build/halo-bandwidth"
# Without the build, say which one is missing and how to make it; write nothing.
if [ ! -x "$exe" ]; then
  echo "gpu_check: no $exe: build the $backend preset first (docs/gpu.md):" >&2
  echo "gpu_check:   Kokkos_ROOT=<a Kokkos built with $backend> cmake --preset $backend && cmake --build --preset $backend" >&2
  exit 2
fi
mkdir -p "$out"
common=(--backend "$backend" --pack kernel --faces --sizes 256,512,1024)
timed=(--iters 50 --warmup 5 --repeats 3)
nvidia-smi -L 2>/dev/null || rocm-smi --showproductname 2>/dev/null || true
echo "== --check"
"$exe" "${common[@]}" --self mpi --gpu-aware off --iters 1 --warmup 0 --check | tee "$out/gpu-check.txt"
# Self faces as MPI messages to self, staged through pinned host memory (works
# with any MPI), then as device-side copies with no MPI at all.
echo "== staged: --self mpi --gpu-aware off"
"$exe" "${common[@]}" "${timed[@]}" --self mpi --gpu-aware off --breakdown --limit \
  --format json --output "$out/gpu-faces-staged.json" | tee "$out/gpu-faces-staged.txt"
echo "== device copies: --self copy"
"$exe" "${common[@]}" "${timed[@]}" --self copy --breakdown --limit \
  --format json --output "$out/gpu-faces-copy.json" | tee "$out/gpu-faces-copy.txt"
