// The schedule applier's state and steps, shared by its three parts: ApplySchedule.cpp (the
// driver and the default stage rules), ApplyMatmul.cpp (a contraction's Func-level placement,
// operand staging and dispatch leaves) and ApplyVariants.cpp (each kernel's chain of tile
// variants). Private to src/schedule: the public entry point is apply_schedule (ApplySchedule.h).
#pragma once

#include <tuple>

#include "schedule/ApplyGroups.h"
#include "schedule/ApplySchedule.h"
#include "schedule/ContractionLoopNames.h"
#include "schedule/CpuTiling.h"
#include "schedule/TaskGrain.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace diet {

class ScheduleApplier {
public:
    using FuncRef = ScheduleWriter::FuncRef;
    using StageRef = ScheduleWriter::StageRef;
    using Updates = ContractionUpdates;  // a contraction's update stages (MatmulPattern::update_reductions)
    // Applies a dispatch's leaves to (maybe specialized) stages under the given loop names.
    using ApplyAllLeaves = std::function<void(StageRef &, StageRef &, Updates &, const ContractionLoopNames &)>;

    ScheduleApplier(const FunctionDAG &dag, const Halide::Target &t, const CpuLimits &cpu, ScheduleWriter &w);

    std::vector<std::string> run(const std::vector<KernelChoice> &kernels, const PipelinePlan *plan);

private:
    const FunctionDAG &dag_;
    CpuLimits cpu_;
    ScheduleWriter &w_;
    bool gpu_;
    int gpu_sms_;  // tile variants on a GPU: gpu_variant_for's rule (space/MicroKernel.h)
    std::map<std::string, FuncRef> refs_;
    bool serial_tasks_ = false;  // the kernel runs inside a parallel loop of its consumer
    // One tile iteration per task, not a grain computed at run time: a Func computed at root read
    // as both operands (a Gram product of an intermediate). Halide 14 bounds a split by a run-time
    // factor loosely, and that Func's region spans both operands' task loops: it was sized at
    // 2.2 GB for a 130 x 132 uint8 image (test_fuzz seed 20277161).
    bool constant_grain_ = false;
    // Some leaf stages its operands: the in-place leaves among them run tile_acc_direct.
    bool operands_staged_ = false;
    int natural_panel_pitch_ = 0;  // columns of a packed_in_natural_panel operand's staged panel; 0: none
    const MatmulPattern *pattern_ = nullptr;  // the contraction being applied
    FuncRef acc_;  // the contraction's accumulator (its rfactor intermediate for an update on the output)
    bool host_region_inferred_ = false;  // the host is not the output: its region comes from its readers
    // No operand that moves with the vectors reads the batch dimensions (the weights of a dense
    // layer over a batch of sequences): the batch loops run inside the panels' (batch_inside_panels).
    bool batch_inside_panels_ = false;
    // The batch runs like more rows (no operand read along the vectors reads it, nothing reads
    // through a window): rows_along_batch_variant.
    bool rows_along_batch_ = false;
    // On the CPU, a 2-D host with an operand read through a window along the vectors and the
    // tile's rows (a 2-D filter written as a sum over a window of the image): column kernels that
    // read in place run row tasks (row_tasks_apply).
    bool rows_through_window_ = false;
    ReductionModel reduction_;  // the current contraction's reduction size
    std::vector<int> kernel_dims_ = {0, 1};  // the current contraction's host dims in kernel order
    std::vector<SizeExpr> host_extents_;     // the current contraction's host extents at run time, per dim
    std::vector<SizeExpr> dense_strides_;    // its gathered inputs' strides along the reduction (GatherStrides.h)
    std::vector<SizeExpr> leaf_extents_;     // the same, for the dispatch leaves' boxes (apply_in_groups changes the former)
    int64_t group_cols_ = 0;                 // > 0: the vector dimension tiled in groups this wide (apply_in_groups)
    std::vector<SizeExpr> kernel_extents_;   // the same in kernel order
    std::vector<std::string> notes_;
    // Operands already copied reduction-major by an earlier contraction (one global wrapper per
    // Func: a transposed activation read by the Q and V projections is copied once).
    std::set<std::string> reduction_major_copies_;

