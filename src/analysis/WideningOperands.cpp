#include "analysis/WideningOperands.h"
#include "analysis/ParamRanges.h"
#include "analysis/SymbolicRegion.h"

#include <algorithm>
#include <map>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// How many times wider a computed operand's values are than the widest value it loads (4: an
// unpacking of 8-bit or 4-bit data to int32 or float32; 1 for a boundary condition).
int widening_of(const Function &f) {
    struct Widest : IRVisitor {
        int bits = 0;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Image || c->call_type == Call::Halide) bits = std::max(bits, c->type.bits());
            IRVisitor::visit(c);
        }
    } loads;
    int own = 0;
    for (const Expr &v : f.values()) {
        v.accept(&loads);
        own = std::max(own, v.type().bits());
    }
    return loads.bits > 0 ? std::max(1, own / loads.bits) : 1;
}

// The outputs' buffer extents and mins (the names run_time_extents uses, SymbolicRegion.h) ->
// their estimates.
std::map<std::string, Expr> output_estimates(const FunctionDAG &dag) {
    std::map<std::string, Expr> estimates;
    for (const FuncNode &n : dag.nodes()) {
        if (!n.is_output) continue;
        const std::string buf = n.func.output_buffers()[0].name();
        const std::vector<std::string> args = n.func.args();
        for (const Bound &b : n.func.schedule().estimates()) {
            const auto at = std::find(args.begin(), args.end(), b.var);
            if (at == args.end() || !b.extent.defined() || !b.min.defined()) continue;
            const std::string d = std::to_string(at - args.begin());
            estimates[buf + ".extent." + d] = b.extent;
            estimates[buf + ".min." + d] = b.min;
        }
    }
    return estimates;
}

}  // namespace

bool little_reuse_for_widening(const FunctionDAG &dag, const MatmulPattern &p, const ContractionOperand &o) {
    const int widening = widening_of(dag.node(o.func).func);
    if (widening < 2) return false;
    const std::vector<Expr> acc_extents = run_time_extents(dag, p.acc);
    const std::map<std::string, Expr> estimates = output_estimates(dag);
    int64_t reuse = 1;
    for (size_t a = 0; a < o.uses_acc_arg.size(); a++) {
        if (o.uses_acc_arg[a]) continue;
        if (a >= acc_extents.size()) return false;
        // At its largest over the Params' ranges; nullopt where unbounded.
        const std::optional<int64_t> extent = largest_over_param_ranges(simplify(substitute(estimates, acc_extents[a])));
        if (!extent) return false;
        reuse *= std::max<int64_t>(1, *extent);
    }
    return reuse <= kReusePerWidening * widening;
}

}  // namespace diet
