#!/bin/bash
# while waiting for /tmp/s9/CPU_FREE: a second, larger correctness grid (check_grid21.py, 40 shapes: the same must-shapes
# plus more random ones) -> grid40.txt, logs/NAME.grid40.{out,err}; stops before the next pipeline once CPU_FREE exists
# or at 13:48; nice 19, one process at a time
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "LLAP2 DONE" logs/progress.txt; do sleep 5; done
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")
for p in $names; do
  if [ -e /tmp/s9/CPU_FREE ] || [ "$(date +%H%M)" -ge 1348 ]; then echo "$(date +%T) grid40 stopped before $p" >> logs/progress.txt; break; fi
  nice -n 19 timeout 600 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/check_grid21.py $p Diet 40 > logs/$p.grid40.out 2> logs/$p.grid40.err
  echo "$p rc=$? $(tail -1 logs/$p.grid40.out)" >> grid40.txt
done
echo "$(date +%T) GRID2 DONE" >> logs/progress.txt
