// The rules for a group root with update definitions. Heuristic (named): rfactor when an update
// has no pure loop to parallelize (a histogram's scatter over the image) and its reduction is
// associative and long; otherwise keep the updates' own loops with pure loops outside, and, when
// the reduction runs along the innermost dimension of what it reads (a row's maximum or sum:
// softmax, layer norm) while dim 0 of the root is an outer dimension there, vectorize the
// reduction into per-lane partial results instead of dim 0 (which would gather one element per
// lane and, at short rows, scalarize its guarded vector tail).
#include "analysis/Loads.h"
#include "space/rules/RuleContext.h"

#include <algorithm>
#include <map>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

constexpr int64_t kMinRFactorTrips = 1 << 14;  // shorter reductions are not worth splitting
constexpr int kChunksPerCore = 4;               // tasks per core for the rfactored intermediate
// Heuristic (named): the partial results' cost per point (initialized, then merged) against one
// scattered update per step: chunks are worth it where chunks x points x this <= the steps.
constexpr int64_t kPartialPointCost = 2;

// Whether the update reads the Func at the point it writes (f(idx) = f(idx) op ...): a plain
// assignment, `inv(perm(r)) = r`, is no reduction, though Halide 14's
// prove_associativity passes it and rfactor then only warns: the chunks' partial results lost
// every write but the last chunk's, and points never written took the rfactor's identity
// (red-team round 6, apps/results/cpu/redteam6_2026-11-30/: an unpooling scatter, an inverse
// permutation, a last-writer-wins scatter).
bool reads_own_point(const Function &f, const Definition &u) {
    struct Finder : IRVisitor {
        const std::string *name = nullptr;
        const std::vector<Expr> *args = nullptr;
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *c) override {
            if (c->call_type == Call::Halide && c->name == *name && c->args.size() == args->size()) {
                bool same = true;
                for (size_t i = 0; i < c->args.size() && same; i++) same = equal(c->args[i], (*args)[i]);
                found |= same;
            }
            IRVisitor::visit(c);
        }
    } finder;
    finder.name = &f.name();
    finder.args = &u.args();
    for (const Expr &v : u.values()) v.accept(&finder);
    return finder.found;
}

bool associative(const Function &f, const Definition &u) {
    if (!reads_own_point(f, u)) return false;
    AssociativeOp op = prove_associativity(f.name(), u.args(), u.values());
    return op.associative();
}

constexpr int kInlineDepth = 8;  // how deep nested inlined Funcs are looked through

// `e` with the inlined Funcs it calls substituted (each call's arguments bound all at once),
// nested ones too up to kInlineDepth: what the update really loads. (Halide's inline_function
// needs the Funcs' schedules locked, which they are not while an autoscheduler runs.)
Expr with_inlined_funcs(const RuleContext &cx, const Expr &e) {
    struct Inliner : IRMutator {
        const RuleContext *cx;
        int depth = 0;
        using IRMutator::visit;
        Expr visit(const Call *c) override {
            if (c->call_type != Call::Halide || !cx->inlined.count(c->name) || depth >= kInlineDepth) {
                return IRMutator::visit(c);
            }
            const Function f(c->func);
            if (!f.has_pure_definition() || f.has_update_definition() || c->value_index >= (int)f.values().size()) {
                return IRMutator::visit(c);
            }
            std::map<std::string, Expr> bound;
            for (size_t k = 0; k < f.args().size() && k < c->args.size(); k++) bound[f.args()[k]] = mutate(c->args[k]);
            depth++;
            Expr body = mutate(substitute(bound, f.values()[c->value_index]));
            depth--;
            return body;
        }
    } m;
    m.cx = &cx;
    return m.mutate(e);
}

// The loads of `def`'s values other than of `n` itself, with the inlined Funcs they call
// substituted and lets substituted: a Tuple's values share their common terms through lets
// (Halide's CSE), and a load at `t0 = n + r` would read as invariant over the reduction (a complex
// FIR, `xr(n + r)`, took the taps into vector lanes: 2.8-4.9x slower than vectors along n). The
// loads point into the nodes of `values`, which the caller keeps alive.
std::vector<const Call *> loads_through_inlined(const RuleContext &cx, const FuncNode &n, const Definition &def,
                                                std::vector<Expr> &values) {
    std::vector<const Call *> loads;
    for (const Expr &v : def.values()) {
        values.push_back(with_inlined_funcs(cx, substitute_in_all_lets(v)));
        for (const Call *c : loads_in(values.back())) {
            if (c->name != n.name) loads.push_back(c);
        }
    }
    return loads;
}

}  // namespace

