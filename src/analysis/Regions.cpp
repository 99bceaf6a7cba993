#include "analysis/Regions.h"

#include "analysis/ParamRanges.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

int64_t ConstBox::size() const {
    if (!bounded) return 0;
    int64_t s = 1;
    for (int64_t e : extent) s *= std::max<int64_t>(e, 0);
    return s;
}

namespace {

// An input buffer's min/extent (input.dim(1).extent() in an RDom, say) replaced by its estimate,
// so that sizes written in terms of the input's shape become numbers too.
class InputExtentsAsEstimates : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (!op->param.defined() || !op->param.is_buffer()) return op;
        const std::string &n = op->name;
        for (const char *field : {".extent.", ".min."}) {
            const size_t at = n.rfind(field);
            if (at == std::string::npos || n.compare(0, at, op->param.name()) != 0) continue;
            const int d = std::atoi(n.c_str() + at + std::strlen(field));
            if (d < 0 || d >= op->param.dimensions()) continue;
            Expr est = std::string(field) == ".extent." ? op->param.extent_constraint_estimate(d)
                                                         : op->param.min_constraint_estimate(d);
            if (est.defined()) return cast(op->type, mutate(est));
        }
        return op;
    }
};

// The bound at `shape`; where it still depends on Params outside the shape (a window's run-time
// radius, RDom(-R, 2R + 1) with R in [1, 6]), its worst case over their declared ranges: without
// it the regions read through such windows were unbounded, planned as 1024 x 1024 by default
// (a sliding argmin's boundary condition over 16 rows took tiles of 64 rows).
// `upper`: which end the bound is (unset: the exact value only).
std::optional<int64_t> bound_at(const Expr &e, const Shape &shape, std::optional<bool> upper = std::nullopt) {
    if (!e.defined()) return std::nullopt;
    const Expr bound = simplify(ShapeFamily::bind(InputExtentsAsEstimates().mutate(e), shape));
    if (std::optional<int64_t> c = constant_value(bound)) return c;
    if (!upper) return std::nullopt;
    return *upper ? largest_over_param_ranges(bound) : smallest_over_param_ranges(bound);
}

// `into` grows to cover `b`.
void merge_into(ConstBox &into, const ConstBox &b) {
    if (!b.bounded) into.bounded = false;
    if (into.min.empty()) {
        into.min = b.min;
        into.extent = b.extent;
        return;
    }
    for (size_t d = 0; d < std::min(into.min.size(), b.min.size()); d++) {
        int64_t lo = std::min(into.min[d], b.min[d]);
        int64_t hi = std::max(into.min[d] + into.extent[d], b.min[d] + b.extent[d]);
        into.min[d] = lo;
        into.extent[d] = hi - lo;
    }
}

ConstBox const_box(const Box &b, const Shape &shape) {
    ConstBox c;
    for (const Interval &i : b.bounds) {
        std::optional<int64_t> lo = i.has_lower_bound() ? bound_at(i.min, shape, false) : std::nullopt;
        std::optional<int64_t> hi = i.has_upper_bound() ? bound_at(i.max, shape, true) : std::nullopt;
        if (!lo || !hi) {
            c.bounded = false;
            c.min.push_back(0);
            c.extent.push_back(0);
            continue;
        }
        c.min.push_back(*lo);
        c.extent.push_back(std::max<int64_t>(*hi - *lo + 1, 0));
    }
    return c;
}

// Every Expr of a definition that can call a Func: its values and its left-hand side arguments.
std::vector<Expr> exprs_of(const Definition &d) {
    std::vector<Expr> es = d.values();
    es.insert(es.end(), d.args().begin(), d.args().end());
    return es;
}

}  // namespace

