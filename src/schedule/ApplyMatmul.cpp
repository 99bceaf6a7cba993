// A contraction's schedule: Func-level placement (wrappers, rfactor of an update on the output,
// storage order), operand staging, and its dispatch leaves as specializations (schedule/ScheduleApplier.h).
#include "schedule/ScheduleApplier.h"
#include "common/Errors.h"
#include "schedule/GatherStrides.h"
#include "schedule/GpuTiling.h"
#include "schedule/OperandStaging.h"
#include "schedule/VariantCells.h"
#include "space/GpuSpace.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace diet {

using namespace Halide;
using FuncRef = ScheduleApplier::FuncRef;
using StageRef = ScheduleApplier::StageRef;
using Updates = ScheduleApplier::Updates;

// host: the Func the kernel tiles; acc: the one computed per tile (for an update on the output,
// the wrapper and the rfactor intermediate, whose arguments are the output's).
ContractionLoopNames ScheduleApplier::names_of(const MatmulPattern &p, const Internal::Function &host, const Internal::Function &acc) {
    ContractionLoopNames nm;
    const auto &hargs = host.args();
    const auto &aargs = acc.args();
    const std::vector<int> dims = p.kernel_dims();
    const auto host_arg = [&](int d) { return p.host_arg_of_dim.empty() ? d : p.host_arg_of_dim[d]; };
    nm.n = hargs[host_arg(0)];
    nm.m = hargs[host_arg(dims[1])];
    nm.rn = aargs[p.acc_arg_of_host_dim[0]];
    nm.rm = aargs[p.acc_arg_of_host_dim[dims[1]]];
    for (size_t i = 2; i < dims.size(); i++) {
        nm.batch.push_back(hargs[host_arg(dims[i])]);
        nm.rbatch.push_back(aargs[p.acc_arg_of_host_dim[dims[i]]]);
    }
    for (const std::vector<LoopVar> &u : reductions_of(p)) {
        nm.update_reductions.emplace_back();
        for (const LoopVar &l : u) nm.update_reductions.back().push_back(l.name);
    }
    nm.reduction = nm.update_reductions.at(0);
    return nm;
}

