#!/bin/bash
cd /work/main
for r in 1 2 3 4; do
  for v in base new; do
    mkdir -p /tmp/gab/r2_${v}_$r
    /tmp/fb_$v --families bmm --forms bmm_nt/lhs_transposed,bmm_nn/lhs_transposed --ts 1,2,4 --reps 11 --check-ts 1 --out-dir /tmp/gab/r2_${v}_$r > /tmp/gab/r2_${v}_$r.out 2> /tmp/gab/r2_${v}_$r.err
  done
done
