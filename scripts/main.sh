#!/usr/bin/env bash
# The main job: installs what is missing, builds, tunes the BERT dense layer over T in [1, 128] on
# this machine's CPU (HL_DIET_TRIALS measurements, one joint model, the shape dispatch), then runs
# the benchmark (the tuned Diet library vs OpenBLAS vs Mullapudi2016, every T, interleaved medians).
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
HL_DIET_TRIALS=$trials HL_DIET_LOG="$PWD/build/main_tuning.log" HL_DIET_REPORT="$PWD/build/main_tuning.json" \
    HL_DIET_TRAINING=T=5,24,43,62,81,100,119,128 \
    cmake --build build --target dense_bench 2>&1 | grep -E '^\[diet\] (tune|  cpu|  cuda|shape|target)' || true
grep -q "Micro-kernels" build/apps/dense_diet.schedule.h || { echo "main: the tuned build failed"; exit 1; }
# OpenBLAS is the baseline: let it pick its best kernels for this CPU (an inherited
# OPENBLAS_CORETYPE would pin, e.g., its AVX2 kernels on an AVX-512 machine).
unset OPENBLAS_CORETYPE
exec build/apps/dense_bench "$@"
