// Whether a Func reads a producer at a coordinate that divides (or takes the remainder of) one
// of its own pure variables: an upsample f(x / 2), a pixel's channel g(x % 3). Halide 14 bounds
// such a read from a tile loop loosely (floor division loses the correlation between a tile's
// start and its extent: test_fuzz seed 20261240, a "valid" stencil read through an upsample from
// a guarded tile, required its input two rows past the end), so a producer read this way is
// computed per tile of its reader only where over-computing it reads no input out of range
// (analysis/ClampedReads.h reads_inputs_clamped): space/rules/Planner.cpp.
#pragma once

#include "analysis/FunctionDAG.h"

#include <string>

namespace diet {

bool reads_through_division(const FunctionDAG &dag, const std::string &consumer, const std::string &producer);

}  // namespace diet
