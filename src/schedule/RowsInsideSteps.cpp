// A tile of rows inside each step of an update's reduction (update_loops_at): where the steps
// cross planes, or where the rows share the steps' loads; and the banded tasks over such rows
// (schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"
#include "analysis/ClampedReads.h"
#include "analysis/StridedReads.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using FuncRef = GroupApplier::FuncRef;
using StageRef = GroupApplier::StageRef;

// Rows inside the steps (update_loops_at): where there are bands of them enough to feed the
// cores, the bands (fused with any outer loops) are the parallel loop and each task walks its
// band's vectors `x_vo`. Halide then partitions the band's loops: the steady state's bands have a
// constant trip count (the rows' loop unrolled by LLVM) and no vector guard. Fused with the
// vectors, every iteration computed its count of rows and tested its vector's guard: a bit-plane
// pack at 800 x 600 ran 0.47 ms so, 0.26 banded (apps/results/cpu/step_lanes_2026-12-01/). A
// specialization of `st` (its loops so far), scheduled here in full; where the bands are a
// constant count, enough, `st` itself (returns true: nothing left to the caller).
bool GroupApplier::banded_tasks(StageRef &st, const StageNode &s, const FuncNode &n, const std::vector<std::string> &outer,
                                const std::string &x_vo, const std::string &y) {
    if (outer.size() < 2 || outer[0] != x_vo) return false;
    const std::optional<SizeExpr> bands = ceil_div_opt(extent_of(n, dim_of(n, y)), kRowsInsidePlaneSteps);
    if (!bands) return false;
    const std::optional<int64_t> known = constant_value(bands->expr);
    if (known && *known < kBandsEnough) return false;
    const std::vector<std::string> band_loops(outer.begin() + 1, outer.end());
    const std::string base = n.name + "_b" + std::to_string(s.index);
    if (known) {
        parallel_fused(st, band_loops, base, stage_points(n, s.index, 1));
        return true;
    }
    StageRef banded = w_.specialize(st, w_.at_least(*bands, kBandsEnough));
    parallel_fused(banded, band_loops, base, stage_points(n, s.index, 1));
    return false;
}

// Whether a reduction stepping across planes along rows `y` (steps_across_planes_here) runs a tile
// of rows inside each step (PlaneRows::inside): where the rows fill it and the steps walk more
// points than stay cached (a heuristic: below, the lines stay in cache and the register accumulators win: a
// 256 x 3 x 64 projection ran 2x slower with its accumulators in memory, 33 x 33 x 9 7% slower).
// Where either is known only at run time, a specialization of `st` takes the tile (scheduled
// here) and `st` itself does not. A member's rows are its root's tile's (member_tile_rows_; none
// known: not a candidate). The sizes are spelled only once the reduction qualifies: spelling a
// run-time size declares its parameters in the emitted source. A reduction whose rows share its
// steps' loads (rows_share_step_loads_here) takes the tile wherever the rows fill it
// (PlaneRows::shared).
GroupApplier::PlaneRows GroupApplier::decide_plane_rows(StageRef &st, const StageNode &s, const FuncNode &n, const std::string &y,
                                                        int lanes, int width, bool parallel, TailStrategy tail) {
    const bool planes = steps_across_planes_here(s, n, y), shared = !planes && rows_share_step_loads_here(s, n, y);
    if (!(parallel || member_tile_rows_) || !(planes || shared)) return PlaneRows::outside;
    const PlaneRows mode = planes ? PlaneRows::inside : PlaneRows::shared;
    const std::optional<SizeExpr> rows =
        member_tile_rows_ ? std::optional<SizeExpr>(size_constant(*member_tile_rows_)) : extent_of(n, dim_of(n, y));
    const std::optional<SizeExpr> points = stage_points(n, s.index, 1);
    if (!rows || !points) return PlaneRows::outside;
    const std::optional<int64_t> const_rows = constant_value(rows->expr), const_points = constant_value(points->expr);
    // (Rows sharing loads gain from registers, not from pages: at any number of points.)
    if ((const_rows && *const_rows < kRowsInsidePlaneSteps) || (planes && const_points && *const_points < kPlaneStepsMinPoints)) {
        return PlaneRows::outside;
    }
    std::vector<Condition> conditions;
    if (!const_rows) conditions.push_back(w_.at_least(*rows, kRowsInsidePlaneSteps));
    if (planes && !const_points) conditions.push_back(w_.at_least(*points, kPlaneStepsMinPoints));
    if (conditions.empty()) return mode;
    const Condition fills = conditions.size() == 1 ? conditions[0] : w_.all_of(conditions);
    if (!w_.specialized_on(st, fills)) {
        StageRef many = w_.specialize(st, fills);
        update_loops_at(many, s, n, lanes, width, parallel, tail, mode);
    }
    return PlaneRows::outside;
}

// An update of one point per step (its left-hand side the pure variables) and at most
// kValuesSharingVectors values over no short constant window (a window keeps its accumulators
// in registers, unroll_short_window).
// With `scans`, also an update that writes each step at its pure variables and at coordinates
// of its reduction variables alone (a scan down an outer dimension: `ih(b, x, ry) += ih(b, x, ry - 1)`):
// its chains, one per pure point, are as independent of each other as a reduction's accumulators.
bool GroupApplier::one_point_per_long_step(const StageNode &s, const FuncNode &n, bool scans) const {
    if (s.index == 0 || n.func.outputs() > kValuesSharingVectors) return false;
    const Internal::Definition &def = n.func.updates()[s.index - 1];
    const std::vector<std::string> pure = s.pure_vars();
    Internal::Scope<> pure_scope;
    for (const std::string &p : pure) pure_scope.push(p);
    for (const Expr &arg : def.args()) {
        const Internal::Variable *v = arg.as<Internal::Variable>();
        if (v && std::find(pure.begin(), pure.end(), v->name) != pure.end()) continue;
        if (!scans || Internal::expr_uses_vars(arg, pure_scope)) return false;
    }
    for (const LoopVar &l : s.loops) {
        const int64_t *extent = l.is_rvar && l.extent.defined() ? Internal::as_const_int(l.extent) : nullptr;
        if (extent && *extent <= kUnrolledWindow) return false;
    }
    return true;
}

