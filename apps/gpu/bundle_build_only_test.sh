#!/usr/bin/env bash
# ctest gpu_bundle_build_only: the GPU bundle builds here and its runner and cuBLAS benchmark
# compile and link (scripts/gpu_eval.sh --build-only). Needs no GPU; skips (77) without nvcc.
#   bundle_build_only_test.sh <diet build dir> <scratch dir>
set -euo pipefail
build=$(cd "$1" && pwd)
scratch=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc || true)
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
    echo "SKIP: no CUDA toolkit (nvcc) on this machine; the GPU bundle's runner cannot be compiled"
    exit 77
fi
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
DIET_BUILD=$build bash "$repo/scripts/gpu_bundle.sh" "$scratch/bundle"
bash "$repo/scripts/gpu_eval.sh" "$scratch/bundle" "$scratch/out" --build-only
# The bundle's own copy of gpu_eval.sh must be the same script (it is what a GPU session may run).
cmp "$repo/scripts/gpu_eval.sh" "$scratch/bundle/gpu_eval.sh"
echo "gpu_bundle_build_only: OK"
