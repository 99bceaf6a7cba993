#!/bin/bash
# pass 2 (3 rounds) on the pipelines flagged in pass 1 (logs/flagged_pass1.txt), then a 1-thread pass (2 rounds)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so HL_NUM_PASSES=1
names=$(cat logs/flagged_pass1.txt)
echo "$(date +%T) START pass2" >> logs/progress.txt
AB_OUT=ab_pass2 AB_RES=ab_pass2 ROUNDS=3 AB_TIMEOUT=300 ./ab_pass19.sh $names
echo "$(date +%T) START 1thread" >> logs/progress.txt
HL_NUM_THREADS=1 AB_OUT=ab_1thread AB_RES=ab_1thread ROUNDS=2 AB_TIMEOUT=300 ./ab_pass19.sh $names
echo "$(date +%T) PASS2+1THREAD DONE" >> logs/progress.txt