// Whether a Func is one reduction (its first update) possibly followed by pointwise updates (a
// mean written `m(t) += x(r, t); m(t) = m(t) / H`): the reduction's loops decide its schedule.
bool one_reduction_then_pointwise(const FuncNode &n) {
    if (n.stages.size() < 2 || n.stages[1].rvars().empty()) return false;
    for (size_t i = 2; i < n.stages.size(); i++) {
        if (!n.stages[i].rvars().empty()) return false;
    }
    return true;
}

// Heuristic: a reduction along rows that x strides along takes the rows into lanes from this many
// vectors of steps per output point at the family's largest shape (a GroupNorm's 16 x 256, an
// STFT frame's 256 samples; not a 15-tap decimating FIR's 15: apps/results/cpu/strided_rows_2026-12-01/).
constexpr int64_t kStridedRowMinSteps = 12;

// Whether consecutive values of `x` read consecutive elements through the coordinate `a` (a
// window along the row, `x + r`): vectors along x load densely there. A coordinate that moves
// with x by another stride, constant or known only at run time (a group's channels,
// `g * CPG + r`, or a frame's samples, `f * HOP + r`), gathers along x: its reduction variable
// runs along the row instead (red-team round 9: a GroupNorm 2.7x and an STFT's frame energies 4.3x
// slower than alternatives with x in the lanes; apps/results/cpu/strided_rows_2026-12-01/),
// where the reduction is long (kStridedRowMinSteps).
// (Clamps are looked through: a boundary condition inlined into the read, clamp(x + r, 0, W - 1),
// is dense along x inside the image.)
bool dense_along(const Expr &a, const std::string &x) {
    if (!expr_uses_var(a, x)) return false;
    struct Unclamped : IRMutator {
        std::string x;
        using IRMutator::visit;
        Expr visit(const Min *op) override {
            const Expr side = one_side(op->a, op->b);
            return side.defined() ? side : IRMutator::visit(op);
        }
        Expr visit(const Max *op) override {
            const Expr side = one_side(op->a, op->b);
            return side.defined() ? side : IRMutator::visit(op);
        }
        Expr visit(const Call *op) override {
            // (repeat_edge's clamp wraps its coordinate in likely().)
            if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::likely_if_innermost) ||
                op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped)) {
                return mutate(op->args[0]);
            }
            return IRMutator::visit(op);
        }
        // The operand that moves with x where only one does (undefined otherwise).
        Expr one_side(const Expr &a, const Expr &b) {
            const bool in_a = expr_uses_var(a, x), in_b = expr_uses_var(b, x);
            if (in_a && !in_b) return mutate(a);
            if (in_b && !in_a) return mutate(b);
            return Expr();
        }
    } unclamped;
    unclamped.x = x;
    const Expr core = unclamped.mutate(a);
    const Expr step = simplify(substitute(x, Variable::make(Int(32), x) + 1, core) - core);
    return is_const_one(step);
}

// Every load that moves with the innermost reduction variable moves along its buffer's innermost
// dimension, and none of them moves there densely with the Func's dim 0.
std::string row_reduction_rvar(const RuleContext &cx, const FuncNode &n) {
    if (!one_reduction_then_pointwise(n) || n.func.args().empty()) return "";
    const StageNode &u = n.stages[1];
    const std::string x = n.func.args()[0];
    const std::vector<std::string> pure = u.pure_vars();
    if (u.rvars().empty() || std::find(pure.begin(), pure.end(), x) == pure.end()) return "";
    const Definition &def = n.func.updates()[0];
    const std::string r = def.schedule().rvars().front().var;
    // A reduction shorter than a vector everywhere in the family (a 3-tap filter; the maximum over
    // 8 interleaved audio channels) keeps dim 0 in the lanes: its one vector of partial results
    // per row would be predicated, which Halide 14 loads lane by lane (C = 8 on AVX-512: 2.0 ms,
    // 4.4x the serial reference, against 0.26 ms at C = 7 with dim 0 in the lanes; round 17).
    std::optional<int64_t> longest = constant_value(ShapeFamily::bind(def.schedule().rvars().front().extent, cx.in.largest));
    if (longest && *longest < cx.lanes_of(n)) return "";
    std::vector<Expr> values;  // kept alive: the loads point into them
    const std::vector<const Call *> loads = loads_through_inlined(cx, n, def, values);
    int along_rows = 0;
    bool strided_x = false, gathers_x = false;
    for (const Call *c : loads) {
        bool moves = false;
        for (const Expr &a : c->args) moves |= expr_uses_var(a, r);
        if (!moves) continue;  // invariant over the reduction: hoisted out of it
        if (c->args.empty() || !expr_uses_var(c->args[0], r) || dense_along(c->args[0], x)) return "";
        strided_x |= expr_uses_var(c->args[0], x);
        for (const Expr &a : c->args) gathers_x |= expr_uses_var(a, x);
        along_rows++;
    }
    // Loads that do not move with dim 0 at all are broadcasts along its vectors, not gathers (an
    // exact distance transform's min over x' of (x - x')^2 + g(x', y)^2: with per-lane partials
    // over its 512-long row, 3.3x Adams2019's time at the small shape, round 17).
    if (along_rows == 0 || !gathers_x || !associative(n.func, def)) return "";
    // Rows that x also strides along (g * CPG + r): only long reductions, whose steps amortize
    // each row's final reduction of the lanes and its guarded last vector. A 15-tap decimating
    // FIR (x * S + r), a 4 x 4 area downscale and segment sums of up to 64 ran 1.8-6x slower so.
    if (strided_x) {
        int64_t steps = 1;
        for (const ReductionVariable &rv : def.schedule().rvars()) {
            const std::optional<int64_t> e = constant_value(ShapeFamily::bind(rv.extent, cx.in.largest));
            if (!e) return "";
            steps *= std::max<int64_t>(*e, 1);
        }
        const int lanes = cx.lanes_of(n);
        if (!longest || *longest < lanes || steps < kStridedRowMinSteps * lanes) return "";
    }
    return r;
}

