#!/usr/bin/env bash
# Builds, on a machine with Halide 14 and no GPU, everything a GPU machine without Halide needs to
# time Diet's CUDA kernels against cuBLAS (issue 16): scripts/gpu_eval.sh runs it there.
#
#   scripts/gpu_bundle.sh [bundle-dir]        (default: build-gpu/bundle, ignored by git via /build*/)
#
# Environment: DIET_BUILD (default: build) holds build/generators/{dense,batch_matmul}.generator and
# libautoschedule_diet.so (built with `cmake --build build --target <t>` when missing);
# DIET_GPU_TARGET overrides the Halide target; DIET_GPU_MACHINE_PARAMS the machine_params;
# DIET_GPU_FORMS_LIST (comma-separated form names) builds those forms instead of the forms table's
# default list (e.g. to add the batch-innermost bmm forms, which are not in form_names());
# DIET_GPU_SWEEP="2x8:64:4 4x16:32:4 ..." (regs:k_tile:k_unroll) adds the forced-kernel sweep of
# the dense layer (sweep/, timed by gpu_eval.sh); DIET_GPU_CUDA_REGISTERS=N schedules for kernels
# JIT-compiled with at most N registers per thread (Diet's cuda_registers option; default 64, Halide
# 14's runtime default) and writes N into the bundle's cuda_registers file, from which gpu_eval.sh
# exports HL_CUDA_JIT_MAX_REGISTERS=N for the run.
#
# Layout of the bundle:
#   lib/diet_dense.{a,h}              dense y[16T,2304] = x[16T,768] w^T, with Halide's runtime
#   lib/diet_batch_matmul_{nt,nn}.{a,h}   attention's batched products, -no_runtime
#   include/HalideRuntime.h, HalideRuntimeCuda.h, HalideBuffer.h
#   src/  diet_gpu_runner.cpp, cublas_bench.cu, gpu_common.h, gpu_report.py (copies of apps/gpu)
#   gpu_eval.sh                       a copy of scripts/gpu_eval.sh
#   BUNDLE.txt                        provenance: commit, target, the generator commands, checksums
#
# Target: the host part is a conservative x86-64 AVX2 (the GPU machine's CPU is unknown, and the host
# code only checks arguments and launches kernels); the CUDA part is cuda_capability_80 because
# Halide 14 knows no capability newer than 8.6: on a Hopper GPU (sm_90) the driver JIT-compiles the
# sm_80 PTX. machine_params=132,52428800,40: 132 SMs and 50 MiB of L2, an H100 SXM.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
bundle=${1:-build-gpu/bundle}
build=${DIET_BUILD:-build}
target=${DIET_GPU_TARGET:-x86-64-linux-avx-avx2-f16c-fma-sse41-cuda-cuda_capability_80}
machine_params=${DIET_GPU_MACHINE_PARAMS:-132,52428800,40}
halide_include=${HALIDE_INCLUDE:-/usr/include/halide14}
plugin=$build/libautoschedule_diet.so
if [ -n "${DIET_GPU_CUDA_REGISTERS:-}" ]; then export HL_DIET_CUDA_REGISTERS=$DIET_GPU_CUDA_REGISTERS; fi

