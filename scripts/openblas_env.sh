# Sourced by the benchmark scripts (main.sh, bench.sh): which OpenBLAS kernels the baseline runs.
#
# OpenBLAS 0.3.21 (Debian 12, DYNAMIC_ARCH) picks its kernels by CPU model, and a model it does not
# know gets its Prescott (SSE3) kernels: seen on 2026-11-26 on an "Intel(R) Xeon(R) Processor" VM
# with AVX512-FP16, where OpenBLAS ran the BERT dense layer at 67 GFLOP/s against oneDNN's 300, a
# baseline no user would accept. So an inherited OPENBLAS_CORETYPE is dropped (it could pin weaker
# kernels) and the strongest kernels this CPU's flags allow are named: Cooperlake (AVX-512 with
# BF16), SkylakeX (AVX-512 F/VL/BW/DQ), Haswell (AVX2 and FMA); otherwise OpenBLAS chooses.
# DIET_OPENBLAS_CORETYPE=auto leaves the choice to OpenBLAS; any other value is used as is.
unset OPENBLAS_CORETYPE
diet_openblas_coretype() {
    local flags
    flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
    if [[ $flags == *" avx512f "* && $flags == *" avx512vl "* && $flags == *" avx512bw "* && $flags == *" avx512dq "* ]]; then
        if [[ $flags == *" avx512_bf16 "* ]]; then echo Cooperlake; else echo SkylakeX; fi
    elif [[ $flags == *" avx2 "* && $flags == *" fma "* ]]; then
        echo Haswell
    fi
}
case "${DIET_OPENBLAS_CORETYPE:-}" in
    auto) ;;
    "") c=$(diet_openblas_coretype); [ -z "$c" ] || export OPENBLAS_CORETYPE=$c ;;
    *) export OPENBLAS_CORETYPE=$DIET_OPENBLAS_CORETYPE ;;
esac
