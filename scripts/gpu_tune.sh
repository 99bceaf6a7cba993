#!/usr/bin/env bash
# GPU tuning through farm rounds carried by hand to a GPU machine (issue 16; README "GPU tuning
# rounds by hand"). HERE, with Halide: starts one tuner per workload of the GPU bundle (dense,
# batch_matmul NT and NN) in the background, each with the exact target the bundle uses (a tuning
# log is matched by pipeline and target), its own farm directory and fake-Slurm state.
#
#   scripts/gpu_tune.sh start [trials] [tasks]   (defaults 48 and 6: 8 x tasks measurements a round,
#                                                  so 48 trials are one search round, then one
#                                                  verification round)
#   scripts/gpu_tune.sh pending                  lists the rounds waiting for results
#   scripts/gpu_tune.sh import <fetched-dir>     puts a GPU run's results (unpacked tune.tar) back
#   scripts/gpu_tune.sh bundle [dir]             after the tuners exit: the bundle of the tuned
#                                                  libraries (the logs re-applied, no measurement)
#
# ON the GPU machine (device tool, carry ["build-gpu/farm", ...]):
#   bash apps/gpu/farm_round.sh run build-gpu/farm/<w> /tmp/tune/<w>   for w in dense nt nn
# then pack /tmp/tune into one file under $OUT (the tool brings back at most 8 files).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
build=${DIET_BUILD:-build}
target=${DIET_GPU_TARGET:-x86-64-linux-avx-avx2-f16c-fma-sse41-cuda-cuda_capability_80}
machine_params=${DIET_GPU_MACHINE_PARAMS:-132,52428800,40}
root=build-gpu
workloads=(dense nt nn)

gen_args() {  # workload -> generator, -g name, target suffix
    case $1 in
        dense) echo "dense dense" ;;
        nt) echo "batch_matmul batch_matmul_nt -no_runtime" ;;
        nn) echo "batch_matmul batch_matmul_nn -no_runtime" ;;
    esac
}

case "${1:-}" in
start)
    trials=${2:-48} tasks=${3:-6}
    [ -x "$build/diet_runner" ] || cmake --build "$build" -j2 --target diet_runner
    mkdir -p "$root/tuned"
    for w in "${workloads[@]}"; do
        read -r file name suffix <<< "$(gen_args $w)"
        rm -rf "$root/farm/$w" "$root/fake-slurm/$w"
        mkdir -p "$root/farm/$w" "$root/fake-slurm/$w"
        (
            export PATH=$repo/apps/gpu/fake_slurm:$PATH DIET_FAKE_SLURM_DIR=$repo/$root/fake-slurm/$w
            export HL_DIET_TRIALS=$trials HL_DIET_LOG=$repo/$root/tuned/$w.log HL_DIET_REPORT=$repo/$root/tuned/$w.report.json
            export HL_DIET_FARM=slurm HL_DIET_FARM_DIR=$repo/$root/farm/$w HL_DIET_FARM_ARGS=tasks=$tasks,poll=2,keep=1
            export HL_DIET_TIMEOUT=${HL_DIET_TIMEOUT:-20}
            exec "$build/generators/$file.generator" -g "$name" -f "diet_$name" -o "$root/tuned" -e static_library,h,schedule \
                -p "$build/libautoschedule_diet.so" -s Diet "target=$target${suffix:-}" auto_schedule=true \
                "machine_params=$machine_params"
        ) > "$root/tuned/$w.tuner.log" 2>&1 &
        echo "gpu_tune: $w tuner started (pid $!, log $root/tuned/$w.tuner.log)"
    done
    ;;
pending)
    for w in "${workloads[@]}"; do
        for r in "$root/farm/$w"/round-*/; do
            [ -f "$r/diet_farm_job.sh" ] || continue
            n=$(ls -d "$r"/shard-*/ 2>/dev/null | wc -l); done_n=$(find "$r" -name result.json | wc -l)
            echo "$w ${r%/}: $done_n/$n shards have results"
        done
    done
    ;;
import)
    from=$2
    for w in "${workloads[@]}"; do
        [ -d "$from/$w" ] && bash apps/gpu/farm_round.sh import "$from/$w" "$root/farm/$w"
    done
    ;;
bundle)
    # A bundle built with the tuning logs: trials 0 re-applies each log's recorded decision.
    out=${2:-$root/bundle-tuned}
    for w in "${workloads[@]}"; do [ -s "$root/tuned/$w.log" ] || { echo "gpu_tune: no $root/tuned/$w.log" >&2; exit 1; }; done
    # One log for the three pipelines (a log keeps records of several, matched by pipeline and
    # target): the first log whole, the others without their header line.
    merged=$root/tuned/gpu.log
    { cat "$root/tuned/dense.log"; tail -n +2 "$root/tuned/nt.log"; tail -n +2 "$root/tuned/nn.log"; } > "$merged.tmp"
    mv "$merged.tmp" "$merged"
    HL_DIET_LOG=$repo/$merged scripts/gpu_bundle.sh "$out"
    ;;
*)
    sed -n '2,18p' "$0" >&2
    exit 2
    ;;
esac
