#!/bin/bash
# dump.sh PLUGIN OUTDIR: Diet's schedule source for every red-team pipeline (rounds 1-21, scan) on targets A and B
S=/work/main/apps/results/cpu/tier_budget_2026-12-04/schedall_any.py
for t in A B; do
  SCHEDALL_MORE=1 /usr/bin/python3 $S $1 $2/$t $t >/dev/null 2>$2/$t.err1
  SCHEDALL_ROUNDS=r16,r17,r18,r19,r20,r21 /usr/bin/python3 $S $1 $2/$t $t >/dev/null 2>$2/$t.err2
done
echo done > $2/DONE
