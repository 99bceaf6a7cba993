#!/bin/bash
# round 17 follow-up steps, one niced process at a time:
# 1. pass 2 (3 rounds) of the pipelines flagged in pass 1
# 2. correctness + timing of every scheduler at the large shape for the rows where Adams2019c is far ahead
# 3. Halide profiler of Diet (large) on the worst rows
# 4. Adams2019c schedule sources of the worst rows
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt17/libautoschedule_diet.so HL_NUM_PASSES=1
P() { /usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes17; print(' '.join(k for k in pipes17.SPECS if any(k.startswith(a) for a in '$*'.split())))"; }
AB_OUT=ab_pass2 AB_RES=ab_pass2 ROUNDS=3 ./ab_pass17.sh $(P kuwahara linear_res dog_ lpc exact_edt game_of compressor hashing run_length seam red_black roi_align sinkhorn weight_std)
echo "$(date +%T) PASS2 DONE" >> logs/progress.txt
for n in $(P kuwahara linear_res dog_ compressor lpc); do
  echo "$(date +%T) check $n $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt17.py r11 ../redteam17_2026-12-06/probe_check17.py $n > logs/$n.check.out 2> logs/$n.check.err
  grep '^CHECK' logs/$n.check.out | sed 's/^CHECK //' >> checks.jsonl
done
echo "$(date +%T) checks done" >> logs/progress.txt
for n in $(P kuwahara linear_res dog_ compressor lpc game_of exact_edt); do
  echo "$(date +%T) profile $n $(cat /proc/loadavg)" >> logs/loadavg.txt
  RT9_TARGET= nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt17.py r11 probe_profile.py $n Diet 10 > logs/$n.profile.out 2> logs/$n.profile.err
done
echo "$(date +%T) profiles done" >> logs/progress.txt
mkdir -p sched_adams
for n in $(P kuwahara linear_res dog_ compressor lpc game_of exact_edt hashing run_length); do
  nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt17.py r11 ../redteam17_2026-12-06/show_adams17.py $n > sched_adams/$n.Adams2019c.txt 2> logs/$n.show_adams.err
done
echo "$(date +%T) STEPS2 DONE" >> logs/progress.txt
