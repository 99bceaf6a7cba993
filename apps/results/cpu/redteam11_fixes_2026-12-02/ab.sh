# Before (b0a03ff) / after (this commit's plugin) / Mullapudi2016, alternating, 3 rounds: the
# red-team pipelines whose schedules this session's changes moved, and round 11's leads.
cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
AB=apps/results/cpu/channel_selects_2026-11-30/ab.sh
RUN=apps/results/cpu/long_steps_grain_2026-12-02/runany.py
O=apps/results/cpu/redteam11_fixes_2026-12-02
BEFORE=/tmp/pl_before/libautoschedule_diet.so AFTER=/tmp/pl_after3/libautoschedule_diet.so
RT9_TARGET=$B RT_DIR=redteam11_2026-12-02 RT_MOD=pipes11 RUN_ONE=$RUN bash $AB $BEFORE $AFTER $O/r11_B.jsonl 3 canny_f32_atan2_bins_nms_hysteresis1_u8:Mullapudi2016 resize_catmull_rom_weight_func_rdom4x4_f32:Mullapudi2016 deformable_conv3x3_int_offsets_buffer_cxy:Mullapudi2016
for t in A B; do
  eval tgt=\$$t
  RT9_TARGET=$tgt RT_DIR=redteam6_2026-11-30 RT_MOD=pipes6 RUN_ONE=$RUN bash $AB $BEFORE $AFTER $O/r6_$t.jsonl 3 f16_storage_laplacian:Mullapudi2016
  RT9_TARGET=$tgt RT_DIR=redteam3_fixes_2026-11-30 RT_MOD=pipes RUN_ONE=$RUN bash $AB $BEFORE $AFTER $O/r3_$t.jsonl 2 matmul_i16_i32:Mullapudi2016
  RT9_TARGET=$tgt RT_DIR=redteam4_contractions_2026-11-30 RT_MOD=pipes RUN_ONE=$RUN bash $AB $BEFORE $AFTER $O/r4_$t.jsonl 2 i8_requant_nn:Mullapudi2016
done
echo AB_DONE
