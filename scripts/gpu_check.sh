#!/usr/bin/env bash
# The GPU check of docs/gpu.md, as one script for a machine with one GPU:
# --check, then the table on 1 rank with all six faces (all self) on the
# staged transport and on the direct one, N = 256, 512, 1024, with the
# pack, staging and unpack phases timed separately (--breakdown, fenced)
# and the device copy limit (--limit). Results go to OUT as JSON and text.
# Usage: scripts/gpu_check.sh [BUILD_DIR=build-cuda] [BACKEND=cuda] [OUT=docs/results]
set -euo pipefail
build=${1:-build-cuda}
backend=${2:-cuda}
out=${3:-docs/results}
mkdir -p "$out"
exe="$build/halo-bandwidth"
common=(--backend "$backend" --faces --sizes 256,512,1024 --iters 50 --warmup 5 --repeats 3)
nvidia-smi -L 2>/dev/null || rocm-smi --showproductname 2>/dev/null || true
echo "== --check"
"$exe" "${common[@]}" --iters 1 --warmup 0 --repeats 1 --check | tee "$out/gpu-check.txt"
for aware in off on; do
  echo "== staged/direct: --gpu-aware $aware"
  "$exe" "${common[@]}" --gpu-aware "$aware" --breakdown --limit \
    --format json --output "$out/gpu-faces-aware-$aware.json" | tee "$out/gpu-faces-aware-$aware.txt"
done
