#!/bin/bash
# usage: idle_rerun.sh pipelines...: wait (up to 25 min) until the machine looks idle (the running-task count in
# /proc/loadavg <= 1 in 3 samples 5 s apart), then rerun.sh the pipelines with RERUN_OUT=ab_idle. The other engineer's
# nice-0 compiles starve one of Halide's 2 worker threads of this niced process: parallel schedules (Diet, Mullapudi)
# then run ~2x slower while the serial 'ref' does not, which distorts every ratio against 'ref'.
cd "$(dirname "$0")"
end=$(( $(date +%s) + 1500 )); ok=0
while [ $(date +%s) -lt $end ] && [ $ok -lt 3 ]; do
  r=$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)
  if [ "$r" -le 1 ]; then ok=$((ok+1)); else ok=0; fi
  sleep 5
done
echo "$(date +%T) idle_rerun starts (ok=$ok) $(cat /proc/loadavg)" >> logs/progress.txt
RERUN_OUT=ab_idle ./rerun.sh "$@"
echo "$(date +%T) probe_canny_bin_root $(cat /proc/loadavg)" >> logs/loadavg.txt
DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt11/libautoschedule_diet.so} HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 probe_canny_bin_root.py > probe_canny_bin_root.out 2> logs/probe_canny_bin_root.err
echo "$(date +%T) idle_rerun + probe done" >> logs/progress.txt
