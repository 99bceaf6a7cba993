#include "analysis/ParamRanges.h"

#include <map>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

void push_param_ranges(const Expr &e, Scope<Interval> &scope) {
    struct Params : IRVisitor {
        Scope<Interval> *scope;
        std::set<std::string> seen;
        using IRVisitor::visit;
        void visit(const Variable *v) override {
            const Parameter &p = v->param;
            if (!p.defined() || p.is_buffer() || (!p.min_value().defined() && !p.max_value().defined()) ||
                !seen.insert(v->name).second) {
                return;
            }
            scope->push(v->name, Interval(p.min_value().defined() ? p.min_value() : Interval::neg_inf(),
                                          p.max_value().defined() ? p.max_value() : Interval::pos_inf()));
        }
    } params;
    params.scope = &scope;
    e.accept(&params);
}

Interval interval_over_param_ranges(const Expr &e) {
    Scope<Interval> scope;
    push_param_ranges(e, scope);
    return bounds_of_expr_in_scope(e, scope);
}

namespace {

std::optional<int64_t> constant_end(bool bounded, const Expr &end) {
    if (!bounded) return std::nullopt;
    const int64_t *c = as_const_int(simplify(end));
    return c ? std::optional<int64_t>(*c) : std::nullopt;
}

}  // namespace

std::optional<int64_t> largest_over_param_ranges(const Expr &e) {
    const Interval i = interval_over_param_ranges(e);
    return constant_end(i.has_upper_bound(), i.max);
}

std::optional<int64_t> smallest_over_param_ranges(const Expr &e) {
    const Interval i = interval_over_param_ranges(e);
    return constant_end(i.has_lower_bound(), i.min);
}

std::optional<SmallRangeParam> small_range_param(const Expr &e, int64_t max_values) {
    const Variable *v = e.as<Variable>();
    if (!v || !v->param.defined() || v->param.is_buffer() || !v->type.is_int_or_uint()) return std::nullopt;
    const Expr lo = v->param.min_value(), hi = v->param.max_value();
    const int64_t *l = lo.defined() ? as_const_int(lo) : nullptr;
    const int64_t *h = hi.defined() ? as_const_int(hi) : nullptr;
    if (!l || !h || *h < *l || *h - *l + 1 > max_values) return std::nullopt;
    return SmallRangeParam{e, *l, *h};
}

ParamCostValues param_cost_values(const FunctionDAG &dag, const ShapeFamily &family) {
    struct Params : IRVisitor {
        std::map<std::string, Parameter> found;
        using IRVisitor::visit;
        void visit(const Variable *v) override {
            if (v->param.defined() && !v->param.is_buffer() && v->type.is_int_or_uint()) found.emplace(v->name, v->param);
        }
    } params;
    for (const FuncNode &n : dag.nodes()) {
        if (!n.func.has_pure_definition()) continue;
        n.func.definition().accept(&params);
        for (const Definition &u : n.func.updates()) u.accept(&params);
    }
    std::set<std::string> shape_vars;
    for (const ShapeVar &v : family.vars) shape_vars.insert(v.name);
    const auto constant = [](const Expr &e) { return e.defined() ? constant_value(e) : std::nullopt; };
    ParamCostValues out;
    for (const auto &[name, p] : params.found) {
        if (shape_vars.count(name)) continue;
        const std::optional<int64_t> lo = constant(p.min_value()), hi = constant(p.max_value()), est = constant(p.estimate());
        const std::optional<int64_t> largest = hi ? hi : est, smallest = lo ? lo : est;
        if (!largest || !smallest || *smallest > *largest) continue;
        out.largest[name] = *largest;
        out.representative[name] = est && *est >= *smallest && *est <= *largest ? *est : *largest;
    }
    return out;
}

}  // namespace diet
