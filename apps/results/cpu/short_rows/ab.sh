#!/bin/bash
# A/B: the plugin before (commit 7ce1da6, built into /tmp/before.so) and after (working tree),
# interleaved per case, min of REPS calls. The probe is
# apps/results/cpu/forms_batch_innermost_try/probe_styles2.cpp with
# apps/results/cpu/short_rows_try/probe_styles2.diff applied (DIET_PLUGIN picks the plugin, REPS
# the calls timed, NOREF skips timing the reference), built as /tmp/pr/probe:
#   g++ -O1 -std=c++17 probe_styles2.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o probe
cd /work/main
T=$(build/diet_target)
for r in 1 2; do
  for c in gemv_small layernorm_two_vars softmax_two_vars gemv; do
    for w in before after; do
      if [ $w = before ]; then p=/tmp/before.so; else p=/work/main/build/libautoschedule_diet.so; fi
      echo "== round $r $c $w"
      DIET_PLUGIN=$p REPS=50 NOREF=1 TGT=$T timeout 300 /tmp/pr/probe $c 2>&1 | grep "^  \["
    done
  done
done
# then softmax_two_vars alone, 3 more rounds with REPS=200 (appended to ab_probe.txt)
