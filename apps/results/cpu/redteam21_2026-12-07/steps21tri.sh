#!/bin/bash
# TRIAGE ONLY (not reported): one interleaved ab round at nice 19 while the other engineer is timing, to pick
# candidates for the step-5 repros early -> ab_triage.jsonl; stops before the next pipeline once /tmp/s9/CPU_FREE exists
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")
for p in $names; do
  if [ -e /tmp/s9/CPU_FREE ]; then echo "$(date +%T) triage stopped before $p" >> logs/progress.txt; break; fi
  NICE=19 AB_OUT=ab_triage AB_RES=ab_triage ROUNDS=1 AB_TIMEOUT=300 ./ab_pass21.sh $p
done
echo "$(date +%T) TRIAGE DONE" >> logs/progress.txt
