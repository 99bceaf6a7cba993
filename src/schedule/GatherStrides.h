// The run-time strides at which the dot-product kernels gather an operand along the reduction
// (space/MicroKernel.h gathered_along_reduction: a transposed A read in place, q(i, d, b)).
// At the smallest shapes such an operand is often dense along the reduction after all: q(i, d, b)
// stored densely has q.stride.1 == T, which is 1 at T = 1 (one decoding step). Under a
// specialize() on `stride == 1` Halide's simplifier substitutes the stride, and each gathered
// vector becomes one dense load (the canonical layout's code). Only operands that are input
// buffers read as they are (an ImageParam's Func) have a stride the schedule can name.
#pragma once

#include "analysis/FunctionDAG.h"
#include "schedule/SizeExpr.h"

#include <functional>
#include <vector>

namespace diet {

// The stride, along its reduction argument, of every input buffer the pattern's dot kernels
// gather (an empty list when one of them is not an input buffer read in place: the
// specialization would leave a gather).
std::vector<Halide::Expr> gathered_reduction_strides(const FunctionDAG &dag, const MatmulPattern &p);

}  // namespace diet
