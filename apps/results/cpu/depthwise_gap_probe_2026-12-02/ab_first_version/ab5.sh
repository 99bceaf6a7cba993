cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
AB=apps/results/cpu/channel_selects_2026-11-30/ab.sh
O=/tmp/ab5; mkdir -p $O
RT9_TARGET=$A RT_DIR=redteam10_2026-12-01 RT_MOD=pipes10 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base4.so /tmp/new5.so $O/r10_A.jsonl 2 depthwise_separable_bn_relu6_cinner:Adams2019c rmsnorm_then_rotary_sincos_tables:Adams2019c
RT9_TARGET=$A RT_DIR=redteam8_2026-12-01 RT_MOD=pipes8 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base4.so /tmp/new5.so $O/r8_A.jsonl 2 dw3x3_then_pw_relu_cxy:Adams2019c
RT9_TARGET=$A RT_DIR=redteam3_fixes_2026-11-30 RT_MOD=pipes RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base4.so /tmp/new5.so $O/r3_A.jsonl 2 bilateral5x5_exp:Adams2019c guided_filter:Adams2019c local_contrast_norm:Adams2019c variance_ratio_hlsum:Adams2019c
echo AB_DONE
