#include "analysis/SymbolicRegion.h"
#include "analysis/ParamRanges.h"

#include <iostream>
#include <mutex>
#include <set>
#include <sstream>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

void merge_into(Box &into, const Box &b) {
    if (into.bounds.empty()) {
        into = b;
        return;
    }
    for (size_t d = 0; d < std::min(into.bounds.size(), b.bounds.size()); d++) {
        into.bounds[d] = Interval::make_union(into.bounds[d], b.bounds[d]);
    }
}

std::vector<Expr> exprs_of(const Definition &d) {
    std::vector<Expr> es = d.values();
    es.insert(es.end(), d.args().begin(), d.args().end());
    return es;
}

// An output buffer's `y.min.d` / `y.extent.d` replaced by the estimate the user wrote.
class OutputBoundsAsEstimates : public IRMutator {
public:
    explicit OutputBoundsAsEstimates(const ShapeFamily &f) : family_(f) {}

private:
    const ShapeFamily &family_;
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (!op->param.defined() || !op->param.is_buffer()) return op;
        for (const OutputEstimate &o : family_.outputs) {
            // A Tuple's buffers are "<func>.<i>".
            const std::string &buf = op->param.name();
            if (buf != o.func && buf.rfind(o.func + ".", 0) != 0) continue;
            for (size_t d = 0; d < o.extent.size(); d++) {
                if (op->name == buf + ".extent." + std::to_string(d)) return cast(op->type, o.extent[d]);
                if (op->name == buf + ".min." + std::to_string(d)) return cast(op->type, o.min[d]);
            }
        }
        return op;
    }
};

// A Param declared at least 1 (set_range(1, ...)) read as max(p, 1): the same value in every run
// (Halide checks the range on entry), but one whose sign the bounds analysis can prove, so that
// x / R and x % R have symbolic bounds (x / R, R - 1) instead of none. A PixelShuffle's
// convolution read at (x / R, y / R, c R^2 + (y % R) R + x % R) had no region and lost its
// micro-kernel: 27x slower than with R a constant (red-team round 19).
class PositiveParams : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        const Parameter &p = op->param;
        if (!p.defined() || p.is_buffer() || !op->type.is_int() || !p.min_value().defined()) return op;
        const int64_t *lo = as_const_int(p.min_value());
        return lo && *lo >= 1 ? max(Expr(op), make_const(op->type, *lo)) : Expr(op);
    }
};

}  // namespace

std::optional<int64_t> size_at(const Expr &e, const ShapeFamily &family, const Shape &shape) {
    const Expr bound = ShapeFamily::bind_pipeline_expr(OutputBoundsAsEstimates(family).mutate(e), shape);
    if (const std::optional<int64_t> c = constant_value(bound)) return c;
    // A size that depends on a ranged Param no estimate uses (out(n, m) = c(n, m + GAP), GAP in
    // [0, 8]): its smallest over the Params' ranges, the size every run has at least (what the
    // guard-free splits sized on it need), with one warning. Red-team round 9: an internal error
    // in the contraction's sizing (apps/results/cpu/window_param_2026-12-01/).
    const std::optional<int64_t> smallest = smallest_over_param_ranges(bound);
    if (!smallest) return std::nullopt;
    static std::mutex warned_mutex;
    static std::set<std::string> warned;
    std::ostringstream text;
    text << e;
    std::lock_guard<std::mutex> lock(warned_mutex);
    if (warned.insert(text.str()).second) {
        std::cerr << "[diet] warning: the size " << e << " depends on a parameter that no estimate uses; it is sized at its "
                  << "smallest over the parameters' ranges (add the parameter to an estimate to tune for its values).\n";
    }
    return smallest;
}

bool is_run_time_size(const Expr &e) {
    // The node types schedule/SizeExpr.cpp's size_text spells.
    if (!e.defined() || e.type() != Int(32)) return false;
    if (e.as<IntImm>()) return true;
    if (const Variable *v = e.as<Variable>()) return v->param.defined();
    auto both = [](const auto *op) { return op && is_run_time_size(op->a) && is_run_time_size(op->b); };
    return both(e.as<Add>()) || both(e.as<Sub>()) || both(e.as<Mul>()) || both(e.as<Div>()) || both(e.as<Min>()) ||
           both(e.as<Max>());
}

namespace {

std::vector<Expr> run_time_extents(const FunctionDAG &dag, const std::string &func, bool positive_params) {
    std::map<std::string, Box> region;
    for (const FuncNode &n : dag.nodes()) {
        if (!n.is_output) continue;
        Box b;
        const Parameter buf = n.func.output_buffers()[0];
        for (int d = 0; d < n.dims(); d++) {
            const std::string prefix = buf.name() + ".";
            Expr lo = Variable::make(Int(32), prefix + "min." + std::to_string(d), buf);
            Expr extent = Variable::make(Int(32), prefix + "extent." + std::to_string(d), buf);
            b.push_back(Interval(lo, lo + extent - 1));
        }
        region[n.name] = b;
    }
    const std::vector<FuncNode> &nodes = dag.nodes();
    // Consumers first: when `func` is reached, every Func that reads it has added its demand.
    for (auto it = nodes.rbegin(); it != nodes.rend() && it->name != func; ++it) {
        const FuncNode &n = *it;
        auto r = region.find(n.name);
        if (r == region.end()) continue;
        if (n.is_extern) {  // reads its Func arguments whole, at bounds only it knows
            for (const std::string &p : n.producers) {
                Box everything;
                for (int d = 0; d < dag.node(p).dims(); d++) everything.push_back(Interval::everything());
                region[p] = everything;
            }
            continue;
        }
        const Box box = r->second;
        std::vector<Definition> defs = {n.func.definition()};
        for (const Definition &u : n.func.updates()) defs.push_back(u);
        for (const Definition &def : defs) {
            Scope<Interval> scope;
            const std::vector<std::string> &args = n.func.args();
            for (size_t d = 0; d < args.size() && d < box.size(); d++) scope.push(args[d], box[d]);
            for (const ReductionVariable &rv : def.schedule().rvars()) {
                scope.push(rv.var, Interval(rv.min, simplify(rv.min + rv.extent - 1)));
            }
            for (const Expr &e : exprs_of(def)) {
                for (const auto &[callee, b] : boxes_required(positive_params ? PositiveParams().mutate(e) : e, scope)) {
                    if (callee == n.name || !dag.has(callee)) continue;
                    merge_into(region[callee], b);
                }
            }
        }
    }
    auto r = region.find(func);
    if (r == region.end()) return {};
    std::vector<Expr> extents;
    for (const Interval &i : r->second.bounds) {
        if (!i.is_bounded()) return {};
        Expr e = simplify(i.max - i.min + 1);
        if (!is_run_time_size(e)) return {};
        extents.push_back(e);
    }
    return extents;
}

}  // namespace

std::vector<Expr> run_time_extents(const FunctionDAG &dag, const std::string &func) {
    // Params as written first (the sizes spelled as the user wrote them); those declared
    // positive only where that leaves some extent unknown (PositiveParams).
    std::vector<Expr> extents = run_time_extents(dag, func, false);
    return extents.empty() ? run_time_extents(dag, func, true) : extents;
}

}  // namespace diet
