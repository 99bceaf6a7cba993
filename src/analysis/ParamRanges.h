// The values an expression takes over the declared ranges of the scalar Params it reads
// (Param::set_range): a window of run-time radius R in [0, 5], RDom(-R, 2 R + 1), spans at most 11
// points; an extent M + GAP with GAP in [0, 8] and no estimate using GAP is at least M.
#pragma once

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"

#include <optional>

namespace diet {

// Pushes into `scope` the declared range of every scalar Param `e` reads that declares a bound (an
// unbounded end where it declares only one); other variables are left free.
void push_param_ranges(const Halide::Expr &e, Halide::Internal::Scope<Halide::Internal::Interval> &scope);

// Halide's interval of `e` over those ranges.
Halide::Internal::Interval interval_over_param_ranges(const Halide::Expr &e);

// The interval's ends where they are constants.
std::optional<int64_t> largest_over_param_ranges(const Halide::Expr &e);
std::optional<int64_t> smallest_over_param_ranges(const Halide::Expr &e);

// A scalar integer Param whose declared range holds few values: a schedule may take one
// specialization per value, in which Halide substitutes the value (a divisor becomes a multiply
// and a shift, a window's run-time extent a constant).
struct SmallRangeParam {
    Halide::Expr param;  // the Param's Variable
    int64_t lo = 0, hi = 0;
};

constexpr int64_t kSmallRangeValues = 6;  // values of a range specialized on at most (heuristic: code size)

// `e` itself as such a Param (a Variable with both ends of its range declared, at most
// `max_values` values).
std::optional<SmallRangeParam> small_range_param(const Halide::Expr &e, int64_t max_values = kSmallRangeValues);

// The scalar integer Params the pipeline reads that are not shape variables of `family` but declare
// a range or an estimate (a window's radius R in [1, 4] read only by an RDom): the values a cost
// estimate binds them to, since a window's halo sized by R is otherwise unbounded and no producer
// could be costed inside its consumer's tiles. `representative`: the estimate where it lies in the
// range, else the largest value (as a shape variable's); `largest`: the range's upper end (the
// estimate where none is declared). Params with neither stay free.
struct ParamCostValues {
    Shape representative, largest;
};
ParamCostValues param_cost_values(const FunctionDAG &dag, const ShapeFamily &family);

}  // namespace diet
