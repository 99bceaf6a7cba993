#!/bin/bash
# Before/after (and Mullapudi2016) on the two red-team pipelines whose schedule the in-place change
# alters, both targets, alternating, 3 rounds. Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
for item in redteam12_2026-12-02:pipes12:embed_gather_constant_exterior_then_proj \
            redteam11_2026-12-02:pipes11:deformable_conv3x3_int_offsets_buffer_cxy; do
  IFS=: read dir mod name <<< "$item"
  for t in A B; do
    RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
      bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/${name}_$t.jsonl" 3 "$name:Mullapudi2016"
  done
done
