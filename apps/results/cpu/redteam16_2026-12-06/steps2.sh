#!/bin/bash
# round 16 follow-up steps, one niced process at a time:
# 1. richardson ab pass 1 again without Mullapudi2016 (it never finished scheduling; the spec's K / 2 also broke the
#    CInt build for Adams2019c and ref, fixed with D(K, 2) after the grid, same algorithm for Diet / ref)
# 2. correctness + timing of every scheduler at the large shape for the rows where Adams2019c is far ahead
# 3. Halide profiler of Diet (large) on the worst rows
# 4. pass 2 (3 rounds) of the flagged pipelines
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt16/libautoschedule_diet.so HL_NUM_PASSES=1
P() { /usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes16; print(' '.join(k for k in pipes16.SPECS if any(k.startswith(a) for a in '$*'.split())))"; }
RL=$(P richardson)
echo "$(date +%T) richardson-ab $(cat /proc/loadavg)" >> logs/loadavg.txt
AB_SCHEDS=Diet,Adams2019c,Adams2019c@small,ref nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt16.py r11 ../redteam16_2026-12-06/ab16.py $RL 2 > logs/$RL.ab.out 2> logs/$RL.ab.err
grep '^AB ' logs/$RL.ab.out | sed 's/^AB //' >> ab_results.jsonl; grep '^CT ' logs/$RL.ab.out | sed 's/^CT //' >> ab_compile.jsonl
echo "$(date +%T) richardson ab done" >> logs/progress.txt
for n in $(P gabor q4_0 winograd elementary); do
  echo "$(date +%T) check $n $(cat /proc/loadavg)" >> logs/loadavg.txt
  nice -n 10 timeout 300 /usr/bin/python3 -W ignore rt16.py r11 ../redteam16_2026-12-06/probe_check16.py $n > logs/$n.check.out 2> logs/$n.check.err
  grep '^CHECK' logs/$n.check.out | sed 's/^CHECK //' >> checks.jsonl
done
echo "$(date +%T) checks done" >> logs/progress.txt
for n in $(P q4_0 winograd gabor); do
  RT9_TARGET= nice -n 10 timeout 200 /usr/bin/python3 -W ignore rt16.py r11 probe_profile.py $n Diet 10 > logs/$n.profile.out 2> logs/$n.profile.err
done
echo "$(date +%T) profiles done" >> logs/progress.txt
AB_OUT=ab_pass2 AB_RES=ab_pass2 ROUNDS=3 ./ab_pass16.sh $(P complex crc32 elementary flownet gabor hu_ levenshtein lut3d q4_0 rotate sgm shufflenet winograd)
echo "$(date +%T) STEPS2 DONE" >> logs/progress.txt
