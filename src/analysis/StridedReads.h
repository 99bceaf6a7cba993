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
#include <vector>

namespace diet {

// Heuristic: the lanes a vector that gathers takes at most (16: one AVX-512 gather of 32-bit
// values; narrower values are gathered lane by lane anyway, so more lanes only lengthen the code).
constexpr int kGatherLanes = 16;

bool gathers_along(const Halide::Internal::Definition &def, const std::string &pure_var);

// Whether a definition reads some Func or input with `pure_var` inside a clamp (a Min or Max
// moving with it) in the callee's innermost argument: `x(min(r + k, N - 1), f)`. Halide 14
// loads such a vector as a ramp only where loop partitioning proves the clamp away; in a guarded
// last vector (predicated) it stays a gather, loaded lane by lane (red-team round 17's LPC: the
// autocorrelation's 9 lags in vectors of 8, its second vector one lane wide and gathered).
bool clamped_along(const Halide::Internal::Definition &def, const std::string &pure_var);

// Whether each step of an update's reduction reads a run along `x`, and rows along `y`, of one
// plane of its inputs: every read that moves with the reduction variables reads them only in
// arguments no pure variable reaches, `x` in its innermost argument and `y` in an argument inside
// (before) every one of those (and at least one read does): `vol(x, y, rz)`. Scanned one vector
// at a time, such a reduction touches a line of another page at every step (a maximum projection
// over z); a tile of rows inside each step reads one page. Not a window along the output's rows
// (`in(x, y + r)`: the reduction variable shares an argument with y), nor a reduction over rows
// of planes that `y` selects (`in(a, rn, b)` with y = b: rows of a tile would be planes apart).
bool steps_across_planes(const Halide::Internal::Definition &def, const std::vector<std::string> &rvars,
                         const std::vector<std::string> &pure_vars, const std::string &x, const std::string &y);

// Whether rows `y` of a tile inside each step of an update's reduction would share that step's
// loads: every read that moves with the reduction variables reads values independent of `y` (a
// vector along `x` that every row reuses: a product's B(x, k)) or of `x` (one value broadcast
// across the vector: A(k, y)), and some read is of the first kind. A product the micro-kernel
// does not take (several contraction updates on one output) then shares its loads as a register
// tile's rows do; a window reduction (in(x + r, y)) reads along both and does not.
bool rows_share_step_loads(const Halide::Internal::Definition &def, const std::vector<std::string> &rvars,
                           const std::string &x, const std::string &y);

}  // namespace diet
