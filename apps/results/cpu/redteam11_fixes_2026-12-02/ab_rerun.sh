# The two integer contractions again, 4 rounds, on the quiet machine (their first 2-round A/B
# moved both ways by up to 20%).
cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
AB=apps/results/cpu/channel_selects_2026-11-30/ab.sh
RUN=apps/results/cpu/long_steps_grain_2026-12-02/runany.py
O=apps/results/cpu/redteam11_fixes_2026-12-02
BEFORE=/tmp/pl_before/libautoschedule_diet.so AFTER=/tmp/pl_after3/libautoschedule_diet.so
RT9_TARGET=$A RT_DIR=redteam3_fixes_2026-11-30 RT_MOD=pipes RUN_ONE=$RUN bash $AB $BEFORE $AFTER $O/r3_A_rerun.jsonl 4 matmul_i16_i32:Mullapudi2016
RT9_TARGET=$A RT_DIR=redteam4_contractions_2026-11-30 RT_MOD=pipes RUN_ONE=$RUN bash $AB $BEFORE $AFTER $O/r4_A_rerun.jsonl 4 i8_requant_nn:Mullapudi2016
