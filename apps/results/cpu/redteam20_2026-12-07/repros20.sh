#!/bin/bash
# the round-20 timing repros (run only once /tmp/s8/CPU_FREE exists), one niced process at a time; loadavg before each
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt20/libautoschedule_diet.so HL_NUM_PASSES=1
for r in ${@:-repro_updates20 repro_lrn20 repro_bmmtt20}; do
until [ -e /tmp/s8/CPU_FREE ]; do sleep 20; done
  echo "$(date +%T) $r $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 600 /usr/bin/python3 -W ignore $r.py > $r.out 2> logs/$r.err
  echo "$(date +%T) $r rc=$?" >> logs/progress.txt
done
