#!/bin/bash
# Diet JIT-compile time of every pipeline on BOTH targets (RT8_TARGET overrides the spec's), with the compute_root
# reference in the same process -> ct_sweep.jsonl
cd "$(dirname "$0")"
export DIET_PLUGIN=${DIET_PLUGIN:-/tmp/rt8_diet.so}
names=${@:-$(/usr/bin/python3 -c "import sys; sys.path.insert(0, '.'); import pipes8; print(' '.join(pipes8.SPECS))")}
for t in x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41 x86-64-linux-avx-avx2-f16c-fma-sse41; do
  for p in $names; do
    RT8_TARGET=$t nice -n 10 timeout 200 /usr/bin/python3 ref_compile.py $p ref Diet 2>/dev/null | grep '^CT' | sed 's/^CT //' >> ct_sweep.jsonl || echo "{\"pipeline\": \"$p\", \"target\": \"$t\", \"error\": \"timeout 200 s\"}" >> ct_sweep.jsonl
  done
done
