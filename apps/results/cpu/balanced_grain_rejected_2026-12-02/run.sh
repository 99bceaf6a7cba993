#!/bin/bash
TGT=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
FORMS=bmm_nt/canonical,bmm_nt/lhs_transposed,bmm_nt/update_on_output,bmm_nn/update_on_output,bmm_nn/canonical,bmm_nn/batch_innermost
for r in 1 2 3; do
 for side in old new; do
  if [ $side = old ]; then B=/tmp/old/forms_bench; else B=/work/main/build/apps/forms_bench; fi
  env -u OPENBLAS_CORETYPE $B --families bmm --forms $FORMS --ts 1,2,3,5,8,16,43,128 --reps 5 --check-ts 1,3,16 --out-dir /tmp/ab1/${side}_$r --target $TGT > /tmp/ab1/${side}_$r.out 2>&1
 done
done
echo DONE
