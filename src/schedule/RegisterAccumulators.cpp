// Reductions whose accumulators would stay in memory kept in registers instead: computed per group
// of a few vectors (and rows) of their reader's loop (a wrapper's, the output's own, or a lifted
// output's), a stack buffer of constant size. member() calls register_accumulators first,
// tiled_root grouped_root and update_root lifted_register_update
// (schedule/GroupApplier.h).
#include "schedule/GroupApplier.h"

#include "Halide.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Whether a reduction domain's predicate stays an `if` inside the reduction loops: Halide 14 makes
// comparisons affine in the reduction variables into loop bounds (`r <= x`, `t + lag < T`: no
// `if` is left, and LLVM keeps the accumulators in registers anyway; lifted, a red-team triangle
// reduction and an autocorrelation ran 1.5-1.9x slower in one A/B run of two). A conjunct that is
// no such comparison (an equality, a mask loaded from a buffer, a product of reduction variables
// as in a disc's `r.x * r.x + r.y * r.y <= R * R`) stays.
bool predicate_stays_in_loop(const Expr &predicate, const std::vector<std::string> &rvars) {
    Scope<> rs;
    for (const std::string &r : rvars) rs.push(r);
    std::vector<Expr> conjuncts = {predicate}, pending;
    while (!conjuncts.empty()) {
        const Expr e = conjuncts.back();
        conjuncts.pop_back();
        if (const And *a = e.as<And>()) {
            conjuncts.push_back(a->a);
            conjuncts.push_back(a->b);
            continue;
        }
        if (!expr_uses_vars(e, rs)) continue;
        if (!(e.as<LT>() || e.as<LE>() || e.as<GT>() || e.as<GE>())) return true;
        struct NonAffine : IRGraphVisitor {
            const Scope<> *rs = nullptr;
            bool found = false;
            using IRGraphVisitor::visit;
            void visit(const Mul *op) override {
                found |= expr_uses_vars(op->a, *rs) && expr_uses_vars(op->b, *rs);
                IRGraphVisitor::visit(op);
            }
            void visit(const Div *op) override {
                found |= expr_uses_vars(op->a, *rs);
                IRGraphVisitor::visit(op);
            }
            void visit(const Mod *op) override {
                found |= expr_uses_vars(op->a, *rs);
                IRGraphVisitor::visit(op);
            }
            void visit(const Call *op) override {
                for (const Expr &a : op->args) found |= expr_uses_vars(a, *rs);
                IRGraphVisitor::visit(op);
            }
            void visit(const Select *op) override {
                found |= expr_uses_vars(op->condition, *rs);
                IRGraphVisitor::visit(op);
            }
        } v;
        v.rs = &rs;
        e.accept(&v);
        if (v.found) return true;
    }
    return false;
}

}  // namespace

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
std::optional<GroupApplier::GroupShape> GroupApplier::register_group_shape(const GroupPlan &g, const FuncNode &m, const FuncNode &rn) {
    if (heavy_group_) return std::nullopt;
    if (m.is_output || m.stages.size() != 2 || m.func.args().empty() || m.consumers != std::set<std::string>{rn.name} ||
        g.member_lane_rvars.count(m.name) || g.member_vector_dims.count(m.name) || rn.dims() != m.dims() ||
        !read_at_own_coordinates(rn.func, m.name)) {
        return std::nullopt;
    }
    const StageNode &s = m.stages[1];
    const Definition &u = m.func.updates()[0];
    const std::vector<std::string> args = m.func.args(), pure = s.pure_vars();
    if (std::find(pure.begin(), pure.end(), args[0]) == pure.end() || !long_member_chain(s, m)) return std::nullopt;
    const int lanes = lanes_of(m);
    if (lanes < 2) return std::nullopt;
    const bool predicated = u.predicate().defined() && !is_const_one(u.predicate()) && predicate_stays_in_loop(u.predicate(), s.rvars());
    const bool shared_rows = args.size() >= 2 && std::find(pure.begin(), pure.end(), args[1]) != pure.end() &&
                             rows_share_step_loads_here(s, m, args[1]);
    if (!predicated && !shared_rows) return std::nullopt;
    // Accumulators: half the vector registers (the rest hold the step's loads). Rows sharing the
    // loads: one vector by as many rows (at most kRowsInsidePlaneSteps); else kVectorsPerReductionStep
    // vectors of one row (the probes: 2 or 8 vectors no better than 4).
    const int values = (int)m.func.outputs();
    GroupShape shape{lanes, lanes, 1, shared_rows};
    if (shared_rows) {
        shape.y = std::min(kRowsInsidePlaneSteps, accumulator_registers() / values);
    } else {
        shape.x = row_group_width(lanes, values);
    }
    if (g.tile_x > 0 && !g.tile_x_clamped) shape.x = std::min(shape.x, std::max(lanes, g.tile_x / lanes * lanes));
    if (g.tile_x_clamped && shape.x > g.tile_x) return std::nullopt;
    return shape;
}

