#!/bin/bash
# Adams2019c schedules (constant large shape, auto_schedule only, no timing) -> sched_adams/NAME.txt; nice 19; stops
# before the next pipeline once /tmp/s9/CPU_FREE exists
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes21; print(' '.join(pipes21.SPECS))")
for p in $names; do
  if [ -e /tmp/s9/CPU_FREE ]; then echo "$(date +%T) adams dump stopped before $p" >> logs/progress.txt; break; fi
  nice -n 19 timeout 300 /usr/bin/python3 -W ignore rt21.py r11 ../redteam21_2026-12-07/show_adams21.py $p > sched_adams/$p.txt 2> logs/$p.adams_dump.err
done
echo "$(date +%T) ADAMSDUMP DONE" >> logs/progress.txt