need=()
[ -x "$build/generators/dense.generator" ] || need+=(dense.generator)
[ -x "$build/generators/batch_matmul.generator" ] || need+=(batch_matmul.generator)
[ -f "$plugin" ] || need+=(autoschedule_diet)
if [ ${#need[@]} -gt 0 ]; then
    echo "gpu_bundle: building ${need[*]} in $build"
    cmake --build "$build" -j2 --target "${need[@]}"
fi
for h in HalideRuntime.h HalideRuntimeCuda.h HalideBuffer.h; do
    [ -f "$halide_include/$h" ] || { echo "gpu_bundle: no $halide_include/$h (set HALIDE_INCLUDE)" >&2; exit 1; }
done

# A fresh directory: stale libraries from an older plugin must not survive into a new bundle.
rm -rf "$bundle"
mkdir -p "$bundle/lib" "$bundle/include" "$bundle/src"

# generator file, generator name, library name, whether it carries Halide's runtime
gen() {
    local file=$1 name=$2 lib=$3 runtime=$4
    local t=$target
    [ "$runtime" = yes ] || t="$target-no_runtime"
    local cmd=("$build/generators/$file.generator" -g "$name" -f "$lib" -o "$bundle/lib" -e static_library,h
               -p "$plugin" -s Diet "target=$t" auto_schedule=true "machine_params=$machine_params")
    echo "gpu_bundle: ${cmd[*]}"
    echo "${cmd[*]}" >> "$bundle/BUNDLE.txt.commands"
    # Diet prints its pick per stage: keep it in the provenance file too.
    "${cmd[@]}" 2>&1 | tee -a "$bundle/BUNDLE.txt.diet"
}
gen dense dense diet_dense yes
gen batch_matmul batch_matmul_nt diet_batch_matmul_nt no
gen batch_matmul batch_matmul_nn diet_batch_matmul_nn no

# Every contraction form of generators/contraction_forms.h (the spellings of issue 13) as a CUDA
# library with a CPU reference, for gpu_forms_runner (skipped with DIET_GPU_FORMS=0).
if [ "${DIET_GPU_FORMS:-1}" != 0 ]; then
    [ -x "$build/apps/gpu/gpu_forms_build" ] || cmake --build "$build" -j2 --target gpu_forms_build
    mkdir -p "$bundle/forms"
    echo "gpu_bundle: building the contraction forms into $bundle/forms"
    if ! "$build/apps/gpu/gpu_forms_build" "$bundle/forms" --target "$target" --sms "${machine_params%%,*}" \
            --l2 "$(echo "$machine_params" | cut -d, -f2)" ${DIET_GPU_FORMS_LIST:+--forms "$DIET_GPU_FORMS_LIST"} \
            2> "$bundle/forms/build.log"; then
        tail -20 "$bundle/forms/build.log" >&2
        echo "gpu_bundle: gpu_forms_build FAILED (see $bundle/forms/build.log)" >&2
        exit 1
    fi
    grep '^gpu_forms_build: [0-9]* of' "$bundle/forms/build.log"
fi

# The forced-kernel sweep (DIET_GPU_SWEEP="RXxRY:KTILE:KUNROLL ..."): the dense layer built once per
# staged kernel, each forced for the whole family through a one-record tuning log (the dispatch
# replay of trials = 0), into sweep/<kernel>/diet_dense.{a,h} with Halide's runtime: gpu_eval.sh
# times each at a few T against cuBLAS (sweep.csv), the data that calibrates the GPU heuristic.
# The record's keys are read from Diet's own message about a log without a decision; the build
# fails unless Diet says it applied the record.
if [ -n "${DIET_GPU_SWEEP:-}" ]; then
    mkdir -p "$bundle/sweep"
    sweep_dir=$(cd "$bundle/sweep" && pwd)  # the logs named absolutely, however the bundle was named
    # What the record must name (pipeline fingerprint, target in Halide's canonical order, shape
    # family), as Diet prints them when a log holds no decision for this pipeline.
    printf '%s\n' '{"kind": "diet-tuning-log", "format": 1, "tool_version": "diet 0.1.0"}' > "$bundle/sweep/empty.log"
    key_line=$(HL_DIET_LOG=$sweep_dir/empty.log "$build/generators/dense.generator" -g dense -f diet_dense \
        -o "$bundle/sweep" -e schedule -p "$plugin" -s Diet "target=$target" auto_schedule=true \
        "machine_params=$machine_params" 2>&1 | grep -m1 'holds no dispatch decision' || true)
    keys=$(sed -n 's/.*(pipeline \([0-9a-f]*\), target \([^,]*\), family "\(.*\)"); using the heuristic$/\1|\2|\3/p' <<< "$key_line")
    [ -n "$keys" ] || { echo "gpu_bundle: could not read the dense pipeline's log keys from Diet" >&2; exit 1; }
    IFS='|' read -r fingerprint canonical_target family <<< "$keys"
    rm -f "$bundle/sweep/empty.log" "$bundle/sweep/diet_dense.schedule.h"
    for spec in $DIET_GPU_SWEEP; do
        IFS=: read -r regs ktile kunroll <<< "$spec"
        rx=${regs%x*} ry=${regs#*x}
        tag="r${rx}x${ry}_k${ktile}_u${kunroll}"
        mkdir -p "$bundle/sweep/$tag"
        log="$bundle/sweep/$tag/forced.log"
        python3 - "$log" "$rx" "$ry" "$ktile" "$kunroll" "$canonical_target" "$fingerprint" "$family" <<'PY'
import json, sys
log, rx, ry, kt, ku = sys.argv[1], *map(int, sys.argv[2:6])
target, fingerprint, family = sys.argv[6:9]
header = {"kind": "diet-tuning-log", "format": 1, "tool_version": "diet 0.1.0"}
leaf = {"covers": "the whole family", "lo": [1, 1], "hi": [2147483647, 2147483647], "note": "forced (sweep)",
        "kernel": {"gpu": True, "threads": [32, 1], "regs": [rx, ry], "k_tile": kt, "k_unroll": ku}}
rec = {"kind": "dispatch", "format": 1, "tool_version": "diet 0.1.0", "pipeline": fingerprint, "stage": 0,
       "target": target, "unix_time": 0, "dispatch": [leaf], "family": family}
with open(log, "w") as f:
    f.write(json.dumps(header) + "\n" + json.dumps(rec) + "\n")
PY
        HL_DIET_LOG=$sweep_dir/$tag/forced.log "$build/generators/dense.generator" -g dense -f diet_dense -o "$bundle/sweep/$tag" \
            -e static_library,h -p "$plugin" -s Diet "target=$target" auto_schedule=true \
            "machine_params=$machine_params" > "$bundle/sweep/$tag/diet.log" 2>&1
        grep -q 'applying the dispatch recorded' "$bundle/sweep/$tag/diet.log" ||
            { cat "$bundle/sweep/$tag/diet.log" >&2; echo "gpu_bundle: the sweep's forced kernel $tag was not applied" >&2; exit 1; }
        grep 'micro-kernel' "$bundle/sweep/$tag/diet.log" | sed "s/^/gpu_bundle: sweep $tag: /"
    done
fi

cp "$halide_include/HalideRuntime.h" "$halide_include/HalideRuntimeCuda.h" "$halide_include/HalideBuffer.h" \
   "$bundle/include/"
cp apps/gpu/gpu_forms_runner.cpp apps/gpu/halide_cuda_share.h apps/gpu/diet_gpu_runner.cpp apps/gpu/cublas_bench.cu apps/gpu/gpu_common.h apps/gpu/gpu_report.py "$bundle/src/"
cp scripts/gpu_eval.sh "$bundle/gpu_eval.sh"
[ -z "${DIET_GPU_CUDA_REGISTERS:-}" ] || echo "$DIET_GPU_CUDA_REGISTERS" > "$bundle/cuda_registers"

{
    echo "Diet GPU bundle (scripts/gpu_bundle.sh), built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (working tree has changes)')"
    echo "target: $target"
    echo "machine_params: $machine_params"
    echo "cuda_registers: ${DIET_GPU_CUDA_REGISTERS:-64 (the default: HL_CUDA_JIT_MAX_REGISTERS unset at run time)}"
    echo "plugin: $plugin ($(sha256sum "$plugin" | cut -c1-16))"
    echo
    echo "generator commands:"
    cat "$bundle/BUNDLE.txt.commands"
    echo
    echo "Diet's choices:"
    grep '^\[diet\]' "$bundle/BUNDLE.txt.diet" || true
    echo
    echo "sha256:"
    (cd "$bundle" && sha256sum lib/* include/* src/* gpu_eval.sh && { [ ! -d forms ] || sha256sum forms/*.a forms/*.h; })
} > "$bundle/BUNDLE.txt"
rm -f "$bundle/BUNDLE.txt.commands" "$bundle/BUNDLE.txt.diet"

for f in diet_dense diet_batch_matmul_nt diet_batch_matmul_nn; do
    [ -s "$bundle/lib/$f.a" ] && [ -s "$bundle/lib/$f.h" ] || { echo "gpu_bundle: $f was not built" >&2; exit 1; }
done
# The runtime must be in exactly one library, or the link would see it twice (or not at all).
# (grep reads all of nm's output: with -q, nm could die of SIGPIPE and fail the pipeline under pipefail)
nm "$bundle/lib/diet_dense.a" 2>/dev/null | grep ' W halide_cuda_device_interface$' > /dev/null ||
    { echo "gpu_bundle: diet_dense.a lacks Halide's CUDA runtime" >&2; exit 1; }

bytes=$(du -sb "$bundle" | cut -f1)
echo "gpu_bundle: $bundle is $bytes bytes ($(du -sh "$bundle" | cut -f1)); the device tool carries at most 64 MiB"
[ "$bytes" -le $((64 * 1024 * 1024)) ] || { echo "gpu_bundle: the bundle is over 64 MiB" >&2; exit 1; }
