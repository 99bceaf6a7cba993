#!/usr/bin/env bash
# Builds everything, then runs the dense-layer benchmark (Diet vs OpenBLAS vs
# Mullapudi2016).  Arguments go to dense_bench, e.g. --t 1,5,128, --all, --csv out.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# OpenBLAS is the baseline: let it pick its best kernels for this CPU (an inherited
# OPENBLAS_CORETYPE would pin, e.g., its AVX2 kernels on an AVX-512 machine).
unset OPENBLAS_CORETYPE
exec build/apps/dense_bench "$@"
