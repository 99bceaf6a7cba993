cd /work/main
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
AB=apps/results/cpu/channel_selects_2026-11-30/ab.sh
O=/tmp/ab6; mkdir -p $O
for t in A B; do
tg=$A; [ $t = B ] && tg=$B
RT9_TARGET=$tg RT_DIR=redteam10_2026-12-01 RT_MOD=pipes10 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base4.so /tmp/new6.so $O/r10_$t.jsonl 3 depthwise_separable_bn_relu6_cinner:Adams2019c
RT9_TARGET=$tg RT_DIR=redteam8_2026-12-01 RT_MOD=pipes8 RUN_ONE=/tmp/ab2/runany.py bash $AB /tmp/base4.so /tmp/new6.so $O/r8_$t.jsonl 3 dw3x3_then_pw_relu_cxy:Adams2019c
done
echo AB_DONE
