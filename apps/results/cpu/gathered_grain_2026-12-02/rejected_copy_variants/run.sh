#!/bin/bash
cd /work/main
for r in 1 2 3; do
  for v in new new2; do
    mkdir -p /tmp/gab/r3_${v}_$r
    /tmp/fb_$v --families bmm --forms bmm_nt/lhs_transposed --ts 3,4,6,8,12,16,24,43 --reps 7 --check-ts 4 --out-dir /tmp/gab/r3_${v}_$r > /tmp/gab/r3_${v}_$r.out 2> /tmp/gab/r3_${v}_$r.err
  done
done
