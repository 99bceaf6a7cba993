#!/bin/bash
# round 18 diagnosis: Halide profiles of Diet (and ref for two) at the large timing shape, Adams2019c schedules of the
# pipelines where Adams is the faster scheduler, the census JIT repro
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1
full() { /usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes18; print([n for n in pipes18.SPECS if n.startswith('$1')][0])"; }
for p in power_iteration cholesky4x4 rgb_planar dct8x8 attention_pooling banded_matvec inverse3x3 istft grid_sample column_zscore; do
  n=$(full $p)
  echo "$(date +%T) profile $p $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt18.py r11 probe_profile.py $n Diet 30 large > logs/$p.profile.out 2> logs/$p.profile.err
done
for p in power_iteration cholesky4x4 rgb_planar inverse3x3; do
  n=$(full $p)
  nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt18.py r11 probe_profile.py $n ref 30 large > logs/$p.profile_ref.out 2> logs/$p.profile_ref.err
done
for p in banded_matvec attention_pooling cholesky4x4 power_iteration nv12 joint_rgb; do
  n=$(full $p)
  echo "$(date +%T) adams $p $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt18.py r11 ../redteam18_2026-12-06/show_adams18.py $n > sched_adams/$n.txt 2> logs/$p.adams.err
done
echo "$(date +%T) census repro $(cat /proc/loadavg)" >> logs/loadavg.txt
nice -n 10 timeout 500 /usr/bin/python3 -W ignore repro_census_jit18.py full noargmin refjit > repro_census_jit18.out 2>&1
echo "$(date +%T) ALL DONE c" >> logs/progress.txt
