#!/usr/bin/env bash
# Runs ON the GPU machine (no Halide needed): builds the runner and cuBLAS benchmark from a bundle
# made by scripts/gpu_bundle.sh, times Diet's CUDA kernels against cuBLAS for every T in 1..128
# (dense, bmm_nt, bmm_nn; warm and cold L2; interleaved in one process), checks every Diet output
# against cuBLAS, and writes into the output directory:
#   nvidia-smi.txt        GPU model, driver, clocks (before and after the run)
#   diet_vs_cublas.csv    per (workload, T, L2 mode, implementation): median/min us, GFLOP/s, error
#   summary.md            geomean / min (and its T) of cuBLAS time / Diet time per workload and mode
#   diet_vs_cublas.png    the ratio over T (skipped with a message without matplotlib)
#   cublas_bench.csv      the standalone cuBLAS benchmark (warm L2), a cross-check of the runner's cuBLAS
#   runner.log, build.log, BUNDLE.txt
#   sweep.csv, sweep.log  when the bundle has sweep/ (DIET_GPU_SWEEP): each forced dense kernel
#                         against cuBLAS at the T of DIET_GPU_SWEEP_TS, warm L2
#   forms.csv, forms.log  when the bundle has forms/: every contraction form of
#                         generators/contraction_forms.h on the GPU at 14 values of T, each output
#                         checked against the CPU reference, timed (and against cuBLAS where the
#                         problem is one); forms_summary.md summarizes it
#
#   scripts/gpu_eval.sh <bundle-dir> [out-dir] [--build-only] [--forms-only] [--reps N] [--tmax N]
#                       [--jit-max-registers N]
#
# --jit-max-registers N exports HL_CUDA_JIT_MAX_REGISTERS=N for every program: Halide 14's CUDA
# runtime JIT-compiles the kernels' PTX with at most 64 registers per thread unless that variable
# says otherwise (read when the module is loaded), and Diet's staged kernels need more (on an H200,
# 2026-11-27: local-memory spills, dense 0.30x cuBLAS at 64, 0.44x at 255; apps/RESULTS.md). The
# value in effect is written into nvidia-smi.txt. Without the option, a bundle scheduled for another
# cap (its cuda_registers file, DIET_GPU_CUDA_REGISTERS of gpu_bundle.sh) runs under that cap.
#
# out-dir defaults to $OUT (the device tool's), else gpu-eval-out. --build-only compiles and links
# both programs, then stops (for machines without a GPU: the offline check). Budget: the whole
# run is meant to finish in well under 10 minutes on one H100 (the runner is killed at 420 s).
# Exit status: 0 all good; 1 a Diet (or cuBLAS) result was wrong; 2 usage / missing tools;
# 3 the build or a CUDA call failed; 124 the runner ran out of time.
set -uo pipefail

usage() { awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
bundle="" out="" build_only=0 forms_only=0 reps=15 tmax=128
while [ $# -gt 0 ]; do
    case "$1" in
        --build-only) build_only=1 ;;
        --forms-only) forms_only=1 ;;
        --reps) reps=$2; shift ;;
        --tmax) tmax=$2; shift ;;
        --jit-max-registers) export HL_CUDA_JIT_MAX_REGISTERS=$2; shift ;;
        -h|--help) usage ;;
        -*) echo "gpu_eval: unknown option $1" >&2; usage ;;
        *) if [ -z "$bundle" ]; then bundle=$1; elif [ -z "$out" ]; then out=$1; else usage; fi ;;
    esac
    shift
done
[ -n "$bundle" ] || usage
[ -f "$bundle/lib/diet_dense.a" ] || { echo "gpu_eval: $bundle is not a bundle (no lib/diet_dense.a); run scripts/gpu_bundle.sh" >&2; exit 2; }
bundle=$(cd "$bundle" && pwd)
if [ -z "${HL_CUDA_JIT_MAX_REGISTERS:-}" ] && [ -s "$bundle/cuda_registers" ]; then
    export HL_CUDA_JIT_MAX_REGISTERS=$(cat "$bundle/cuda_registers")
fi
out=${out:-${OUT:-gpu-eval-out}}
mkdir -p "$out" && out=$(cd "$out" && pwd)

# The CUDA toolkit: $CUDA_HOME, else /usr/local/cuda, else wherever nvcc is on PATH.
cuda=${CUDA_HOME:-}
[ -n "$cuda" ] || { [ -x /usr/local/cuda/bin/nvcc ] && cuda=/usr/local/cuda; }
[ -n "$cuda" ] || { command -v nvcc >/dev/null && cuda=$(dirname "$(dirname "$(command -v nvcc)")"); }
[ -n "$cuda" ] && [ -x "$cuda/bin/nvcc" ] || { echo "gpu_eval: no CUDA toolkit (nvcc) found; set CUDA_HOME" >&2; exit 2; }
cudalib=$cuda/lib64
[ -d "$cudalib" ] || cudalib=$cuda/lib
cxx=${CXX:-g++}
command -v "$cxx" >/dev/null || { echo "gpu_eval: no C++ compiler $cxx" >&2; exit 2; }

