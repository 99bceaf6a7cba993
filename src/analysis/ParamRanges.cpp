#include "analysis/ParamRanges.h"

#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

Interval interval_over_param_ranges(const Expr &e) {
    struct Params : IRVisitor {
        Scope<Interval> scope;
        std::set<std::string> seen;
        using IRVisitor::visit;
        void visit(const Variable *v) override {
            if (!v->param.defined() || v->param.is_buffer() || !seen.insert(v->name).second) return;
            scope.push(v->name, Interval(v->param.min_value().defined() ? v->param.min_value() : Interval::neg_inf(),
                                         v->param.max_value().defined() ? v->param.max_value() : Interval::pos_inf()));
        }
    } params;
    e.accept(&params);
    return bounds_of_expr_in_scope(e, params.scope);
}

std::optional<int64_t> largest_over_param_ranges(const Expr &e) {
    const Interval i = interval_over_param_ranges(e);
    if (!i.has_upper_bound()) return std::nullopt;
    const int64_t *hi = as_const_int(simplify(i.max));
    return hi ? std::optional<int64_t>(*hi) : std::nullopt;
}

std::optional<int64_t> smallest_over_param_ranges(const Expr &e) {
    const Interval i = interval_over_param_ranges(e);
    if (!i.has_lower_bound()) return std::nullopt;
    const int64_t *lo = as_const_int(simplify(i.min));
    return lo ? std::optional<int64_t>(*lo) : std::nullopt;
}

}  // namespace diet
