#!/bin/bash
# 3 alternating rounds (ab_time.sh) for every pipeline in pipes7.py (skipping those named in $SKIP), then a one-pass
# correctness run of the other schedulers
cd "$(dirname "$0")"
names=$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes7; print(' '.join(pipes7.SPECS))" 2>/dev/null)
for p in $names; do
  if [[ " $SKIP " == *" $p "* ]]; then continue; fi
  ./ab_time.sh $p Diet Adams2019 Adams2019c Adams2019c@small Mullapudi2016
  echo "$(date +%T) ab $p" >> logs/progress.txt
done
SCHEDS="Adams2019c Adams2019c@small Mullapudi2016 Mullapudi2016@small" HL_NUM_PASSES=1 ./run_all.sh $names
