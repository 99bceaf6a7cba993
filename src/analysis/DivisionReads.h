// Whether a Func reads a producer at a coordinate that divides (or takes the remainder of) one
// of its own pure variables: an upsample f(x / 2), a pixel's channel g(x % 3). Halide 14 bounds
// such a read from a tile loop loosely (floor division loses the correlation between a tile's
// start and its extent: test_fuzz seed 20261240, a "valid" stencil read through an upsample from
// a guarded tile, required its input two rows past the end), so a producer read this way is
// computed per tile of its reader only where over-computing it reads no input out of range
// (analysis/ClampedReads.h reads_inputs_clamped): space/rules/Planner.cpp.
// A read through a clamp of a pure variable (a boundary condition applied to an intermediate,
// min(max(y, 0), e - 1)) is bounded the same loose way: the region's start and extent both vary
// with the tile at the edges, and Halide 14 bounds their sum by the sum of their maxima (test_fuzz
// seed 20265228: an intermediate read through repeat_edge and computed per z slice of its reader
// required its input three slices past the end).
#pragma once

#include "analysis/FunctionDAG.h"

#include <string>

namespace diet {

bool reads_through_division_or_clamp(const FunctionDAG &dag, const std::string &consumer, const std::string &producer);

}  // namespace diet
