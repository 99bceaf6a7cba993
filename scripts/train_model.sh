#!/usr/bin/env bash
# Retrains Diet's shipped cost model on this machine (issue 15), in one command:
#   bash scripts/train_model.sh [--trials N] [--quick]
# 1. measures micro-kernels of every contraction form at six size configurations into a dataset
#    (build/apps/diet_collect, random samples of each kernel space; resumes an interrupted run),
# 2. prints and saves its ranking quality (build/apps/diet_model eval: cross-validated and with
#    each family of forms held out, against the analytic heuristic),
# 3. trains the model on all of it and installs it where the plugin looks by default
#    (models/<target class>.json, copied to build/diet_models/ by the build).
# --quick: two size configurations and 16 samples each (a smoke run, minutes).
# Takes about an hour on a 2-core machine; run it on a quiet machine: the labels are timings.
set -euo pipefail
cd "$(dirname "$0")/.."
trials=40
configs=0,1,2,3,4,5
while [ $# -gt 0 ]; do
    case "$1" in
    --trials) trials="$2"; shift 2 ;;
    --quick) trials=16; configs=0,4; shift ;;
    *) echo "train_model.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x build/apps/diet_collect ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j"$(nproc)" --target diet_collect diet_model diet_target; }
cmake --build build -j"$(nproc)" --target diet_collect diet_model >/dev/null
target=$(build/diet_target)
host=$(hostname -s)
data=models/data/cpu_${host}_random.jsonl
mkdir -p models/data
echo "[train_model] collecting into $data (target $target)" >&2
build/apps/diet_collect --out "$data" --trials "$trials" --configs "$configs" --mode random
echo "[train_model] evaluating" >&2
build/apps/diet_model eval --data "$data" --json "${data%.jsonl}.eval.json"
cls=$(build/apps/diet_model train --data "$data" --out /tmp/diet_model_$$.json | sed -n 's/.*target \(.*\))$/\1/p')
out="models/$(echo "$cls" | tr '/' '_').json"
mv /tmp/diet_model_$$.json "$out"
cmake --build build >/dev/null  # copies models/*.json to build/diet_models/
echo "[train_model] model for $cls written to $out (and build/diet_models/)" >&2