// Whether an intermediate's updates load densely along its dimension 1 and not along its
// dimension 0: every load that moves with dimension 1's variable reads it only in the callee's
// innermost argument, densely (or is the Func itself), at least one does, and either none moves
// densely with dimension 0 (each gathers along it, or is a broadcast) or some load gathers along
// dimension 0 (one gather costs a vector's lanes; a broadcast along dimension 1 costs nothing: a
// resampler's vertical pass `sum(ky(y, r) * hp(x, by(y) + r, c))`, free variables (y, x, c), gathered
// hp's rows lane by lane along y, 2x Mullapudi2016's time in red-team round 22). An inline `sum()` takes its dimensions in
// the order its free variables appear, `sum(o, x, y)` for a filter bank's
// `sum(k(r.x, r.y, o) * im(x + r.x, y + r.y))` read as `resp(x, y, o)`: dim 0 o strides through
// the kernel, x runs along the image. Its vectors then run along dimension 1, stored innermost
// (red-team round 16's Gabor bank: vectors along the window's r.x, 55x Adams2019's time).
bool dense_along_dim1_only(const RuleContext &cx, const FuncNode &n) {
    if (n.is_output || n.dims() < 2 || n.stages.size() < 2) return false;
    const std::vector<std::string> args = n.func.args();
    const std::string x0 = args[0], x1 = args[1];
    bool dense1 = false, dense0 = false, gathers0 = false;
    for (const Definition &def : n.func.updates()) {
        std::vector<Expr> values;  // kept alive: the loads point into them
        for (const Call *c : loads_through_inlined(cx, n, def, values)) {
            for (size_t i = 0; i < c->args.size(); i++) {
                if (expr_uses_var(c->args[i], x1)) {
                    if (i > 0 || !dense_along(c->args[i], x1)) return false;
                    dense1 = true;
                }
                const bool dense_here = i == 0 && dense_along(c->args[i], x0);
                dense0 |= dense_here;
                gathers0 |= !dense_here && expr_uses_var(c->args[i], x0);
            }
        }
    }
    return dense1 && (!dense0 || gathers0);
}

GroupPlan plan_update_root(const RuleContext &cx, const FuncNode &n) {
    GroupPlan g;
    g.root = n.name;
    g.rule = RuleKind::UpdateLoops;
    g.vector_lanes = cx.lanes_of(n);
    g.why = "updates keep their order; pure loops outside, parallel and vectorized";
    if (n.stages.size() < 2) return g;
    const StageNode &u = n.stages[1];
    if (!u.pure_vars().empty()) {
        g.dim1_vectors = dense_along_dim1_only(cx, n);
        if (!g.dim1_vectors) g.lane_rvar = row_reduction_rvar(cx, n);
        return g;
    }
    if (n.stages.size() != 2) return g;
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
    // Partial results as large as the Func itself, per chunk: a k-mer histogram of 65536 bins
    // over 262137 positions initialized and merged 8 x 65536 partial bins, 2.95x Adams2019's
    // serial scatter (red-team round 19; 1.04x at 256 bins).
    const auto region = cx.whole.find(n.name);
    const int64_t points = region != cx.whole.end() && region->second.bounded ? std::max<int64_t>(region->second.size(), 1) : 1;
    if (chunks * points * kPartialPointCost > trips) return g;
    g.rule = RuleKind::RFactor;
    g.rfactor_rvar = outer.name;
    g.rfactor_chunk = (int)std::max<int64_t>(1, (extent + chunks - 1) / chunks);
    g.why = "an update with no pure loop over " + std::to_string(trips) + " points: partial results per chunk in parallel";
    return g;
}

}  // namespace diet
