#!/bin/bash
# Before/after (and Adams2019, round 9's "Adams2019c") on the pipelines whose schedule the
# member-vector-dimension change alters: round 12's Welford LayerNorm (the only one of the 425
# red-team pipelines) and this folder's batched variant; both targets, alternating, 3 rounds.
# Usage: ab.sh OLD_PLUGIN NEW_PLUGIN OUTDIR
set -u
old=$1; new=$2; out=$3
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" /tmp/ab2/out/sched /tmp/ab2/out/sched_avx512
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
for item in redteam12_2026-12-02:pipes12:layernorm_chunk_welford_chan_merge_tuple3 \
            member_vector_dim_2026-12-02:pipes_chunkstats:cs_welford_chunks_batched; do
  IFS=: read dir mod name <<< "$item"
  for t in A B; do
    RT_DIR=$dir RT_MOD=$mod RT9_TARGET=${!t} RUN_ONE=$R/long_steps_grain_2026-12-02/runany.py \
      bash $R/channel_selects_2026-11-30/ab.sh "$old" "$new" "$out/${name}_$t.jsonl" 3 "$name:Adams2019c"
  done
done
