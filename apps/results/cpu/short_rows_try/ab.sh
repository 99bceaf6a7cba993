#!/bin/bash
# A/B: the plugin before (CI clone at 406fb88) and after (working tree), interleaved, min of REPS.
# The probe is apps/results/cpu/forms_batch_innermost_try/probe_styles2.cpp with probe_styles2.diff
# applied (DIET_PLUGIN picks the plugin, REPS the calls timed, NOREF skips timing the reference),
# built as probe: g++ -O1 -std=c++17 probe_styles2.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o probe
cd /tmp/p2
export NOREF=1 TGT=$(/work/main/build/diet_target) REPS=${REPS:-20}
for round in 1 2; do
  for c in gemv_small layernorm_two_vars softmax_two_vars; do
    for which in before after; do
      if [ $which = before ]; then p=/tmp/cc/build/libautoschedule_diet.so; else p=/work/main/build/libautoschedule_diet.so; fi
      echo "== round $round $c $which"
      DIET_PLUGIN=$p timeout 300 ./probe $c 2>&1 | grep "^  \["
    done
  done
done
