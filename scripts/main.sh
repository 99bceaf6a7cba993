#!/usr/bin/env bash
# The main job: installs what is missing, builds, tunes the BERT dense layer over T in [1, 128] on
# this machine's CPU (HL_DIET_TRIALS measurements, one joint model, the shape dispatch), then runs
# the benchmark (the tuned Diet library vs OpenBLAS vs Mullapudi2016, every T, interleaved medians),
# then the anchors' geomean table for the layer (apps/anchors_bench).
# Arguments go to dense_bench, e.g. --t 1,5,128, --all, --csv out.csv.
# DIET_MAIN_TRIALS (default 32) sets the budget; 0 keeps the heuristic's kernels. The tuning log
# build/main_tuning.log is kept: a rerun reuses its measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
trials=${DIET_MAIN_TRIALS:-32}
echo "main: tuning the dense layer with HL_DIET_TRIALS=$trials (log build/main_tuning.log, report build/main_tuning.json)"
# Rebuild the Diet library of the benchmark with the trial budget (removing it makes the build
# run the generator, and so the plugin, again).
rm -f build/apps/dense_diet.o build/apps/dense_diet.h build/apps/dense_diet.schedule.h build/apps/libdense_diet.a
# The whole build output goes to build/main_tuned_build.log; Diet's progress lines are shown, and
# on a failure the log's last lines (the generator's or the compiler's error).
set +e
HL_DIET_TRIALS=$trials HL_DIET_LOG="$PWD/build/main_tuning.log" HL_DIET_REPORT="$PWD/build/main_tuning.json" \
    HL_DIET_TRAINING=T=5,24,43,62,81,100,119,128 \
    cmake --build build --target dense_bench > build/main_tuned_build.log 2>&1 &
build_pid=$!
tail -n +1 -f build/main_tuned_build.log --pid=$build_pid | grep --line-buffered -E '^\[diet\] (tune|  cpu|  cuda|shape|target)'
wait $build_pid
build_rc=$?
set -e
if [ $build_rc -ne 0 ] || ! grep -q "Micro-kernels" build/apps/dense_diet.schedule.h 2>/dev/null; then
    echo "main: the tuned build failed (rc $build_rc); the end of build/main_tuned_build.log:"
    tail -40 build/main_tuned_build.log
    exit 1
fi
# OpenBLAS is the baseline: its strongest kernels for this CPU (scripts/openblas_env.sh says why
# OpenBLAS's own choice is not trusted).
source scripts/openblas_env.sh
build/apps/dense_bench "$@"
# The anchors' table for this layer (issue 6; scripts/bench.sh runs every workload at every T):
# Diet joint against oneDNN, OpenBLAS and Halide's Adams2019 / Mullapudi2016 applied at T=128, every
# 4th T. Diet tunes in-process with the same budget (its log is kept, so a rerun is quick).
echo
echo "main: Diet against the anchors on this layer (every 4th T; full run: bash scripts/bench.sh)"
build/apps/anchors_bench --workloads dense_qkv --diet-runs "joint:$trials" \
    --systems onednn,adams2019_max_shape,mullapudi2016_max_shape,diet --sparse mullapudi2016:2 \
    --t-step 4 --reuse-logs \
    --out-dir build/main_anchors \
    2> >(grep -E '^(===|  [a-z0-9_]+: ready|GPU)' >&2)
