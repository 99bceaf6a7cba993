// The rules for a group root with update definitions. Heuristic (named): rfactor when an update
// has no pure loop to parallelize (a histogram's scatter over the image) and its reduction is
// associative and long; otherwise keep the updates' own loops with pure loops outside.
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

}  // namespace

GroupPlan plan_update_root(const RuleContext &cx, const FuncNode &n) {
    GroupPlan g;
    g.root = n.name;
    g.rule = RuleKind::UpdateLoops;
    g.vector_lanes = cx.lanes_of(n);
    g.why = "updates keep their order; pure loops outside, parallel and vectorized";
    if (n.stages.size() != 2) return g;
    const StageNode &u = n.stages[1];
    if (!u.pure_vars().empty() || u.rvars().empty()) return g;
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
