#!/bin/bash
# round 18 main chain: grid + 5-shape harness for every pipeline (run_all18.sh, NO_AB), then the ab pass (ab_pass18.sh, 2 rounds)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes18; print(' '.join(pipes18.SPECS))")
echo "$(date +%T) START grid+run" >> logs/progress.txt
GRID_N=${GRID_N:-22} NO_AB=1 TMO=300 ./run_all18.sh $names
echo "$(date +%T) START ab" >> logs/progress.txt
ROUNDS=2 AB_TIMEOUT=300 ./ab_pass18.sh $names
echo "$(date +%T) ALL DONE" >> logs/progress.txt
