// Dimensions a Func's definition compares with constants: `select(c == 0, h, c == 1, s, v)`
// (an RGB <-> HSV conversion, a per-channel formula written as one definition), `mux(c, ...)`,
// `select(c < 1, ...)`. Over a small constant extent such a dimension runs unrolled: each copy of
// the body has its own constant there, and Halide's simplifier keeps only the branch it takes,
// instead of evaluating every channel's formula for every channel.
#pragma once

#include "Halide.h"

#include <vector>

namespace diet {

// The indices of f's pure arguments that its pure definition compares with a constant. Empty
// for a Func without a pure definition (an input, an extern).
std::vector<int> dims_compared_with_constants(const Halide::Internal::Function &f);

}  // namespace diet
