// Updates that are pointwise passes over their Func: no reduction, written at the Func's pure
// coordinates, reading the Func only there (f(x, y) += bias(x); f(x, y) = max(f(x, y), 0)).
// After a contraction on an output they are the output's own passes (analysis/FunctionDAG.cpp).
#pragma once

#include "analysis/FunctionDAG.h"

namespace diet {

bool is_pointwise_update(const FuncNode &f, const Halide::Internal::Definition &def);

}  // namespace diet
