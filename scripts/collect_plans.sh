#!/usr/bin/env bash
# Measures stage-rule plans of the 12 image pipelines of apps/pipelines (issue 14's suite) into a
# cost-model dataset (records of kind "plan", src/cost/Dataset.h), for the plan model's figures
# (build/apps/diet_model eval-plans) - issue 15.
#   bash scripts/collect_plans.sh [--trials N] [--out FILE] [--pipelines a,b,...]
# Each pipeline's generator runs Diet's stage-rule search with HL_DIET_TRIALS=N (N/3 plans, each
# timed at 3 shapes of its family) and HL_DIET_DATASET; its records are labelled with the
# pipeline's name. A pipeline already in the output file is skipped (resumable).
# Build: the plugin in build/ and the pipelines' generators in build-pipelines/ (as
# scripts/pipelines_bench.sh builds them; DIET_PIPELINES_BUILD to change).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
trials=96
out=models/data/plans_$(hostname -s).jsonl
pipelines="unsharp,harris,stencil_chain,max_filter,iir_blur,hist_eq,bilateral_grid,camera_pipe,local_laplacian,interpolate,nl_means,conv_layer"
while [ $# -gt 0 ]; do
    case "$1" in
    --trials) trials="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --pipelines) pipelines="$2"; shift 2 ;;
    *) echo "collect_plans.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
build=${DIET_PIPELINES_BUILD:-$root/build-pipelines}
[ -f build/libautoschedule_diet.so ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target autoschedule_diet diet_target >/dev/null
if [ ! -x "$build/apps/pipelines/pl_unsharp.generator" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DDIET_BUILD_TESTS=OFF -DDIET_BUILD_PIPELINES_BENCH=ON >/dev/null
    cmake --build "$build" -j"$(nproc)" --target pipelines_generators >/dev/null
fi
target=$(build/diet_target)-no_runtime
mkdir -p "$(dirname "$out")"
touch "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IFS=, read -r -a plist <<<"$pipelines"
n=0
for p in "${plist[@]}"; do
    n=$((n + 1))
    if grep -q "\"label\":\"$p\"" "$out"; then
        echo "[collect_plans] $n/${#plist[@]} $p: already in $out" >&2
        continue
    fi
    start=$(date +%s)
    HL_DIET_TRIALS=$trials HL_DIET_DATASET=$tmp/$p.jsonl \
        "$build/apps/pipelines/pl_$p.generator" -g "$p" -o "$tmp" -e schedule -t 7200 \
        -p build/libautoschedule_diet.so -s Diet target="$target" auto_schedule=true \
        machine_params=2,16777216,40 symbolic_estimates=true >"$tmp/$p.log" 2>&1 \
        || { echo "[collect_plans] $p: the generator failed (tail of its log:)" >&2; tail -5 "$tmp/$p.log" >&2; continue; }
    if [ -f "$tmp/$p.jsonl" ]; then
        sed "s/\"label\":\"\"/\"label\":\"$p\"/" "$tmp/$p.jsonl" >>"$out"
    fi
    grep "stage-rule search: best plan" "$tmp/$p.log" | sed "s/^/[collect_plans] $n\/${#plist[@]} $p ($(( $(date +%s) - start )) s): /" >&2 || true
done