void ScheduleApplier::apply_matmul(const KernelChoice &kc) {
    const MatmulPattern &p = kc.pattern;
    pattern_ = &p;
    // `out` owns the buffer whose extents select tile variants and dispatch leaves; `host` is
    // tiled and `acc` computed per tile. For an update on the output, the reduction moves
    // into an rfactor intermediate (a Func with a pure init and the same update), read by the
    // output's remaining update `out += acc` through a pure wrapper computed at root: the
    // wrapper is tiled like any host (ShiftInwards is illegal on an update), the output's
    // two stages become simple vectorized passes over its buffer.
    const FuncRef out = ref(p.host);  // a copy: refs_ may be re-pointed below
    FuncRef host = out, acc = ref(p.acc);
    serial_tasks_ = false;
    constant_grain_ = !gpu_ && operand_read_twice(p) && std::any_of(p.operands.begin(), p.operands.end(), [&](const ContractionOperand &o) {
                          return dag_.has(o.func) && !dag_.node(o.func).is_input_wrapper;
                      });
    // An output's only update, adding the contraction to its initial values, with the vectors
    // along its own innermost dimension: lifted (ScheduleWriter::lift_update). The output
    // is then tiled like an accumulator's consumer, with no pass over it before or after the
    // tiles. Batched attention products updated on the output ran 1.3-2.2x the canonical form's
    // time through the wrapper below (an init pass, LLVM's memset of each row, and a pass adding
    // the wrapper; apps/results/cpu/lifted_update_2026-12-07/).
    // With the vectors moved (a 2-D output stored with a short dimension innermost), the wrapper
    // below stays, transposing, and the lift leaves the output one pass writing it from the
    // wrapper (none storing the initial values, none reading the output back).
    // (On a GPU the lifted output is the canonical form's schedule, which ran on an H100; the
    // lifted one itself has not run on a GPU.)
    const bool lifted = p.update_liftable && p.moved_vector_arg < 0;
    const bool lifted_through_wrapper = !gpu_ && p.update_liftable && p.moved_vector_arg >= 0;
    host_region_inferred_ = !p.host_is_output || p.host_wraps_acc || (p.update_on_output && !lifted);
    kernel_dims_ = p.kernel_dims();
    batch_inside_panels_ = batch_inside_panels(p);
    rows_along_batch_ = !gpu_ && batch_inside_panels_ && p.vector_period == 0 && !read_through_window(p);
    rows_through_window_ = !gpu_ && p.host_extent.size() == 2 && read_through_window_along_rows(p);
    reduction_ = kc.reduction;
    host_extents_.clear();
    const FuncRefLookup lookup = [this](const std::string &name) -> FuncRef & { return ref(name); };
    const auto output_ident = [&](const std::string &buffer) { return output_buffer_ident(dag_, lookup, buffer); };
    for (const Expr &e : p.host_extent) host_extents_.push_back(w_.run_time_size(e, output_ident));
    dense_strides_.clear();
    for (const Expr &e : gathered_reduction_strides(dag_, p)) dense_strides_.push_back(w_.run_time_size(e, output_ident));
    kernel_extents_.clear();
    for (int d : kernel_dims_) kernel_extents_.push_back(host_extents_.at(d));
    std::vector<StageNode> host_stages = dag_.node(p.host).stages, acc_stages = dag_.node(p.acc).stages;
    if (p.host_wraps_acc) {
        // Read by other stages as it is: a pure wrapper, computed at root, is tiled instead.
        host = w_.wrapper(acc);
        w_.compute_root(host);
        host_stages = stages_of(host.func.function());
        // Stored in the order its reader tiles it (a sum of contractions: the host's order).
        store_in_host_order(host, p);
        // Its readers read the wrapper now: a later wrapper of acc for one of them (a second
        // contraction's operand panel) wraps this one, or it would bypass it.
        refs_.at(p.acc) = host;
    } else if (!p.host_is_output) {
        w_.compute_root(host);
    }
    if (lifted) {
        StageRef upd = w_.stage(out, 1, host_stages[1]);
        acc = w_.rfactor_all(upd, p.acc + "_acc");
        w_.lift_update(out, acc);
        acc_stages = stages_of(acc.func.function());
    } else if (p.update_on_output) {
        StageRef upd = w_.stage(out, 1, host_stages[1]);
        acc = w_.rfactor_all(upd, p.acc + "_acc");
        host = w_.wrapper(acc, out);
        // (The wrapper replaces out's calls of acc when lowered: the lifted definition's too.)
        if (lifted_through_wrapper) w_.lift_update(out, acc);
        // Vectors moved off the output's innermost dimension: the tiles fill the wrapper in
        // that order; the output's passes read it transposed.
        store_in_host_order(host, p);
        // Batched on the CPU: the wrapper is computed per slice of the outermost batch
        // dimension, inside the output's parallel update loop (its tiles serial there): a
        // slice stays in cache and no output-sized buffer is allocated (and page-faulted) per
        // call. Otherwise at root. (Per task, or stored per task, the guarded last task's
        // region reaches past the inputs.) Only where that dimension is a batch dimension: one
        // the register tiles span (the batch stored innermost tiles i x j, MatmulPattern::
        // depth_dim) would be tiled within a one-slice region, the ShiftInwards tile reaching
        // before it (k read at j = -1..-3: a runtime bounds error).
        const std::vector<std::string> out_args = out.func.function().args();
        const int outermost = (int)out_args.size() - 1;
        const bool outermost_is_batch = outermost != 0 && outermost != p.row_dim && outermost != p.depth_dim;
        // Nor where the rows-along-batch variant may take its rows along that dimension
        // (rows_along_batch_variant swaps the rows with kernel dimension 2): out(n, b, m) +=
        // w(n, k) x(k, b, m) with b < 7 <= m tiled 7 m-rows within one m slice, reading x at
        // m = -3 (red-team round 7, apps/results/cpu/redteam7_2026-11-30/).
        const bool rows_may_span_outermost =
            rows_along_batch_ && kernel_dims_.size() > 2 && p.acc_arg_of_host_dim.at(kernel_dims_[2]) == outermost;
        serial_tasks_ = !gpu_ && out_args.size() > 2 && outermost_is_batch && !rows_may_span_outermost;
        if (serial_tasks_) {
            w_.compute_at(host, out, out_args.back() + "_i", false);
            // Stored per task (the task's slices, not folded): one allocation per task
            // instead of one per slice. At T = 1 the 192 slices of attention scores made 192
            // heap allocations per call; single-threaded that call took 10-13.5 us, 6.6-10 us
            // stored per task (the canonical form: 2 us).
            w_.store_at(host, out, out_args.back() + "_o");
        } else {
            w_.compute_root(host);
        }
        acc_stages = stages_of(acc.func.function());
        host_stages = stages_of(host.func.function());
        const std::vector<StageNode> out_stages = stages_of(out.func.function());
        std::vector<SizeExpr> slice_extents;
        for (size_t d = 0; d + 1 < out_args.size(); d++) slice_extents.push_back(w_.output_extent(out, (int)d));
        const SizeExpr slices_per_task =
            serial_tasks_ ? slices_per_task_expr(slice_extents, reduction_points_expr(kernel_extents_, reduction_),
                                                 w_.output_extent(out, (int)out_args.size() - 1))
                          : size_constant(1);
        for (const StageNode &sn : out_stages) {
            if (lifted_through_wrapper && sn.index == 1) continue;  // the no-op store Halide drops
            StageRef st = w_.stage(out, sn.index, sn);
            if (gpu_) default_gpu_stage(st, sn);
            else if (!sn.rvars().empty()) per_point_update_pass(st, sn, lanes_of(dag_.node(p.host)));
            else if (serial_tasks_) batched_output_pass(st, sn, lanes_of(dag_.node(p.host)), slices_per_task, slice_extents.at(0));
            else if (p.moved_vector_arg >= 0) transposed_output_pass(out, st, sn, lanes_of(dag_.node(p.host)));
            else default_cpu_stage(st, sn, lanes_of(dag_.node(p.host)));
        }
    }
    for (const std::string &f : p.materialized) materialize(dag_.node(f));
    acc_ = acc;
    const ContractionLoopNames nm = names_of(p, host.func.function(), acc.func.function());
    // The accumulator tile is stored with the vector dimension innermost, whatever the order
    // of acc's arguments (an inline sum() takes them in the order the free variables appear:
    // out(o, r) = sum(a(c, r) * w(c, o)) gives sum(r, o), and vectorizing o would gather
    // and scatter the accumulator with a stride of the tile's row count).
    const std::vector<std::string> storage = nm.acc_dims();
    std::vector<std::string> natural;
    for (const Var &v : acc.func.args()) natural.push_back(v.name());
    if (storage != natural) w_.reorder_storage(acc, storage);
    Dispatch leaves = kc.dispatch;
    if (leaves.empty()) leaves.leaves.push_back({kc.kernel, {}, {}, "", ""});
    const MicroKernel &first = leaves.leaves[0].kernel;
    // Staging is shared by the leaves, but for in-place column leaves among staged ones
    // (space/MicroKernel.h unstaged_alternatives: run as schedule/CpuTiling.h tile_acc_direct).
    operands_staged_ = std::any_of(leaves.leaves.begin(), leaves.leaves.end(),
                                   [](const DispatchLeaf &l) { return l.kernel.cpu.stage_strided; });
    for (const DispatchLeaf &l : leaves.leaves) {
        const bool in_place_column = !l.kernel.gpu && !l.kernel.cpu.dot && !l.kernel.cpu.stage_strided && staging_optional(p);
        // (Dot-product leaves read the operands in place whatever their flag.)
        internal_assert(l.kernel.gpu == first.gpu && l.kernel.cpu.k_pack == first.cpu.k_pack &&
                        (l.kernel.cpu.stage_strided == operands_staged_ || in_place_column || l.kernel.cpu.dot))
            << "Diet: the kernels of one dispatch disagree on operand staging\n";
    }

    // A reduction extent known only at run time, estimated as a constant: the leaves were
    // chosen for that extent. What they need of it is that their splits of the reduction
    // (dot products' lanes, k unrolling) divide it: they run under specialize(extent % step
    // == 0), any other extent under a general column kernel. (Under extent == estimate, a
    // Param-sized or input-sized reduction at any other value ran column kernels: a
    // matrix-vector product over a Param D = 256 took 4x the dot kernels' time.) A step of 1
    // (column leaves without k unrolling) needs no specialization.
    const int64_t k_step = gpu_ ? 1 : reduction_step(leaves);
    const bool fixed_k = !gpu_ && !p.reduction_extent && p.estimated_reduction_extent && k_step > 1;
    const MicroKernel general = fixed_k ? general_column_kernel(leaves, first) : MicroKernel{};

    // Func-level placement, shared by every leaf and variant (Halide takes compute_at from the
    // general case, so every specialization keeps the same loop names).
    const std::string task = nm.batch.empty() ? "n_t" : "task";
    natural_panel_pitch_ = 0;
    if (!gpu_) {
        w_.compute_at(acc, host, "n_p", false);
        // Dot-product leaves, and in-place leaves among staged ones, read the operands themselves
        // (their rfactor intermediate calls them, acc does not): panels only when a column kernel
        // is among the leaves (Halide refuses a wrapper of a Func that no definition of acc calls;
        // an in-place leaf is never alone with its panels: a staged leaf keeps acc calling them).
        const bool column_leaf = fixed_k || std::any_of(leaves.leaves.begin(), leaves.leaves.end(),
                                                        [](const DispatchLeaf &l) { return !l.kernel.cpu.dot; });
        const FuncRefLookup lookup = [this](const std::string &name) -> FuncRef & { return ref(name); };
        copy_broadcast_operands(w_, lookup, p, first.cpu.vector_width, reduction_major_copies_,
                                [&](const std::string &func) { return run_time_extents_of(func, lookup); });
        if (column_leaf) {
            // A natural-order packed panel's storage holds the widest task's columns of any
            // column leaf (its pitch, a constant, is what makes its packed loads dense).
            int packed_panel_cols = 0;
            for (const DispatchLeaf &l : leaves.leaves) {
                if (!l.kernel.cpu.dot) packed_panel_cols = std::max(packed_panel_cols, l.kernel.cpu.tile_cols() * l.kernel.cpu.panel_tiles);
            }
            // The run of tasks one thread takes exists as a loop where tile_host_cpu fuses the
            // task loops (not where the host's region is inferred), the batch outermost unless
            // it runs inside the panels.
            stage_cpu_operands(w_, lookup, p, acc, host, task + "_i", host_region_inferred_ || batch_inside_panels_ ? "" : task + "_o",
                               first.cpu.vector_width, operands_staged_, first.cpu.k_pack, packed_panel_cols);
            const bool natural_panel = first.cpu.k_pack > 1 && std::any_of(p.operands.begin(), p.operands.end(),
                                                                            [](const ContractionOperand &o) { return packed_in_natural_panel(o); });
            natural_panel_pitch_ = natural_panel ? packed_panel_cols : 0;
        }
    } else {
        // Staged: acc per one-warp block (lane-striped registers), operands through shared memory.
        w_.compute_at(acc, host, first.cuda.staged() ? "n_b" : "n_t", false);
        w_.store_in(acc, MemoryType::Register);
        if (first.cuda.staged()) {
            std::vector<StagedOperand> ops;
            const FuncRefLookup lookup = [this](const std::string &name) -> FuncRef & { return ref(name); };
            OperandCallers callers(w_, lookup, acc);
            for (const ContractionOperand &o : p.operands) {
                if (gpu_operand_stageable(p, o)) ops.push_back({ref(o.func), o.vector_arg, callers.of(o)});
            }
            stage_gpu_operands(w_, ops, acc, first.cuda, nm);
        }
    }

    StageRef host_base = w_.stage(host, 0, host_stages[0]);
    StageRef init_base = w_.stage(acc, 0, acc_stages[0]);
    // Every contraction update (one, or several computed in turn on the same tile).
    Updates update_base;
    for (size_t u = 1; u < acc_stages.size(); u++) update_base.push_back(w_.stage(acc, (int)u, acc_stages[u]));
    if (!p.fused_reduction.empty()) {
        // Before any specialization, which inherits it (MatmulPattern::fused_reduction).
        w_.fuse(update_base.at(0), p.fused_reduction[0], p.fused_reduction[1], p.reduction[0].name);
    }
    leaf_extents_ = host_extents_;
    // The leaves (and, for an estimated reduction extent, the general kernel) on these stages.
    const auto apply_all = [&](StageRef &hs, StageRef &is, Updates &us, const ContractionLoopNames &names) {
        if (!fixed_k) {
            apply_leaves(kc, leaves, host, hs, is, us, names, task);
            return;
        }
        const SizeExpr k = w_.run_time_size(p.reduction[0].extent, output_ident);
        const std::string est = std::to_string(*p.estimated_reduction_extent), step = std::to_string(k_step);
        w_.comment("The reduction's extent " + k.text + " a multiple of " + step + " (estimated " + est + "): the kernels chosen for it.");
        const Condition c = w_.multiple_of(k, k_step);
        auto [hk, ik, uk] = specialize_contraction(hs, is, us, c);
        apply_leaves(kc, leaves, host, hk, ik, uk, names, task);
        w_.comment("Any other reduction extent: a general column kernel.");
        apply_kernel(general, host, hs, is, us, names, task, {}, false, {});
        std::ostringstream extent;
        extent << p.reduction[0].extent;
        notes_.push_back("Func " + p.acc + ": the kernels above for a reduction extent that is a multiple of " + step + " (" +
                         extent.str() + ", estimated " + est + "); any other extent: micro-kernel " + general.to_string() + ".");
    };
    if (!gpu_ && p.vector_period > 0) apply_in_groups(p, out, host_base, init_base, update_base, nm, apply_all);
    apply_all(host_base, init_base, update_base, nm);
}

