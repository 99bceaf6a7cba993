cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
AB=apps/results/cpu/channel_selects_2026-11-30/ab.sh
O=/tmp/ab3; mkdir -p $O
RT9_TARGET=$B RT_DIR=redteam10_2026-12-01 RT_MOD=pipes10 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base2.so /tmp/new3.so $O/r10_B.jsonl 3 topk3_by_repeated_argmax_mask:Mullapudi2016 three_updates_three_rdoms_rows_cols_diag:Mullapudi2016
RT9_TARGET=$A RT_DIR=redteam_2026-11-30 RT_MOD=pipes RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base2.so /tmp/new3.so $O/r1_A.jsonl 3 attention:Mullapudi2016 argmax_tuple:Mullapudi2016
RT9_TARGET=$A RT_DIR=redteam3_fixes_2026-11-30 RT_MOD=pipes RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base2.so /tmp/new3.so $O/r3_A.jsonl 3 gemv_rdomK:Mullapudi2016 softmax_outer_dim:Mullapudi2016
RT9_TARGET=$A RT_DIR=redteam7_2026-11-30 RT_MOD=pipes7 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base2.so /tmp/new3.so $O/r7_A.jsonl 3 matvec_k_inner_rt:Mullapudi2016
RT9_TARGET=$A RT_DIR=redteam6_2026-11-30 RT_MOD=pipes6 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base2.so /tmp/new3.so $O/r6_A.jsonl 3 knn1_argmin_points:Mullapudi2016
RT9_TARGET=$A RT_DIR=redteam9_2026-12-01 RT_MOD=pipes9 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base2.so /tmp/new3.so $O/r9_A.jsonl 3 nbody_forces_tuple4_softened:Mullapudi2016
echo AB_DONE
