#!/bin/bash
# the round-19 slow-pipeline repros, one niced process at a time; loadavg before each
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so HL_NUM_PASSES=1
for r in ${@:-repro_pshuffle19 repro_hs19 repro_minplus19 repro_fbm19 repro_sampen19 repro_bloom_kmer19}; do
  echo "$(date +%T) $r $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 600 /usr/bin/python3 -W ignore $r.py > $r.out 2> logs/$r.err
  echo "$(date +%T) $r rc=$?" >> logs/progress.txt
done
