#!/bin/bash
# round 21 timing chain: waits for 'SANITY DONE' (and 'REPRO DONE' if LLAP=1), then for /tmp/s9/CPU_FREE or 13:50 VM clock
# (whichever first; logged), then ab pass 1 (ab_pass21.sh, 2 rounds, nice 10) on every pipeline
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "XGRID DONE" logs/progress.txt; do sleep 10; done
until [ -e /tmp/s9/CPU_FREE ] || [ "$(date +%H%M)" -ge 1350 ]; do sleep 15; done
if [ -e /tmp/s9/CPU_FREE ]; then why="CPU_FREE exists ($(stat -c %y /tmp/s9/CPU_FREE))"; else why="13:50 reached WITHOUT /tmp/s9/CPU_FREE"; fi
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")}
echo "$(date +%T) START ab: $why; loadavg $(cat /proc/loadavg)" >> logs/progress.txt
NICE=10 ROUNDS=2 AB_TIMEOUT=300 ./ab_pass21.sh $names
echo "$(date +%T) AB DONE" >> logs/progress.txt