// Whether the task loop runs the batch inside the panels: when no operand moving with the
// vectors reads a batch dimension, consecutive iterations then reuse one panel of it from
// cache (a dense layer over 4 sequences at T = 1 streamed its 2.4 MB of weights once per
// sequence, each time from memory). Otherwise (a batched product: every operand reads the
// batch) the panels run inside the batch, as each batch slice is its own product.
bool ScheduleApplier::batch_inside_panels(const MatmulPattern &p) const {
    if (kernel_dims_.size() < 3 || p.depth_dim > 0) return false;
    for (size_t d = 2; d < kernel_dims_.size(); d++) {
        const int a = p.acc_arg_of_host_dim.at(kernel_dims_[d]);
        for (const ContractionOperand &o : p.operands) {
            const bool moves_with_vectors = o.vector_arg >= 0 || o.vector_period > 0;
            if (moves_with_vectors && a < (int)o.uses_acc_arg.size() && o.uses_acc_arg[a]) return false;
        }
    }
    return true;
}

// Some operand reads one of the output's dimensions through a window (a convolution's image).
bool ScheduleApplier::read_through_window(const MatmulPattern &p) {
    for (const ContractionOperand &o : p.operands) {
        if (std::any_of(o.window_acc_arg.begin(), o.window_acc_arg.end(), [](bool b) { return b; })) return true;
    }
    return false;
}