std::map<std::string, ConstBox> regions_required(const FunctionDAG &dag, const std::map<std::string, ConstBox> &sinks,
                                                 const std::set<std::string> &within, const Shape &shape,
                                                 const std::string &one_step_of) {
    std::map<std::string, ConstBox> region = sinks;
    const std::vector<FuncNode> &nodes = dag.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        const FuncNode &n = *it;
        auto r = region.find(n.name);
        if (r == region.end() || n.is_extern) continue;
        const ConstBox box = r->second;
        std::vector<Definition> defs = {n.func.definition()};
        for (const Definition &u : n.func.updates()) defs.push_back(u);
        for (size_t s = 0; s < defs.size(); s++) {
            Scope<Interval> scope;
            const std::vector<std::string> &args = n.func.args();
            for (size_t d = 0; d < args.size() && d < box.min.size(); d++) {
                if (!box.bounded) continue;  // left unbounded: every producer box becomes unbounded
                scope.push(args[d], Interval(Expr((int32_t)box.min[d]), Expr((int32_t)(box.min[d] + box.extent[d] - 1))));
            }
            for (const ReductionVariable &rv : defs[s].schedule().rvars()) {
                scope.push(rv.var, n.name == one_step_of ? Interval::single_point(rv.min)
                                                         : Interval(rv.min, simplify(rv.min + rv.extent - 1)));
            }
            for (const Expr &e : exprs_of(defs[s])) {
                for (const auto &[callee, b] : boxes_required(e, scope)) {
                    if (callee == n.name || !within.count(callee) || !dag.has(callee)) continue;
                    ConstBox cb = const_box(b, shape);
                    if (!box.bounded) cb.bounded = false;
                    merge_into(region[callee], cb);
                }
            }
        }
    }
    for (const auto &[name, b] : sinks) {
        if (!within.count(name)) region.erase(name);
    }
    return region;
}

std::map<std::string, ConstBox> output_boxes(const FunctionDAG &dag, const ShapeFamily &family, const Shape &shape) {
    std::map<std::string, ConstBox> out;
    for (const FuncNode &n : dag.nodes()) {
        if (!n.is_output) continue;
        ConstBox b;
        const OutputEstimate *est = nullptr;
        for (const OutputEstimate &e : family.outputs) {
            if (e.func == n.name) est = &e;
        }
        for (int d = 0; d < n.dims(); d++) {
            std::optional<int64_t> lo, ext;
            if (est && d < (int)est->min.size()) {
                lo = bound_at(est->min[d], shape);
                ext = bound_at(est->extent[d], shape);
            }
            b.min.push_back(lo.value_or(0));
            b.extent.push_back(ext.value_or(1024));
        }
        out[n.name] = b;
    }
    return out;
}

std::map<std::string, ConstBox> smallest_output_boxes(const FunctionDAG &dag, const ShapeFamily &family, const Shape &smallest) {
    std::map<std::string, ConstBox> out = output_boxes(dag, family, smallest);
    for (const OutputEstimate &e : family.outputs) {
        auto it = out.find(e.func);
        if (it == out.end()) continue;
        for (size_t d = 0; d < e.extent.size() && d < it->second.extent.size(); d++) {
            if (!e.extent[d].defined()) continue;
            const Expr extent = InputExtentsAsEstimates().mutate(e.extent[d]);
            Scope<Interval> ranges;
            push_param_ranges(extent, ranges);  // Params outside the family
            for (const ShapeVar &v : family.vars) {
                if (v.values.empty()) continue;
                ranges.push(v.name, Interval(make_const(Int(32), v.values.front()), make_const(Int(32), v.values.back())));
            }
            const Interval i = bounds_of_expr_in_scope(extent, ranges);
            const std::optional<int64_t> least = i.has_lower_bound() ? constant_value(simplify(i.min)) : std::nullopt;
            // Unbounded below: nothing is known but that it is not negative.
            it->second.extent[d] = std::min(it->second.extent[d], std::max<int64_t>(least.value_or(0), 0));
        }
    }
    return out;
}

