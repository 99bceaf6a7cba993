// Whether an update scans along one of its Func's dimensions: its left-hand side there is an
// expression of the reduction variables alone (`y(r, c) = y(r, c) - a * y(r - 1, c)`, an IIR
// filter or a prefix sum along a row), not the Func's pure variable (a reduction at every point)
// nor a value loaded from memory (a scatter: a histogram's bin). Each row's steps then form one
// serial chain; only the update's pure variables can run in vector lanes.
#pragma once

#include "Halide.h"

#include <string>
#include <vector>

namespace diet {

// `def`: an update of a Func whose pure arguments are `args`; `d`: one of its dimensions.
bool scans_along(const Halide::Internal::Definition &def, const std::vector<std::string> &args, int d);

}  // namespace diet