// Some operand reads both the vectors' dimension and the one the register tile's rows run along
// through a window (an image under a 2-D filter: in(x + r.x, y + r.y), rows along y). Not a
// window along the rows alone: a 1-D signal's taps across channels stored innermost (a polyphase
// resampler) ran 2.4-3.2x slower in row tasks, its filter's per-task copy recomputed per row tile.
bool ScheduleApplier::read_through_window_along_rows(const MatmulPattern &p) {
    if (p.row_dim <= 0 || p.row_dim >= (int)p.acc_arg_of_host_dim.size() || p.acc_arg_of_host_dim.empty()) return false;
    const int a = p.acc_arg_of_host_dim[p.row_dim], v = p.acc_arg_of_host_dim[0];
    const auto windowed = [](const ContractionOperand &o, int arg) {
        return arg >= 0 && arg < (int)o.window_acc_arg.size() && o.window_acc_arg[arg];
    };
    return std::any_of(p.operands.begin(), p.operands.end(),
                       [&](const ContractionOperand &o) { return windowed(o, a) && windowed(o, v); });
}

// Whether a variant's tasks are row tiles across every panel rather than panels down every row.
// Where an operand is read through a window along the rows, a panel's task walks down a narrow
// strip of it, a new row (a page of a wide image) per step: a 2-D Gaussian over 1024 x 768 (11 x 11
// taps, tiles of 32 x 6) ran 9.7 ms in tasks of 128-column strips, 4.2 ms in tasks of rows across
// the image (red-team round 13, apps/results/cpu/redteam13_2026-12-03/probe_gauss2d_strips.out). Column
// kernels that read their operands in place only: staged panels, dot-product lanes and deep
// tiles are built around panel tasks. A 2-D host only: a 27-point 3-D stencil's row tasks (with
// its z slices fused into them) ran 1.4-1.5x slower than its panel tasks.
bool ScheduleApplier::row_tasks_apply(const MicroKernel &k, const TileVariant &t) const {
    return rows_through_window_ && !k.cpu.dot && !k.cpu.stage_strided && !operands_staged_ && t.depth <= 1 &&
           !host_region_inferred_ && !serial_tasks_ && !constant_grain_;
}

