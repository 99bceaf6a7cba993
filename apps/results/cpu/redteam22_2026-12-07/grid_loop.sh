#!/bin/bash
# used in this round: waits for each generator's 4 builds, then links its harness and runs its grid (nice 19)
R=/work/main/apps/results/cpu/redteam22_2026-12-07
cd $R
tail -n +2 gens_table.txt | while read g t; do
  while [ $(grep -c "\"gen\": \"$g\"" logs/builds.jsonl) -lt 4 ]; do sleep 10; done
  /usr/bin/python3 run22.py harness $g
  /usr/bin/python3 run22.py grid $g 18
done
echo GRID_LOOP_DONE
