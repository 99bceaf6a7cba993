#!/bin/bash
# pass 2 (3 rounds, nice 10) on the pipelines flagged in pass 1 (Diet / best other >= 1.25: logs/flagged_pass1.txt)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "AB DONE" logs/progress.txt; do sleep 5; done
/usr/bin/python3 flag21.py ab_results.jsonl 1.25 > logs/flagged_pass1.txt 2> logs/ratios_pass1.txt
names=$(cat logs/flagged_pass1.txt)
echo "$(date +%T) START pass2 on $(wc -l < logs/flagged_pass1.txt) pipelines" >> logs/progress.txt
NICE=10 AB_OUT=ab_pass2 AB_RES=ab_pass2 ROUNDS=3 AB_TIMEOUT=300 ./ab_pass21.sh $names
/usr/bin/python3 flag21.py ab_pass2.jsonl 1.25 > logs/flagged_pass2.txt 2> logs/ratios_pass2.txt
echo "$(date +%T) PASS2 DONE" >> logs/progress.txt
