// The values an expression takes over the declared ranges of the scalar Params it reads
// (Param::set_range): a window of run-time radius R in [0, 5], RDom(-R, 2 R + 1), spans at most 11
// points; an extent M + GAP with GAP in [0, 8] and no estimate using GAP is at least M.
#pragma once

#include "Halide.h"

#include <optional>

namespace diet {

// Halide's interval of `e` with every scalar Param bound to its declared range (unbounded where it
// declares none; other variables are left free).
Halide::Internal::Interval interval_over_param_ranges(const Halide::Expr &e);

// The interval's ends where they are constants.
std::optional<int64_t> largest_over_param_ranges(const Halide::Expr &e);
std::optional<int64_t> smallest_over_param_ranges(const Halide::Expr &e);

}  // namespace diet
