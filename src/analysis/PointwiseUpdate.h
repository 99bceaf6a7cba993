// Updates that are independent passes over the points of their Func: written at the Func's pure
// coordinates and reading the Func only there. Pointwise ones have no reduction
// (f(x, y) += bias(x); f(x, y) = max(f(x, y), 0)); per-point ones may run a reduction inside each
// point (f(i, j) += u(i, s) * v(j, s), a rank-s correction). After a contraction on an output they
// are the output's own passes (analysis/FunctionDAG.cpp), any of their loops' orders legal.
#pragma once

#include "analysis/FunctionDAG.h"

namespace diet {

bool is_per_point_update(const FuncNode &f, const Halide::Internal::Definition &def);

}  // namespace diet
