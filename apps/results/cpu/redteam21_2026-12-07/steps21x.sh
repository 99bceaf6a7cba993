#!/bin/bash
# the 3 pipelines added at 12:45: grid (18) + harness (run_all21.sh NO_AB), grid40, Adams2019c schedule dumps; then
# sanity21.py over all 28 checks again; nice 19, one process at a time
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(list(pipes21.SPECS)[20:]))")
echo "$(date +%T) START extra 3" >> logs/progress.txt
GRID_N=18 NICE=19 NO_AB=1 TMO=600 ./run_all21.sh $names
for p in $names; do
  nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/check_grid21.py $p Diet 40 > logs/$p.grid40.out 2> logs/$p.grid40.err
  echo "$p rc=$? $(tail -1 logs/$p.grid40.out)" >> grid40.txt
  nice -n 19 timeout 300 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/show_adams21.py $p > sched_adams/$p.txt 2> logs/$p.adams_dump.err
done
nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/sanity21.py > sanity21.out 2>&1
echo "$(date +%T) EXTRA DONE" >> logs/progress.txt