namespace {

class OpCounter : public IRVisitor {
public:
    double ops = 0;
    using IRVisitor::visit;
#define DIET_COUNT(T) \
    void visit(const T *op) override { ops += 1; IRVisitor::visit(op); }
    DIET_COUNT(Add)
    DIET_COUNT(Sub)
    DIET_COUNT(Mul)
    DIET_COUNT(Div)
    DIET_COUNT(Mod)
    DIET_COUNT(Min)
    DIET_COUNT(Max)
    DIET_COUNT(Select)
    DIET_COUNT(Cast)
    DIET_COUNT(LT)
    DIET_COUNT(LE)
    DIET_COUNT(EQ)
    DIET_COUNT(NE)
#undef DIET_COUNT
    void visit(const Call *op) override {
        // A load of a Func or an image, or a math intrinsic (exp, tanh...: several ops).
        ops += op->is_pure() && op->call_type == Call::PureExtern ? 8 : 1;
        // mux(k, {v0 .. vN-1}) lowers to N - 1 selects on comparisons of k (a table of 16
        // circle offsets written as a mux: 30 ops per read, not 1; red-team round 14's FAST-9).
        if (op->is_intrinsic(Call::mux) && op->args.size() > 2) ops += 2.0 * (double)(op->args.size() - 2);
        IRVisitor::visit(op);
    }
};

}  // namespace

double ops_per_point(const FuncNode &n) {
    if (n.is_extern || !n.func.has_pure_definition()) return 1;
    OpCounter c;
    for (const Expr &e : n.func.definition().values()) e.accept(&c);
    double total = std::max(1.0, c.ops);
    for (const Definition &u : n.func.updates()) {
        OpCounter cu;
        for (const Expr &e : exprs_of(u)) e.accept(&cu);
        double trips = 1;
        for (const ReductionVariable &rv : u.schedule().rvars()) {
            trips *= (double)constant_value(rv.extent).value_or(16);
        }
        total += std::max(1.0, cu.ops) * trips;
    }
    return total;
}

int64_t last_update_trips(const FuncNode &n, const Shape &shape) {
    if (!n.has_updates()) return 1;
    int64_t trips = 1;
    for (const ReductionVariable &rv : n.func.updates().back().schedule().rvars()) {
        std::optional<int64_t> e = bound_at(rv.extent, shape);
        if (!e) return 0;
        trips *= std::max<int64_t>(*e, 0);
    }
    return trips;
}

double work_for_region(const FuncNode &n, const ConstBox &required, const Shape &shape, ConstBox *computed) {
    ConstBox box = required;
    double update_work = 0;
    const std::vector<std::string> &args = n.func.args();
    for (const Definition &u : n.func.updates()) {
        Scope<Interval> scope;
        for (size_t d = 0; d < args.size() && d < required.min.size(); d++) {
            scope.push(args[d], Interval(Expr((int32_t)required.min[d]),
                                         Expr((int32_t)(required.min[d] + required.extent[d] - 1))));
        }
        double iterations = 1;
        for (const ReductionVariable &rv : u.schedule().rvars()) {
            scope.push(rv.var, Interval(rv.min, simplify(rv.min + rv.extent - 1)));
            std::optional<int64_t> e = bound_at(rv.extent, shape);
            if (!e) {
                box.bounded = false;
                break;
            }
            iterations *= (double)std::max<int64_t>(*e, 0);
        }
        if (!box.bounded) break;
        ConstBox written;
        for (size_t d = 0; d < u.args().size(); d++) {
            Interval i = bounds_of_expr_in_scope(u.args()[d], scope);
            const Variable *v = u.args()[d].as<Variable>();
            if (v && v->name == args[d] && d < required.extent.size()) iterations *= (double)required.extent[d];
            std::optional<int64_t> lo = i.has_lower_bound() ? bound_at(i.min, shape, false) : std::nullopt;
            std::optional<int64_t> hi = i.has_upper_bound() ? bound_at(i.max, shape, true) : std::nullopt;
            if (!lo || !hi) {
                written.bounded = false;
                continue;
            }
            written.min.push_back(*lo);
            written.extent.push_back(*hi - *lo + 1);
        }
        if (!written.bounded) {
            box.bounded = false;
            break;
        }
        merge_into(box, written);
        OpCounter c;
        for (const Expr &e : exprs_of(u)) e.accept(&c);
        update_work += std::max(1.0, c.ops) * iterations;
    }
    if (computed) *computed = box;
    if (!box.bounded) return 0;
    OpCounter c;
    for (const Expr &e : n.func.definition().values()) e.accept(&c);
    return std::max(1.0, c.ops) * (double)box.size() + update_work;
}

int bytes_per_point(const FuncNode &n) {
    int b = 0;
    for (const Type &t : n.func.output_types()) b += t.bytes();
    return std::max(b, 1);
}

}  // namespace diet
