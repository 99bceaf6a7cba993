#!/bin/bash
# gemv2.py (a batched matrix-vector product over a ranged Param D) before (/tmp/head, b89c298) and
# after (/tmp/kstep) in alternating processes, 3 rounds, both targets. Each line: D T B median ms, max rel error.
for r in 1 2 3; do
  for t in A B; do
    for sys in head kstep; do
      /usr/bin/python3 gemv2.py $t x /tmp/$sys/libautoschedule_diet.so 2>/dev/null | sed "s/^/round $r target $t $sys: /"
    done
  done
done
