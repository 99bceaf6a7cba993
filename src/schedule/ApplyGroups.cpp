// A stage group's root on the live Funcs (schedule/GroupApplier.h; its members: ApplyMembers.cpp), and apply_group.
#include "schedule/GroupApplier.h"
#include "analysis/DefinitionNodes.h"
#include "analysis/ChannelSelects.h"
#include "analysis/ClampedReads.h"
#include "analysis/DiagonalReads.h"
#include "analysis/MathCalls.h"
#include "common/Errors.h"
#include "space/Rules.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using FuncRef = GroupApplier::FuncRef;
using StageRef = GroupApplier::StageRef;

std::vector<std::string> GroupApplier::apply(const GroupPlan &g) {
    const FuncNode &n = dag_.node(g.root);
    FuncRef &root = ref_(g.root);
    if (!n.is_output) w_.compute_root(root);
    const std::string where = n.is_output ? "output" : "computed at root";
    // Members computed per point or per step sit inside reduction loops (of the root or of
    // another member, sums nested three deep): those loops stay loops.
    unroll_windows_ = !g.members_per_point && !g.members_per_step;
    group_root_ = g.root;
    heavy_group_ = heavy_group(g);
    if (g.rule == RuleKind::Extern) {
        notes_.push_back("Func " + n.name + ": extern stage, computed at root.");
        return notes_;
    }
    per_divisor_value(g, n, root);
    schedule_rule(g, n, root);
    notes_.insert(notes_.begin(), "Func " + n.name + ": " + where + ", " + describe(g) + ".");
    // Once each (a group scheduled once per divisor value says the same things again).
    std::vector<std::string> once;
    for (const std::string &note : notes_) {
        if (std::find(once.begin(), once.end(), note) == once.end()) once.push_back(note);
    }
    return once;
}

void GroupApplier::schedule_rule(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    switch (g.rule) {
    case RuleKind::TiledGroup: tiled_root(g, n, root); break;
    case RuleKind::UpdateLoops: update_root(g, n, root); break;
    case RuleKind::RFactor: rfactor_root(g, n, root); break;
    default: break;
    }
}

// dim 0 of a pure stage split into vectors (guarded tail), innermost; returns the loops that
// replace `v`, innermost first.
std::vector<std::string> GroupApplier::vectorize_dim(StageRef &st, const std::string &v, int lanes,
                                                     TailStrategy tail) {
    if (lanes <= 1) return {v};
    w_.split(st, v, v + "_vo", v + "_vi", lanes, tail);
    w_.vectorize(st, v + "_vi");
    return {v + "_vi", v + "_vo"};
}

void GroupApplier::tiled_root(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    if (grouped_root(g, n, root)) return;
    const std::optional<SizeExpr> row_extent = n.dims() >= 1 ? extent_of(n, 0) : std::nullopt;
    if (g.tile_x_clamped) {
        // Tiles wider than the family's narrowest row (GroupPlan::tile_x_clamped): min(row,
        // tile_x) wide, shifted inwards, where the row's extent is known when the pipeline runs;
        // whole rows otherwise.
        const bool clamp = row_extent && !constant_value(row_extent->expr) && !n.has_updates() && !g.transpose_blocks &&
                           !g.short_dim0 && n.dims() >= 2;
        GroupPlan plain = g;
        if (!clamp) plain.tile_x = 0, plain.tile_x_clamped = false;
        if (clamp) tile_x_factor_ = size_min(*row_extent, size_constant(g.tile_x));
        tiled_root_loops(plain, n, root, clamp);
        tile_x_factor_.reset();
        return;
    }
    tiled_root_loops(g, n, root, false);
}

