#!/bin/bash
# 3 alternating rounds (ab_time.sh) of Diet, Adams2019 (Params; fails where a Param is used inside the algorithm),
# Adams2019c (constant max shape), Adams2019c@small (constant small shape) and Mullapudi2016 for each named pipeline.
cd "$(dirname "$0")"
for p in "$@"; do
  ./ab_time.sh $p Diet Adams2019 Adams2019c Adams2019c@small Mullapudi2016
  echo "$(date +%T) ab $p" >> logs/progress.txt
done