// A group of one row: kVectorsPerReductionStep vectors, or as many as half the vector registers
// hold for `values` sums each (the rest hold the step's loads).
int GroupApplier::row_group_width(int lanes, int values) const {
    return lanes * std::max(1, std::min(kVectorsPerReductionStep, accumulator_registers() / values));
}

// The groups, widest first: shape.x x shape.y where the root holds it, a vector of one row where
// its rows hold a vector, one point (scalar) below.
std::vector<GroupApplier::AccumulatorGroup> GroupApplier::accumulator_groups(const GroupShape &shape, const SizeExpr &row,
                                                                             const std::optional<SizeExpr> &rows) {
    std::vector<AccumulatorGroup> candidates, groups;
    std::vector<Condition> wide = {w_.at_least(row, shape.x)};
    if (shape.y > 1) wide.push_back(w_.at_least(*rows, shape.y));
    candidates.push_back({shape.x, shape.y, wide.size() == 1 ? wide[0] : w_.all_of(wide)});
    if (shape.x > shape.lanes || shape.y > 1) candidates.push_back({shape.lanes, 1, w_.at_least(row, shape.lanes)});
    candidates.push_back({1, 1, std::nullopt});
    // Conditions known when scheduling (a constant row): the first that holds is the only group
    // (Halide returns a specialization on `true` again for the next one, split twice), those that
    // cannot hold are left out.
    for (AccumulatorGroup &gr : candidates) {
        const Expr known = gr.holds ? simplify(gr.holds->expr) : Expr();
        if (known.defined() && is_const_zero(known)) continue;
        if (known.defined() && is_const_one(known)) {
            groups.push_back({gr.x, gr.y, std::nullopt});
            break;
        }
        groups.push_back(gr);
        if (!gr.holds) break;
    }
    return groups;
}

