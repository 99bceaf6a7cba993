#!/bin/bash
# the round-21 timing repros, after PASS2 DONE, at nice 10, one process at a time (CPU_FREE or the 13:50 fallback as in ab)
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt21/libautoschedule_diet.so HL_NUM_PASSES=1
until grep -q "PASS2 DONE" logs/progress.txt; do sleep 5; done
for r in ${@:-repro_sobel21 repro_gconv21 repro_lrnw21}; do
  echo "$(date +%T) $r $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 600 /usr/bin/python3 -W ignore $r.py > $r.out 2> logs/$r.err
  echo "$(date +%T) $r rc=$?" >> logs/progress.txt
done
echo "$(date +%T) REPROS DONE" >> logs/progress.txt
