#!/bin/bash
# round 21 main chain: grid + 5-shape harness for every pipeline (run_all21.sh, NO_AB), GRID_N=18, nice 19
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")}
echo "$(date +%T) START grid+run" >> logs/progress.txt
GRID_N=${GRID_N:-18} NICE=19 NO_AB=1 TMO=600 ./run_all21.sh $names
echo "$(date +%T) GRID DONE" >> logs/progress.txt
