// An integer the schedule computes at run time (a task grain from the output's extents), as the
// Halide Expr Diet applies and its C++ spelling for the emitted schedule, built together so the
// two cannot drift apart (as ScheduleWriter's Conditions are). Operands are positive extents.
#pragma once

#include "Halide.h"

#include <cstdint>
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

}  // namespace diet