// `f` (stages `stages`, pure arguments `args`) computed over exactly one group: its vectors the
// group's, its rows unrolled inside its reduction steps, its reduction loops outside them. (Its
// split is guarded: the group is that wide, so the guard is always true and simplified away;
// rounded up, the branches Halide cannot tell apart would grow the tile's region of f's producers.)
void GroupApplier::stages_per_group(FuncRef &f, const std::vector<StageNode> &stages, const std::vector<std::string> &args,
                                    const std::vector<AccumulatorGroup> &groups, bool rows) {
    const std::string x = args[0];
    for (const StageNode &st_node : stages) {
        StageRef st = w_.stage(f, st_node.index, st_node);
        const std::vector<std::string> rvars = st_node.rvars(), pure = st_node.index == 0 ? args : st_node.pure_vars();
        for (const AccumulatorGroup &gr : groups) {
            StageRef at = gr.holds ? w_.specialize(st, *gr.holds) : st;
            std::vector<std::string> order;
            if (gr.x > 1) {
                w_.split(at, x, x + "_vo", x + "_vi", gr.x, TailStrategy::GuardWithIf);
                w_.vectorize(at, x + "_vi");
                order.push_back(x + "_vi");
            } else {
                order.push_back(x);
            }
            if (rows && gr.y > 1) {
                w_.unroll(at, args[1]);
                order.push_back(args[1]);
            }
            if (st_node.index == 0 && !(rows && gr.y > 1)) continue;
            order.insert(order.end(), rvars.begin(), rvars.end());
            if (gr.x > 1) order.push_back(x + "_vo");
            for (const std::string &p : pure) {
                if (p != x && std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
            }
            w_.reorder(at, order);
        }
    }
}

bool GroupApplier::register_accumulators(const GroupPlan &g, const std::string &name, FuncRef &root, const std::string &tile_var,
                                         const std::string &root_name) {
    if (tile_var.empty()) return false;
    const FuncNode &m = dag_.node(name), &rn = dag_.node(root_name);
    const std::optional<GroupShape> shape = register_group_shape(g, m, rn);
    if (!shape) return false;
    const std::vector<std::string> args = m.func.args();
    const bool shared_rows = shape->shared_rows;
    const int lanes = shape->lanes, group_x = shape->x, group_y = shape->y;
    std::optional<SizeExpr> row = narrow_root_ ? std::optional<SizeExpr>(narrow_root_->row) : extent_of(rn, 0);
    std::optional<SizeExpr> rows = group_y > 1 ? extent_of(rn, 1) : std::nullopt;
    if (!row || (group_y > 1 && !rows)) return false;
    const std::vector<AccumulatorGroup> groups = accumulator_groups(*shape, *row, rows);

    FuncRef &mf = ref_(name);
    FuncRef wrap = w_.wrapper(mf);
    w_.compute_at(wrap, root, tile_var, false);
    const std::vector<StageNode> ws = stages_of(wrap.func.function());
    std::vector<std::string> wargs;
    for (const Var &v : wrap.func.args()) wargs.push_back(v.name());
    const std::string wx = wargs[0], group = wx + "_group", in_group = wx + "_in_group";
    const std::string wy = wargs.size() >= 2 ? wargs[1] : "", y_group = wy + "_group", y_in_group = wy + "_in_group";
    StageRef w0 = w_.stage(wrap, 0, ws[0]);
    for (const AccumulatorGroup &gr : groups) {
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

    w_.compute_at(mf, wrap, group, false);
    stages_per_group(mf, m.stages, args, groups, group_y > 1);
    const std::string shape_text = std::to_string(group_x / lanes) + (group_x / lanes == 1 ? " vector" : " vectors") +
                              (group_y > 1 ? " x " + std::to_string(group_y) + " rows" : "");
    notes_.push_back("Func " + name + ": " + (shared_rows ? "its rows sharing its steps' loads" : "its predicated reduction") +
                     " computed per group of " + shape_text + " of a wrapper computed per tile of " + root_name + " at " + tile_var +
                     ", its accumulators on the stack (in registers).");
    return true;
}

// The same for an output whose only update adds a reduction over a predicated domain to its
// initial values (`out(x, y) = 0; out(x, y) += in(x + r.x, y + r.y)` over a disc): its accumulators
// are the output's own buffer, stored under the predicate's `if` at every step. The update is
// lifted (ScheduleWriter::lift_update, as a contraction's update on its output): its reduction
// moves into an rfactor intermediate, the output's pure definition becomes `init + intermediate`,
// and the intermediate is computed per group of 4 vectors of the output's rows (no wrapper: the
// output's own vector loop), a stack buffer of constant size kept in registers. The root's
// members stay computed per tile of rows (its parallel loop).
bool GroupApplier::lifted_register_update(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    if (!n.is_output || n.stages.size() != 2 || n.func.outputs() != 1 || n.func.args().empty() || heavy_group_ ||
        g.members_per_point || g.members_per_step || g.row_lanes() || g.short_dim0 || g.dim1_vectors || g.transpose_blocks ||
        !g.member_lane_rvars.empty() || !g.member_vector_dims.empty() || g.tile_x > 0) {
        return false;
    }
    const StageNode &s = n.stages[1];
    const Definition &u = n.func.updates()[0];
    if (!u.predicate().defined() || is_const_one(u.predicate()) || !predicate_stays_in_loop(u.predicate(), s.rvars()) ||
        !writes_at_pure_point(s, n) || !long_member_chain(s, n)) {
        return false;
    }
    // Additive: out(v) + e, e not reading out (the lifted output is `init + intermediate`).
    const Add *add = u.values()[0].as<Add>();
    const Call *self = add ? add->a.as<Call>() : nullptr;
    if (!self || self->name != n.name || self->call_type != Call::Halide) return false;
    struct ReadsSelf : IRGraphVisitor {
        std::string name;
        bool found = false;
        using IRGraphVisitor::visit;
        void visit(const Call *c) override {
            found |= c->call_type == Call::Halide && c->name == name;
            IRGraphVisitor::visit(c);
        }
    } reads_self;
    reads_self.name = n.name;
    add->b.accept(&reads_self);
    if (reads_self.found) return false;
    const std::vector<std::string> args = n.func.args(), pure = s.pure_vars();
    const std::string x = args[0];
    if (std::find(pure.begin(), pure.end(), x) == pure.end()) return false;
    const int lanes = lanes_of(n);
    const std::optional<SizeExpr> row = extent_of(n, 0);
    if (lanes < 2 || !row) return false;
    const int group_x = row_group_width(lanes, 1);

    StageRef upd = w_.stage(root, 1, s);
    const FuncRef acc = w_.rfactor_all(upd, n.name + "_sum");
    w_.lift_update(root, acc);

    const std::vector<AccumulatorGroup> groups = accumulator_groups(GroupShape{lanes, group_x, 1, false}, *row, std::nullopt);
    const std::string tile_var = grouped_root_loops(g, root, n.stages[0], args, stage_points(n, 1, 1 + (int64_t)g.members.size()), groups);
    FuncRef acc_ref = acc;
    w_.compute_at(acc_ref, root, x + "_group", false);
    stages_per_group(acc_ref, stages_of(acc.func.function()), args, groups, false);
    // The members per tile of rows (the parallel loop), narrowing with the rows' vectors.
    narrow_root_ = NarrowRoot{*row, lanes, {}};
    for (const std::string &m : g.members) member(g, m, root, tile_var, n.name, tail_of(g, m));
    narrow_root_.reset();
    notes_.push_back("Func " + n.name + ": its predicated update lifted into " + acc.func.name() + ", computed per group of " +
                     std::to_string(group_x / lanes) + " vectors of its rows, its accumulators on the stack (in registers).");
    return true;
}

// A pure stage's loops (`f`, pure arguments `args`) in groups along dimension 0 (`x_group` of
// `x_in_group`, each group of `groups` under its condition, shifted inwards), its rows in tiles of
// g.tile_y, the tiles and outer dimensions one parallel loop (returned: where the group's other
// members are computed).
std::string GroupApplier::grouped_root_loops(const GroupPlan &g, FuncRef &f, const StageNode &pure_stage,
                                             const std::vector<std::string> &args, const std::optional<SizeExpr> &points,
                                             const std::vector<AccumulatorGroup> &groups) {
    const std::string x = args[0], group = x + "_group", in_group = x + "_in_group";
    std::string tile_var;
    StageRef st = w_.stage(f, 0, pure_stage);
    for (const AccumulatorGroup &gr : groups) {
        StageRef at = gr.holds ? w_.specialize(st, *gr.holds) : st;
        w_.split(at, x, group, in_group, gr.x, gr.x > 1 ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
        if (gr.x > 1) w_.vectorize(at, in_group);
        std::vector<std::string> order = {in_group, group}, outer;
        if (args.size() >= 2) {
            const std::string y = args[1];
            if (g.tile_y > 0) {
                w_.split(at, y, y + "_o", y + "_i", g.tile_y, TailStrategy::GuardWithIf);
                order.push_back(y + "_i");
                outer.push_back(y + "_o");
            } else {
                outer.push_back(y);
            }
        }
        for (size_t d = 2; d < args.size(); d++) {
            const bool inner = std::find(g.inner_dims.begin(), g.inner_dims.end(), (int)d) != g.inner_dims.end();
            (inner ? order : outer).push_back(args[d]);
        }
        order.insert(order.end(), outer.begin(), outer.end());
        w_.reorder(at, order);
        // One dimension: the groups themselves are the parallel tasks (a column mean's 1000
        // columns ran on one core otherwise, 1.5x slower than before on AVX2).
        if (outer.empty()) {
            if (gr.x > 1) fused_parallel_unless_small(w_, at, {group}, f.ident + "_groups_", points);
        } else {
            tile_var = fused_parallel_unless_small(w_, at, outer, f.ident + "_rows_", points);
        }
    }
    return tile_var;
}

// An output computed by a tiled group (pure) reading such members (register_group_shape, groups
// of one row) computes them at its own loop instead of a wrapper's: its dimension 0 in groups of
// 4 vectors, each member per group, no copy. Round 22's lens blur: 5.0-5.9 ms per group of a
// wrapper, 3.6-4.4 at the output's own groups (apps/results/cpu/register_accumulators_2026-12-08/).
// The group's other members stay computed per tile of rows. Only for a plain tile: no columns,
// transposed blocks, short rows, channels interleaved or unrolled, or members moved elsewhere.
bool GroupApplier::grouped_root(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    if (!n.is_output || n.has_updates() || n.func.args().empty() || g.tile_x > 0 || g.transpose_blocks || g.short_dim0 ||
        g.interleaved_dim >= 2 || !g.select_unrolled.empty() || g.members_per_point || g.members_per_step ||
        !g.member_lane_rvars.empty() || !g.member_vector_dims.empty() || heavy_group_) {
        return false;
    }
    std::vector<std::string> grouped;
    std::optional<GroupShape> shape;
    for (const std::string &m : g.members) {
        const std::optional<GroupShape> s = register_group_shape(g, dag_.node(m), n);
        if (!s || s->y > 1 || (shape && (s->x != shape->x || s->lanes != shape->lanes))) continue;
        shape = s;
        grouped.push_back(m);
    }
    const std::optional<SizeExpr> row = extent_of(n, 0);
    if (grouped.empty() || !row || lanes_of(n) != shape->lanes) return false;
    const std::vector<AccumulatorGroup> groups = accumulator_groups(*shape, *row, std::nullopt);
    const std::string tile_var = grouped_root_loops(g, root, n.stages[0], n.func.args(), stage_points(n, 0, 1 + (int64_t)g.members.size()), groups);
    const std::string group = n.func.args()[0] + "_group";
    narrow_root_ = NarrowRoot{*row, shape->lanes, {}};
    for (const std::string &m : g.members) {
        if (std::find(grouped.begin(), grouped.end(), m) == grouped.end()) {
            member(g, m, root, tile_var, n.name, tail_of(g, m));
            continue;
        }
        FuncRef &mf = ref_(m);
        w_.compute_at(mf, root, group, false);
        stages_per_group(mf, dag_.node(m).stages, dag_.node(m).func.args(), groups, false);
        notes_.push_back("Func " + m + ": its predicated reduction computed per group of " + std::to_string(shape->x / shape->lanes) +
                         " vectors of " + n.name + "'s rows, its accumulators on the stack (in registers).");
    }
    narrow_root_.reset();
    return true;
}

}  // namespace diet
