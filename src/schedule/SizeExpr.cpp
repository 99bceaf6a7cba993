#include "schedule/SizeExpr.h"

namespace diet {

using namespace Halide;

SizeExpr size_constant(int64_t v) { return {Expr((int)v), std::to_string(v)}; }

SizeExpr operator*(const SizeExpr &a, const SizeExpr &b) { return {a.expr * b.expr, "(" + a.text + " * " + b.text + ")"}; }

SizeExpr operator+(const SizeExpr &a, const SizeExpr &b) { return {a.expr + b.expr, "(" + a.text + " + " + b.text + ")"}; }

SizeExpr size_min(const SizeExpr &a, const SizeExpr &b) {
    return {min(a.expr, b.expr), "Halide::min(" + a.text + ", " + b.text + ")"};
}

SizeExpr size_max(const SizeExpr &a, const SizeExpr &b) {
    return {max(a.expr, b.expr), "Halide::max(" + a.text + ", " + b.text + ")"};
}

SizeExpr ceil_div(const SizeExpr &a, const SizeExpr &b) {
    return {(a.expr + b.expr - 1) / b.expr, "((" + a.text + " + " + b.text + " - 1) / " + b.text + ")"};
}

}  // namespace diet
