// The stage-group applier's state and steps, shared by its parts: ApplyGroups.cpp (a group's
// root: tiles, points, vectors), ApplyMembers.cpp (its members), ApplyGroupLoops.cpp (loop nests of
// updates, row reductions in lanes, rfactor, parallel loops and their run-time sizes), ScanRows.cpp
// (scans with rows interleaved) and ParamValues.cpp (specializations per value of a small-range
// Param: a group per value of a divisor, an update's window unrolled per value of its size).
// Private to src/schedule: the entry point is apply_group (ApplyGroups.h).
#pragma once

#include "schedule/ApplyGroups.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace diet {

constexpr int kVectorsPerReductionStep = 4;
constexpr int kValuesSharingVectors = 2;  // Tuple values beyond which a reduction step takes one vector (update_loops)
constexpr int kRowsPerTask = 8;  // rows per parallel task: of a row reduction, of a stage parallel over its rows alone
constexpr int kVectorPointsPerTask = 8192;  // points per parallel task of a one-dimensional update
constexpr int64_t kLongReductionSteps = 64;  // steps per point from which a one-dimensional update's tasks take fewer points (heuristic)
// Point-steps per task of such an update when its steps are known at run time only (a heuristic,
// twice the contraction's kMinTaskFmas: gathered attention rows of 128 steps, 256K counted
// point-steps, ran 1.28x slower as two tasks than as one; apps/results/cpu/long_steps_grain_2026-12-02/).
constexpr int64_t kMinTaskPointSteps = 262144;
// Points of a plane of an intermediate root up to which its pure loops' tasks take whole planes
// (planes_in_tasks; a heuristic: kRowsPerTask planes of it, 32 KiB of floats, are a task worth
// the pool's cost, and below it the planes' rows are too few and short to be tasks).
constexpr int64_t kSmallPlanePoints = 4096;
// Rows of dim 0 at most this long at every shape make no parallel task alone (short_rows_in_tasks;
// heuristic: the largest iteration kGroupedIterations groups).
constexpr int64_t kShortRowPoints = 512;
constexpr int kTasksPerCoreEnough = 4;  // row tasks that feed 2 cores however the rows' costs vary (heuristic)
constexpr int kRowsInsidePlaneSteps = 8;  // rows of a tile inside each step of a reduction across planes (heuristic)
constexpr int kBandsEnough = 2 * kTasksPerCoreEnough;  // bands of rows that feed the cores as the parallel loop alone (banded_tasks; heuristic)
constexpr int64_t kPlaneStepsMinPoints = 1 << 18;  // the points such a reduction walks from which it takes them (heuristic: 1 MiB of 4-byte values, an L2)
constexpr int kTailAmortizedSteps = 8;  // rows of this many update steps amortize a guarded last step (heuristic: short_rows_whole_vectors)
constexpr int kUnrolledWindow = 8;  // an innermost reduction loop of a constant extent up to this is unrolled (heuristic)
// Steps of a whole window unrolled under a specialization per value of the Param that sizes it
// (heuristic: a radius up to 4 in two dimensions, 81 steps, the largest window measured: a
// diamond morphological gradient at R = 4, 0.58-0.62x the time, apps/results/cpu/window_param_values_2026-12-03/).
constexpr int64_t kUnrolledWindowTaps = 81;
// ... and at most this many IR nodes in its unrolled steps (analysis/WindowParams.h
// update_step_nodes; heuristic: a diamond morphology's 81 steps of about 22 nodes fit).
constexpr int64_t kUnrolledWindowNodes = 2048;
constexpr int kInterleavedRows = 8;  // rows of a floating-point scan along dim 0 unrolled inside its steps (heuristic)
constexpr int kNarrowestVector = 4;  // lanes of the narrowest vector a row narrower than the plan's takes
// Reduction steps per point from which a member's update takes several vectors per step where the
// root's row holds them (long_member_chain; heuristic, see ApplyMembers.cpp).
constexpr int64_t kLongMemberChainSteps = 32;
constexpr int64_t kHeavyGroupNodes = 400;  // IR nodes from which a group whose members reduce is heavy (heuristic: heavy_group)

class GroupApplier {
public:
    using FuncRef = ScheduleWriter::FuncRef;
    using StageRef = ScheduleWriter::StageRef;
    using Expr = Halide::Expr;
    using TailStrategy = Halide::TailStrategy;

