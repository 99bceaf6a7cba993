#!/bin/bash
# usage: exp.sh NAME [diet_model eval-plans options...]
# seed 1 with the pipeline-held-out figure, seed 2 cross-validation only; pairwise objective only.
cd /work/main
D=/work/notes/plan_model_experiments
n=$1; shift
OMP_NUM_THREADS=1 nice -n 19 build/apps/diet_model eval-plans --data models/data/plans_avx512.jsonl.gz --pairwise-only --seed 1 --dump $D/$n.s1 "$@" > $D/$n.s1.txt 2>&1
OMP_NUM_THREADS=1 nice -n 19 build/apps/diet_model eval-plans --data models/data/plans_avx512.jsonl.gz --pairwise-only --no-held --seed 2 --dump $D/$n.s2 "$@" > $D/$n.s2.txt 2>&1
a=$(grep "8-fold" $D/$n.s1.txt | awk "{print \$8}"); b=$(grep "8-fold" $D/$n.s2.txt | awk "{print \$8}"); h=$(grep "held out" $D/$n.s1.txt | awk "{print \$10}")
echo "$n | $* | s1 $a | s2 $b | held $h" | tee -a $D/summary.txt
