#!/usr/bin/env bash
# HL_DIET_EMIT_GENERATOR end to end, through GenGen's command line:
#   1. build dense (K=64 N=200), batch_matmul_nn (B=4 D=16) and batch_matmul_nt with transposed queries
#      (B=4 D=16) with the plugin, emitting a generator .cpp
#   2. compile the emitted .cpp with GenGen.cpp and run it WITHOUT the plugin (-e static_library,h)
#   3. link both static libraries into emit_generator_check.cpp: bit-identical outputs at T = 1, 7, 64, 128, 200
#   4. negative: a pipeline reading an embedded Buffer gives the printer's clear message and no file
# Usage: emit_generator.sh <libautoschedule_diet.so> <dense.generator> <batch_matmul.generator>
#                          <GenGen.cpp> <libHalide> <test source dir> <work dir>
set -euo pipefail
plugin=$1 dense=$2 bmm=$3 gengen=$4 libhalide=$5 src=$6 dir=$7
inc=${HALIDE_INCLUDE_DIR:-/usr/include/halide14}
[ -f "$inc/Halide.h" ] || { echo "FAIL: no Halide.h in $inc (set HALIDE_INCLUDE_DIR)"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
unset $(env | grep -o '^HL_DIET_[A-Z_]*' || true)
fail() { echo "FAIL: $*"; exit 1; }
CXX=${CXX:-c++}
cxxflags=(-std=gnu++17 -O1 -DHALIDE_ENABLE_RTTI -DHALIDE_WITH_EXCEPTIONS -isystem "$inc")
start=$(date +%s)

"$CXX" "${cxxflags[@]}" -c "$gengen" -o "$dir/GenGen.o"

# $1: name, $2: original generator, $3: generator name, $4: checker defines, rest: generator params
one() {
    local name=$1 gen=$2 g=$3 defs=$4
    shift 4
    local d="$dir/$name"
    mkdir -p "$d"
    HL_DIET_EMIT_GENERATOR="$d/emitted.cpp" "$gen" -g "$g" -f "${name}_diet" -n "${name}_diet" -o "$d" \
        -e static_library,h -p "$plugin" -s Diet target="${DIET_TARGET:?set DIET_TARGET (diet_target prints it)}" auto_schedule=true machine_params=2,1048576,40 "$@" \
        2> "$d/diet.stderr" || { cat "$d/diet.stderr"; fail "$name: the Diet build failed"; }
    [ -s "$d/emitted.cpp" ] || fail "$name: no emitted generator"
    [ ! -e "$d/emitted.cpp.tmp" ] || fail "$name: the temporary file was left behind"
    "$CXX" "${cxxflags[@]}" "$d/emitted.cpp" "$dir/GenGen.o" -o "$d/emitted.generator" "$libhalide" -ldl -lpthread \
        || fail "$name: the emitted generator does not compile"
    # No -p, no HL_DIET_*: plain GenGen.
    "$d/emitted.generator" -g diet_emitted -f "${name}_emitted" -n "${name}_emitted" -o "$d" \
        -e static_library,h target="${DIET_TARGET:?set DIET_TARGET (diet_target prints it)}-no_runtime" 2> "$d/emitted.stderr" \
        || { cat "$d/emitted.stderr"; fail "$name: the emitted generator failed"; }
    "$CXX" -std=gnu++17 -O2 -isystem "$inc" $defs -DORIG="${name}_diet" -DEMIT="${name}_emitted" \
        "$src/emit_generator_check.cpp" "$d/${name}_diet.a" "$d/${name}_emitted.a" -o "$d/check" -ldl -lpthread \
        || fail "$name: the checker does not link"
    "$d/check" | tee "$d/check.out"
}
one dense "$dense" dense "-DDIET_PIPE_DENSE -DDIET_K=64 -DDIET_N=200" K=64 N=200
one bmm_nn "$bmm" batch_matmul_nn "-DDIET_PIPE_BMM_NN -DDIET_B=4 -DDIET_D=16" B=4 D=16
grep -q "argument order identical" "$dir/bmm_nn/check.out" || fail "batch_matmul_nn: the argument order differs"
# Transposed queries: the dot-product kernels gather a along the reduction, and at T = 1 run under
# specialize(a.stride.1 == 1), which the emitted schedule must name from the pipeline's reads of a.
one bmm_nt_lhs_t "$bmm" batch_matmul_nt "-DDIET_PIPE_BMM_NT_LHS_T -DDIET_B=4 -DDIET_D=16" B=4 D=16 lhs_transposed=true
grep -q 'diet_pipeline_variable("a.stride.1")' "$dir/bmm_nt_lhs_t/emitted.cpp" ||
    fail "batch_matmul_nt, transposed queries: the emitted schedule has no specialization on a.stride.1"

# Negative: an embedded Buffer (a constant lookup table) is something the printer refuses.
cat > "$dir/neg.cpp" <<'CPP'
#include "Halide.h"
using namespace Halide;
class Neg : public Generator<Neg> {
public:
    Input<Buffer<float>> x{"x", 1};
    Input<int> T{"T", 8, 1, 64};
    Output<Buffer<float>> y{"y", 1};
    void generate() {
        Buffer<float> lut(4, "lut");
        for (int i = 0; i < 4; i++) lut(i) = 0.5f * i;
        Var i{"i"};
        y(i) = x(i) * lut(i % 4);
        Expr t = auto_schedule ? Expr(T) : Expr(8);
        x.set_estimates({{0, 16 * t}});
        y.set_estimates({{0, 16 * t}});
    }
};
HALIDE_REGISTER_GENERATOR(Neg, neg)
CPP
"$CXX" "${cxxflags[@]}" "$dir/neg.cpp" "$dir/GenGen.o" -o "$dir/neg.generator" "$libhalide" -ldl -lpthread
mkdir -p "$dir/neg"
if HL_DIET_EMIT_GENERATOR="$dir/neg/emitted.cpp" "$dir/neg.generator" -g neg -o "$dir/neg" -e static_library,h \
    -p "$plugin" -s Diet target="${DIET_TARGET:?set DIET_TARGET (diet_target prints it)}" auto_schedule=true machine_params=2,1048576,40 2> "$dir/neg/stderr"; then
    fail "negative: the build with an unprintable pipeline succeeded"
fi
grep -q "HL_DIET_EMIT_GENERATOR cannot print the direct read of image lut (an embedded Buffer) (in Func y)" \
    "$dir/neg/stderr" || { cat "$dir/neg/stderr"; fail "negative: not the expected message"; }
[ ! -e "$dir/neg/emitted.cpp" ] || fail "negative: a generator was written anyway"
echo "negative: $(grep -o 'Diet: HL_DIET_EMIT_GENERATOR[^;]*' "$dir/neg/stderr")"
echo "PASS ($(( $(date +%s) - start ))s)"
