// How a stage's outer loops become parallel tasks: fused into one parallel loop, serial where the
// work is small, several small iterations, rows or planes per task (schedule/GroupApplier.h,
// schedule/ApplyGroups.h).
#include "schedule/GroupApplier.h"

namespace diet {

using namespace Halide;
using StageRef = GroupApplier::StageRef;

std::string fused_parallel_unless_small(ScheduleWriter &w, ScheduleWriter::StageRef &st, const std::vector<std::string> &outer,
                                        const std::string &fused_prefix, const std::optional<SizeExpr> &points,
                                        const std::optional<SizeExpr> &iterations) {
    std::string par = outer.at(0);
    for (size_t i = 1; i < outer.size(); i++) {
        const std::string fused = fused_prefix + std::to_string(i);
        w.fuse(st, par, outer[i], fused);
        par = fused;
    }
    if (points) w.specialize(st, w.at_most(*points, kSerialPoints));
    if (points && iterations && !constant_value(iterations->expr)) {
        // Many iterations of few points each (a per-channel scale of 64 images of one 56-wide
        // row: 4096 tasks of 56 points, 0.5x serial unscheduled Halide, probe 13; a depthwise
        // convolution's zero pass over 32 channels of 128 x 128 points: 16384 tasks of 32
        // points, 3x the whole layer's time with 16 per task): a constant number of them per
        // task there, more the smaller they are (GroupedIterations; the first tier that holds
        // is taken, Halide tries specializations in order).
        const SizeExpr per_iteration = ceil_div(*points, size_max(*iterations, size_constant(1)));
        for (const GroupedIterations &tier : kGroupedIterations) {
            ScheduleWriter::StageRef grouped = w.specialize(
                st, w.all_of({w.at_least(*iterations, tier.per_task * 4), w.at_most(per_iteration, tier.max_points)}));
            w.split(grouped, par, par + "_task", par + "_in_task", tier.per_task, TailStrategy::GuardWithIf);
            w.parallel(grouped, par + "_task");
        }
    }
    w.parallel(st, par);
    return par;
}

// The loops `outer` fused into one parallel loop (fused_parallel_unless_small): a small outer
// dimension alone (3 colour channels) cannot feed the cores.
void GroupApplier::parallel_fused(StageRef &st, const std::vector<std::string> &outer, const std::string &base,
                                  const std::optional<SizeExpr> &points, const std::optional<SizeExpr> &iterations) {
    if (!outer.empty()) fused_parallel_unless_small(w_, st, outer, base + "_par", points, iterations);
}

// A stage whose parallel loop is its row loop `y` alone: one row per task made 900 tasks of
// 100 points for a scan along each row (f(r, y) = f(r - 1, y) + in(r, y)), its init as many,
// 2x slower than serial unscheduled Halide (probe 13). Where there are rows enough (a
// specialization, scheduled here in full), kRowsPerTask rows per task; a constant factor (one
// computed at run time loosens Halide's bounds, see fused_parallel_unless_small). `order`:
// the stage's loops inside y, innermost first (empty: leave the order as it is).
void GroupApplier::rows_in_tasks(StageRef &st, const FuncNode &n, int stage, const std::string &y, const std::vector<std::string> &order) {
    const int d = dim_of(n, y);
    const std::optional<SizeExpr> rows = d >= 0 ? extent_of(n, d) : std::nullopt;
    if (!rows || constant_value(rows->expr)) return;
    StageRef many = w_.specialize(st, w_.at_least(*rows, kRowsPerTask * kTasksPerCoreEnough));
    const std::string task = y + "_task", in_task = y + "_in_task";
    w_.split(many, y, task, in_task, kRowsPerTask, TailStrategy::GuardWithIf);
    if (!order.empty()) {
        std::vector<std::string> many_order = order;
        many_order.push_back(in_task);
        many_order.push_back(task);
        w_.reorder(many, many_order);
    }
    parallel_fused(many, {task}, n.name + "_s" + std::to_string(stage), stage_points(n, stage, 1));
}

// An intermediate's pure loops fused whole make one task per row of dim 0, however small (a
// causal linear attention's state kv(d, e, t, h), 32 x 32 planes: 65536 tasks of 32 points at
// T = 512, 7-10 ms for 8 MiB, the pool's cost per task; red-team round 14). Where a plane (dims
// 0 and 1) holds at most kSmallPlanePoints, each task takes kRowsPerTask planes: dim 1 inside
// it, dim 2 split by that constant (one dimension, as rows_in_tasks; a split of the fused loop
// loosened Halide 14's bounds of such a root, see pure_loops). With dim 1 alone inside, kv's 2048
// tasks of 1024 points still cost 0.75 ms on 2 cores. Larger planes keep a task per row (the
// rows then are as many as the planes' points allow). A specialization of `st`, scheduled here
// in full, or `st` itself where the plane's size is a constant (returns whether `st` is
// scheduled).
bool GroupApplier::planes_in_tasks(StageRef &st, const FuncNode &n, int64_t dim0_largest) {
    const std::vector<std::string> args = n.func.args();
    const std::optional<SizeExpr> plane = times(extent_of(n, 0), extent_of(n, 1));
    if (!plane) return false;
    const std::optional<int64_t> known = constant_value(plane->expr);
    if (known && *known > kSmallPlanePoints) return short_rows_in_tasks(st, n, dim0_largest);
    const Condition small = w_.at_most(*plane, kSmallPlanePoints);
    if (!known && w_.specialized_on(st, small)) return false;
    StageRef planes = known ? st : w_.specialize(st, small);
    const std::string z = args[2], task = z + "_task";
    w_.split(planes, z, task, z + "_in_task", kRowsPerTask, TailStrategy::GuardWithIf);
    std::vector<std::string> outer = {task};
    outer.insert(outer.end(), args.begin() + 3, args.end());
    parallel_fused(planes, outer, n.name + "_s0p", stage_points(n, 0, 1));
    note_once("Func " + n.name + ": planes of dimensions " + args[0] + ", " + args[1] + " of at most " +
              std::to_string(kSmallPlanePoints) + " points: " + std::to_string(kRowsPerTask) + " of them per parallel task.");
    return known.has_value() || short_rows_in_tasks(st, n, dim0_largest);
}

// Larger planes of rows of dim 0 short at every shape (at most kShortRowPoints): a task per row
// was a task per few points (an integral histogram's 8 bins per pixel, ih(b, x, y): 307200
// tasks of 8 points at 640 x 480, 25-37 ms of its 37 on 2 cores, red-team round 15). Each task
// takes a constant count of rows instead, kSmallPlanePoints points' worth: dim 1 split by it and
// its tasks fused with the outer dimensions (a split of dim 1, not of the fused loop: the
// realized region stays the Func's). Returns whether `st` is scheduled.
bool GroupApplier::short_rows_in_tasks(StageRef &st, const FuncNode &n, int64_t dim0_largest) {
    const std::vector<std::string> args = n.func.args();
    // Over the Params' ranges, else the family's largest shape (an output's extent bounds it).
    std::optional<int64_t> longest = longest_extent(n, 0);
    if (!longest && dim0_largest > 0) longest = dim0_largest;
    if (args.size() < 3 || !longest || *longest <= 0 || *longest > kShortRowPoints) return false;
    const int rows = (int)std::max<int64_t>(1, kSmallPlanePoints / *longest);
    const std::string y = args[1], task = y + "_task";
    w_.split(st, y, task, y + "_in_task", rows, TailStrategy::GuardWithIf);
    std::vector<std::string> outer = {task};
    outer.insert(outer.end(), args.begin() + 2, args.end());
    parallel_fused(st, outer, n.name + "_s0r", stage_points(n, 0, 1));
    note_once("Func " + n.name + ": rows of dimension " + args[0] + " of at most " + std::to_string(*longest) + " points: " +
              std::to_string(rows) + " of them per parallel task.");
    return true;
}

namespace {

// Whether update `s` of `n` writes at a computed coordinate (a scatter), not only at variables
// and constants.
bool writes_at_computed_point(const StageNode &s, const FuncNode &n) {
    if (s.index == 0) return false;
    for (const Expr &arg : n.func.updates()[s.index - 1].args()) {
        if (!arg.as<Internal::Variable>() && !Internal::is_const(arg)) return true;
    }
    return false;
}

}  // namespace

// An intermediate root's update loops with its vectors of dim 0 `x_vo` outermost but one made a
// task per step of vectors (an RGBA bicubic's 4 x 4 sum, 64 points a step: 1164 tasks at
// 129 x 97, 49152 at 1024 x 768; red-team round 14). Outputs group such iterations by tiers
// (fused_parallel_unless_small); an intermediate's splits of the fused loop loosened Halide 14's
// bounds (pure_loops). Where the rows (the other loops of `outer`, fused) are kBandsEnough or
// more, they are the parallel loop and each task walks a whole row of vectors, as banded_tasks
// does; fewer rows keep the vectors in the parallel loop, in a specialization of `st` where the
// rows are known at run time only. Not for scatters (below). Returns whether `st` is scheduled
// (its parallel loop). Heuristic, measured on red-team rounds 1-14 (whole_row_tasks_2026-12-05).
bool GroupApplier::whole_row_tasks(StageRef &st, const StageNode &s, const FuncNode &n, const std::vector<std::string> &outer,
                                   const std::string &x_vo) {
    // Not a scatter: a bilateral grid's histogram (written at a data-dependent z) ran 1.7x
    // slower with whole rows per task, on one thread too (cause not found; whole_row_tasks_2026-12-05).
    // Scans (written at a reduction variable) are kept: a linear attention's state 0.83x.
    if (outer.size() < 2 || outer[0] != x_vo || writes_at_computed_point(s, n)) return false;
    std::optional<SizeExpr> rows = size_constant(1);
    for (size_t i = 1; i < outer.size(); i++) {
        const int d = dim_of(n, outer[i]);
        rows = times(rows, d >= 0 ? extent_of(n, d) : std::nullopt);
    }
    if (!rows) return false;
    const std::optional<int64_t> known = constant_value(rows->expr);
    if (known && *known < kBandsEnough) return false;
    const std::string base = n.name + "_u" + std::to_string(s.index);
    if (!known) {
        StageRef few = w_.specialize(st, w_.at_most(*rows, kBandsEnough - 1));
        parallel_fused(few, outer, base, stage_points(n, s.index, 1));
    }
    parallel_fused(st, {outer.begin() + 1, outer.end()}, base + "r", stage_points(n, s.index, 1));
    note_once("Func " + n.name + ": each parallel task of its update takes whole rows of vectors (" +
              std::to_string(kBandsEnough) + " rows or more).");
    return true;
}

// Iterations of the outer loop per parallel task for a group whose members are computed per
// iteration of it: where the tile is the whole of dims 0 and 1 (and the inner dims), each a
// constant extent, the tier of kGroupedIterations for the points an iteration computes (the
// root's and its members'); none where no tier holds them or an extent varies over the family
// (GroupPlan::constant_plane_points). Batched 8 x 8 products (red-team round 15, C = A B A^T per
// batch element n) ran one task of 64 points per n, 2-11x Adams2019's time. A constant factor,
// in every specialization alike: the members are computed at the split's inner loop, which must
// exist in each.
std::optional<int> GroupApplier::member_iterations_per_task(const GroupPlan &g, const FuncNode &n) {
    if (g.members.empty() || g.tile_x > 0 || g.tile_y > 0 || g.members_per_step || g.transpose_blocks || n.dims() < 3) {
        return std::nullopt;
    }
    if (g.constant_plane_points <= 0) return std::nullopt;
    const int64_t points = (1 + (int64_t)g.members.size()) * g.constant_plane_points;
    for (const GroupedIterations &tier : kGroupedIterations) {
        if (points <= tier.max_points) return tier.per_task;
    }
    return std::nullopt;
}

}  // namespace diet