    // ---- Funcs and the default stage rules (ApplySchedule.cpp) ----
    std::vector<SizeExpr> run_time_extents_of(const std::string &func, const FuncRefLookup &lookup);
    FuncRef &ref(const std::string &name);
    int lanes_of(const FuncNode &n) const;
    void place(const FuncNode &n);
    void materialize(const FuncNode &n);
    void per_point_update_pass(StageRef &st, const StageNode &s, int lanes);
    bool default_cpu_stage(StageRef &st, const StageNode &s, int lanes);
    void store_in_host_order(const FuncRef &host, const MatmulPattern &p);
    void transposed_output_pass(const FuncRef &out, StageRef &st, const StageNode &s, int lanes);
    void batched_output_pass(StageRef &st, const StageNode &s, int lanes, const SizeExpr &slices_per_task,
                             const SizeExpr &inner_extent);
    bool default_gpu_stage(StageRef &st, const StageNode &s);

    // ---- a contraction: placement, staging, dispatch leaves (ApplyMatmul.cpp) ----
    struct LeafGroup {
        MicroKernel kernel;
        std::vector<Condition> boxes;  // one per leaf; none for the fallback group's last leaf
        bool fallback = false;
        std::vector<int64_t> lo;       // the smallest extents any of its leaves reaches
        std::string covers, note;
    };
    ContractionLoopNames names_of(const MatmulPattern &p, const Halide::Internal::Function &host,
                                  const Halide::Internal::Function &acc);
    void apply_matmul(const KernelChoice &kc);
    bool batch_inside_panels(const MatmulPattern &p) const;
    static bool read_through_window(const MatmulPattern &p);
    static bool read_through_window_along_rows(const MatmulPattern &p);
    bool row_tasks_apply(const MicroKernel &k, const TileVariant &t) const;
    void apply_in_groups(const MatmulPattern &p, const FuncRef &out, StageRef &host_base, StageRef &init_base,
                         Updates &update_base, const ContractionLoopNames &nm, const ApplyAllLeaves &apply_all);
    static MicroKernel general_column_kernel(const Dispatch &leaves, const MicroKernel &first);
    static int64_t reduction_step(const Dispatch &leaves);
    std::vector<LeafGroup> group_leaves(const Dispatch &leaves);
    void apply_leaves(const KernelChoice &kc, const Dispatch &leaves, FuncRef &host, StageRef &host_base,
                      StageRef &init_base, Updates &update_base, const ContractionLoopNames &nm, const std::string &task);

    // ---- one kernel's tile variants (ApplyVariants.cpp) ----
    void apply_kernel(const MicroKernel &k, FuncRef &host, StageRef &host_s, StageRef &init_s, Updates &update_s,
                      const ContractionLoopNames &nm, const std::string &task, const std::vector<int64_t> &at_least,
                      bool exact, const std::vector<std::vector<int64_t>> &shapes);
    void rows_along_batch_variant(const MicroKernel &k, const TileVariant &t, FuncRef &host, StageRef &host_s,
                                  StageRef &init_s, Updates &update_s, const ContractionLoopNames &nm,
                                  const std::string &task, int64_t min_rows,
                                  const std::vector<std::vector<int64_t>> &shapes, std::vector<Halide::Expr> &taken);
    void apply_variant(const MicroKernel &k, const TileVariant &t, FuncRef &host, StageRef &hs, StageRef &is, Updates &us,
                       const ContractionLoopNames &nm, const std::string &task, const std::vector<SizeExpr> &extents,
                       bool copy_rows = false,  // a dot kernel's gathered row operand copied per row tile
                       bool gathers = false);   // ... or gathered lane by lane in place (the task grain)
    Condition blocks_at_least(const TileVariant &t, int64_t n);
    Updates specialize_all(const Updates &us, const Condition &c);
    std::tuple<StageRef, StageRef, Updates> specialize_contraction(const StageRef &host, const StageRef &init,
                                                                 const Updates &updates, const Condition &c);
};

}  // namespace diet
