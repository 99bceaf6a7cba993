# The red-team rounds' folders and spec modules (sourced by grid.sh and ab.sh).
declare -A DIR=([r1]=redteam_2026-11-30:pipes [r3]=redteam3_fixes_2026-11-30:pipes [r4]=redteam4_contractions_2026-11-30:pipes
                [r5]=redteam5_2026-11-30:pipes [r6]=redteam6_2026-11-30:pipes6 [r7]=redteam7_2026-11-30:pipes7
                [r8]=redteam8_2026-12-01:pipes8 [r9]=redteam9_2026-12-01:pipes9 [r10]=redteam10_2026-12-01:pipes10
                [r11]=redteam11_2026-12-02:pipes11 [r12]=redteam12_2026-12-02:pipes12 [r13]=redteam13_2026-12-03:pipes13
                [r14]=redteam14_2026-12-03:pipes14 [r15]=redteam15_2026-12-05:pipes15 [r16]=redteam16_2026-12-06:pipes16 [r17]=redteam17_2026-12-06:pipes17 [r18]=redteam18_2026-12-06:pipes18 [r19]=redteam19_2026-12-07:pipes19 [r20]=redteam20_2026-12-07:pipes20 [r21]=redteam21_2026-12-07:pipes21
                [scan]=scan_lanes_2026-12-01:pipes)
A=x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41
B=x86-64-linux-avx-avx2-f16c-fma-sse41
