// Whether a definition reads some Func or input with a pure variable in an argument other than the
// callee's innermost: a vector along that variable then loads with the callee's row stride, known
// only at run time for an input or an output (`red(x, y) = max(red(x, y), o(r, x, y))` with `o`
// another output): a gather, which Halide 14 on x86 emits as one scalar load and insert per lane.
// An update's steps over several such vectors, with a short reduction window unrolled and each
// step also in a predicated copy for the guarded tail, made LLVM compile one fuzz pipeline for
// 168 s (test_fuzz seed 20282162: 256 u8 lanes x 8 unrolled steps, in 16 specializations).
#pragma once

#include "Halide.h"

#include <string>

namespace diet {

// Heuristic: the lanes a vector that gathers takes at most (16: one AVX-512 gather of 32-bit
// values; narrower values are gathered lane by lane anyway, so more lanes only lengthen the code).
constexpr int kGatherLanes = 16;

bool gathers_along(const Halide::Internal::Definition &def, const std::string &pure_var);

}  // namespace diet
