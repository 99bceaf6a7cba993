// Accumulators of a member's predicated reduction kept in registers (member() calls
// predicated_accumulators first; schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"

#include "Halide.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

// A member's update over a reduction domain with a predicate (`RDom::where`, a lens blur's disc)
// stores its accumulators under the predicate's `if` at every step. Halide computes such a
// member per tile of its root into a heap buffer, where LLVM may not move a store that does not
// run at every step out of the loop: every step loads and stores its accumulator vectors again.
// Computed per group of a few vectors of one row of a wrapper (`m.in()`, computed where `m` was),
// `m` is a buffer of constant size on the stack, which LLVM keeps in registers over the steps, the
// predicate deciding which to add. Red-team round 22's lens blur (a disc of radius 8, 201 of 289
// points, a Tuple of two sums, 512 x 512 x 3, AVX-512, JIT probes in
// apps/results/cpu/predicated_accumulators_2026-12-08/): 9.3 ms in the tile's buffer, 5.0-5.6 ms
// per group of 4 vectors of a wrapper, 7.0 ms per group of 1 vector (the predicate's test per
// vector costs), 3.6-4.3 ms per 4 vectors of the root's own loop (which would take a level of
// 4 vectors in every root's loops); without the predicate all ran 4.4-4.6 ms (LLVM keeps
// those accumulators in registers anyway).
// Only for a member read by its root alone at the root's own coordinates, so each tile's wrapper
// region is the tile's (at least a group wide where the root's rows are): a group shifted inwards
// stays inside it.
bool GroupApplier::predicated_accumulators(const GroupPlan &g, const std::string &name, FuncRef &root,
                                           const std::string &tile_var, const std::string &root_name) {
    if (tile_var.empty() || !narrow_root_ || heavy_group_) return false;
    const FuncNode &m = dag_.node(name);
    if (m.is_output || m.stages.size() != 2 || m.func.args().empty() || !m.pointwise_consumed ||
        m.consumers != std::set<std::string>{root_name} || g.member_lane_rvars.count(name) || g.member_vector_dims.count(name)) {
        return false;
    }
    const StageNode &s = m.stages[1];
    const Definition &u = m.func.updates()[0];
    if (!u.predicate().defined() || is_const_one(u.predicate()) || !long_member_chain(s, m)) return false;
    const std::string x = m.func.args()[0];
    const std::vector<std::string> pure = s.pure_vars();
    if (std::find(pure.begin(), pure.end(), x) == pure.end()) return false;
    const int lanes = lanes_of(m);
    if (lanes < 2) return false;
    // Groups of kVectorsPerReductionStep vectors (the probes' best: 2 or 8 vectors no better), as
    // many as a clamped tile (min(row, tile_x) wide) holds.
    int group_width = lanes * kVectorsPerReductionStep;
    if (g.tile_x > 0) group_width = std::min(group_width, g.tile_x / lanes * lanes);
    if (group_width < lanes) return false;
    const SizeExpr &row = narrow_root_->row;
    const Condition wide_if = w_.at_least(row, group_width), vector_if = w_.at_least(row, lanes);

    FuncRef &mf = ref_(name);
    FuncRef wrap = w_.wrapper(mf);
    w_.compute_at(wrap, root, tile_var, false);
    const std::vector<StageNode> ws = stages_of(wrap.func.function());
    std::vector<std::string> wargs;
    for (const Var &v : wrap.func.args()) wargs.push_back(v.name());
    const std::string wx = wargs[0], group = wx + "_group", in_group = wx + "_in_group";
    StageRef w0 = w_.stage(wrap, 0, ws[0]);
    // Shifted inwards where the rows hold a group (the wrapper's region per tile is the tile's);
    // one point per group, scalar, below a vector.
    const auto groups = [&](StageRef &st, int width) {
        w_.split(st, wx, group, in_group, width, width > 1 ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
        if (width > 1) w_.vectorize(st, in_group);
    };
    StageRef wide = w_.specialize(w0, wide_if);
    groups(wide, group_width);
    if (group_width > lanes) {
        StageRef one = w_.specialize(w0, vector_if);
        groups(one, lanes);
    }
    groups(w0, 1);

    // `m` over exactly one group: its vectors are the group's, its reduction loops outside them.
    w_.compute_at(mf, wrap, group, false);
    const std::vector<std::string> rvars = s.rvars();
    for (const StageNode &st_node : m.stages) {
        StageRef st = w_.stage(mf, st_node.index, st_node);
        const auto steps = [&](StageRef &at, int width) {
            std::vector<std::string> order;
            if (width > 1) {
                // (Guarded: the group is `width` wide, so the guard is always true and simplified
                // away; rounded up, the branches Halide cannot tell apart would grow the tile's
                // region of m's producers.)
                w_.split(at, x, x + "_vo", x + "_vi", width, TailStrategy::GuardWithIf);
                w_.vectorize(at, x + "_vi");
                order.push_back(x + "_vi");
            } else {
                order.push_back(x);
            }
            if (st_node.index == 0) return;
            order.insert(order.end(), rvars.begin(), rvars.end());
            if (width > 1) order.push_back(x + "_vo");
            for (const std::string &p : pure) {
                if (p != x) order.push_back(p);
            }
            w_.reorder(at, order);
        };
        StageRef a = w_.specialize(st, wide_if);
        steps(a, group_width);
        if (group_width > lanes) {
            StageRef b = w_.specialize(st, vector_if);
            steps(b, lanes);
        }
        steps(st, 1);
    }
    notes_.push_back("Func " + name + ": its predicated reduction computed per group of " + std::to_string(group_width / lanes) +
                     " vectors of a wrapper computed per tile of " + root_name + " at " + tile_var +
                     ", its accumulators on the stack (in registers).");
    return true;
}

}  // namespace diet