bin=$(mktemp -d "${TMPDIR:-/tmp}/diet-gpu-eval.XXXXXX")
trap 'rm -rf "$bin"' EXIT
cp "$bundle/BUNDLE.txt" "$out/" 2>/dev/null || true

# Link against the driver stub (its soname is libcuda.so.1): driver installs often lack the
# unversioned libcuda.so, and at run time the real libcuda.so.1 is loaded. The toolkit's libraries
# are found through an rpath, so nothing depends on LD_LIBRARY_PATH.
link_cuda=(-L"$cudalib" -L"$cudalib/stubs" -Wl,-rpath,"$cudalib" -lcublas -lcudart -lcuda -ldl -lpthread)
echo "gpu_eval: building in $bin with $("$cuda/bin/nvcc" --version | tail -1) and $("$cxx" --version | head -1)"
(
    set -x
    "$cxx" -O2 -std=c++17 -Wall -I"$bundle/include" -I"$bundle/lib" -I"$cuda/include" \
        "$bundle/src/diet_gpu_runner.cpp" -o "$bin/diet_gpu_runner" \
        -Wl,--start-group "$bundle/lib/diet_batch_matmul_nt.a" "$bundle/lib/diet_batch_matmul_nn.a" \
        "$bundle/lib/diet_dense.a" -Wl,--end-group "${link_cuda[@]}" &&
    "$cuda/bin/nvcc" -O2 -std=c++17 -I"$bundle/src" "$bundle/src/cublas_bench.cu" -o "$bin/cublas_bench" \
        -Xlinker -rpath -Xlinker "$cudalib" -L"$cudalib" -lcublas
) > "$out/build.log" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ -d "$bundle/forms" ]; then
    (
        set -x
        "$cxx" -O2 -std=c++17 -Wall -I"$bundle/include" -I"$bundle/forms" -I"$bundle/src" -I"$cuda/include" \
            "$bundle/src/gpu_forms_runner.cpp" -o "$bin/gpu_forms_runner" \
            -Wl,--start-group "$bundle"/forms/*.a -Wl,--end-group "${link_cuda[@]}"
    ) >> "$out/build.log" 2>&1
    rc=$?
fi
if [ $rc -ne 0 ]; then
    cat "$out/build.log" >&2
    echo "gpu_eval: the build FAILED (see $out/build.log)" >&2
    exit 3
fi
echo "gpu_eval: built diet_gpu_runner ($(stat -c %s "$bin/diet_gpu_runner") bytes) and cublas_bench"

if [ $build_only = 1 ]; then
    # What the run would load: the real driver is not here, so only the toolkit's libraries are listed.
    ldd "$bin/diet_gpu_runner" | grep -E 'cublas|cudart|libcuda' | tee -a "$out/build.log"
    echo "gpu_eval: --build-only: both programs compiled and linked; not run"
    exit 0
fi

{
    echo "== nvidia-smi (before) $(date -u +%FT%TZ)"
    nvidia-smi 2>&1 || echo "nvidia-smi not available"
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu,persistence_mode \
        --format=csv 2>&1 || true
    nvidia-smi -q -d CLOCK,PERFORMANCE 2>&1 || true
    echo "HL_CUDA_JIT_MAX_REGISTERS=${HL_CUDA_JIT_MAX_REGISTERS:-unset, the runtime default of Halide 14 is 64}"
} > "$out/nvidia-smi.txt"
head -20 "$out/nvidia-smi.txt"

status=0
if [ $forms_only = 0 ]; then
echo "gpu_eval: running diet_gpu_runner (T=1..$tmax, $reps samples, warm and cold L2)"
timeout 420 "$bin/diet_gpu_runner" --tmax "$tmax" --reps "$reps" --csv "$out/diet_vs_cublas.csv" 2>&1 | tee "$out/runner.log"
rc=${PIPESTATUS[0]}
case $rc in
    0) ;;
    1) echo "gpu_eval: WRONG RESULTS: a Diet output differs from cuBLAS (see runner.log)" >&2; status=1 ;;
    124) echo "gpu_eval: the runner ran out of its 420 s (partial CSV kept)" >&2; status=124 ;;
    *) echo "gpu_eval: the runner failed with status $rc" >&2; status=3 ;;
esac

fi  # forms_only

# The forced-kernel sweep (a bundle built with DIET_GPU_SWEEP): one runner per forced dense kernel,
# warm L2, a few T, each output checked against cuBLAS; sweep.csv holds them all with a kernel column.
if [ -d "$bundle/sweep" ] && [ $forms_only = 0 ]; then
    sweep_ts=${DIET_GPU_SWEEP_TS:-1,2,4,8,16,24,32,48,64,96,128}
    echo "gpu_eval: the forced-kernel sweep (dense, T = $sweep_ts, warm L2)"
    echo "kernel,workload,T,mode,impl,median_us,min_us,samples,calls_per_sample,gflops,rel_err" > "$out/sweep.csv"
    for dir in "$bundle"/sweep/*/; do
        tag=$(basename "$dir")
        if ! "$cxx" -O2 -std=c++17 -I"$dir" -I"$bundle/include" -I"$bundle/lib" -I"$cuda/include" \
                "$bundle/src/diet_gpu_runner.cpp" -o "$bin/sweep_runner" \
                -Wl,--start-group "$bundle/lib/diet_batch_matmul_nt.a" "$bundle/lib/diet_batch_matmul_nn.a" \
                "$dir/diet_dense.a" -Wl,--end-group "${link_cuda[@]}" >> "$out/build.log" 2>&1; then
            echo "gpu_eval: sweep $tag: the build FAILED" >&2; status=3; continue
        fi
        timeout 60 "$bin/sweep_runner" --workloads dense --modes warm --ts "$sweep_ts" --reps "${DIET_GPU_SWEEP_REPS:-9}" \
            --csv "$bin/sweep_one.csv" > "$bin/sweep_one.log" 2>&1
        src=$?
        tail -n +2 "$bin/sweep_one.csv" 2>/dev/null | sed "s/^/$tag,/" >> "$out/sweep.csv"
        { echo "== $tag (exit $src)"; cat "$bin/sweep_one.log"; } >> "$out/sweep.log"
        [ $src -eq 0 ] || { echo "gpu_eval: sweep $tag exited with $src (see sweep.log)" >&2; [ $src -ne 1 ] || status=1; }
        echo "gpu_eval: sweep $tag done (exit $src)"
    done
fi

if [ -x "$bin/gpu_forms_runner" ]; then
    echo "gpu_eval: running gpu_forms_runner (every contraction form, checked against the CPU)"
    timeout 240 "$bin/gpu_forms_runner" --csv "$out/forms.csv" > "$out/forms.log" 2>&1
    frc=$?
    tail -3 "$out/forms.log"
    case $frc in
        0) ;;
        1) echo "gpu_eval: WRONG RESULTS in a contraction form (see forms.log)" >&2; status=1 ;;
        *) echo "gpu_eval: gpu_forms_runner failed with status $frc (see forms.log)" >&2; [ $status -ne 0 ] || status=3 ;;
    esac
    if [ -s "$out/forms.csv" ] && command -v python3 >/dev/null; then
        python3 "$bundle/src/gpu_report.py" --forms "$out/forms.csv" "$out/forms_summary.md" ||
            echo "gpu_eval: the forms report failed" >&2
    fi
