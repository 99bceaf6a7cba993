// The rules for a group root with update definitions. Heuristic (named): rfactor when an update
// has no pure loop to parallelize (a histogram's scatter over the image) and its reduction is
// associative and long; otherwise keep the updates' own loops with pure loops outside, and, when
// the reduction runs along the innermost dimension of what it reads (a row's maximum or sum:
// softmax, layer norm) while dim 0 of the root is an outer dimension there, vectorize the
// reduction into per-lane partial results instead of dim 0 (which would gather one element per
// lane and, at short rows, scalarize its guarded vector tail).
#include "space/rules/RuleContext.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

constexpr int64_t kMinRFactorTrips = 1 << 14;  // shorter reductions are not worth splitting
constexpr int kChunksPerCore = 4;               // tasks per core for the rfactored intermediate

bool associative(const Function &f, const Definition &u) {
    AssociativeOp op = prove_associativity(f.name(), u.args(), u.values());
    return op.associative();
}

constexpr int kInlineDepth = 8;  // how deep inlined Funcs are looked through

// Every call to a Func or input buffer in `e` other than `self`, the inlined Funcs looked through
// (their definitions with the call's arguments substituted), so what is loaded is what is seen.
void loads_of(const RuleContext &cx, const Expr &e, const std::string &self, int depth, std::vector<const Call *> &out,
              std::vector<Expr> &keep) {
    struct Calls : IRVisitor {
        std::vector<const Call *> calls;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Halide || c->call_type == Call::Image) calls.push_back(c);
            IRVisitor::visit(c);
        }
    } v;
    e.accept(&v);
    for (const Call *c : v.calls) {
        if (c->name == self) continue;
        if (c->call_type == Call::Halide && cx.inlined.count(c->name) && depth < kInlineDepth) {
            const Function f(c->func);
            if (!f.has_pure_definition() || f.has_update_definition()) continue;
            for (Expr body : f.values()) {
                for (size_t k = 0; k < f.args().size() && k < c->args.size(); k++) {
                    body = substitute(f.args()[k], c->args[k], body);
                }
                keep.push_back(body);
                loads_of(cx, body, self, depth + 1, out, keep);
            }
            continue;
        }
        out.push_back(c);
    }
}

}  // namespace

// Every load that moves with the innermost reduction variable moves along its buffer's innermost
// dimension, and none of them moves there with the Func's dim 0.
std::string row_reduction_rvar(const RuleContext &cx, const FuncNode &n) {
    if (n.stages.size() != 2 || n.func.args().empty()) return "";
    const StageNode &u = n.stages[1];
    const std::string x = n.func.args()[0];
    const std::vector<std::string> pure = u.pure_vars();
    if (u.rvars().empty() || std::find(pure.begin(), pure.end(), x) == pure.end()) return "";
    const Definition &def = n.func.updates()[0];
    const std::string r = def.schedule().rvars().front().var;
    // A reduction much shorter than a vector everywhere in the family (a 3-tap filter) keeps dim 0
    // in the lanes.
    std::optional<int64_t> longest = constant_value(ShapeFamily::bind(def.schedule().rvars().front().extent, cx.in.largest));
    if (longest && *longest < cx.lanes_of(n) / 2) return "";
    std::vector<const Call *> loads;
    std::vector<Expr> keep;
    for (const Expr &v : def.values()) loads_of(cx, v, n.name, 0, loads, keep);
    int along_rows = 0;
    for (const Call *c : loads) {
        bool moves = false;
        for (const Expr &a : c->args) moves |= expr_uses_var(a, r);
        if (!moves) continue;  // invariant over the reduction: hoisted out of it
        if (c->args.empty() || !expr_uses_var(c->args[0], r) || expr_uses_var(c->args[0], x)) return "";
        along_rows++;
    }
    if (along_rows == 0 || !associative(n.func, def)) return "";
    return r;
}

GroupPlan plan_update_root(const RuleContext &cx, const FuncNode &n) {
    GroupPlan g;
    g.root = n.name;
    g.rule = RuleKind::UpdateLoops;
    g.vector_lanes = cx.lanes_of(n);
    g.why = "updates keep their order; pure loops outside, parallel and vectorized";
    if (n.stages.size() != 2) return g;
    const StageNode &u = n.stages[1];
    if (!u.pure_vars().empty()) {
        g.lane_rvar = row_reduction_rvar(cx, n);
        return g;
    }
    if (u.rvars().empty()) return g;
    const Definition &def = n.func.updates()[0];
    int64_t trips = 1;
    for (const ReductionVariable &rv : def.schedule().rvars()) {
        std::optional<int64_t> e = constant_value(ShapeFamily::bind(rv.extent, cx.in.shape));
        trips *= e.value_or(1024);
    }
    if (trips < kMinRFactorTrips || !associative(n.func, def)) return g;
    // The outermost reduction variable is split into chunks, one parallel task each.
    const LoopVar &outer = u.loops.back();
    int64_t extent = constant_value(ShapeFamily::bind(outer.extent, cx.in.shape)).value_or(1024);
    const int64_t chunks = (int64_t)kChunksPerCore * std::max(1, cx.in.cpu.cores);
    g.rule = RuleKind::RFactor;
    g.rfactor_rvar = outer.name;
    g.rfactor_chunk = (int)std::max<int64_t>(1, (extent + chunks - 1) / chunks);
    g.why = "an update with no pure loop over " + std::to_string(trips) + " points: partial results per chunk in parallel";
    return g;
}

}  // namespace diet
