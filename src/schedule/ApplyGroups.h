// Turns the planner's stage groups (StagePlan.h) into directives on the live Funcs, on the CPU:
// each rule's loop structure (tiles, members computed per tile, vectorized and parallel loops,
// update loop orders, rfactor). One note per Func says what was done.
#pragma once

#include "analysis/FunctionDAG.h"
#include "schedule/ScheduleWriter.h"
#include "space/StagePlan.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace diet {

using FuncRefLookup = std::function<ScheduleWriter::FuncRef &(const std::string &)>;

// Heuristic (named): a stage of at most this many points (a root's, times the group's Funcs,
// times the reduction's length for an update; a copy's elements) runs serially. A parallel loop
// costs the pool's locking and waking (microseconds on this 2-core VM) however little its tasks
// do: attention's softmax at T = 1 (12 rows of one) paid more for its parallel loops than for its
// arithmetic, and so did a batched product's operand copy at T = 1.
constexpr int64_t kSerialPoints = 1 << 15;

// Heuristic (named): parallel iterations per task by the points each computes, so that a task
// holds a few thousand points (a task costs the pool's lock, about a microsecond here: a
// depthwise convolution whose zero pass ran 16384 tasks of 32 points took 0.80-0.92 ms, with
// these tiers 0.28-0.49, apps/results/cpu/window_unroll_2026-11-30/); tiers, not a factor
// computed at run time (see below), and only where there are 4 tasks per tier's grain.
struct GroupedIterations {
    int per_task;        // iterations per task
    int64_t max_points;  // where each computes at most this many points
};
constexpr GroupedIterations kGroupedIterations[] = {{256, 32}, {64, 128}, {16, 512}};

// Heuristic (named): the most specialization leaves times Tuple values a root's stage takes with
// the task tiers above. Halide 14's bounds inference merges a producer's region over every leaf
// of its consumers and every value of a Tuple, one select per leaf on the leaf's condition (the
// root's run-time sizes, large where several outputs read it), and simplifies the nest: red-team
// round 14's curl, a 3-Tuple read by two outputs and a 0-D sum, took 3 vector branches x 5 leaves
// (serial, 3 tiers, parallel) x 3 values = 45 and its bounds inference ran past 400 s; without
// the tiers there, 18, it compiled in 4.6 s (apps/results/cpu/tier_budget_2026-12-04/). Past
// the budget the stage keeps its serial and parallel leaves only.
constexpr int kMaxTieredLeaves = 32;

// The loops `outer` (innermost first, adjacent, the stage's outermost) fused into one loop
// (`<fused_prefix>1`, `<fused_prefix>2`, ...), run on the thread pool except at run time when
// `points` (if known before the run) is at most kSerialPoints: a specialization taken before the
// parallel directive (it copies the stage's schedule so far, the same loops, serial), so Halide's
// bounds are those of the parallel loops. (A parallel loop split by a grain computed at run time
// was tried first: Halide 14 bounds the loops of a split by a symbolic factor so loosely that
// producers computed at root were sized past 2^31 bytes, bilateral_grid and local_laplacian.)
// Must be the stage's last directive. Returns the parallel loop's name.
// With `iterations` (the fused loop's trip count, when known before the run and not constant):
// where there are many small iterations, specializations run several of them per task
// (kGroupedIterations). Not for a loop something is computed at (the split replaces it there).
// The loops (innermost first) with the `unrolled` ones (dimensions compared with constants,
// GroupPlan::select_unrolled) moved just inside the vector loop, but those in `keep`.
std::vector<std::string> unrolled_inside(const std::vector<std::string> &loops, const std::vector<std::string> &unrolled,
                                         bool vectorized, const std::vector<std::string> &keep);
std::string fused_parallel_unless_small(ScheduleWriter &w, ScheduleWriter::StageRef &st, const std::vector<std::string> &outer,
                                        const std::string &fused_prefix, const std::optional<SizeExpr> &points,
                                        const std::optional<SizeExpr> &iterations = std::nullopt);

// The C++ spelling of an output buffer by its Parameter's name ("y.output_buffer()", or
// "y.output_buffers()[1]" for a Tuple's second buffer); empty for an input buffer.
std::string output_buffer_ident(const FunctionDAG &dag, const FuncRefLookup &ref, const std::string &buffer);

// Applies one group; returns the notes ("Func f: ...") of the root and every member.
std::vector<std::string> apply_group(const GroupPlan &g, const FunctionDAG &dag, ScheduleWriter &w,
                                     const FuncRefLookup &ref, int vector_bits, bool masked_narrow_lanes = false,
                                     const std::set<std::string> &inlined = {}, int vector_registers = 16);

}  // namespace diet
