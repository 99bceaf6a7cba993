// An integer the schedule computes at run time (a task grain from the output's extents), as the
// Halide Expr Diet applies and its C++ spelling for the emitted schedule, built together so the
// two cannot drift apart (as ScheduleWriter's Conditions are). Operands are positive extents.
#pragma once

#include "Halide.h"

#include <cstdint>
#include <functional>
#include <string>

namespace diet {

struct SizeExpr {
    Halide::Expr expr;
    std::string text;
};

SizeExpr size_constant(int64_t v);
SizeExpr operator*(const SizeExpr &a, const SizeExpr &b);
SizeExpr operator+(const SizeExpr &a, const SizeExpr &b);
SizeExpr size_min(const SizeExpr &a, const SizeExpr &b);
SizeExpr size_max(const SizeExpr &a, const SizeExpr &b);
// ceil(a / b) for a >= 0, b >= 1.
SizeExpr ceil_div(const SizeExpr &a, const SizeExpr &b);

// The C++ spelling of an integer Expr built from constants, Variables (spelled by `name_of`) and
// + - * / min max: what analysis/SymbolicRegion.h's is_run_time_size accepts.
std::string size_text(const Halide::Expr &e, const std::function<std::string(const Halide::Internal::Variable *)> &name_of);

// A condition on run-time sizes simplified with what holds at every run: a buffer's extent is
// never negative, a Param lies in its declared range (the pipeline checks it). An intermediate
// host's extent read through an offset (an LSTM's gates, `out.extent.0 + 384 >= 4`) is then
// decided, where Halide's simplifier alone cannot.
Halide::Expr simplify_size_condition(const Halide::Expr &condition);

}  // namespace diet
