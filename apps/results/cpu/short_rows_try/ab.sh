#!/bin/bash
# A/B: the plugin before (CI clone at 406fb88) and after (working tree), interleaved, min of REPS.
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
