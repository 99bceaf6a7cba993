// How many math library calls (PureExtern calls) one point of a Func makes: what makes a
// cheap-looking pass worth sharing among cores.
#pragma once

#include "analysis/FunctionDAG.h"

#include <cstdint>

namespace diet {

// Heuristic: a math library call (tanh, exp, log: a scalar call per lane in Halide 14's x86
// codegen) costs about as much as this many plain arithmetic points when deciding whether a pass
// is worth sharing among cores (GELU's tanhf measured about 15 ns per element, a vectorized
// arithmetic point a few tenths of a ns; 16 left a GELU pass of 1536 points serial, 0.35-0.5x
// the canonical form's tile-fused GELU at T = 1-2).
constexpr int64_t kPointsPerMathCall = 64;

// The math library calls one point of `f` makes, through the pure Funcs it reads (inlined or not:
// an overestimate only shares a pass sooner), a few levels deep.
int64_t math_calls_per_point(const FunctionDAG &dag, const Halide::Internal::Function &f, int depth = 0);

}  // namespace diet
