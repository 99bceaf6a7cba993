#include "schedule/SizeExpr.h"
#include "common/Errors.h"

#include <map>

namespace diet {

using namespace Halide;

Expr simplify_size_condition(const Expr &condition) {
    struct Sizes : Internal::IRVisitor {
        std::map<std::string, Internal::Interval> bounds;
        using IRVisitor::visit;
        void visit(const Internal::Variable *v) override {
            if (v->name.find(".extent.") != std::string::npos) {
                bounds.emplace(v->name, Internal::Interval(0, Internal::Interval::pos_inf()));
            } else if (v->param.defined() && !v->param.is_buffer() &&
                       (v->param.min_value().defined() || v->param.max_value().defined())) {
                bounds.emplace(v->name, Internal::Interval(
                                            v->param.min_value().defined() ? v->param.min_value() : Internal::Interval::neg_inf(),
                                            v->param.max_value().defined() ? v->param.max_value() : Internal::Interval::pos_inf()));
            }
        }
    } sizes;
    condition.accept(&sizes);
    Internal::Scope<Internal::Interval> scope;
    for (const auto &[name, interval] : sizes.bounds) scope.push(name, interval);
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
