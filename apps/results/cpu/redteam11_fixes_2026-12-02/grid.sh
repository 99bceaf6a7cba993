# Round 6's grid check (every Param at its ends plus random in-range shapes, against the
# unscheduled reference) with this commit's plugin on every pipeline whose schedule it changed.
cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
O=apps/results/cpu/redteam11_fixes_2026-12-02
: > $O/grid.txt
one() {  # target dir module name
  eval tgt=\$$1
  out=$(DIET_PLUGIN=/tmp/pl_after3/libautoschedule_diet.so RT9_TARGET=$tgt HL_NUM_PASSES=1 timeout 600 /usr/bin/python3 apps/results/cpu/long_steps_grain_2026-12-02/gridone.py $2 $3 $4 20 2>/dev/null | tail -1)
  echo "$1 $4 rc=$? $out" >> $O/grid.txt
}
for t in A B; do
  one $t redteam6_2026-11-30 pipes6 f16_storage_laplacian
  one $t redteam3_fixes_2026-11-30 pipes matmul_i16_i32
  one $t redteam4_contractions_2026-11-30 pipes i8_requant_nn
done
for p in canny_f32_atan2_bins_nms_hysteresis1_u8 resize_catmull_rom_weight_func_rdom4x4_f32 deformable_conv3x3_int_offsets_buffer_cxy; do
  one B redteam11_2026-12-02 pipes11 $p
done
echo GRID_DONE >> $O/grid.txt
# (appended) round 11's three on the AVX-512 target too
for p in canny_f32_atan2_bins_nms_hysteresis1_u8 resize_catmull_rom_weight_func_rdom4x4_f32 deformable_conv3x3_int_offsets_buffer_cxy; do
  one A redteam11_2026-12-02 pipes11 $p
done
echo GRID_A_DONE >> $O/grid.txt
