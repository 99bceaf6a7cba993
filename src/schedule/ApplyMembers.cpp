// A stage group's members: where each is computed, its tail strategy and loops
// (schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"
#include "analysis/ClampedReads.h"
#include "analysis/DiagonalReads.h"
#include "analysis/DefinitionNodes.h"
#include "analysis/ParamRanges.h"
#include "analysis/StridedReads.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using FuncRef = GroupApplier::FuncRef;
using StageRef = GroupApplier::StageRef;

// The widest run of vectors a member's update step may take (update_loops' max_width): the
// tile's width, or with whole-row tiles the member's row at the family's smallest shape.
int GroupApplier::member_width_cap(const GroupPlan &g, const std::string &member) {
    auto it = g.member_narrowest_x.find(member);
    const int narrowest = it == g.member_narrowest_x.end() ? 0 : (int)std::min<int64_t>(it->second, 1 << 20);
    // A clamped tile (GroupPlan::tile_x_clamped) is as narrow as the row at the smallest shape.
    if (g.tile_x > 0 && g.tile_x_clamped && narrowest > 0) return std::min(g.tile_x, narrowest);
    if (g.tile_x > 0) return g.tile_x;
    return narrowest;
}

// Whether a member's update reduces over a long chain of steps per point (at least
// kLongMemberChainSteps at their most over the Params' declared ranges) whose window is not
// unrolled per value. Each step adds into the same accumulator vectors, a dependency through
// them: one vector per step waits on the last step's add, several make independent chains. A
// Tuple annulus mean over 225 steps computed per whole-row tile ran 4.7 ms at 512 x 512 in 16-lane
// steps, 1.66 ms in 64-lane steps (as at root: 1.69). Short windows gain little and their
// wider steps cost code: an area downscale's 2 x 2 and a ceil-mode pool's, 16 steps at most,
// ran 1.5-1.8x slower with wider member steps (apps/results/cpu/param_cost_values_2026-12-03/
// ab_v6_wider_steps_rejected/). Windows unrolled per value (and heavy groups' members) keep one
// vector: wider, their unrolled code took LLVM 4-5x longer. A/B of every pipeline this changes:
// apps/results/cpu/member_chains_2026-12-03/.
bool GroupApplier::long_member_chain(const StageNode &s, const FuncNode &m) {
    // (Tuples of more than kValuesSharingVectors values take one vector per step anyway:
    // update_loops.)
    if (heavy_group_ || s.index == 0 || !window_unroll_values(s, m).empty() || m.func.outputs() > kValuesSharingVectors) return false;
    // Every step updates the point itself (its left-hand side the pure variables): a scan's
    // steps each update another point, no chain per point.
    if (!writes_at_pure_point(s, m)) return false;
    // Gathered steps (a bilateral filter's weights looked up per pixel) are bound by the
    // gathers' throughput, not the chain: wider, the LUT bilateral of red-team round 9 ran
    // 1.24-1.78x slower (its last step guarded, every lane a predicated gather).
    const Internal::Definition &update = m.func.updates()[s.index - 1];
    const std::string x = m.func.args().empty() ? "" : m.func.args()[0];
    if (gathers_along(update, x) || definition_nodes(update, [this](const std::string &f) { return inlined_.count(f) > 0; }).gathers) return false;
    // The steps' product from the RVars' extents as written (reduction_steps would declare the
    // Params it spells in the emitted source, unused here).
    Expr steps = 1;
    for (const Internal::ReductionVariable &rv : update.schedule().rvars()) steps = steps * rv.extent;
    const std::optional<int64_t> most = largest_over_param_ranges(steps);
    return most && *most >= kLongMemberChainSteps;
}

TailStrategy GroupApplier::tail_of(const GroupPlan &g, const std::string &f) {
    bool shift = std::find(g.shift_inwards.begin(), g.shift_inwards.end(), f) != g.shift_inwards.end();
    // A transposing root reads a member's dimension 0 along its own dimension 1: per tile, the
    // member's region there is the tile's rows, which may be fewer than a vector whatever the
    // member's whole extent (test_fuzz seed 20267181 on AVX-512: one row per tile, the shifted
    // vector started 7 before it and read the input at -7). (The search changes tile_y too.)
    if (shift && f != g.root && g.transpose_blocks && g.tile_y > 0 && g.tile_y < lanes_of(dag_.node(f))) shift = false;
    return shift ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf;
}

