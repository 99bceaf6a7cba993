// The storage order a pipeline declares for its outputs: a user who writes interleaved images
// keeps x as dimension 0 and says so through the buffer's strides (`dim(0).set_stride(3)`,
// `dim(2).set_stride(1)`), not through the Func's argument order.
#pragma once

#include "analysis/FunctionDAG.h"

namespace diet {

// The dimension other than 0 that every output buffer of `n` declares with stride 1 (a constant
// stride constraint), or 0 where none does (dimension 0 is then innermost, Halide's default).
int declared_innermost_dim(const FuncNode &n);

}  // namespace diet
