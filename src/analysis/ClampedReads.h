// Whether a Func may be computed over more points than its consumers need without reading past a
// pipeline input: every read of an input buffer it makes, directly or through the Funcs it reads
// (transitively, up to a Func read at bounded coordinates), is at bounded coordinates: clamped
// into range (a boundary condition's clamp), constant, or not moving with the reader's pure
// variables. Such a Func, computed per tile, takes
// TailStrategy::RoundUp for its vector splits: its last vector computes a few points past the
// tile instead of predicating every load (Halide 14 scalarizes predicated 8-bit loads on x86:
// probe 10's 5x5 erosion at 61x61 ran 7x faster rounded up). A Func that reads an input at
// unclamped coordinates keeps a guarded tail: rounded up, its reads would leave the input.
#pragma once

#include "analysis/FunctionDAG.h"

#include <map>
#include <string>

namespace diet {

bool reads_inputs_clamped(const FunctionDAG &dag, const std::string &func);

// The same for a Func computed over more points along one pure variable `var` only (an update's
// last vectors rounded up along dimension 0): reads that do not move with `var` need no clamp,
// and a producer grows only along the dimensions read at coordinates that move with it. An
// RGBA resampler's sum read in[c, clamp(..), clamp(..)] at an unclamped channel c, which rounding
// up along x leaves alone.
// `producers_may_grow` false: no Func it reads at coordinates moving with `var` may grow but an
// input wrapper (inlined where read).
bool reads_inputs_clamped_along(const FunctionDAG &dag, const std::string &func, const std::string &var,
                                bool producers_may_grow = true);

}  // namespace diet
