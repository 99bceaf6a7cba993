#!/bin/bash
# round 20 timing chain: ab pass 1 (ab_pass20.sh, 2 rounds) on every pipeline; waits for /tmp/s8/CPU_FREE first
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt20/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "SANITY DONE" logs/progress.txt; do sleep 10; done
until [ -e /tmp/s8/CPU_FREE ]; do sleep 20; done
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes20; print(' '.join(pipes20.SPECS))")}
echo "$(date +%T) START ab (CPU_FREE exists) $(cat /proc/loadavg)" >> logs/progress.txt
NICE=10 ROUNDS=2 AB_TIMEOUT=300 ./ab_pass20.sh $names
echo "$(date +%T) AB DONE" >> logs/progress.txt