// MatmulPattern::vector_period: where the output starts at 0 and holds whole groups, its
// vector dimension is split into groups (RoundUp: exact there) and the kernels tile one group,
// a batch dimension of its own fused into the task loop. Each tile then lies in one group, and
// Halide proves the grouped operand's v / K constant across every vector (a broadcast, not a
// gather). The leaves' boxes keep the output's extents (leaf_extents_).
void ScheduleApplier::apply_in_groups(const MatmulPattern &p, const FuncRef &out, StageRef &host_base, StageRef &init_base,
                              Updates &update_base, const ContractionLoopNames &nm, const ApplyAllLeaves &apply_all) {
    const int64_t K = p.vector_period;
    const SizeExpr extent0 = host_extents_.at(0);
    const Condition aligned = w_.all_of({w_.equal_to(w_.output_min(out, 0), 0), w_.multiple_of(extent0, K)});
    w_.comment("An operand reads " + nm.n + " / " + std::to_string(K) + ": the kernels tile groups of " +
               std::to_string(K) + " (where the output starts at 0 and holds whole groups).");
    auto [hg, ig, ug] = specialize_contraction(host_base, init_base, update_base, aligned);
    ContractionLoopNames grouped = nm;
    grouped.n = nm.n + "_k";
    grouped.batch.push_back(nm.n + "_g");
    w_.split(hg, nm.n, grouped.batch.back(), grouped.n, (int)K, TailStrategy::RoundUp);
    const std::vector<SizeExpr> host_extents = host_extents_, kernel_extents = kernel_extents_;
    const bool batch_inside = batch_inside_panels_;
    batch_inside_panels_ = false;  // the groups move the grouped operand
    host_extents_[0] = size_constant(K);
    kernel_extents_[0] = size_constant(K);
    kernel_extents_.push_back(ceil_div(extent0, size_constant(K)));
    group_cols_ = K;
    apply_all(hg, ig, ug, grouped);
    group_cols_ = 0;
    batch_inside_panels_ = batch_inside;
    host_extents_ = host_extents;
    kernel_extents_ = kernel_extents;
    w_.comment("Any other output: the operand read as " + nm.n + " / " + std::to_string(K) + " is gathered.");
    notes_.push_back("Func " + p.acc + ": the kernels above tile groups of " + std::to_string(K) + " along " + nm.n +
                     " where the output starts at 0 and holds whole groups (an operand reads " + nm.n + " / " +
                     std::to_string(K) + "); elsewhere the same kernels gather that operand.");
}