    GroupApplier(const FunctionDAG &dag, ScheduleWriter &w, const FuncRefLookup &ref) : dag_(dag), w_(w), ref_(ref) {}

    std::vector<std::string> apply(const GroupPlan &g);

    int vector_bits_ = 128;
    int vector_registers_ = 16;  // CpuLimits::vector_registers
    bool masked_narrow_lanes_ = false;  // CpuLimits::masked_narrow_lanes
    std::set<std::string> inlined_;     // the plan's inlined Funcs

private:
    const FunctionDAG &dag_;
    ScheduleWriter &w_;
    const FuncRefLookup &ref_;
    // unroll_short_window may unroll: no Func of the group is computed at a reduction loop.
    bool unroll_windows_ = true;
    std::string group_root_;    // the root of the group being applied
    bool heavy_group_ = false;  // heavy_group() of it
    // Whether the group's code is heavy: members that reduce, kHeavyGroupNodes in all (ApplyGroups.cpp).
    bool heavy_group(const GroupPlan &g) const;
    std::vector<std::string> notes_;
    // A line for the log, once however many specializations schedule the same thing.
    void note_once(const std::string &note) {
        if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
    }
    std::map<std::string, std::vector<Expr>> extents_;  // run_time_extents per Func
    // Set while tiled_root schedules the members of a root whose rows may be narrower than its
    // vectors: the root's row extent, its lanes, and the narrower lanes it specializes on.
    struct NarrowRoot {
        SizeExpr row;
        int lanes = 1;
        std::vector<int> narrower;
    };
    std::optional<NarrowRoot> narrow_root_;
    // Set while tiled_root schedules a root whose vector branches times Tuple values would take
    // the task tiers past kMaxTieredLeaves (the note saying so): its stages then run serial or
    // parallel only.
    std::string no_task_tiers_;
    // Set while tiled_root schedules a root whose tile_x is clamped (GroupPlan::tile_x_clamped):
    // the run-time tile width, min(row, tile_x).
    std::optional<SizeExpr> tile_x_factor_;
    // Set while member() schedules a member computed per tile of a root tiled tile_y rows high:
    // those rows (what a reduction stepping across planes may run inside each step, update_loops_at).
    std::optional<int64_t> member_tile_rows_;
    // Set around one update's update_loops: rounding its last vectors up is safe and pays where
    // its rows run inside its steps (rows_inside_round_up, RowsInsideSteps.cpp).
    bool rows_inside_round_up_ = false;

