#!/bin/bash
# round 17: weight-standardized conv pass 2 (missed by a prefix typo in steps2.sh), then the three standalone repros
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt17/libautoschedule_diet.so HL_NUM_PASSES=1
WS=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes17; print([k for k in pipes17.SPECS if k.startswith('weight_standardized')][0])")
AB_OUT=ab_pass2 AB_RES=ab_pass2 ROUNDS=3 ./ab_pass17.sh $WS
for r in repro_kuwahara17 repro_dog17 repro_rfactor17; do
  echo "$(date +%T) $r $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 400 /usr/bin/python3 -W ignore $r.py > $r.out 2> logs/$r.err
done
echo "$(date +%T) STEPS3 DONE" >> logs/progress.txt
