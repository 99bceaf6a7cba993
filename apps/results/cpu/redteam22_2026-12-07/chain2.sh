#!/bin/bash
# used in this round: after the first build pass, rebuild every reference with root_all=true, then harness + grid per generator
cd /work/main/apps/results/cpu/redteam22_2026-12-07
while ! grep -q done logs/build_all.out; do sleep 5; done
sed 's/$/ ref/' gens_table.txt | xargs -P 2 -L 1 ./build22.sh
echo REF_REBUILT $(date +%T)
while read g t; do
  /usr/bin/python3 run22.py harness $g
  /usr/bin/python3 run22.py grid $g 18
done < gens_table.txt
echo GRID_LOOP_DONE $(date +%T)
