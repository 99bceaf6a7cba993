# Erosion by a structuring element (red-team round 10) before/after the window-offset change, and
# Adams2019 with the shape as constants, alternating, 3 rounds, on both targets.
cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
AB=apps/results/cpu/channel_selects_2026-11-30/ab.sh
RUN=apps/results/cpu/long_steps_grain_2026-12-02/runany.py
O=apps/results/cpu/window_param_offset_2026-12-02
for t in B A; do
  eval tgt=\$$t
  RT9_TARGET=$tgt RT_DIR=redteam10_2026-12-01 RT_MOD=pipes10 RUN_ONE=$RUN bash $AB /tmp/pl_before/libautoschedule_diet.so /tmp/pl_after2/libautoschedule_diet.so $O/erode_$t.jsonl 3 erode_structuring_element_buffer_u8:Adams2019c
done
echo AB_DONE
