#!/bin/bash
# round 16: Adams2019c (constant large shape) and Diet schedule sources of the worst rows, one niced process at a time
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt16/libautoschedule_diet.so HL_NUM_PASSES=1
P() { /usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes16; print(' '.join(k for k in pipes16.SPECS if any(k.startswith(a) for a in '$*'.split())))"; }
mkdir -p sched_adams
for n in $(P q4_0 winograd gabor complex lut3d crc32); do
  nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt16.py r11 ../redteam16_2026-12-06/show_adams16.py $n > sched_adams/$n.Adams2019c.txt 2> logs/$n.show_adams.err
done
echo "$(date +%T) STEPS3 DONE" >> logs/progress.txt
