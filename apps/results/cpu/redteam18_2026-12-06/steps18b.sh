#!/bin/bash
# round 18 follow-ups: pass 2 (3 rounds) on the pipelines flagged in pass 1, a 1-thread pass (2 rounds) on the same,
# census with Diet and ref only (every other scheduler or the ab process timed out in pass 1), numpy sanity of the refs
cd "$(dirname "$0")"
export DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1
flagged=$(/usr/bin/python3 -c "
import sys; sys.path.insert(0, '.'); import pipes18
pre = 'dct8x8 bitplane nv12 joint_rgb rgb_planar istft maxpool2x2 grid_sample attention_pooling inverse3x3 banded cholesky power_iteration column_zscore'.split()
print(' '.join(n for n in pipes18.SPECS if any(n.startswith(p) for p in pre)))")
echo "$(date +%T) START pass2" >> logs/progress.txt
ROUNDS=3 AB_OUT=ab_pass2 AB_RES=ab_pass2 AB_TIMEOUT=240 ./ab_pass18.sh $flagged
echo "$(date +%T) START 1thread" >> logs/progress.txt
HL_NUM_THREADS=1 ROUNDS=2 AB_OUT=ab_1thread AB_RES=ab_1thread AB_TIMEOUT=240 ./ab_pass18.sh $flagged
echo "$(date +%T) START census Diet,ref" >> logs/progress.txt
c=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes18; print([n for n in pipes18.SPECS if n.startswith('census')][0])")
echo "$(date +%T) census_dietref $(cat /proc/loadavg)" >> logs/loadavg.txt
AB_SCHEDS=Diet,ref nice -n 10 timeout 400 /usr/bin/python3 -W ignore rt18.py r11 ../redteam18_2026-12-06/ab18.py $c 2 > logs/$c.ab_dietref.out 2> logs/$c.ab_dietref.err
echo "census Diet,ref rc=$?" >> logs/progress.txt
grep '^AB ' logs/$c.ab_dietref.out | sed 's/^AB //' >> ab_census_dietref.jsonl
grep '^CT ' logs/$c.ab_dietref.out | sed 's/^CT //' >> ab_compile.jsonl
echo "$(date +%T) sanity $(cat /proc/loadavg)" >> logs/loadavg.txt
nice -n 10 timeout 400 /usr/bin/python3 -W ignore rt18.py r11 ../redteam18_2026-12-06/sanity18.py > sanity18.out 2>&1
echo "$(date +%T) ALL DONE b" >> logs/progress.txt