    // ---- a group's root and members (ApplyGroups.cpp) ----
    std::vector<std::string> vectorize_dim(StageRef &st, const std::string &v, int lanes,
                                           TailStrategy tail = TailStrategy::GuardWithIf);
    void tiled_root(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    void tiled_root_loops(const GroupPlan &g, const FuncNode &n, FuncRef &root, bool clamped);
    // Both return the loop the group's members are computed at: its rows ("" when it has none).
    std::string short_dim0_stage(const GroupPlan &g, const FuncNode &n, StageRef &st, const StageNode &s);
    std::string short_dim0_loops(const GroupPlan &g, const FuncNode &n, StageRef &st, const StageNode &s, TailStrategy tail);
    void interleave_channels(const GroupPlan &g, const FuncNode &n, StageRef &st);
    std::optional<StageRef> unroll_compared_dims(const GroupPlan &g, const FuncNode &n, StageRef &st,
                                                 const std::vector<std::string> &loops, bool vectorized,
                                                 const std::vector<std::string> &keep);
    void split_compared_dims(const GroupPlan &g, const FuncNode &n, StageRef &st, bool note = true,
                             const std::vector<std::string> &loops = {}, bool vectorized = false,
                             const std::vector<std::string> &keep = {});
    void point_stage(const GroupPlan &g, const FuncNode &n, FuncRef &root, StageRef &st, const StageNode &s);
    void tile_stage(const GroupPlan &g, const FuncNode &n, FuncRef &root, StageRef &st,
                    const std::vector<std::string> &rvars, bool with_members = true);
    static int member_width_cap(const GroupPlan &g, const std::string &member);
    TailStrategy tail_of(const GroupPlan &g, const std::string &f);
    void member(const GroupPlan &g, const std::string &name, FuncRef &root, const std::string &tile_var,
                const std::string &root_name, TailStrategy tail, bool per_point = false);
    void member_along_dim1(const FuncNode &m, FuncRef &mf, TailStrategy tail);
    // `f` stored with its dimension 1 innermost, the others in order (vectors along dimension 1).
    void store_dim1_innermost(const FuncNode &f, FuncRef &ref);

    // ---- loop nests, lanes, rfactor, parallel loops (ApplyGroupLoops.cpp) ----
    int lanes_of(const FuncNode &n) const;
    static int value_bits(const FuncNode &n);  // its widest value's bits
    bool planes_in_tasks(StageRef &st, const FuncNode &n, int64_t dim0_largest = 0);
    // dim0_largest: the root's dim 0 at the family's largest shape (GroupPlan::dim0_largest; 0: unknown).
    void pure_loops(StageRef &st, const FuncNode &n, int lanes, bool parallel,
                    TailStrategy tail = TailStrategy::GuardWithIf, int64_t dim0_largest = 0);
    void rows_in_tasks(StageRef &st, const FuncNode &n, int stage, const std::string &y, const std::vector<std::string> &order);
    void parallel_fused(StageRef &st, const std::vector<std::string> &outer, const std::string &base,
                        const std::optional<SizeExpr> &points = std::nullopt,
                        const std::optional<SizeExpr> &iterations = std::nullopt);
    std::optional<SizeExpr> stage_points(const FuncNode &n, int stage, int64_t weight);
    std::optional<SizeExpr> extent_of(const FuncNode &n, int d);
    std::optional<int> member_iterations_per_task(const GroupPlan &g, const FuncNode &n);
    bool short_rows_in_tasks(StageRef &st, const FuncNode &n, int64_t dim0_largest);
    Condition channels_constant(const FuncNode &n, int d, const SizeExpr &channels, int extent);
    std::optional<int64_t> longest_extent(const FuncNode &n, int d);
    int step_width_within_dim0(const FuncNode &n, int lanes, int width);
    const std::vector<Expr> *cached_extents(const FuncNode &n);
    SizeExpr run_time(const Expr &e);
    std::optional<SizeExpr> reduction_steps(const FuncNode &n, int stage);
    void long_reduction_tasks(StageRef &st, const StageNode &s, const FuncNode &n, int lanes, int max_width, TailStrategy tail);
    bool long_steps_ = false;  // set while long_reduction_tasks schedules its specialization
    bool whole_steps_scheduling_ = false;  // set while tile_stage schedules its whole-steps specialization
    static int dim_of(const FuncNode &n, const std::string &v);
    static std::optional<SizeExpr> ceil_div_opt(const std::optional<SizeExpr> &a, int64_t b);
    static std::optional<SizeExpr> times(const std::optional<SizeExpr> &a, const std::optional<SizeExpr> &b);
    void update_loops(StageRef &st, const StageNode &s, const FuncNode &n, int lanes, bool parallel, int max_width = 0,
                      TailStrategy tail = TailStrategy::GuardWithIf);
    // ---- how many rows a gathering update's step reads (GatheredSteps.cpp) ----
    int gathered_step_vectors(const StageNode &s, const FuncNode &n, int lanes, int vectors) const;
    bool task_accumulators(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    // ---- a member's accumulators in registers, per group of a wrapper (RegisterAccumulators.cpp) ----
    bool register_accumulators(const GroupPlan &g, const std::string &name, FuncRef &root, const std::string &tile_var,
                               const std::string &root_name);
    bool lifted_register_update(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    bool grouped_root(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    struct GroupShape {
        int lanes = 1, x = 1, y = 1;  // a group of x points (a multiple of lanes) by y rows
        bool shared_rows = false;     // its rows share the steps' loads (else: a predicated update)
    };
    struct AccumulatorGroup {
        int x = 1, y = 1;
        std::optional<Condition> holds;  // none: the last (scalar) group
    };
    int accumulator_registers() const { return std::max(1, vector_registers_ / 2); }  // half the vector registers hold sums
    int row_group_width(int lanes, int values) const;
    std::optional<GroupShape> register_group_shape(const GroupPlan &g, const FuncNode &m, const FuncNode &root);
    std::vector<AccumulatorGroup> accumulator_groups(const GroupShape &shape, const SizeExpr &row, const std::optional<SizeExpr> &rows);
    void stages_per_group(FuncRef &f, const std::vector<StageNode> &stages, const std::vector<std::string> &args,
                          const std::vector<AccumulatorGroup> &groups, bool rows);
    std::string grouped_root_loops(const GroupPlan &g, FuncRef &f, const StageNode &pure_stage, const std::vector<std::string> &args,
                                   const std::optional<SizeExpr> &points, const std::vector<AccumulatorGroup> &groups);
    void unroll_short_window(StageRef &st, const StageNode &s, const FuncNode &n);
    void schedule_rule(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    // Whether an update's window loops may run unrolled: every step updates the same point.
    bool window_may_unroll(const StageNode &s, const FuncNode &n) const;
    bool writes_at_pure_point(const StageNode &s, const FuncNode &n) const;
    bool clamped_update_rounds_up(const StageNode &s, const FuncNode &m) const;
    // ---- specializations per value of a small-range Param (ParamValues.cpp) ----
    // The group once per value of a divisor.
    void per_divisor_value(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    // An update's window sized by such a Param: its loops as scheduled, then unrolled under a
    // specialization per value (once per stage: the steady-state leaf of its specialization chain).
    void unroll_window_per_value(StageRef &st, const StageNode &s, const FuncNode &n);
    std::vector<std::pair<int64_t, std::vector<std::pair<std::string, int64_t>>>> window_unroll_values(const StageNode &s,
                                                                                                        const FuncNode &n) const;
    bool long_member_chain(const StageNode &s, const FuncNode &m);
    std::set<std::pair<std::string, int>> windows_per_value_;  // (Func, stage) given them
    // ---- a scan along dimension 0 with rows interleaved (ScanRows.cpp) ----
    bool interleave_scan_rows(StageRef &st, const StageNode &s, const FuncNode &n, bool parallel);
    bool steps_across_planes_here(const StageNode &s, const FuncNode &n, const std::string &y);
    bool rows_share_step_loads_here(const StageNode &s, const FuncNode &n, const std::string &y);
    bool one_point_per_long_step(const StageNode &s, const FuncNode &n, bool scans = false) const;
    bool rows_may_run_inside_steps(const StageNode &s, const FuncNode &n);
    bool rows_inside_round_up(const GroupPlan &g, const StageNode &s, const FuncNode &n);
    // Whether update_loops_at runs a tile of rows inside each reduction step: decide (and
    // specialize on the rows' run-time extent), or as decided: `inside` where the steps cross
    // planes (steps_across_planes_here), `shared` where the rows share the steps' loads
    // (rows_share_step_loads_here).
    enum class PlaneRows { decide, inside, shared, outside };
    Condition whole_steps_only(const SizeExpr &row, int width);
    Condition short_rows_whole_vectors(const SizeExpr &row, int lanes, int width);
    TailStrategy update_tail(const FuncNode &n, const StageNode &s) const;
    bool whole_row_tasks(StageRef &st, const StageNode &s, const FuncNode &n, const std::vector<std::string> &outer,
                         const std::string &x_vo);
    bool banded_tasks(StageRef &st, const StageNode &s, const FuncNode &n, const std::vector<std::string> &outer,
                      const std::string &x_vo, const std::string &y);
    PlaneRows decide_plane_rows(StageRef &st, const StageNode &s, const FuncNode &n, const std::string &y, int lanes, int width,
                                bool parallel, TailStrategy tail);
    void update_loops_at(StageRef &st, const StageNode &s, const FuncNode &n, int lanes, int width, bool parallel,
                         TailStrategy tail, PlaneRows plane_rows = PlaneRows::decide);
    void update_root(const GroupPlan &g, const FuncNode &n, FuncRef &root);
    void row_lanes(const std::string &r, const FuncNode &n, FuncRef &root, StageRef &st, const StageNode &s, int lanes,
                   bool parallel);
    std::optional<SizeExpr> rvar_extent(const FuncNode &n, int stage, const std::string &r);
    void row_lanes_on(const std::string &r, const FuncNode &n, FuncRef &root, StageRef &st, const StageNode &s, int lanes,
                      bool parallel);
    void rfactor_root(const GroupPlan &g, const FuncNode &n, FuncRef &root);
};

}  // namespace diet