fi

# The standalone cuBLAS benchmark: a cross-check of the runner's cuBLAS timings (warm L2 only, to
# stay inside the budget).
[ $forms_only = 1 ] || {
echo "gpu_eval: running cublas_bench (warm L2)"
timeout 90 "$bin/cublas_bench" --tmax "$tmax" --reps 7 --modes warm --csv "$out/cublas_bench.csv" 2>&1 | tail -15
crc=${PIPESTATUS[0]}
if [ $crc -ne 0 ]; then
    echo "gpu_eval: cublas_bench exited with $crc" >&2
    [ $status -ne 0 ] || status=$([ $crc = 1 ] && echo 1 || echo 3)
fi
}

{
    echo "== nvidia-smi (after) $(date -u +%FT%TZ)"
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw,clocks_throttle_reasons.active \
        --format=csv 2>&1 || true
} >> "$out/nvidia-smi.txt"

if [ -s "$out/diet_vs_cublas.csv" ]; then
    if command -v python3 >/dev/null; then
        python3 "$bundle/src/gpu_report.py" "$out/diet_vs_cublas.csv" "$out/summary.md" "$out/diet_vs_cublas.png" ||
            echo "gpu_eval: the report script failed" >&2
    else
        echo "gpu_eval: no python3: no summary.md / plot (the CSV is complete)" >&2
    fi
fi
echo "gpu_eval: outputs in $out: $(ls "$out" | tr '\n' ' ')"
[ $status -eq 0 ] && echo "gpu_eval: OK" || echo "gpu_eval: FAILED with status $status" >&2
exit $status
