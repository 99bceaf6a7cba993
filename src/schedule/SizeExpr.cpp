#include "schedule/SizeExpr.h"
#include "analysis/ParamRanges.h"
#include "common/Errors.h"

#include <map>
#include <set>

namespace diet {

using namespace Halide;

Expr simplify_size_condition(const Expr &condition) {
    // Buffers' extents are positive; the scalar Params keep their declared ranges.
    struct Extents : Internal::IRVisitor {
        std::set<std::string> names;
        using IRVisitor::visit;
        void visit(const Internal::Variable *v) override {
            if (v->name.find(".extent.") != std::string::npos) names.insert(v->name);
        }
    } extents;
    condition.accept(&extents);
    Internal::Scope<Internal::Interval> scope;
    for (const std::string &name : extents.names) scope.push(name, Internal::Interval(0, Internal::Interval::pos_inf()));
    push_param_ranges(condition, scope);
    return Internal::simplify(condition, true, scope);
}

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

std::string size_text(const Expr &e, const std::function<std::string(const Internal::Variable *)> &name_of) {
    using namespace Halide::Internal;
    auto bin = [&](const Expr &a, const Expr &b, const char *op) {
        return "(" + size_text(a, name_of) + " " + op + " " + size_text(b, name_of) + ")";
    };
    auto call = [&](const Expr &a, const Expr &b, const char *f) {
        return std::string(f) + "(" + size_text(a, name_of) + ", " + size_text(b, name_of) + ")";
    };
    if (const IntImm *i = e.as<IntImm>()) return "::Halide::Expr(" + std::to_string(i->value) + ")";
    if (const Variable *v = e.as<Variable>()) return name_of(v);
    if (const Add *o = e.as<Add>()) return bin(o->a, o->b, "+");
    if (const Sub *o = e.as<Sub>()) return bin(o->a, o->b, "-");
    if (const Mul *o = e.as<Mul>()) return bin(o->a, o->b, "*");
    if (const Div *o = e.as<Div>()) return bin(o->a, o->b, "/");  // Halide's division of Exprs: floor, as in e
    if (const Min *o = e.as<Min>()) return call(o->a, o->b, "::Halide::min");
    if (const Max *o = e.as<Max>()) return call(o->a, o->b, "::Halide::max");
    internal_error << "Diet: " << e << " is not a run-time size\n";
    return "";
}

}  // namespace diet
