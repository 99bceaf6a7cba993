#!/usr/bin/env bash
# Retrains Diet's shipped cost model on this machine (issue 15), in one command:
#   bash scripts/train_model.sh [--quick]
# 1. measures micro-kernels of 17 contraction forms (dense spellings, the four layouts, batched
#    products, widening integers, a convolution) into two datasets (build/apps/diet_collect; an
#    interrupted run resumes where it stopped), in five passes:
#      the search's own samples (--mode joint: the kernels near the top of the ranking, where the
#      model decides) at size configurations 0,1,2,4, then 3,5; uniform samples (--mode random:
#      the bad kernels too) at 3,5, then 0,1,2,4; all at T in {1,3,8,21,64}; then the search at
#      T in {48,96,128} (--t-max 128), where the dense layers have 768-2048 rows;
# 2. prints and saves its ranking quality (build/apps/diet_model eval: cross-validated and with
#    each family of forms held out, against the analytic heuristic),
# 3. trains the model on all of it and installs it where the plugin looks by default
#    (models/<target class>.json, copied to build/diet_models/ by the build).
# --quick: four forms, two configurations, 8 trials (a smoke run, a few minutes).
# About 50 minutes on a 2-core machine (the AVX2 guest of 2026-11-29: passes of 16, 5, 7, 11 and
# 8 minutes). Run it on a quiet machine: the labels are timings.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) quick=1; shift ;;
    *) echo "train_model.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x build/apps/diet_collect ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j"$(nproc)" --target diet_collect diet_model diet_target; }
cmake --build build -j"$(nproc)" --target diet_collect diet_model >/dev/null
target=$(build/diet_target)
host=$(hostname -s)
data=models/data/cpu_${host}
mkdir -p models/data
small_t=T=1,3,8,21,64
collect() { build/apps/diet_collect "$@"; }
if [ "$quick" = 1 ]; then
    forms=dense/canonical,layout/TN,bmm_nt/canonical,int/u8i8
    echo "[train_model] quick: collecting into ${data}_joint.jsonl (target $target)" >&2
    collect --forms "$forms" --configs 0,4 --trials 8 --mode joint --training "$small_t" --out "${data}_joint.jsonl"
    files=("${data}_joint.jsonl")
else
    # Forms with T up to 128 (the large-T pass), then the ones measured at small T only.
    large=dense/canonical,dense/inline_sum,dense/two_updates,dense/flat_1d,dense/update_on_output
    large=$large,layout/NN,layout/NT,layout/TN,layout/TT,bmm_nt/canonical,bmm_nt/update_on_output
    large=$large,bmm_nn/canonical,bmm_nn/inline_sum,int/u8i8,int/i16
    sampled=$large,dense/bias_relu_chain    # the convolution has one size: joint pass 1 and random pass 4 only
    forms=$sampled,conv/3x3
    echo "[train_model] collecting into ${data}_{joint,random,large_t}.jsonl (target $target)" >&2
    collect --forms "$forms" --configs 0,1,2,4 --trials 24 --mode joint --training "$small_t" --out "${data}_joint.jsonl"
    collect --forms "$sampled" --configs 3,5 --trials 16 --mode random --training "$small_t" --out "${data}_random.jsonl"
    collect --forms "$sampled" --configs 3,5 --trials 24 --mode joint --training "$small_t" --out "${data}_joint.jsonl"
    collect --forms "$forms" --configs 0,1,2,4 --trials 16 --mode random --training "$small_t" --out "${data}_random.jsonl"
    collect --forms "$large" --configs 0,2 --t-max 128 --trials 16 --mode joint --training T=48,96,128 --out "${data}_large_t.jsonl"
    files=("${data}_joint.jsonl" "${data}_random.jsonl" "${data}_large_t.jsonl")
fi
echo "[train_model] evaluating" >&2
build/apps/diet_model eval --data "${files[@]}" --json "${data}.eval.json"
cls=$(build/apps/diet_model train --data "${files[@]}" --out /tmp/diet_model_$$.json | sed -n 's/.*target \(.*\))$/\1/p')
out="models/$(echo "$cls" | tr '/' '_').json"
mv /tmp/diet_model_$$.json "$out"
cmake --build build >/dev/null  # copies models/*.json to build/diet_models/
echo "[train_model] model for $cls written to $out (and build/diet_models/)" >&2