// A column kernel valid at any reduction extent (no k unrolling) for a dispatch chosen at
// an estimated one: the dispatch's last column leaf (its largest shapes), else, all leaves
// being dot products, a named heuristic: 2 vectors x 6 rows, the register tile that fits the
// smallest register file (16) with its operands.
MicroKernel ScheduleApplier::general_column_kernel(const Dispatch &leaves, const MicroKernel &first) {
    MicroKernel g;
    g.cpu = {first.cpu.vector_width, 2, 6, 1, 1, first.cpu.stage_strided};
    for (const DispatchLeaf &l : leaves.leaves) {
        if (!l.kernel.cpu.dot) g = l.kernel;
    }
    g.cpu.k_unroll = 1;
    return g;
}

// The reduction steps every leaf's split of the reduction needs to divide: a dot product's
// lanes (times its packing), a k unrolling; 1 where no leaf splits it.
int64_t ScheduleApplier::reduction_step(const Dispatch &leaves) {
    int64_t step = 1;
    for (const DispatchLeaf &l : leaves.leaves) {
        if (l.kernel.gpu) continue;
        if (l.kernel.cpu.dot) step = std::lcm(step, (int64_t)l.kernel.cpu.vector_width * std::max(1, l.kernel.cpu.k_pack));
        if (l.kernel.cpu.k_unroll > 1) step = std::lcm(step, (int64_t)l.kernel.cpu.k_unroll);
    }
    return step;
}