// tiled_root's loops; `clamped`: tile_x is min(row, tile_x) (tile_x_factor_), so the rows may
// still be narrower than a vector, as with whole-row tiles.
void GroupApplier::tiled_root_loops(const GroupPlan &g, const FuncNode &n, FuncRef &root, bool clamped) {
    StageRef st = w_.stage(root, 0, n.stages[0]);
    // A transposing root whose dim 0 is shorter than a vector at some shapes (an output
    // stored o(t, n) from a producer stored n innermost, T from 1): where it is, vectors
    // along dim 1 instead, reading the producer densely and storing with a stride of dim 0's
    // extent, rather than vector x vector blocks with every lane past dim 0 predicated off.
    const std::optional<SizeExpr> row = n.dims() >= 1 ? extent_of(n, 0) : std::nullopt;
    if (g.transpose_blocks && g.members.empty() && g.tile_x == 0 && g.vector_lanes > 1 && n.dims() >= 2 && row) {
        StageRef short_rows = w_.specialize(st, w_.at_most(*row, g.vector_lanes - 1));
        const std::vector<std::string> args = n.func.args();
        const std::string y = args[1];
        // Shifted inwards only where dim 1 holds a whole vector at every shape: tile_y_shift says
        // it holds a tile, and a block's rows can be fewer than a vector's lanes
        // (transpose_block_rows; test_fuzz seed 78 on AVX-512: 32 lanes shifted over 17 rows).
        w_.split(short_rows, y, y + "_vo", y + "_vi", g.vector_lanes,
                 g.tile_y_shift && g.tile_y >= g.vector_lanes ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
        w_.vectorize(short_rows, y + "_vi");
        std::vector<std::string> order = {y + "_vi", args[0], y + "_vo"}, outer = {y + "_vo"};
        for (size_t d = 2; d < args.size(); d++) order.push_back(args[d]), outer.push_back(args[d]);
        w_.reorder(short_rows, order);
        fused_parallel_unless_small(w_, short_rows, outer, n.name + "_cols_",
                                    stage_points(n, 0, 1 + kPointsPerMathCall * math_calls_per_point(dag_, n.func)));
        notes_.push_back("Func " + n.name + ": where its dimension " + args[0] + " is shorter than a vector, vectors along " +
                         y + " (strided stores).");
    }
    if (g.short_dim0 && !g.transpose_blocks && n.dims() >= 2) {
        // Members (space/rules/RuleContext.h short_dim0_with_members) per row, in every
        // specialization alike.
        const std::string rows = short_dim0_stage(g, n, st, n.stages[0]);
        internal_assert(g.members.empty() || !rows.empty()) << "Diet: members of " << n.name << " without a row loop\n";
        for (const std::string &m : g.members) member(g, m, root, rows, n.name, tail_of(g, m));
        return;
    }
    // Rows at least a vector wide at some shapes but not at the smallest: there, the last
    // vector of each row is shifted inwards instead of guarded (a guarded vector predicates
    // its loads, which Halide 14 scalarizes for 8-bit lanes: one such vector per row cost as
    // much as the rest of a 509-pixel row of probe 10's interleaved-to-gray conversion). A
    // Its members are scheduled once, after the last specialization (each specialization copies
    // the root's directives so far, and names its loops alike: a member computed at a tile
    // loop is computed there in every one).
    if ((g.tile_x == 0 || clamped) && g.vector_lanes > 1 && !g.transpose_blocks && row &&
        tail_of(g, n.name) == TailStrategy::GuardWithIf && !constant_value(row->expr)) {
        // Its vector branches: the wide one, the narrower ones below, scalar code.
        int branches = 2;
        for (int lanes = g.vector_lanes / 2; lanes >= kNarrowestVector && lanes >= g.vector_lanes / 4; lanes /= 2) branches++;
        const int tiered_leaves = branches * (2 + (int)std::size(kGroupedIterations)) * (int)n.func.outputs();
        if (tiered_leaves > kMaxTieredLeaves) {
            no_task_tiers_ = "Func " + n.name + ": no task tiers (its " + std::to_string(branches) + " vector branches x " +
                             std::to_string(n.func.outputs()) + " values would take " + std::to_string(tiered_leaves) +
                             " leaves to Halide's bounds inference, past " + std::to_string(kMaxTieredLeaves) + ").";
        }
        StageRef wide = w_.specialize(st, w_.at_least(*row, g.vector_lanes));
        GroupPlan shifted = g;
        shifted.shift_inwards.push_back(n.name);
        tile_stage(shifted, n, root, wide, {}, false);
        // Rows narrower than a vector (an image 1 to 15 floats wide on AVX-512): a guarded
        // vector there predicates every load, one lane in use; probe 13 measured such a
        // 2x2 downsample 1 pixel wide 6.7x slower than scalar code. Narrower vectors,
        // shifted inwards, where the row holds one; scalar below the narrowest.
        GroupPlan narrow = shifted;
        NarrowRoot members_narrow{*row, g.vector_lanes, {}};
        for (int lanes = g.vector_lanes / 2; lanes >= kNarrowestVector && lanes >= g.vector_lanes / 4; lanes /= 2) {
            // A row of 16 T + 1 points over 2 (8 T) holds 8 and 4 alike: one specialization to
            // Halide, scheduled twice it threw "can't create var x_vi" (test_fuzz seed 20273102).
            const Condition fits_if = w_.at_least(*row, lanes);
            if (w_.specialized_on(st, fits_if)) continue;
            StageRef fits = w_.specialize(st, fits_if);
            narrow.vector_lanes = lanes;
            tile_stage(narrow, n, root, fits, {}, false);
            members_narrow.narrower.push_back(lanes);
        }
        narrow.vector_lanes = 1;
        narrow_root_ = members_narrow;
        tile_stage(narrow, n, root, st, {});
        narrow_root_.reset();
        no_task_tiers_.clear();
        notes_.push_back("Func " + n.name + ": rows narrower than a vector take vectors of " +
                         std::to_string(std::max(g.vector_lanes / 4, kNarrowestVector)) + " to " +
                         std::to_string(g.vector_lanes / 2) + " lanes, shifted inwards, or scalar code.");
        return;
    }
    tile_stage(g, n, root, st, {});
}

// GroupPlan::members_per_point: the last update's reduction loops innermost, then its pure
// loops, unvectorized; the outer pure loops (dim 0 in rows when it is the only one) parallel;
// the members computed at the innermost reduction loop, one point each, unvectorized.
void GroupApplier::point_stage(const GroupPlan &g, const FuncNode &n, FuncRef &root, StageRef &st, const StageNode &s) {
    const std::vector<std::string> rvars = s.rvars(), pure = s.pure_vars();
    std::vector<std::string> order = rvars, outer;
    for (size_t i = 0; i < pure.size(); i++) (i == 0 && pure.size() > 1 ? order : outer).push_back(pure[i]);
    if (pure.size() == 1) {
        w_.split(st, pure[0], pure[0] + "_rows", pure[0] + "_row", kRowsPerTask, TailStrategy::GuardWithIf);
        order.push_back(pure[0] + "_row");
        outer = {pure[0] + "_rows"};
    }
    order.insert(order.end(), outer.begin(), outer.end());
    w_.reorder(st, order);
    fused_parallel_unless_small(w_, st, outer, n.name + "_points_",
                                stage_points(n, s.index, 1 + (int64_t)g.members.size()));
    for (const std::string &m : g.members) member(g, m, root, rvars.front(), n.name, TailStrategy::GuardWithIf, true);
}

// The tiled-group loops on one stage of the root: its pure stage, or (an update root hosting
// members) its last update, whose reduction loops `rvars` run inside the vector loop. Updates
// take no ShiftInwards splits (Halide 14 forbids them), and take 4 vectors per reduction step
// as the update-loops rule does.
// with_members: schedule g's members too (once per root, on its last stage or specialization).
void GroupApplier::tile_stage(const GroupPlan &g, const FuncNode &n, FuncRef &root, StageRef &st,
                              const std::vector<std::string> &rvars, bool with_members) {
    const std::vector<std::string> args = n.func.args();
    if (args.empty()) {
        // A 0-D root (an argmax's result) has no tile loop: its members are computed at root. Left
        // unscheduled, a member with updates was computed at the innermost loop of its reader, a
        // 256-bin prefix scan once per bin of the argmax (red-team round 6's Otsu threshold, 12x).
        if (with_members) {
            for (const std::string &m : g.members) member(g, m, root, "", n.name, tail_of(g, m));
        }
        return;
    }
    const bool update = !rvars.empty();
    // Halide 14 refuses ShiftInwards on any update, one without a reduction (a pure update,
    // f(x, y) = g(f(x, y))) included (test_fuzz seed 20261475 hit it when the shifted tiles
    // below were tried on every root with members).
    const bool may_shift = !n.has_updates();
    const std::optional<SizeExpr> rows = args.size() >= 2 ? extent_of(n, 1) : std::nullopt;
    const auto member_reads_unclamped = [&] {
        return std::any_of(g.members.begin(), g.members.end(), [&](const std::string &m) { return !reads_inputs_clamped(dag_, m); });
    };
    if (g.tile_y > 0 && !g.tile_y_shift && may_shift && rows && member_reads_unclamped()) {
        // Members computed per tile of rows that may be shorter than a tile at the smallest
        // shape: with a guarded last tile Halide 14 may bound the members' region over all
        // tiles as if the last were whole (the tile start's largest value plus the tile's
        // largest extent) and require inputs, or an output read back, past their end
        // (test_fuzz seed 20261515: "Output buffer rs0 is accessed at 31, which is beyond the
        // max (25)", a member reading an output through a root computed at root). Where the
        // rows hold a whole tile, the last tile is shifted inwards instead, which keeps the
        // bound inside them; below, there is one tile. (The same loops in both: the members
        // are scheduled once, below.) Only where a member reads an input unclamped (or an
        // output): over clamped reads the loose bound costs a few points of work, not an error.
        GroupPlan tall = g;
        tall.tile_y_shift = true;
        StageRef tall_st = w_.specialize(st, w_.at_least(*rows, g.tile_y));
        tile_stage(tall, n, root, tall_st, rvars, false);
    }
    const std::string x = args[0];
    std::vector<std::string> order, outer;
    std::string x_in = x;
    if (g.tile_x > 0 && tile_x_factor_) {
        // min(row, tile_x) (GroupPlan::tile_x_clamped, a pure output): a tile never wider than
        // the row, so shifting the last one inwards stays inside it.
        w_.split(st, x, x + "_o", x + "_i", *tile_x_factor_, TailStrategy::ShiftInwards);
        x_in = x + "_i";
    } else if (g.tile_x > 0) {
        // The planner keeps tile_x within dim 0 at the smallest shape: shifting the last tile
        // inwards stays inside the data.
        w_.split(st, x, x + "_o", x + "_i", g.tile_x, may_shift ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
        x_in = x + "_i";
    }
    // Members per step of the reduction: the reduction loops run outside the tile's own
    // loops, inside its tile loop (the member is computed at the innermost of them).
    const bool per_step = update && g.members_per_step;
    int lanes = g.tile_x == 0 || g.tile_x >= g.vector_lanes ? g.vector_lanes : 1;
    if (update && !per_step && lanes > 1 && (g.tile_x == 0 || g.tile_x >= lanes * kVectorsPerReductionStep)) {
        lanes *= kVectorsPerReductionStep;
        // No more vectors per step than dim 0 holds at its longest (as update_loops).
        if (g.tile_x == 0) lanes = step_width_within_dim0(n, lanes / kVectorsPerReductionStep, lanes);
    }
    // An update of a Func computed at root that reads the inputs only clamped rounds its last
    // vectors up (its region grows by less than a vector step; the reads stay in range) rather
    // than guarding them: Halide 14 runs a guarded multi-vector 8-bit tail as scalar code (a
    // 5x5 uint8 erosion written minimum() over an RDom, red-team round 3: 1.5-3.5x behind).
    // So does one whose vectors read a clamped coordinate (GroupApplier::clamped_update_rounds_up).
    const bool whole_row_update = update && g.tile_x == 0 && !n.is_output;
    const bool inputs_clamped = whole_row_update && reads_inputs_clamped(dag_, n.name);
    const bool round_up_update = inputs_clamped || (whole_row_update && clamped_update_rounds_up(n.stages.back(), n));
    // Elsewhere (an output) several vectors per step of values narrower than 32 bits, on a target
    // without masked loads and stores of such lanes, only where the rows are a whole number of
    // steps; one vector per step elsewhere (as update_loops). A u8 erosion's output at 81 pixels
    // a row ran its one 128-lane step guarded, as scalar code: 4.5x slower than before its
    // boundary condition was computed per tile (red-team round 10).
    if (update && !per_step && g.tile_x == 0 && lanes > g.vector_lanes && !round_up_update && value_bits(n) < 32 &&
        !masked_narrow_lanes_ && !whole_steps_scheduling_) {
        const std::optional<SizeExpr> row = extent_of(n, 0);
        const std::optional<int64_t> known_row = row ? constant_value(row->expr) : std::nullopt;
        if (row && !known_row) {
            StageRef wide = w_.specialize(st, whole_steps_only(*row, lanes));
            whole_steps_scheduling_ = true;
            tile_stage(g, n, root, wide, rvars, false);
            whole_steps_scheduling_ = false;
            note_once("Func " + n.name + ": its " + std::to_string(lanes) +
                      "-point update steps only where its rows are a multiple of them, one vector per step elsewhere.");
        }
        if (!known_row || *known_row % lanes != 0) lanes = g.vector_lanes;
    }
    order = vectorize_dim(st, x_in, lanes,
                          round_up_update ? TailStrategy::RoundUp : may_shift ? tail_of(g, n.name) : TailStrategy::GuardWithIf);
    if (round_up_update) {
        const std::string note = "Func " + n.name + ": its update's last vectors rounded up (" +
                                 (inputs_clamped ? "reads inputs clamped" : "clamped reads along it") + ").";
        note_once(note);
    }
    if (!per_step) order.insert(order.begin() + 1, rvars.begin(), rvars.end());
    if (args.size() >= 2) {
        const std::string y = args[1];
        if (g.tile_y > 0) {
            w_.split(st, y, y + "_o", y + "_i", g.tile_y,
                     g.tile_y_shift && may_shift ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
            order.push_back(y + "_i");
            outer.push_back(y + "_o");
        } else {
            order.push_back(y);
        }
        if (g.transpose_blocks && g.vector_lanes > 1 && !update) {
            // Blocks of a vector by transpose_block_rows inside the tile, their rows unrolled.
            const std::string yin = order.back();
            const int rows = transpose_block_rows(g.vector_lanes);
            if (g.tile_y == rows) {
                order.pop_back();
                order.insert(order.begin() + 1, yin);
                w_.unroll(st, yin);
            } else {
                w_.split(st, yin, yin + "_b", yin + "_r", rows, TailStrategy::GuardWithIf);
                order.back() = yin + "_b";
                order.insert(order.begin() + 1, yin + "_r");
                w_.unroll(st, yin + "_r");
            }
        }
    }
    for (size_t d = 2; d < args.size(); d++) {
        const bool inner = std::find(g.inner_dims.begin(), g.inner_dims.end(), (int)d) != g.inner_dims.end();
        (inner ? order : outer).push_back(args[d]);
    }
    if (per_step) order.insert(order.end(), rvars.begin(), rvars.end());
    if (g.tile_x > 0) order.push_back(x + "_o");
    // Members computed per iteration of a small constant plane: several iterations per task,
    // the members computed per iteration inside it (member_iterations_per_task).
    std::string member_loop;
    if (const std::optional<int> per_task = update ? std::nullopt : member_iterations_per_task(g, n); per_task && !outer.empty()) {
        const std::string z = outer.front();
        w_.split(st, z, z + "_task", z + "_in_task", *per_task, TailStrategy::GuardWithIf);
        order.push_back(z + "_in_task");
        outer.front() = z + "_task";
        member_loop = z + "_in_task";
        note_once("Func " + n.name + ": its members computed per point of " + z + " in a plane of constant size: " +
                  std::to_string(*per_task) + " of them per parallel task.");
    }
    order.insert(order.end(), outer.begin(), outer.end());
    // An interleaved output (GroupPlan::interleaved_dim): its channels innermost, inside the
    // vectors along x.
    const bool interleave = !update && g.interleaved_dim >= 2 && g.interleaved_dim < (int)args.size() &&
                            g.vector_lanes > 1 && !g.transpose_blocks &&
                            std::find(order.begin(), order.end(), args[g.interleaved_dim]) != order.end();
    if (interleave) {
        order.erase(std::find(order.begin(), order.end(), args[g.interleaved_dim]));
        order.insert(order.begin(), args[g.interleaved_dim]);
    }
    if (order.size() > 1) w_.reorder(st, order);
    if (update && !per_step) unroll_short_window(st, n.stages.back(), n);
    // Dimensions compared with constants (GroupPlan::select_unrolled): unrolled, an output's in
    // a specialization where they hold the family's extent from 0, which takes the parallel
    // loop and the channels' interleaving below as the stage does.
    std::vector<StageRef *> stages = {&st};
    std::optional<StageRef> selects;
    if (!update) {
        std::vector<std::string> keep = outer;
        if (interleave) keep.push_back(args[g.interleaved_dim]);
        selects = unroll_compared_dims(g, n, st, order, lanes > 1, keep);
    }
    if (selects) stages.insert(stages.begin(), &*selects);
    // The tile rows and the large outer dims: one parallel loop.
    std::string tile_var = g.tile_x > 0 ? x + "_o" : "";
    const std::string member_level = per_step ? rvars.front() : "";
    // The group's points: the root's, times the reduction's steps for an update, times the
    // group's Funcs (members cost about as much).
    // None in a heavy group (heavy_group): no serial copy of it.
    const std::optional<SizeExpr> points =
        heavy_group_ ? std::nullopt
                     : stage_points(n, update ? (int)n.stages.size() - 1 : 0,
                                    (1 + (int64_t)g.members.size()) * (1 + kPointsPerMathCall * math_calls_per_point(dag_, n.func)));
    // The parallel loop's iterations, where nothing is computed at it (a member computed at the
    // fused loop needs it whole in every specialization) and it runs over whole rows (splitting
    // a loop of row tiles again, guarded, made test_fuzz seed 78's transpose of unrolled blocks
    // compile in 248 s instead of 155 s).
    std::optional<SizeExpr> iterations;
    if (!outer.empty() && g.members.empty() && g.tile_x == 0 && g.tile_y == 0 && !g.transpose_blocks && !update) {
        iterations = size_constant(1);
        for (size_t d = 2; d < args.size() && iterations; d++) {
            const bool inner = std::find(g.inner_dims.begin(), g.inner_dims.end(), (int)d) != g.inner_dims.end();
            if (!inner) iterations = times(iterations, extent_of(n, (int)d));
        }
    }
    // Too many leaves with the tiers (tiled_root): none, said where they would have applied.
    if (iterations && !no_task_tiers_.empty() && !constant_value(iterations->expr) && points) {
        note_once(no_task_tiers_);
        iterations.reset();
    }
    for (StageRef *sp : stages) {
        if (!outer.empty()) {
            const std::string par = fused_parallel_unless_small(w_, *sp, outer, n.name + "_rows_", points, iterations);
            if (tile_var.empty()) tile_var = par;
        } else if (g.tile_x > 0) {
            fused_parallel_unless_small(w_, *sp, {x + "_o"}, "", points);
        }
        if (interleave) interleave_channels(g, n, *sp);
    }
    if (!member_level.empty()) tile_var = member_level;
    if (!member_loop.empty()) tile_var = member_loop;
    if (with_members) {
        for (const std::string &m : g.members) member(g, m, root, tile_var, n.name, tail_of(g, m));
    }
}

// GroupPlan::select_unrolled on the root's pure stage, after its loops are ordered. An output
// gets a specialization where its buffer holds exactly the family's extent from 0 along those
// dimensions, with them unrolled (returned: the caller schedules its parallel loop as the
// stage's); each copy of the body then has a constant where the definition compares, and
// Halide's simplifier drops the branches it does not take. A root computed at root:
// split_compared_dims in every branch.
std::optional<ScheduleWriter::StageRef> GroupApplier::unroll_compared_dims(const GroupPlan &g, const FuncNode &n, StageRef &st,
                                                                          const std::vector<std::string> &loops, bool vectorized,
                                                                          const std::vector<std::string> &keep) {
    const auto it = g.select_unrolled.find(n.name);
    if (it == g.select_unrolled.end() || it->second.empty()) return std::nullopt;
    if (!n.is_output) {
        split_compared_dims(g, n, st, true, loops, vectorized, keep);
        return std::nullopt;
    }
    const FuncRef &out = ref_(n.name);
    std::vector<Condition> holds;
    std::string dims;
    for (const auto &[d, extent] : it->second) {
        holds.push_back(w_.equal_to(w_.output_extent(out, d), extent));
        holds.push_back(w_.equal_to(w_.output_min(out, d), 0));
        dims += (dims.empty() ? "" : ", ") + n.func.args()[d] + " (" + std::to_string(extent) + ")";
    }
    StageRef constant = w_.specialize(st, w_.all_of(holds));
    if (!n.consumers.empty()) {
        split_compared_dims(g, n, constant, false, loops, vectorized, keep);  // its region is not provably constant
    } else {
        std::vector<std::string> unrolled;
        for (const auto &[d, extent] : it->second) {
            w_.unroll(constant, n.func.args()[d]);
            unrolled.push_back(n.func.args()[d]);
        }
        const std::vector<std::string> inside = unrolled_inside(loops, unrolled, vectorized, keep);
        if (inside != loops) w_.reorder(constant, inside);
    }
    note_once("Func " + n.name + ": " + dims + " unrolled where the buffer holds that many from 0 " +
              "(its definition compares them with constants).");
    return constant;
}

// Where an output's channels (dim `d`) are unrolled: their extent is the family's constant, and,
// where its definition compares them with constants (`select(c == 0, r, c == 1, g, b)`), they
// start at 0, so that each unrolled channel's selects fold. Otherwise every channel computed
// every branch (HSV -> RGB's three sector muxes per channel: 1.43 ms at 1024 x 768, 0.85 with the
// selects folded).
Condition GroupApplier::channels_constant(const FuncNode &n, int d, const SizeExpr &channels, int extent) {
    const Condition holds = w_.equal_to(channels, extent);
    const std::vector<int> compared = dims_compared_with_constants(n.func);
    if (!n.is_output || std::find(compared.begin(), compared.end(), d) == compared.end()) return holds;
    return w_.all_of({holds, w_.equal_to(w_.output_min(ref_(n.name), d), 0)});
}

// GroupPlan::interleaved_dim, after the stage's parallel loop (a specialization copies the
// schedule so far): where the channels' extent is the family's constant, they are unrolled, so
// Halide stores the unrolled channels of a vector of x as one interleaved vector.
void GroupApplier::interleave_channels(const GroupPlan &g, const FuncNode &n, StageRef &st) {
    const std::string c = n.func.args()[g.interleaved_dim];
    const std::optional<SizeExpr> channels = extent_of(n, g.interleaved_dim);
    if (g.interleaved_extent > 0 && channels) {
        StageRef constant = w_.specialize(st, channels_constant(n, g.interleaved_dim, *channels, g.interleaved_extent));
        if (n.consumers.empty()) {
            w_.unroll(constant, c);
        } else {
            // An output read by other stages: its region may not be provably constant (see
            // short_dim0_stage).
            w_.split(constant, c, c + "_o", c + "_u", g.interleaved_extent, TailStrategy::GuardWithIf);
            w_.unroll(constant, c + "_u");
        }
    }
    const std::string note = "Func " + n.name + ": its buffer stores " + c + " innermost: " + c + " inside the vectors along " +
                             n.func.args()[0] +
                             (g.interleaved_extent > 0 && channels ? " (unrolled where it is " + std::to_string(g.interleaved_extent) + ")" : "") +
                             ".";
    note_once(note);
}

// GroupPlan::select_unrolled on a member's pure stage, or a root's whose region may not be
// provably constant (computed at root; an output read by other stages, in its specialization:
// see short_dim0_stage): a guarded split by the family's extent, its inner loop unrolled, in every branch (a member's
// region along a channel dimension is what its readers read: constant where they name the
// channels, hsv(x, y, 0) .. hsv(x, y, 2), and then the guards fold).
void GroupApplier::split_compared_dims(const GroupPlan &g, const FuncNode &n, StageRef &st, bool note,
                                       const std::vector<std::string> &loops, bool vectorized,
                                       const std::vector<std::string> &keep) {
    const auto it = g.select_unrolled.find(n.name);
    if (it == g.select_unrolled.end()) return;
    const std::vector<std::string> args = n.func.args();
    std::string dims;
    std::vector<std::string> split_loops = loops, unrolled;
    for (const auto &[d, extent] : it->second) {
        w_.split(st, args[d], args[d] + "_o", args[d] + "_u", extent, TailStrategy::GuardWithIf);
        w_.unroll(st, args[d] + "_u");
        dims += (dims.empty() ? "" : ", ") + args[d] + " (" + std::to_string(extent) + ")";
        auto at = std::find(split_loops.begin(), split_loops.end(), args[d]);
        if (at != split_loops.end() && std::find(keep.begin(), keep.end(), args[d]) == keep.end()) {
            *at = args[d] + "_o";
            split_loops.insert(at, args[d] + "_u");
            unrolled.push_back(args[d] + "_u");
        }
    }
    const std::vector<std::string> inside = unrolled_inside(split_loops, unrolled, vectorized, {});
    if (!unrolled.empty() && inside != split_loops) w_.reorder(st, inside);
    if (note) note_once("Func " + n.name + ": " + dims + " unrolled (its definition compares them with constants).");
}

// The loops (innermost first) with the unrolled ones moved just inside the vector loop (the first
// loop when `vectorized`, else innermost), but those in `keep` (fused into the parallel loop, or
// interleaved into the vectors). Unrolled there, the copies of the body, one per constant, share
// their loads and common subexpressions within one vector iteration: an RGB -> HSV -> RGB round
// trip computed hue, saturation and the 6-way select once per pixel instead of once per channel.
std::vector<std::string> unrolled_inside(const std::vector<std::string> &loops, const std::vector<std::string> &unrolled,
                                         bool vectorized, const std::vector<std::string> &keep) {
    std::vector<std::string> rest, moved;
    for (const std::string &l : loops) {
        const bool move = std::find(unrolled.begin(), unrolled.end(), l) != unrolled.end() &&
                          std::find(keep.begin(), keep.end(), l) == keep.end();
        (move ? moved : rest).push_back(l);
    }
    if (moved.empty()) return loops;
    const size_t at = vectorized && !rest.empty() ? 1 : 0;
    rest.insert(rest.begin() + at, moved.begin(), moved.end());
    return rest;
}

// Heuristic (named: a group's code size): every specialization of a root copies its members'
// code, and a member's update (a box filter computed per tile) adds its own specializations per
// row width. A group whose members reduce and whose definitions hold at least kHeavyGroupNodes IR
// nodes (inlined Funcs expanded) takes no serial copy for small work (fused_parallel_unless_small)
// and no per-value window unrolls in its members (unroll_window_per_value). The serial copy saves
// the pool's wake-up, tens of microseconds at most, which such a group's arithmetic dwarfs at all
// but the smallest shapes. A colour-guided filter fused
// into its output's tiles (8 members, 618 nodes, four box-filter passes; 13 copies of the group)
// took LLVM 139 s with the serial copies and its members' windows unrolled per R, 34 s without
// the unrolls, 9 s without either; at 65 x 65 it ran 0.28 -> 0.36 ms on AVX2 without the serial
// copy (apps/results/cpu/param_cost_values_2026-12-03/).
// Groups below the bound (a debug print over round 1-13's changed pipelines, not kept): a local
// contrast normalization's 311 nodes, a layer norm's 68.
bool GroupApplier::heavy_group(const GroupPlan &g) const {
    if (!std::any_of(g.members.begin(), g.members.end(), [&](const std::string &m) { return dag_.node(m).has_updates(); })) return false;
    const auto inlined = [this](const std::string &f) { return inlined_.count(f) > 0; };
    int64_t nodes = 0;
    std::vector<std::string> funcs = g.members;
    funcs.push_back(g.root);
    for (const std::string &f : funcs) {
        const Halide::Internal::Function &fn = dag_.node(f).func;
        nodes += definition_nodes(fn.definition(), inlined).nodes;
        for (const Halide::Internal::Definition &u : fn.updates()) nodes += definition_nodes(u, inlined).nodes;
    }
    return nodes >= kHeavyGroupNodes;
}

std::string output_buffer_ident(const FunctionDAG &dag, const FuncRefLookup &ref, const std::string &buffer) {
    if (dag.has(buffer) && dag.node(buffer).is_output) return ref(buffer).ident + ".output_buffer()";
    const size_t dot = buffer.rfind('.');
    if (dot == std::string::npos) return std::string();
    const std::string func = buffer.substr(0, dot), index = buffer.substr(dot + 1);
    if (!dag.has(func) || !dag.node(func).is_output || index.empty() ||
        index.find_first_not_of("0123456789") != std::string::npos) {
        return std::string();
    }
    return ref(func).ident + ".output_buffers()[" + index + "]";
}

std::vector<std::string> apply_group(const GroupPlan &g, const FunctionDAG &dag, ScheduleWriter &w,
                                     const FuncRefLookup &ref, int vector_bits, bool masked_narrow_lanes,
                                     const std::set<std::string> &inlined, int vector_registers) {
    GroupApplier a(dag, w, ref);
    a.vector_bits_ = vector_bits;
    a.vector_registers_ = vector_registers;
    a.masked_narrow_lanes_ = masked_narrow_lanes;
    a.inlined_ = inlined;
    return a.apply(g);
}

}  // namespace diet
