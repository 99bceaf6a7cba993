#!/bin/bash
# pass 2 (3 rounds, nice 10) on the pipelines flagged in pass 1 (logs/flagged_pass1.txt); waits for AB DONE and CPU_FREE.
# (round 19's 1-thread pass is dropped for lack of time)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt20/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "AB DONE" logs/progress.txt; do sleep 5; done
until [ -e /tmp/s8/CPU_FREE ]; do sleep 20; done
names=$(cat logs/flagged_pass1.txt)
echo "$(date +%T) START pass2" >> logs/progress.txt
NICE=10 AB_OUT=ab_pass2 AB_RES=ab_pass2 ROUNDS=3 AB_TIMEOUT=300 ./ab_pass20.sh $names
echo "$(date +%T) PASS2 DONE" >> logs/progress.txt
./repros20.sh repro_lrn20
echo "$(date +%T) REPROS DONE" >> logs/progress.txt