// An update of a member whose vectors along dimension 0 read a clamped coordinate
// (analysis/StridedReads.h clamped_along) computes its last vector past the tile where that
// grows no input read nor computed producer (reads_inputs_clamped_along): guarded, that vector is
// predicated and its clamped loads gathered lane by lane. Round 17's LPC autocorrelation, 9 lags
// in vectors of 8 (the second one lane wide), rounded up to two whole vectors.
bool GroupApplier::clamped_update_rounds_up(const StageNode &s, const FuncNode &m) const {
    if (s.index == 0 || m.is_output || m.func.args().empty()) return false;
    const std::string &x = m.func.args()[0];
    const std::vector<std::string> pure = s.pure_vars();
    if (std::find(pure.begin(), pure.end(), x) == pure.end() || !writes_at_pure_point(s, m)) return false;
    return clamped_along(m.func.updates()[s.index - 1], x) && reads_inputs_clamped_along(dag_, m.name, x, false);
}

void GroupApplier::member(const GroupPlan &g, const std::string &name, FuncRef &root, const std::string &tile_var,
                          const std::string &root_name, TailStrategy tail, bool per_point) {
    if (!per_point && register_accumulators(g, name, root, tile_var, root_name)) return;
    const FuncNode &m = dag_.node(name);
    FuncRef &mf = ref_(name);
    // Per point, a member read on a diagonal by another member (sums nested three deep) is
    // computed in that member's reduction loop.
    const std::optional<DiagonalRead> diagonal = per_point ? diagonal_read(dag_, m) : std::nullopt;
    if (tile_var.empty()) {
        w_.compute_root(mf);
    } else if (diagonal && diagonal->reader != root_name) {
        w_.compute_at(mf, ref_(diagonal->reader), diagonal->rvar, false);
    } else {
        w_.compute_at(mf, root, tile_var, false);
    }
    if (!per_point && g.member_vector_dims.count(name)) {
        member_along_dim1(m, mf, reads_inputs_clamped(dag_, name) ? TailStrategy::RoundUp : TailStrategy::GuardWithIf);
        notes_.push_back("Func " + name + ": computed per tile of " + root_name + (tile_var.empty() ? " (no tile loop: at root)" : " at " + tile_var) +
                         ", vectorized along " + m.func.args()[1] + " (its readers' vectors run along it, " + m.func.args()[0] + " elsewhere), stored " +
                         m.func.args()[1] + " innermost.");
        return;
    }
    const int lanes = per_point ? 1 : lanes_of(m);
    auto lane_rvar = g.member_lane_rvars.find(name);
    const bool row = lane_rvar != g.member_lane_rvars.end();
    // A member that reads the inputs only through clamps computes its last vector past the
    // tile rather than predicating it (analysis/ClampedReads.h).
    const bool round_up = tail == TailStrategy::GuardWithIf && reads_inputs_clamped(dag_, name);
    if (round_up) tail = TailStrategy::RoundUp;
    if (!tile_var.empty() && !per_point && g.tile_y > 0) member_tile_rows_ = g.tile_y;
    bool updates_rounded_up = false;
    for (const StageNode &s : m.stages) updates_rounded_up |= !per_point && lanes > 1 && !round_up && clamped_update_rounds_up(s, m);
    for (const StageNode &s : m.stages) {
        StageRef st = w_.stage(mf, s.index, s);
        if (row && s.index == 1) {
            row_lanes(lane_rvar->second, m, mf, st, s, lanes, false);
            continue;
        }
        const auto loops = [&](StageRef &at, int l, int width_cap) {
            if (s.index == 0) {
                pure_loops(at, m, l, false, tail);
                // pure_loops' order: the natural one, x split into vectors where l > 1.
                std::vector<std::string> natural = m.func.args();
                if (l > 1 && !natural.empty()) {
                    const std::string x = natural.front();
                    natural.front() = x + "_vo";
                    natural.insert(natural.begin(), x + "_vi");
                }
                split_compared_dims(g, m, at, true, natural, l > 1);
            }
            else {
                rows_inside_round_up_ = rows_inside_round_up(g, s, m);
                update_loops(at, s, m, l, false, width_cap, round_up || clamped_update_rounds_up(s, m) ? TailStrategy::RoundUp : TailStrategy::GuardWithIf);
                rows_inside_round_up_ = false;
            }
        };
        // An update with no pure loop (a fix-up of one point, f(0) = 7) has nothing to narrow:
        // its loops stay serial and unspecialized (Halide 14 refuses unscheduled() on a stage
        // that has specializations: test_fuzz seed 20261898).
        const int cap = member_width_cap(g, name);
        if (!narrow_root_ || lanes <= 1 || per_point || (s.index > 0 && s.pure_vars().empty())) {
            loops(st, lanes, cap);
            continue;
        }
        // A long reduction per point whose steps the cap narrows to one vector (whole-row tiles
        // of a family from rows narrower than a step): several vectors per step where the root's
        // row holds them (long_member_chain).
        // (Not where the root's tiles are narrower than the steps: no wider ones fit.)
        const int steps_width = lanes * kVectorsPerReductionStep;
        const int wider_cap = g.tile_x > 0 ? std::min(g.tile_x, steps_width) : steps_width;
        if (s.index > 0 && cap < wider_cap && long_member_chain(s, m)) {
            const Condition holds = w_.at_least(narrow_root_->row, wider_cap);
            if (!w_.specialized_on(st, holds)) {
                StageRef wider = w_.specialize(st, holds);
                loops(wider, lanes, wider_cap);
                note_once("Func " + name + ": its update's long reduction takes " + std::to_string(wider_cap / lanes) +
                          " vectors per step where " + root_name + "'s rows hold them.");
            }
        }
        // The root's rows narrower than a vector (tiled_root): the member's vectors narrow
        // with them (a 2x2 max pool 1 pixel wide ran its member's guarded vectors 3x slower
        // than scalar code), under the same conditions on the root's row.
        // (Unless the wider steps above took that very condition: a u64 member of a u16 root,
        // 8 lanes by 4 vectors per step against the root's 32 lanes. Halide returns the existing
        // specialization, whose loops were split already: red-team round 19's bignum product.)
        const Condition wide_if = w_.at_least(narrow_root_->row, narrow_root_->lanes);
        if (!w_.specialized_on(st, wide_if)) {
            StageRef wide = w_.specialize(st, wide_if);
            loops(wide, lanes, cap);
        }
        for (int l : narrow_root_->narrower) {
            const Condition fits_if = w_.at_least(narrow_root_->row, l);
            if (w_.specialized_on(st, fits_if)) continue;  // as the root's (tiled_root)
            StageRef fits = w_.specialize(st, fits_if);
            loops(fits, std::max(1, lanes * l / narrow_root_->lanes), cap);
        }
        loops(st, 1, cap);
    }
    member_tile_rows_.reset();
    if (per_point) {
        notes_.push_back("Func " + name + ": computed per point of " + (diagonal ? diagonal->reader + " at " + diagonal->rvar : root_name + " at " + tile_var) + ", unvectorized.");
        return;
    }
    notes_.push_back("Func " + name + ": computed per tile of " + root_name +
                     (tile_var.empty() ? " (no tile loop: at root)" : " at " + tile_var) +
                     (row ? ", " + lane_rvar->second + " in vectors of per-lane partial results reduced per row."
                          : round_up ? ", vectorized, its last vector rounded up (reads inputs clamped)."
                          : updates_rounded_up ? ", vectorized, its update's last vector rounded up (clamped reads along it)." : ", vectorized."));
}

