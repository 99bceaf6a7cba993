// A member's accumulators kept in registers: the member computed per group of a few vectors (and
// rows) of a wrapper, a stack buffer of constant size (member() calls register_accumulators first;
// schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"

#include "Halide.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;


// Two kinds of a member's reduction keep their accumulators in memory when the member is computed
// per tile of its root, as the other members are (a heap buffer of the tile's size):
//  - an update over a reduction domain with a predicate (`RDom::where`, a lens blur's disc) stores
//    them under the predicate's `if` at every step, and LLVM moves no store that does not run at
//    every step out of the loop over a heap buffer;
//  - an update whose rows share its steps' loads (rows_share_step_loads_here: an STFT's twiddles
//    read by every frame) runs a tile of rows inside each step (update_loops_at), more vectors of
//    accumulators than there are registers.
// Computed per group of a wrapper (`m.in()`, computed where `m` was) instead, `m` is a stack buffer
// of constant size, its rows unrolled, which LLVM keeps in registers over the steps. JIT probes,
// AMD EPYC AVX-512 guest (apps/results/cpu/register_accumulators_2026-12-08/):
//  - red-team round 22's lens blur (a disc of radius 8, 201 of 289 points, a Tuple of two sums,
//    512 x 512 x 3): 9.3 ms in the tile's buffer, 5.0-5.6 ms per group of 4 vectors, 7.0 per group
//    of 1 vector (the predicate's test per vector costs), 3.6-4.3 per 4 vectors of the root's own
//    loop (which would take a level of 4 vectors in every root's loops); without the predicate all
//    ran 4.4-4.6 ms (LLVM keeps those accumulators in registers anyway);
//  - round 22's STFT (a 2-value DFT of 64 points over 33 bins, 1024 frames): 0.20 ms with 8 rows
//    inside 64-point steps, 0.075 per group of 1 vector x 8 rows (16 accumulators), 0.082 x 4 rows,
//    0.095 for 2 vectors x 4 rows; Adams2019's 0.052-0.065 (computed per 16 bins x 4 frames of the
//    output).
// A group is shifted inwards within the wrapper's region (the root's tile: the member is read by
// the root alone, at the root's own coordinates), which may reach into the previous tile's
// points where a tile is narrower than the group: inside the root's domain wherever the root is at
// least a group wide and tall (the specialization's condition).
bool GroupApplier::register_accumulators(const GroupPlan &g, const std::string &name, FuncRef &root, const std::string &tile_var,
                                         const std::string &root_name) {
    if (tile_var.empty() || heavy_group_) return false;
    const FuncNode &m = dag_.node(name), &rn = dag_.node(root_name);
    if (m.is_output || m.stages.size() != 2 || m.func.args().empty() || m.consumers != std::set<std::string>{root_name} ||
        g.member_lane_rvars.count(name) || g.member_vector_dims.count(name) || rn.dims() != m.dims() ||
        !read_at_own_coordinates(rn.func, name)) {
        return false;
    }
    const StageNode &s = m.stages[1];
    const Definition &u = m.func.updates()[0];
    const std::vector<std::string> args = m.func.args(), pure = s.pure_vars();
    const std::string x = args[0];
    if (std::find(pure.begin(), pure.end(), x) == pure.end() || !long_member_chain(s, m)) return false;
    const int lanes = lanes_of(m);
    if (lanes < 2) return false;
    const bool predicated = u.predicate().defined() && !is_const_one(u.predicate());
    const bool shared_rows = args.size() >= 2 && std::find(pure.begin(), pure.end(), args[1]) != pure.end() &&
                             rows_share_step_loads_here(s, m, args[1]);
    if (!predicated && !shared_rows) return false;
    // Accumulators: half the vector registers (the rest hold the step's loads). Rows sharing the
    // loads: one vector by as many rows (at most kRowsInsidePlaneSteps); else kVectorsPerReductionStep
    // vectors of one row (the probes: 2 or 8 vectors no better than 4).
    const int accumulators = std::max(1, vector_registers_ / 2);
    const int values = (int)m.func.outputs();
    int group_x = lanes, group_y = 1;
    if (shared_rows) {
        group_y = std::min(kRowsInsidePlaneSteps, accumulators / values);
    } else {
        group_x = lanes * std::max(1, std::min(kVectorsPerReductionStep, accumulators / values));
    }
    if (g.tile_x > 0 && !g.tile_x_clamped) group_x = std::min(group_x, std::max(lanes, g.tile_x / lanes * lanes));
    std::optional<SizeExpr> row = narrow_root_ ? std::optional<SizeExpr>(narrow_root_->row) : extent_of(rn, 0);
    std::optional<SizeExpr> rows = group_y > 1 ? extent_of(rn, 1) : std::nullopt;
    if (!row || (group_y > 1 && !rows)) return false;
    if (g.tile_x_clamped && group_x > g.tile_x) return false;

    // The groups, widest first: group_x x group_y where the root holds it, a vector of one row where
    // its rows hold a vector, one point (scalar) below.
    struct Group {
        int x, y;
        std::optional<Condition> holds;
    };
    std::vector<Group> groups;
    {
        std::vector<Condition> wide = {w_.at_least(*row, group_x)};
        if (group_y > 1) wide.push_back(w_.at_least(*rows, group_y));
        groups.push_back({group_x, group_y, wide.size() == 1 ? wide[0] : w_.all_of(wide)});
        if (group_x > lanes || group_y > 1) groups.push_back({lanes, 1, w_.at_least(*row, lanes)});
        groups.push_back({1, 1, std::nullopt});
    }

    FuncRef &mf = ref_(name);
    FuncRef wrap = w_.wrapper(mf);
    w_.compute_at(wrap, root, tile_var, false);
    const std::vector<StageNode> ws = stages_of(wrap.func.function());
    std::vector<std::string> wargs;
    for (const Var &v : wrap.func.args()) wargs.push_back(v.name());
    const std::string wx = wargs[0], group = wx + "_group", in_group = wx + "_in_group";
    const std::string wy = wargs.size() >= 2 ? wargs[1] : "", y_group = wy + "_group", y_in_group = wy + "_in_group";
    StageRef w0 = w_.stage(wrap, 0, ws[0]);
    for (const Group &gr : groups) {
        StageRef at = gr.holds ? w_.specialize(w0, *gr.holds) : w0;
        w_.split(at, wx, group, in_group, gr.x, gr.x > 1 ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
        if (gr.x > 1) w_.vectorize(at, in_group);
        if (gr.y > 1) {
            w_.split(at, wy, y_group, y_in_group, gr.y, TailStrategy::ShiftInwards);
            std::vector<std::string> order = {in_group, y_in_group, group, y_group};
            order.insert(order.end(), wargs.begin() + 2, wargs.end());
            w_.reorder(at, order);
        }
    }

    // `m` over exactly one group: its vectors the group's, its rows unrolled inside its reduction
    // steps, its reduction loops outside them. (Its split is guarded: the group is that wide, so
    // the guard is always true and simplified away; rounded up, the branches Halide cannot tell
    // apart would grow the tile's region of m's producers.)
    w_.compute_at(mf, wrap, group, false);
    const std::vector<std::string> rvars = s.rvars();
    for (const StageNode &st_node : m.stages) {
        StageRef st = w_.stage(mf, st_node.index, st_node);
        for (const Group &gr : groups) {
            StageRef at = gr.holds ? w_.specialize(st, *gr.holds) : st;
            std::vector<std::string> order;
            if (gr.x > 1) {
                w_.split(at, x, x + "_vo", x + "_vi", gr.x, TailStrategy::GuardWithIf);
                w_.vectorize(at, x + "_vi");
                order.push_back(x + "_vi");
            } else {
                order.push_back(x);
            }
            if (group_y > 1 && gr.y > 1) {
                w_.unroll(at, args[1]);
                order.push_back(args[1]);
            }
            if (st_node.index == 0 && !(group_y > 1 && gr.y > 1)) continue;
            if (st_node.index > 0) order.insert(order.end(), rvars.begin(), rvars.end());
            if (gr.x > 1) order.push_back(x + "_vo");
            for (const std::string &p : st_node.index == 0 ? args : pure) {
                if (p != x && std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
            }
            w_.reorder(at, order);
        }
    }
    const std::string shape = std::to_string(group_x / lanes) + (group_x / lanes == 1 ? " vector" : " vectors") +
                              (group_y > 1 ? " x " + std::to_string(group_y) + " rows" : "");
    notes_.push_back("Func " + name + ": " + (shared_rows ? "its rows sharing its steps' loads" : "its predicated reduction") +
                     " computed per group of " + shape + " of a wrapper computed per tile of " + root_name + " at " + tile_var +
                     ", its accumulators on the stack (in registers).");
    return true;
}

}  // namespace diet
