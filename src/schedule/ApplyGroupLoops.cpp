// A stage group's loop nests: update loops, row reductions in vector lanes, rfactor, and the
// run-time sizes that decide them (schedule/GroupApplier.h; their parallel tasks: ParallelTasks.cpp).
#include "schedule/GroupApplier.h"
#include "analysis/ClampedReads.h"
#include "analysis/ParamRanges.h"
#include "analysis/PredicateReads.h"
#include "analysis/StridedReads.h"
#include "analysis/SymbolicRegion.h"

#include <algorithm>

namespace diet {

using namespace Halide;
using FuncRef = GroupApplier::FuncRef;
using StageRef = GroupApplier::StageRef;

int GroupApplier::value_bits(const FuncNode &n) {
    int bits = 8;
    for (const Type &t : n.func.output_types()) bits = std::max(bits, t.bits());
    return bits;
}

int GroupApplier::lanes_of(const FuncNode &n) const {
    // The plan's lanes are the root's; a member of another type gets its own.
    return std::max(1, vector_bits_ / value_bits(n));
}

void GroupApplier::pure_loops(StageRef &st, const FuncNode &n, int lanes, bool parallel,
                              TailStrategy tail, int64_t dim0_largest) {
    const std::vector<std::string> args = n.func.args();
    if (args.empty()) return;
    vectorize_dim(st, args[0], lanes, tail);
    if (parallel && args.size() == 2) rows_in_tasks(st, n, 0, args[1], {});
    if (!parallel || args.size() < 2) return;
    std::optional<SizeExpr> iterations;
    if (args.size() >= 3 && n.is_output) {
        // Several fused iterations per task where each is small (a zero pass over few channels
        // per pixel). Outputs only: their stages' region is their buffer; over an intermediate
        // computed at root, these splits loosened Halide 14's bounds of its update until the
        // buffer exceeded 2^31 bytes (bilateral_grid's grid, a development run, not committed).
        iterations = size_constant(1);
        for (size_t d = 1; d < args.size(); d++) iterations = times(iterations, extent_of(n, (int)d));
    }
    if (!n.is_output && args.size() >= 3 && planes_in_tasks(st, n, dim0_largest)) return;
    parallel_fused(st, {args.begin() + 1, args.end()}, n.name + "_s0", stage_points(n, 0, 1), iterations);
}

// The points a stage of `n` computes (its run-time extents, times the reduction's steps for an
// update), times `weight`, when known before the run.
std::optional<SizeExpr> GroupApplier::stage_points(const FuncNode &n, int stage, int64_t weight) {
    std::optional<SizeExpr> points = size_constant(weight);
    if (stage > 0) points = times(points, reduction_steps(n, stage));
    for (int d = 0; d < n.dims(); d++) points = times(points, extent_of(n, d));
    return points;
}

// The run-time extent of the Func's dimension `d` (its computed region), if known before the run.
std::optional<SizeExpr> GroupApplier::extent_of(const FuncNode &n, int d) {
    // A region a predicate may narrow (analysis/PredicateReads.h) is smaller than the analysis'
    // at run time: its extent is not known (a vector specialized on it was shifted past its start).
    const std::vector<Expr> *extents = cached_extents(n);
    if (!extents || d >= (int)extents->size()) return std::nullopt;
    return run_time((*extents)[d]);
}

// The Func's run-time extents (analysis/SymbolicRegion.h), computed once per Func; none where a
// predicate may narrow its region (see extent_of).
const std::vector<Expr> *GroupApplier::cached_extents(const FuncNode &n) {
    if (n.region_narrowed) return nullptr;
    auto it = extents_.find(n.name);
    if (it == extents_.end()) it = extents_.emplace(n.name, run_time_extents(dag_, n.name)).first;
    return &it->second;
}

namespace {
int64_t ceil_div_int(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

// Dim d's extent at its largest over the Params' declared ranges, where that is a constant.
std::optional<int64_t> GroupApplier::longest_extent(const FuncNode &n, int d) {
    const std::vector<Expr> *extents = cached_extents(n);
    if (!extents || d >= (int)extents->size() || !(*extents)[d].defined()) return std::nullopt;
    return largest_over_param_ranges((*extents)[d]);
}

// A step of `width` lanes (whole vectors of `lanes`) cut to the fewest whole vectors that cover dim
// 0 at its longest over the Params' declared ranges: a depthwise 3x3 over channels c in [1, 32]
// (red-team round 10, channels innermost) stepped 64 lanes, the specialization for rows of 64
// never taken, its fallback one guarded vector.
int GroupApplier::step_width_within_dim0(const FuncNode &n, int lanes, int width) {
    const std::optional<int64_t> longest = longest_extent(n, 0);
    if (!longest || lanes <= 0) return width;
    return std::min(width, lanes * (int)std::max<int64_t>(1, ceil_div_int(*longest, lanes)));
}

// A run-time size (analysis/SymbolicRegion.h) as the schedule computes and spells it.
SizeExpr GroupApplier::run_time(const Expr &e) {
    return w_.run_time_size(e, [this](const std::string &b) { return output_buffer_ident(dag_, ref_, b); });
}

// The steps of an update's reduction, if known before the run.
std::optional<SizeExpr> GroupApplier::reduction_steps(const FuncNode &n, int stage) {
    SizeExpr steps = size_constant(1);
    for (const Internal::ReductionVariable &rv : n.func.updates()[stage - 1].schedule().rvars()) {
        if (!is_run_time_size(rv.extent)) return std::nullopt;
        steps = steps * run_time(rv.extent);
    }
    return steps;
}

// A one-dimensional update whose points each take a long reduction known only at run time
// (all-pairs forces over N bodies): where it is at least kLongReductionSteps steps long (a
// specialization, scheduled here in full), each task takes kVectorPointsPerTask points' worth of
// those steps, not kVectorPointsPerTask points: red-team round 9's n-body (N <= 1024) ran one
// task of 8192 bodies, one core. Only where the steps may be that long (their most over the
// Params' declared ranges, or unbounded).
void GroupApplier::long_reduction_tasks(StageRef &st, const StageNode &s, const FuncNode &n, int lanes, int max_width,
                                        TailStrategy tail) {
    if (long_steps_ || s.index == 0) return;
    const std::optional<SizeExpr> steps = reduction_steps(n, s.index);
    if (!steps || constant_value(steps->expr)) return;
    const std::optional<int64_t> most = largest_over_param_ranges(steps->expr);
    if (most && *most < kLongReductionSteps) return;
    const Condition long_enough = w_.at_least(*steps, kLongReductionSteps);
    if (w_.specialized_on(st, long_enough)) return;
    StageRef longer = w_.specialize(st, long_enough);
    long_steps_ = true;
    update_loops(longer, s, n, lanes, true, max_width, tail);
    long_steps_ = false;
}

// The index of the pure variable `v` among n's arguments (-1: none).
int GroupApplier::dim_of(const FuncNode &n, const std::string &v) {
    const std::vector<std::string> args = n.func.args();
    const auto it = std::find(args.begin(), args.end(), v);
    return it == args.end() ? -1 : (int)(it - args.begin());
}

std::optional<SizeExpr> GroupApplier::ceil_div_opt(const std::optional<SizeExpr> &a, int64_t b) {
    if (!a) return std::nullopt;
    return ceil_div(*a, size_constant(b));
}

std::optional<SizeExpr> GroupApplier::times(const std::optional<SizeExpr> &a, const std::optional<SizeExpr> &b) {
    if (!a || !b) return std::nullopt;
    return *a * *b;
}


// Pure loops outside the reduction loops; dim 0 vectorized innermost when it is pure here.
// `max_width`: a member's tile width along dim 0 (0: unbounded); several vectors per
// reduction step only within it (wider, the vectors past the tile run predicated: a 2x2 max
// pool's 16-wide tiles at 32 lanes loaded every input element through a predicated gather).
void GroupApplier::update_loops(StageRef &st, const StageNode &s, const FuncNode &n, int lanes, bool parallel, int max_width,
                                TailStrategy tail) {
    const std::vector<std::string> pure = s.pure_vars();
    const std::string x = n.func.args().empty() ? "" : n.func.args()[0];
    const bool x_pure = std::find(pure.begin(), pure.end(), x) != pure.end();
    if (!x_pure && interleave_scan_rows(st, s, n, parallel)) return;
    if (parallel && lanes > 1 && pure.size() == 1 && x_pure) long_reduction_tasks(st, s, n, lanes, max_width, tail);
    // A reduction domain's predicate that loads along dim 0 is evaluated on guarded lanes too
    // (analysis/PredicateReads.h): dim 0 stays scalar.
    if (s.index > 0 && x_pure && predicate_loads_along(n.func.updates()[s.index - 1], x)) {
        lanes = 1;
        const std::string note = "Func " + n.name + ": its update's where() predicate loads along " + x +
                                 ", which is therefore not split into guarded vectors.";
        note_once(note);
    }
    // Loads that gather along dim 0 (analysis/StridedReads.h): vectors of at most kGatherLanes
    // lanes, and one per step for values narrower than 32 bits (gathered lane by lane: the 16
    // loads of one vector are as many independent loads as the step needs). Test_fuzz seed
    // 20282162 (u8, AVX-512) compiled for 168 s with 4 x 64 lanes per step, 16 s with 4 x 16,
    // 3.8 s with 1 x 16. 32-bit types keep their lanes and steps (8 or 16 lanes x 4).
    const Halide::Internal::Definition &def = s.index == 0 ? n.func.definition() : n.func.updates()[s.index - 1];
    const bool gathered = x_pure && lanes > 1 && gathers_along(def, x);
    const bool narrow_gather = gathered && n.func.output_types()[0].bits() < 32;
    if (gathered && (lanes > kGatherLanes || narrow_gather)) {
        lanes = std::min(lanes, kGatherLanes);
        note_once("Func " + n.name + ": its " + (s.index == 0 ? std::string("definition") : "update") + " gathers along " +
                  x + ": vectors of " + std::to_string(lanes) + " lanes" + (narrow_gather ? ", one per step." : "."));
    }
    // Several vectors per reduction step, but one for a Tuple of more than 2 values (a
    // heuristic): a 2 x 2 matrix fold, 4 u32 values each computed from all 4 of the step before,
    // ran 3.78 ms at W = 2048, H = 256 in 4 vectors, 1.51 in 2, 0.43 in 1 (Adams2019 0.54), its
    // state spilled; an argmax's 2 values keep 4 (in 2, 1.9x slower at 512 x 1000; red-team round
    // 7, apps/results/cpu/redteam7_fixes_2026-11-30/). Gathering arg-reductions: GatheredSteps.cpp.
    int vectors = narrow_gather || n.func.outputs() > kValuesSharingVectors ? 1 : kVectorsPerReductionStep;
    if (gathered) vectors = gathered_step_vectors(s, n, lanes, vectors);
    int width = s.rvars().empty() ? lanes : lanes * vectors;
    if (max_width > 0 && width > max_width) width = lanes * std::max(1, max_width / lanes);
    // No more vectors per step than dim 0 holds at its longest over the Params' declared ranges.
    if (x_pure && width > lanes) width = step_width_within_dim0(n, lanes, width);
    const std::optional<SizeExpr> row = parallel && x_pure && lanes > 1 ? extent_of(n, 0) : std::nullopt;
    // Several vectors per guarded step of values narrower than 32 bits, on a target without
    // masked loads and stores of such lanes, only over rows a multiple of the step
    // (whole_steps_only); elsewhere one vector per step. An update whose rows may run inside its
    // steps (rows_may_run_inside_steps): one vector per step over short rows of whole vectors
    // but not of whole steps (short_rows_whole_vectors), the wide steps elsewhere.
    const bool narrow_values = value_bits(n) < 32 && !masked_narrow_lanes_;
    const bool whole_steps = width > lanes && tail != TailStrategy::RoundUp && narrow_values;
    const bool short_rows = width > lanes && tail != TailStrategy::RoundUp && !narrow_values && x_pure && rows_may_run_inside_steps(s, n);
    const std::optional<int64_t> known_row = row ? constant_value(row->expr) : std::nullopt;
    if (known_row && *known_row % width != 0 &&
        (whole_steps || (short_rows && *known_row % lanes == 0 && *known_row < kTailAmortizedSteps * width))) {
        width = lanes;
    }
    if (!row || known_row) {
        update_loops_at(st, s, n, lanes, width, parallel, tail);
        return;
    }
    if (short_rows) {
        StageRef narrow = w_.specialize(st, short_rows_whole_vectors(*row, lanes, width));
        update_loops_at(narrow, s, n, lanes, lanes, parallel, tail);
        note_once("Func " + n.name + ": over rows of whole vectors shorter than " + std::to_string(kTailAmortizedSteps) + " of its " +
                  std::to_string(width) + "-point update steps and no whole number of them, one vector per step.");
    }
    // A root's dim 0 shorter than its vectors at run time: an argmax over each row, vectorized
    // across the rows, ran a single row as 64 guarded lanes of gathers, 150x slower than
    // scalar code (probe 13). Where dim 0 holds fewer, one vector or a quarter of one (guarded:
    // an update takes no ShiftInwards), and scalar code below.
    StageRef wide = w_.specialize(st, whole_steps ? whole_steps_only(*row, width) : w_.at_least(*row, width));
    update_loops_at(wide, s, n, lanes, width, parallel, tail);
    if (whole_steps) {
        note_once("Func " + n.name + ": its " + std::to_string(width) + "-point update steps only where its rows are a multiple of them, one vector per step elsewhere.");
    }
    for (int l : {lanes, lanes / 4}) {
        if (l >= width || l < kNarrowestVector) continue;
        // A row of 16 T + 1 points holds 16 and 4 alike (both T >= 1): one specialization to
        // Halide, scheduled twice it threw "can't create var x_vi" (test_fuzz seed 20269106).
        const Condition fits_if = w_.at_least(*row, l);
        if (w_.specialized_on(st, fits_if)) continue;
        StageRef fits = w_.specialize(st, fits_if);
        update_loops_at(fits, s, n, l, l, parallel, tail);
    }
    update_loops_at(st, s, n, 1, 1, parallel, tail);
    const std::string note = "Func " + n.name + ": where its dimension 0 is shorter than an update's " +
                             std::to_string(width) + "-point steps, one vector, a quarter of one, or scalar code.";
    note_once(note);
}

// Where an update whose rows run inside its steps takes one vector per step (update_loops): rows
// of whole vectors, no whole number of steps, shorter than kTailAmortizedSteps steps. Its last
// guarded step, with 8 rows unrolled inside it, costs about three whole steps: a decayed
// accumulation C = 0.75 C + A B on AVX-512 in 64-point steps ran 0.183 ms at N = 160, 0.087 at
// 192, in one 16-lane vector per step 0.102 at 160 (1.4x the wide steps' cost per point; at
// N = 161 both pay a guarded step: 0.396 and 0.193). A heuristic break-even: a few steps.
// Longer rows keep the wide steps: in one vector per step over every row that was no whole
// number of steps, a separable pass 700 wide ran 1.13-1.18x slower, a 100000-sample audio row
// 1.5x (apps/results/cpu/whole_steps_rows_inside_2026-12-03/). One specialization more, not
// three: JIT time grew 1.5x with a whole-steps one and a guarded one besides.
Condition GroupApplier::short_rows_whole_vectors(const SizeExpr &row, int lanes, int width) {
    return w_.all_of({w_.at_least(row, lanes), w_.multiple_of(row, lanes), w_.not_multiple_of(row, width),
                      w_.at_most(row, (int64_t)kTailAmortizedSteps * width - 1)});
}

// Where an update's steps of several vectors of values narrower than 32 bits run: rows a whole
// number of steps. The last step of any other row is guarded, its loads and stores predicated,
// which Halide 14 / LLVM run lane by lane for 8- and 16-bit lanes on AVX2: a 16-plane bit pack
// at 800 x 600 ran 4x slower in 64-point steps than in 16-point ones (768 wide: alike), a disk
// erosion at 500 x 384 7.2 ms in 128-point steps and 5.4 in 32-point ones, where 512 wide the
// 128-point steps win: the steps' where() test is paid once per step. 32-bit lanes have masked
// loads and stores, and 8- and 16-bit ones with AVX-512BW: there the erosion ran 1.3-3.2x
// slower in one vector per step (apps/results/cpu/step_lanes_2026-12-01/).
Condition GroupApplier::whole_steps_only(const SizeExpr &row, int width) {
    return w_.all_of({w_.at_least(row, width), w_.multiple_of(row, width)});
}

// update_loops' directives, dim 0 in vectors of `lanes` lanes, `width` points per step.
void GroupApplier::update_loops_at(StageRef &st, const StageNode &s, const FuncNode &n, int lanes, int width, bool parallel,
                                   TailStrategy tail, PlaneRows plane_rows_mode) {
    std::vector<std::string> pure = s.pure_vars(), rvars = s.rvars();
    if (pure.empty()) {
        w_.unscheduled(st);
        return;
    }
    const std::string x = n.func.args()[0];
    std::vector<std::string> order;
    const bool x_pure = std::find(pure.begin(), pure.end(), x) != pure.end();
    const auto y = std::find_if(pure.begin(), pure.end(), [&](const std::string &p) { return p != x; });
    if (plane_rows_mode == PlaneRows::decide) {
        plane_rows_mode = x_pure && lanes > 1 && y != pure.end() ? decide_plane_rows(st, s, n, *y, lanes, width, parallel, tail)
                                                                 : PlaneRows::outside;
    }
    // The caller found rounding up safe (rows_inside_round_up); it pays where the rows run inside.
    if (rows_inside_round_up_ && lanes > 1 && tail != TailStrategy::RoundUp &&
        (plane_rows_mode == PlaneRows::inside || plane_rows_mode == PlaneRows::shared)) {
        tail = TailStrategy::RoundUp;
        note_once("Func " + n.name + ": with its rows inside each step, its update's last vectors rounded up (the rows' accumulators stay in memory).");
    }
    // Each step of the reduction loops works on several vectors of a row (`width` points): a
    // scan down the columns of a row-major buffer walks one page per row, so a step should use
    // more than one cache line of it (and the vectors are independent accumulators).
    std::vector<std::string> outer;
    for (const std::string &p : pure) {
        if (p == x && x_pure && lanes > 1) {
            std::vector<std::string> v = vectorize_dim(st, x, width, tail);
            order.push_back(v[0]);
            outer.push_back(v[1]);
        } else {
            outer.push_back(p);
        }
    }
    // A reduction stepping across planes (steps_across_planes): a tile of kRowsInsidePlaneSteps
    // rows inside the reduction loops, so that each step reads that many runs of the same plane
    // (one page) rather than one run per plane (a 64 x 256 x 256 u16 maximum projection:
    // 0.11 ms instead of 0.27, apps/results/cpu/plane_steps_2026-12-01/).
    const auto rows_loop = y == pure.end() ? outer.end() : std::find(outer.begin(), outer.end(), *y);
    // Rows sharing each step's loads (rows_share_step_loads_here) take the same tile of rows.
    const bool rows_inside = (plane_rows_mode == PlaneRows::inside || plane_rows_mode == PlaneRows::shared) && rows_loop != outer.end();
    if (rows_inside) {
        w_.split(st, *y, *y + "_ro", *y + "_ri", kRowsInsidePlaneSteps, TailStrategy::GuardWithIf);
        order.push_back(*y + "_ri");
        *rows_loop = *y + "_ro";
        note_once("Func " + n.name + (plane_rows_mode == PlaneRows::inside ? ": its reduction steps across planes: " : ": its rows share its reduction steps' loads: ") +
                  std::to_string(kRowsInsidePlaneSteps) + " rows of its vectors inside each step.");
    }
    order.insert(order.end(), rvars.begin(), rvars.end());
    if (parallel && outer.size() == 1 && x_pure && lanes > 1 && outer[0] == x + "_vo") {
        // A one-dimensional Func: its vectors alone would be the tasks (a 1-D filter over
        // 100000 points made 3125 tasks of 32 points, 5x slower than serial unscheduled
        // Halide); kVectorPointsPerTask points per task instead, fewer where each point takes a
        // long reduction (long_reduction_tasks: at least kLongReductionSteps steps; shorter
        // ones, a filter's taps, are in the points' cost the constant allows for).
        const std::string task = x + "_task", in_task = x + "_in_task";
        const std::optional<SizeExpr> steps_expr = reduction_steps(n, s.index);
        const std::optional<int64_t> known_steps = steps_expr ? constant_value(steps_expr->expr) : std::nullopt;
        const int64_t steps = long_steps_                                           ? kLongReductionSteps
                              : known_steps && *known_steps >= kLongReductionSteps ? *known_steps
                                                                                    : 1;
        const int64_t vectors = std::max<int64_t>(1, kVectorPointsPerTask / ((int64_t)width * steps));
        if (long_steps_ && steps_expr && vectors > 1) {
            // The steps known at run time only (at least kLongReductionSteps here): fewer vectors
            // per task where the actual steps make them heavy, enough for kMinTaskPointSteps
            // point-steps, a step gathering its lanes counted `lanes` times (as a contraction's
            // gathering dot kernel, gathered_fma_cost), and never more than above: the tasks were
            // sized for 64 steps whatever the steps. A top-3 by repeated argmax over N = 1000 rows,
            // each lane's step a load of its own (red-team round 10), 1.36x faster on AVX2; a
            // nearest neighbour's argmin over 2000 points 1.49x on AVX-512. Written min(vectors, max(q, 1)) so
            // that Halide bounds the factor by the constant (a quotient of unknown sign is unbounded).
            const Halide::Internal::Definition &def = n.func.updates()[s.index - 1];
            const int64_t cost = x_pure && gathers_along(def, x) ? lanes : 1;
            const std::optional<int64_t> most = largest_over_param_ranges(steps_expr->expr);
            if (most && ceil_div_int(kMinTaskPointSteps, width * cost * std::max<int64_t>(*most, 1)) >= vectors) {
                // Never fewer than above within the Params' ranges: the constant.
                w_.split(st, outer[0], task, in_task, (int)vectors, TailStrategy::GuardWithIf);
            } else {
                const SizeExpr q = ceil_div(size_constant(kMinTaskPointSteps), size_constant(width * cost) * *steps_expr);
                w_.split(st, outer[0], task, in_task, size_min(size_constant(vectors), size_max(q, size_constant(1))),
                         TailStrategy::GuardWithIf);
            }
        } else {
            w_.split(st, outer[0], task, in_task, (int)vectors, TailStrategy::GuardWithIf);
        }
        order.push_back(in_task);
        outer = {task};
    } else if (parallel && outer.size() == 1 && outer[0] != x + "_vo" && outer[0] != x) {
        // (Not dim 0 itself, scalar: update_loops specializes on its extent already, and a
        // second specialization on an equal condition is the first one again in Halide.)
        rows_in_tasks(st, n, s.index, outer[0], order);
    }
    order.insert(order.end(), outer.begin(), outer.end());
    w_.reorder(st, order);
    if (!rows_inside) unroll_short_window(st, s, n);
    if (!parallel) {
        if (!rows_inside) unroll_window_per_value(st, s, n);
        return;
    }
    if (rows_inside && banded_tasks(st, s, n, outer, x + "_vo", *y)) return;
    if (!rows_inside && !n.is_output && whole_row_tasks(st, s, n, outer, x + "_vo")) {
        unroll_window_per_value(st, s, n);
        return;
    }
    // Nothing is computed inside these loops (members are computed in the last stage's tiles):
    // several fused iterations may make one task, on an output (see pure_loops).
    std::optional<SizeExpr> iterations;
    if (outer.size() >= 2 && n.is_output) {
        iterations = size_constant(1);
        for (const std::string &p : outer) {
            const int d = dim_of(n, p);
            const int rows_d = rows_inside && p == *y + "_ro" ? dim_of(n, *y) : -1;
            iterations = times(iterations, p == x + "_vo"   ? ceil_div_opt(extent_of(n, 0), width)
                                           : rows_d >= 0    ? ceil_div_opt(extent_of(n, rows_d), kRowsInsidePlaneSteps)
                                           : d >= 0         ? extent_of(n, d)
                                                            : std::nullopt);
        }
    }
    parallel_fused(st, outer, n.name + "_u" + std::to_string(s.index), stage_points(n, s.index, 1), iterations);
    if (!rows_inside) unroll_window_per_value(st, s, n);
}

// An update's innermost reduction loop over a short constant window (a 3x3 max pool's or
// stencil's columns) unrolled: its steps' loads overlap and the accumulator stays in a
// register (a 3x3 / 2 max pool of 64 channels, apps/results/cpu/window_unroll_2026-11-30/:
// 0.48-0.69 ms instead of 0.71-0.86). Not a loop any Func is computed at (unroll_windows_).
bool GroupApplier::window_may_unroll(const StageNode &s, const FuncNode &n) const {
    return unroll_windows_ && writes_at_pure_point(s, n);
}

// Whether update `s` writes each step at its pure variables (not a scatter: a bilateral grid's
// histogram writes at a data-dependent z).
bool GroupApplier::writes_at_pure_point(const StageNode &s, const FuncNode &n) const {
    if (s.index == 0) return false;
    const std::vector<std::string> pure = s.pure_vars();
    for (const Expr &arg : n.func.updates()[s.index - 1].args()) {
        const Internal::Variable *v = arg.as<Internal::Variable>();
        if (!v || std::find(pure.begin(), pure.end(), v->name) == pure.end()) return false;
    }
    return true;
}

void GroupApplier::unroll_short_window(StageRef &st, const StageNode &s, const FuncNode &n) {
    // Only where every step updates the same point (its left-hand side the pure variables): a
    // scatter (a bilateral grid's histogram, written at a data-dependent z) gains nothing and
    // its code grows (3-14% slower unrolled in a development run, not committed).
    if (!window_may_unroll(s, n)) return;
    for (const LoopVar &l : s.loops) {
        if (!l.is_rvar) continue;
        const int64_t *extent = l.extent.defined() ? Internal::as_const_int(l.extent) : nullptr;
        if (extent && *extent > 1 && *extent <= kUnrolledWindow) w_.unroll(st, l.name);
        return;  // the innermost only
    }
}

void GroupApplier::update_root(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    // Stored as its vectors run (GroupPlan::dim1_vectors): its readers load dimension 1 densely.
    if (g.short_dim0 && g.dim1_vectors && g.members.empty() && !n.is_output && n.dims() >= 2) store_dim1_innermost(n, root);
    if (task_accumulators(g, n, root)) return;
    if (lifted_register_update(g, n, root)) return;
    for (const StageNode &s : n.stages) {
        StageRef st = w_.stage(root, s.index, s);
        if (g.short_dim0 && g.members.empty() && n.dims() >= 2) short_dim0_stage(g, n, st, s);
        else if (s.index == 0) pure_loops(st, n, g.vector_lanes, true, TailStrategy::GuardWithIf, g.dim0_largest);
        else if (!g.members.empty() && s.index + 1 == (int)n.stages.size() && g.members_per_point) point_stage(g, n, root, st, s);
        else if (!g.members.empty() && s.index + 1 == (int)n.stages.size()) tile_stage(g, n, root, st, s.rvars());
        else if (g.row_lanes() && s.index == 1) row_lanes(g.lane_rvar, n, root, st, s, g.vector_lanes, true);
        else {
            const TailStrategy tail = update_tail(n, s);
            if (tail == TailStrategy::RoundUp) note_once("Func " + n.name + ": its update's last vectors rounded up (reads inputs clamped).");
            rows_inside_round_up_ = rows_inside_round_up(g, s, n);
            update_loops(st, s, n, g.vector_lanes, true, 0, tail);
            rows_inside_round_up_ = false;
        }
    }
}

// The tail of a root's update loops: guarded, but rounded up for values narrower than 32 bits
// on a target without masked loads and stores of such lanes where the root is no output and
// reads the inputs only clamped (its region grows by less than a step; its reads stay in
// range). A guarded step predicates its loads and stores, which Halide 14 / LLVM then run lane
// by lane (whole_steps_only): a disk erosion's intermediate, 522 points wide in 128-point steps
// (apps/results/cpu/step_lanes_2026-12-01/). 32-bit lanes keep their guards (masked loads and
// stores; rounding up would add up to a step of work per row), but for an update that gathers
// along dimension 0 (analysis/StridedReads.h) where its reads along dimension 0 are bounded
// (reads_inputs_clamped_along): a guarded step of gathers is predicated lane by lane. An RGBA
// bicubic's sum, 129 points a row in 64-point steps, ran its rows in 0.78 ms where 16-point
// steps took 0.39 and whole rows of 128 points 0.32 (its last step cost about three whole
// ones; apps/results/cpu/interleaved_sums_2026-12-05/); one vector per step for every gathered
// update lost up to 1.4x on long rows, where a step rounded up costs at most a step. Not for a
// scatter, nor where the rounded points would grow a computed producer's region: a bilateral
// grid's histogram ran 1.13-1.51x slower rounded up (AVX2), a Lanczos resize's second pass 1.06-
// 1.27x (apps/results/cpu/gathered_tails_2026-12-05/).
Halide::TailStrategy GroupApplier::update_tail(const FuncNode &n, const StageNode &s) const {
    if (n.is_output || n.func.args().empty()) return TailStrategy::GuardWithIf;
    if (value_bits(n) < 32 && !masked_narrow_lanes_ && reads_inputs_clamped(dag_, n.name)) return TailStrategy::RoundUp;
    const std::string &x = n.func.args()[0];
    const std::vector<std::string> pure = s.pure_vars();
    const bool x_pure = std::find(pure.begin(), pure.end(), x) != pure.end();
    const bool gathered = s.index > 0 && x_pure && gathers_along(n.func.updates()[s.index - 1], x) && writes_at_pure_point(s, n);
    if (gathered && reads_inputs_clamped_along(dag_, n.name, x, false)) return TailStrategy::RoundUp;
    return clamped_update_rounds_up(s, n) ? TailStrategy::RoundUp : TailStrategy::GuardWithIf;
}

// A reduction along its operands' rows (GroupPlan::lane_rvar): the innermost reduction variable
// split into vectors (the last one guarded: Halide predicates its loads) and rfactored into
// `lanes` partial results per row, computed per row of `n` (one vector register), whose
// update then reduces the lanes. With `parallel` (a root), the rows' outer pure loops are the
// parallel loop (dim 0 in chunks of rows when it is the only one).
void GroupApplier::row_lanes(const std::string &r, const FuncNode &n, FuncRef &root, StageRef &st, const StageNode &s, int lanes,
                             bool parallel) {
    // Rows much shorter than a vector at run time (a matrix-vector product over K = 3: 1000
    // rows of one guarded vector each ran 7x slower than unscheduled) keep dim 0 in the lanes,
    // as update_loops does: the per-lane partial results run under specialize(row >= lanes /
    // 2), the threshold row_reduction_rvar applies to the family's longest row (a heuristic).
    const std::optional<SizeExpr> row_length = rvar_extent(n, s.index, r);
    if (row_length && !constant_value(row_length->expr) && lanes >= 4) {
        StageRef longer = w_.specialize(st, w_.at_least(*row_length, lanes / 2));
        row_lanes_on(r, n, root, longer, s, lanes, parallel);
        update_loops(st, s, n, lanes, parallel);
        return;
    }
    row_lanes_on(r, n, root, st, s, lanes, parallel);
}

// The run-time extent of the update's reduction variable `r`, if known before the run.
std::optional<SizeExpr> GroupApplier::rvar_extent(const FuncNode &n, int stage, const std::string &r) {
    for (const Internal::ReductionVariable &rv : n.func.updates()[stage - 1].schedule().rvars()) {
        if (rv.var == r && is_run_time_size(rv.extent)) return run_time(rv.extent);
    }
    return std::nullopt;
}

void GroupApplier::row_lanes_on(const std::string &r, const FuncNode &n, FuncRef &root, StageRef &st, const StageNode &s, int lanes,
                                bool parallel) {
    // The serial threshold counts the vectors the rows' loop executes (one per `lanes` steps
    // of a row), taken before the rfactor leaves the update only the lanes to reduce: a
    // matrix-vector product over 1024 rows of 256 ran 2x slower on the thread pool than
    // serially (apps/results/cpu/short_rows/).
    std::optional<SizeExpr> work = stage_points(n, 1, 1);
    if (work) work = ceil_div(*work, size_constant(lanes));
    const std::string x = n.func.args()[0];
    const std::string lane_r = r + "_lane", lane_v = n.name + "_lane";
    w_.split(st, r, r + "_vec", lane_r, lanes, TailStrategy::GuardWithIf);
    FuncRef part = w_.rfactor(st, lane_r, lane_v, n.name + "_lanes");
    std::vector<std::string> outer;
    for (const std::string &p : s.pure_vars()) {
        if (p != x) outer.push_back(p);
    }
    std::string row = x;
    if (!parallel) {
        outer.clear();
    } else if (outer.empty()) {
        w_.split(st, x, x + "_rows", x + "_row", kRowsPerTask, TailStrategy::GuardWithIf);
        row = x + "_row";
        outer.push_back(x + "_rows");
    }
    parallel_fused(st, outer, n.name + "_u1", work);
    w_.compute_at(part, root, row, false);
    const std::vector<StageNode> ps = stages_of(part.func.function());
    StageRef pinit = w_.stage(part, 0, ps[0]);
    w_.vectorize(pinit, lane_v);
    StageRef pupd = w_.stage(part, 1, ps[1]);
    std::vector<std::string> order = {lane_v};
    for (const LoopVar &l : ps[1].loops) {
        const std::string name = l.name.substr(l.name.rfind('.') + 1);
        if (name != lane_v) order.push_back(name);
    }
    w_.reorder(pupd, order);
    w_.vectorize(pupd, lane_v);
}

void GroupApplier::rfactor_root(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    StageRef init = w_.stage(root, 0, n.stages[0]);
    pure_loops(init, n, g.vector_lanes, false);
    StageRef upd = w_.stage(root, 1, n.stages[1]);
    const std::string r = g.rfactor_rvar;
    w_.split(upd, r, r + "_chunk", r + "_in", g.rfactor_chunk, TailStrategy::GuardWithIf);
    const std::string u = n.name + "_chunk";
    FuncRef part = w_.rfactor(upd, r + "_chunk", u, n.name + "_partial");
    w_.compute_root(part);
    const std::vector<StageNode> ps = stages_of(part.func.function());
    StageRef pinit = w_.stage(part, 0, ps[0]);
    std::vector<std::string> pargs;
    for (const Var &v : part.func.args()) pargs.push_back(v.name());
    if (!pargs.empty() && pargs[0] != u) vectorize_dim(pinit, pargs[0], g.vector_lanes);
    StageRef pupd = w_.stage(part, 1, ps[1]);
    std::vector<std::string> order;
    for (const LoopVar &l : ps[1].loops) {
        // The split's loops carry their parent's name as a prefix ("r$y.r$y_in").
        const std::string name = l.name.substr(l.name.rfind('.') + 1);
        if (name != u) order.push_back(name);
    }
    order.push_back(u);
    w_.reorder(pupd, order);
    w_.parallel(pupd, u);
}

}  // namespace diet