void GroupApplier::store_dim1_innermost(const FuncNode &f, FuncRef &ref) {
    const std::vector<std::string> args = f.func.args();
    std::vector<std::string> storage = {args[1], args[0]};
    storage.insert(storage.end(), args.begin() + 2, args.end());
    w_.reorder_storage(ref, storage);
}

// GroupPlan::member_vector_dims: every stage of the member vectorized along its dimension 1, its
// dimension 0 and reduction loops inside the vectors, its storage dimension 1 innermost (the
// readers load its vectors densely). Tails guarded (Halide 14 refuses ShiftInwards on an update),
// or rounded up where the member reads its inputs only through clamps.
void GroupApplier::member_along_dim1(const FuncNode &m, FuncRef &mf, TailStrategy tail) {
    const std::vector<std::string> args = m.func.args();
    store_dim1_innermost(m, mf);
    const int lanes = lanes_of(m);
    for (const StageNode &s : m.stages) {
        StageRef st = w_.stage(mf, s.index, s);
        const std::vector<std::string> v = vectorize_dim(st, args[1], lanes, tail);
        std::vector<std::string> order = {v.front()};
        const std::vector<std::string> rvars = s.rvars();
        order.insert(order.end(), rvars.begin(), rvars.end());
        for (const std::string &p : s.pure_vars()) {
            if (p != args[1]) order.push_back(p);
        }
        if (v.size() > 1) order.push_back(v.back());
        w_.reorder(st, order);
    }
}

}  // namespace diet
