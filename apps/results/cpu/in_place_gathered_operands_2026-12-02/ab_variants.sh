#!/bin/bash
# Before/after (and Mullapudi2016) on pipes_inplace.py's variants, each on its spec's target,
# alternating, 3 rounds. Usage: ab_variants.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
for nt in ip_embed_repeat_edge_tokens_inner:A ip_embed_bias_gelu_epilogue:B ip_embed_batched_ids:A \
          ip_permuted_weight_rows:B ip_deformable_1d_offsets:A ip_embed_u8_i8_widening:A; do
  name=${nt%%:*}; t=${nt##*:}
  RT_DIR=in_place_gathered_operands_2026-12-02 RT_MOD=pipes_inplace RT9_TARGET=${!t} \
    RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
    bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/variant_${name}_$t.jsonl" 3 "$name:Mullapudi2016"
done