// Such an update, or such a scan, whose reduction steps across planes along rows `y`
// (analysis/StridedReads.h). A scan down the planes of a Func whose dim 0 is short (an integral
// histogram's 8 bins, `ih(b, x, y)`, summed down y) otherwise walks each row's column alone, a
// page per step: red-team round 15's ran 1.7-6.6x Adams2019's time at 640 x 480
// (apps/results/cpu/scan_planes_2026-12-06/).
bool GroupApplier::steps_across_planes_here(const StageNode &s, const FuncNode &n, const std::string &y) {
    return one_point_per_long_step(s, n, true) &&
           steps_across_planes(n.func.updates()[s.index - 1], s.rvars(), s.pure_vars(), n.func.args()[0], y);
}

// The same kind of update whose rows share each step's loads (analysis/StridedReads.h
// rows_share_step_loads): round 12's contraction written as three K-chunk updates on its output
// (no micro-kernel) ran 1.29 ms in one row per step, a hand schedule with rows inside the steps
// 0.57 (apps/results/cpu/kchunk_updates_probe_2026-12-02/).
bool GroupApplier::rows_share_step_loads_here(const StageNode &s, const FuncNode &n, const std::string &y) {
    return one_point_per_long_step(s, n) && rows_share_step_loads(n.func.updates()[s.index - 1], s.rvars(), n.func.args()[0], y);
}

// Whether an update's rows may run inside its reduction steps (update_loops_at, either kind
// above): its steps of several vectors then leave short rows of whole vectors to one vector per
// step (update_loops, short_rows_whole_vectors), whatever the lanes' width.
bool GroupApplier::rows_may_run_inside_steps(const StageNode &s, const FuncNode &n) {
    if (n.func.args().empty()) return false;
    const std::string x = n.func.args()[0];
    const std::vector<std::string> pure = s.pure_vars();
    const auto y = std::find_if(pure.begin(), pure.end(), [&](const std::string &p) { return p != x; });
    return y != pure.end() && (steps_across_planes_here(s, n, *y) || rows_share_step_loads_here(s, n, *y));
}

// Whether an update whose rows may run inside its reduction steps computes its last vectors past
// its rows (RoundUp) rather than guarding them, where they do (update_loops_at; with its rows
// outside, the accumulators of a step are registers and its masked lanes cheap: round 6's
// two-value DFT at 5 frames ran 1.11x slower rounded up). With the rows inside each step, the rows'
// accumulators stay in memory (each step loads and stores every row's vectors), and a guarded
// last step predicates those loads and stores: a masked store that the next step loads again
// does not forward to the load, and the step stalls. Red-team round 22's STFT (a 2-value DFT over
// 33 bins, 8 rows per step) ran 0.294 ms with 32-point steps guarded, 0.146 rounded up to 64
// points; 16-point steps 0.241 / 0.120; 32 bins took 0.083 (AMD AVX-512 guest,
// apps/results/cpu/rows_inside_round_up_2026-12-07/). Only where rounding up is safe and cheap:
// no output, 32-bit values or wider (narrower ones: update_tail), the rounded points read the
// inputs only clamped (analysis/ClampedReads.h), and no Func of the group (computed per tile) is
// read at coordinates that move with dimension 0, so only Funcs computed once per call grow.
bool GroupApplier::rows_inside_round_up(const GroupPlan &g, const StageNode &s, const FuncNode &n) {
    if (s.index == 0 || n.is_output || n.func.args().empty() || value_bits(n) < 32) return false;
    const std::string &x = n.func.args()[0];
    const std::vector<std::string> pure = s.pure_vars();
    if (std::find(pure.begin(), pure.end(), x) == pure.end() || !writes_at_pure_point(s, n)) return false;
    if (!rows_may_run_inside_steps(s, n) || !reads_inputs_clamped_along(dag_, n.name, x, true)) return false;
    std::set<std::string> per_tile(g.members.begin(), g.members.end());
    per_tile.insert(g.root);
    struct GrowingCalls : Internal::IRGraphVisitor {
        std::string self, x;
        const std::set<std::string> *per_tile = nullptr;
        const FunctionDAG *dag = nullptr;
        bool grows_tile_func = false;
        using IRGraphVisitor::visit;
        void visit(const Internal::Call *c) override {
            IRGraphVisitor::visit(c);
            if (c->call_type != Internal::Call::Halide || c->name == self || !per_tile->count(c->name)) return;
            if (dag->has(c->name) && dag->node(c->name).is_input_wrapper) return;
            for (const Expr &a : c->args) grows_tile_func |= Internal::expr_uses_var(a, x);
        }
    } calls;
    calls.self = n.name;
    calls.x = x;
    calls.per_tile = &per_tile;
    calls.dag = &dag_;
    n.func.updates()[s.index - 1].accept(&calls);
    return !calls.grows_tile_func;
}

}  // namespace diet
