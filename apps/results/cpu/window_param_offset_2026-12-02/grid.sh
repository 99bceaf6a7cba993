# Round 6's grid check (every Param at its ends and random in-range shapes, against the
# unscheduled reference) of the erosion with the changed plugin, on both targets.
cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
O=apps/results/cpu/window_param_offset_2026-12-02
: > $O/grid.txt
for t in A B; do
  eval tgt=\$$t
  out=$(DIET_PLUGIN=/tmp/pl_after2/libautoschedule_diet.so RT9_TARGET=$tgt HL_NUM_PASSES=1 timeout 600 /usr/bin/python3 apps/results/cpu/long_steps_grain_2026-12-02/gridone.py redteam10_2026-12-01 pipes10 erode_structuring_element_buffer_u8 30 2>/dev/null | tail -1)
  echo "$t erode_structuring_element_buffer_u8 rc=$? $out" >> $O/grid.txt
done