std::vector<ScheduleApplier::LeafGroup> ScheduleApplier::group_leaves(const Dispatch &leaves) {
    std::vector<LeafGroup> groups;
    for (size_t li = 0; li < leaves.leaves.size(); li++) {
        const DispatchLeaf &leaf = leaves.leaves[li];
        std::vector<Condition> box;
        // (Grouped contractions add the groups after the host's dimensions: never split on.)
        for (size_t d = 0; d < leaf.lo.size() && d < kernel_dims_.size(); d++) {
            // Leaves are boxes over the extents in the kernel's order (MatmulPattern::kernel_dims).
            const int od = kernel_dims_[d];
            if (leaf.lo[d] > 1) box.push_back(w_.at_least(leaf_extents_.at(od), leaf.lo[d]));
            if (leaf.hi[d] < kNoUpperBound) box.push_back(w_.at_most(leaf_extents_.at(od), leaf.hi[d]));
        }
        const bool last = li + 1 == leaves.leaves.size() || box.empty();
        auto g = std::find_if(groups.begin(), groups.end(), [&](const LeafGroup &x) { return x.kernel == leaf.kernel; });
        if (g == groups.end()) {
            groups.push_back({leaf.kernel, {}, false, leaf.lo, "", ""});
            g = groups.end() - 1;
        }
        for (size_t d = 0; d < g->lo.size() && d < leaf.lo.size(); d++) g->lo[d] = std::min(g->lo[d], leaf.lo[d]);
        g->covers += (g->covers.empty() ? "" : ", ") + leaf.covers;
        if (!leaf.note.empty()) g->note += (g->note.empty() ? "" : "; ") + leaf.note;
        if (last) {
            g->fallback = true;
            break;
        }
        g->boxes.push_back(w_.all_of(box));
    }
    std::stable_partition(groups.begin(), groups.end(), [](const LeafGroup &g) { return !g.fallback; });
    return groups;
}

void ScheduleApplier::apply_leaves(const KernelChoice &kc, const Dispatch &leaves, FuncRef &host, StageRef &host_base,
                           StageRef &init_base, Updates &update_base, const ContractionLoopNames &nm, const std::string &task) {
    const MatmulPattern &p = kc.pattern;
    const bool dispatching = leaves.leaves.size() > 1;
    const std::vector<LeafGroup> groups = group_leaves(leaves);
    const std::vector<std::vector<int64_t>> family =
        kc.family_extents.empty() ? family_cell_corners(kc.family_box, leaves) : kc.family_extents;
    for (size_t gi = 0; gi < groups.size(); gi++) {
        const LeafGroup &g = groups[gi];
        StageRef hs = host_base, is = init_base;
        Updates us = update_base;
        const bool last = gi + 1 == groups.size();
        if (dispatching) {
            w_.comment("Leaf " + std::to_string(gi) + (last ? " (every other shape)" : "") + ": " +
                       g.kernel.to_string() + " for " + g.covers + (g.note.empty() ? "" : "; ") + g.note);
        }
        if (!last) {
            Condition c = w_.any_of(g.boxes);
            std::tie(hs, is, us) = specialize_contraction(host_base, init_base, update_base, c);
        }
        std::vector<int64_t> at_least = g.lo;
        if (!kc.only_for_extents.empty()) at_least = kc.only_for_extents;
        std::vector<std::vector<int64_t>> shapes;  // the family's shapes this group's kernel runs
        for (const std::vector<int64_t> &e : family) {
            if (leaves.leaves[leaves.leaf_for(e)].kernel == g.kernel) shapes.push_back(e);
        }
        apply_kernel(g.kernel, host, hs, is, us, nm, task, at_least, !kc.only_for_extents.empty(), shapes);
        notes_.push_back("Func " + p.acc + " (computed per tile of output " + p.host + "): micro-kernel " +
                         g.kernel.to_string() + (dispatching ? " for " + g.covers : std::string()) + ".");
    }
}

}  // namespace diet
