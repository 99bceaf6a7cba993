#!/usr/bin/env bash
# Issue 6's benchmark: Diet against OpenBLAS, oneDNN, Halide's Adams2019 and Mullapudi2016 (per-shape
# and max-shape) and Diet's own modes, on the BERT workloads, every T in 1..128, on this CPU.
#
#   bash scripts/bench.sh                      # every workload (about an hour on 2 cores)
#   bash scripts/bench.sh dense_qkv bmm_nt     # some of them: dense_qkv dense_out dense_ffn1
#                                              #   dense_ffn2 bmm_nt bmm_nn encoder
# Writes apps/results/cpu/<workload>.{csv,md,png} and summary.md (set DIET_BENCH_OUT to write
# elsewhere); extra anchors_bench options go in DIET_BENCH_ARGS (e.g. "--t-step 8 --repeats 1").
# GPU: no CUDA comparison is implemented yet; the program says so.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
out=${DIET_BENCH_OUT:-apps/results/cpu}
workloads=all
if (($#)); then workloads=$(IFS=,; echo "$*"); fi
source scripts/openblas_env.sh  # OpenBLAS's strongest kernels for this CPU
# shellcheck disable=SC2086
build/apps/anchors_bench --workloads "$workloads" --out-dir "$out" ${DIET_BENCH_ARGS:-} \
    2> >(grep -v -E '^(Pass [0-9]|Best cost|Cache \(block\)|generate_schedule|Dropout seed|Warning: Outer dim)' >&2)
