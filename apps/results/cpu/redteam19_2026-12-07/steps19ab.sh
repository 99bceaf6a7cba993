#!/bin/bash
# round 19 timing chain: ab pass 1 (ab_pass19.sh, 2 rounds) on every pipeline; waits for /tmp/forms19/run.log rc= first
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q '^rc=' /tmp/forms19/run.log; do sleep 20; done
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes19; print(' '.join(pipes19.SPECS))")
echo "$(date +%T) START ab $(grep '^rc=' /tmp/forms19/run.log)" >> logs/progress.txt
ROUNDS=2 AB_TIMEOUT=300 ./ab_pass19.sh $names
echo "$(date +%T) AB DONE" >> logs/progress.txt
