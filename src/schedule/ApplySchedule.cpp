#include "schedule/ApplySchedule.h"
#include "analysis/SymbolicRegion.h"
#include "common/Errors.h"
#include "schedule/ApplyGroups.h"
#include "schedule/CpuTiling.h"
#include "schedule/GatherStrides.h"
#include "schedule/GpuTiling.h"
#include "space/GpuSpace.h"
#include "schedule/OperandStaging.h"
#include "schedule/TaskGrain.h"
#include "schedule/VariantCells.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace diet {

using namespace Halide;
using FuncRef = ScheduleWriter::FuncRef;
using StageRef = ScheduleWriter::StageRef;
using Updates = ContractionUpdates;  // a contraction's update stages (MatmulPattern::update_reductions)

namespace {

class Applier {
public:
    Applier(const FunctionDAG &dag, const Target &t, const CpuLimits &cpu, ScheduleWriter &w)
        : dag_(dag), cpu_(cpu), w_(w), gpu_(t.has_gpu_feature()),
          gpu_sms_(gpu_ ? GpuLimits::for_target(t).sm_count : 0) {}

    std::vector<std::string> run(const std::vector<KernelChoice> &kernels, const PipelinePlan *plan) {
        std::set<std::string> handled;
        for (const KernelChoice &k : kernels) {
            apply_matmul(k);
            for (const std::string &f : k.pattern.funcs()) handled.insert(f);
        }
        for (const auto &[name, why] : dag_.unmatched_reductions()) {
            notes_.push_back("Func " + name + ": matmul-like, but " + why +
                             "; scheduled with the default stage rules (guarded tails).");
        }
        if (plan && !gpu_) {
            const FuncRefLookup lookup = [this](const std::string &name) -> FuncRef & { return ref(name); };
            for (const GroupPlan &g : plan->groups) {
                if (handled.count(g.root)) continue;
                for (const std::string &n : apply_group(g, dag_, w_, lookup, cpu_.vector_bits)) notes_.push_back(n);
            }
            return notes_;
        }
        for (const FuncNode &n : dag_.nodes()) {
            if (!handled.count(n.name)) place(n);
        }
        return notes_;
    }

private:
    const FunctionDAG &dag_;
    CpuLimits cpu_;
    ScheduleWriter &w_;
    bool gpu_;
    int gpu_sms_;  // tile variants on a GPU: gpu_variant_for's rule (space/MicroKernel.h)
    std::map<std::string, FuncRef> refs_;
    bool serial_tasks_ = false;  // the kernel runs inside a parallel loop of its consumer
    bool host_region_inferred_ = false;  // the host is not the output: its region comes from its readers
    // No operand that moves with the vectors reads the batch dimensions (the weights of a dense
    // layer over a batch of sequences): the batch loops run inside the panels' (batch_inside_panels).
    bool batch_inside_panels_ = false;
    // The batch runs like more rows (no operand read along the vectors reads it, nothing reads
    // through a window): rows_along_batch_variant.
    bool rows_along_batch_ = false;
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

    // A Func's extents at run time (analysis/SymbolicRegion.h), as the schedule spells them; empty
    // when one is not known before the pipeline runs.
    std::vector<SizeExpr> run_time_extents_of(const std::string &func, const FuncRefLookup &lookup) {
        const auto output_ident = [&](const std::string &buffer) { return output_buffer_ident(dag_, lookup, buffer); };
        std::vector<SizeExpr> out;
        for (const Expr &e : run_time_extents(dag_, func)) {
            if (!is_run_time_size(e)) return {};
            out.push_back(w_.run_time_size(e, output_ident));
        }
        return out;
    }

    FuncRef &ref(const std::string &name) {
        auto it = refs_.find(name);
        if (it == refs_.end()) it = refs_.emplace(name, w_.func(dag_.node(name))).first;
        return it->second;
    }

    int lanes_of(const FuncNode &n) const {
        int bits = 8;
        for (const Type &t : n.func.output_types()) bits = std::max(bits, t.bits());
        return std::max(1, cpu_.vector_bits / bits);
    }

    // Inline what is cheap to recompute, compute_root the rest.
    void place(const FuncNode &n) {
        if (n.is_extern) {
            if (!n.is_output) w_.compute_root(ref(n.name));
            notes_.push_back("Func " + n.name + ": extern stage, computed at root.");
            return;
        }
        if (!n.is_output && !n.has_updates() && (n.pointwise_consumed || n.is_input_wrapper)) {
            return;  // inlined: Halide's default
        }
        if (!n.is_output) w_.compute_root(ref(n.name));
        std::vector<StageRef> untouched;
        for (const StageNode &s : n.stages) {
            StageRef st = w_.stage(ref(n.name), s.index, s);
            bool applied = gpu_ ? default_gpu_stage(st, s) : default_cpu_stage(st, s, lanes_of(n));
            if (!applied && s.index > 0) untouched.push_back(st);
        }
        // An update left with its default serial loops (e.g. a scatter with no pure variable) is
        // intended; say so, or Halide warns that it may have been forgotten.
        for (StageRef &st : untouched) w_.unscheduled(st);
        notes_.push_back("Func " + n.name + ": " + (n.is_output ? "output" : "computed at root") +
                         ", default " + (gpu_ ? "GPU tiling" : "parallel/vectorized loops") + ".");
    }

    // A contraction's computed operand, once per call (MatmulPattern::materialized).
    void materialize(const FuncNode &n) {
        w_.compute_root(ref(n.name));
        StageRef st = w_.stage(ref(n.name), 0, n.stages[0]);
        if (gpu_) default_gpu_stage(st, n.stages[0]);
        else default_cpu_stage(st, n.stages[0], lanes_of(n));
        notes_.push_back("Func " + n.name + ": operand of a contraction, computed at root (dense, read in place).");
    }

    // Vectorize the innermost pure loop (guarded tail), parallelize the outermost pure loop.
    bool default_cpu_stage(StageRef &st, const StageNode &s, int lanes) {
        if (s.loops.empty()) return false;
        bool applied = false;
        const LoopVar &inner = s.loops.front(), &outer = s.loops.back();
        if (!outer.is_rvar && s.loops.size() >= 2 && outer.name != inner.name) {
            w_.parallel(st, outer.name);
            applied = true;
        }
        if (!inner.is_rvar && lanes > 1) {
            w_.split(st, inner.name, inner.name + "_vo", inner.name + "_vi", lanes, TailStrategy::GuardWithIf);
            w_.vectorize(st, inner.name + "_vi");
            applied = true;
        }
        return applied;
    }

    // A wrapper the kernel tiles, stored with its arguments in the pattern's host order
    // (MatmulPattern::host_arg_of_dim); nothing when that is its own order.
    void store_in_host_order(const FuncRef &host, const MatmulPattern &p) {
        std::vector<std::string> natural, storage;
        for (const Var &v : host.func.args()) natural.push_back(v.name());
        for (int a : p.host_arg_of_dim) storage.push_back(natural.at(a));
        if (!p.host_arg_of_dim.empty() && storage != natural) w_.reorder_storage(host, storage);
    }

    // A pass over a 2-D output whose contraction's vectors were moved to its dimension 1
    // (MatmulPattern::moved_vector_arg), reading the wrapper stored dimension 1 innermost: where
    // dimension 0 is shorter than a vector, vectors along dimension 1 (the wrapper read densely,
    // strided stores; serial: fewer than a vector of rows is too little work to share); elsewhere vector x vector blocks, the block's rows unrolled (Halide loads
    // whole vectors of the wrapper and transposes them in registers), parallel over columns of
    // blocks (one task per column of the output would be a task per vector at T = 16).
    void transposed_output_pass(const FuncRef &out, StageRef &st, const StageNode &s, int lanes) {
        if (lanes <= 1 || s.loops.size() != 2 || s.loops[0].is_rvar || s.loops[1].is_rvar) {
            default_cpu_stage(st, s, lanes);
            return;
        }
        const std::string inner = s.loops[0].name, outer = s.loops[1].name;
        StageRef short_rows = w_.specialize(st, w_.at_most(w_.output_extent(out, 0), lanes - 1));
        w_.split(short_rows, outer, outer + "_vo", outer + "_vi", lanes, TailStrategy::GuardWithIf);
        w_.vectorize(short_rows, outer + "_vi");
        w_.reorder(short_rows, {outer + "_vi", inner, outer + "_vo"});
        w_.split(st, inner, inner + "_vo", inner + "_vi", lanes, TailStrategy::GuardWithIf);
        w_.vectorize(st, inner + "_vi");
        w_.split(st, outer, outer + "_bo", outer + "_bi", lanes, TailStrategy::GuardWithIf);
        w_.unroll(st, outer + "_bi");
        w_.reorder(st, {inner + "_vi", outer + "_bi", inner + "_vo", outer + "_bo"});
        w_.parallel(st, outer + "_bo");
    }

    // A pass over a batched output (its init, or `out += wrapper` of an update on the output):
    // the innermost loop vectorized (guarded tail), the outermost batch loop parallel in groups
    // of `slices_per_task` slices (a slice of a small shape is too little work for one task).
    void batched_output_pass(StageRef &st, const StageNode &s, int lanes, const SizeExpr &slices_per_task) {
        const std::string inner = s.loops.front().name, outer = s.loops.back().name;
        w_.split(st, outer, outer + "_o", outer + "_i", slices_per_task, TailStrategy::GuardWithIf);
        w_.parallel(st, outer + "_o");
        if (lanes > 1) {
            w_.split(st, inner, inner + "_vo", inner + "_vi", lanes, TailStrategy::GuardWithIf);
            w_.vectorize(st, inner + "_vi");
        }
    }

    // 16x16 (or 256 x 1) thread blocks over the pure loops; reductions run inside each thread.
    bool default_gpu_stage(StageRef &st, const StageNode &s) {
        std::vector<std::string> pure = s.pure_vars(), rv = s.rvars();
        if (pure.empty()) {
            w_.gpu_single_thread(st);
            return true;
        }
        std::vector<std::string> order = rv, threads, blocks;
        const int per_dim = pure.size() == 1 ? 256 : 16;
        for (size_t i = 0; i < std::min<size_t>(2, pure.size()); i++) {
            w_.split(st, pure[i], pure[i] + "_b", pure[i] + "_t", per_dim, TailStrategy::GuardWithIf);
            threads.push_back(pure[i] + "_t");
            blocks.push_back(pure[i] + "_b");
        }
        for (size_t i = 3; i < pure.size(); i++) order.push_back(pure[i]);  // serial, inside the threads
        if (pure.size() >= 3) blocks.push_back(pure[2]);
        order.insert(order.end(), threads.begin(), threads.end());
        order.insert(order.end(), blocks.begin(), blocks.end());
        w_.reorder(st, order);
        w_.gpu_threads(st, threads);
        w_.gpu_blocks(st, blocks);
        return true;
    }

    // ---- the matmul micro-kernel -------------------------------------------------------------

    // host: the Func the kernel tiles; acc: the one computed per tile (for an update on the output,
    // the wrapper and the rfactor intermediate, whose arguments are the output's).
    ContractionLoopNames names_of(const MatmulPattern &p, const Internal::Function &host, const Internal::Function &acc) {
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

    void apply_matmul(const KernelChoice &kc) {
        const MatmulPattern &p = kc.pattern;
        // `out` owns the buffer whose extents select tile variants and dispatch leaves; `host` is
        // tiled and `acc` computed per tile. For an update on the output, the reduction moves
        // into an rfactor intermediate (a Func with a pure init and the same update), read by the
        // output's remaining update `out += acc` through a pure wrapper computed at root: the
        // wrapper is tiled like any host (ShiftInwards is illegal on an update), the output's
        // two stages become simple vectorized passes over its buffer.
        const FuncRef out = ref(p.host);  // a copy: refs_ may be re-pointed below
        FuncRef host = out, acc = ref(p.acc);
        serial_tasks_ = false;
        host_region_inferred_ = !p.host_is_output || p.host_wraps_acc || p.update_on_output;
        kernel_dims_ = p.kernel_dims();
        batch_inside_panels_ = batch_inside_panels(p);
        rows_along_batch_ = !gpu_ && batch_inside_panels_ && p.vector_period == 0 && !read_through_window(p);
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
        if (p.update_on_output) {
            StageRef upd = w_.stage(out, 1, host_stages[1]);
            acc = w_.rfactor_all(upd, p.acc + "_acc");
            host = w_.wrapper(acc, out);
            // Vectors moved off the output's innermost dimension: the tiles fill the wrapper in
            // that order; the output's passes read it transposed.
            store_in_host_order(host, p);
            // Batched on the CPU: the wrapper is computed per slice of the outermost batch
            // dimension, inside the output's parallel update loop (its tiles serial there): a
            // slice stays in cache and no output-sized buffer is allocated (and page-faulted) per
            // call. Otherwise at root. (Per task, or stored per task, the guarded last task's
            // region reaches past the inputs.)
            const std::vector<std::string> out_args = out.func.function().args();
            serial_tasks_ = !gpu_ && out_args.size() > 2;
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
                StageRef st = w_.stage(out, sn.index, sn);
                if (gpu_) default_gpu_stage(st, sn);
                else if (serial_tasks_) batched_output_pass(st, sn, lanes_of(dag_.node(p.host)), slices_per_task);
                else if (p.moved_vector_arg >= 0) transposed_output_pass(out, st, sn, lanes_of(dag_.node(p.host)));
                else default_cpu_stage(st, sn, lanes_of(dag_.node(p.host)));
            }
        }
        for (const std::string &f : p.materialized) materialize(dag_.node(f));
        const ContractionLoopNames nm = names_of(p, host.func.function(), acc.func.function());
        // The accumulator tile is stored with the vector dimension innermost, whatever the order
        // of acc's arguments (an inline sum() takes them in the order the free variables appear:
        // out(o, r) = sum(a(c, r) * w(c, o)) gives sum(r, o), and vectorizing o would gather
        // and scatter the accumulator with a stride of the tile's row count).
        std::vector<std::string> storage = {nm.rn, nm.rm};
        storage.insert(storage.end(), nm.rbatch.begin(), nm.rbatch.end());
        std::vector<std::string> natural;
        for (const Var &v : acc.func.args()) natural.push_back(v.name());
        if (storage != natural) w_.reorder_storage(acc, storage);
        Dispatch leaves = kc.dispatch;
        if (leaves.empty()) leaves.leaves.push_back({kc.kernel, {}, {}, "", ""});
        const MicroKernel &first = leaves.leaves[0].kernel;
        for (const DispatchLeaf &l : leaves.leaves) {
            internal_assert(l.kernel.gpu == first.gpu && l.kernel.cpu.stage_strided == first.cpu.stage_strided &&
                            l.kernel.cpu.k_pack == first.cpu.k_pack)
                << "Diet: the kernels of one dispatch disagree on operand staging\n";
        }

        // A reduction extent known only at run time, estimated as a constant: the leaves were
        // chosen for that extent (their dot products and k unrolling divide it) and run under
        // specialize(extent == estimate); any other extent gets a general column kernel.
        const bool fixed_k = !gpu_ && !p.reduction_extent && p.estimated_reduction_extent;
        const MicroKernel general = fixed_k ? general_column_kernel(leaves, first) : MicroKernel{};

        // Func-level placement, shared by every leaf and variant (Halide takes compute_at from the
        // general case, so every specialization keeps the same loop names).
        const std::string task = nm.batch.empty() ? "n_t" : "task";
        if (!gpu_) {
            w_.compute_at(acc, host, "n_p", false);
            // Dot-product leaves read the operands themselves (their rfactor intermediate calls
            // them, acc does not): panels only when a column kernel is among the leaves (Halide
            // refuses a wrapper of a Func that no definition of acc calls).
            const bool column_leaf = fixed_k || std::any_of(leaves.leaves.begin(), leaves.leaves.end(),
                                                            [](const DispatchLeaf &l) { return !l.kernel.cpu.dot; });
            const FuncRefLookup lookup = [this](const std::string &name) -> FuncRef & { return ref(name); };
            copy_broadcast_operands(w_, lookup, p, first.cpu.vector_width, reduction_major_copies_,
                                    [&](const std::string &func) { return run_time_extents_of(func, lookup); });
            if (column_leaf) {
                // The run of tasks one thread takes exists as a loop where tile_host_cpu fuses the
                // task loops (not where the host's region is inferred).
                stage_cpu_operands(w_, lookup, p, acc, host, task + "_i", host_region_inferred_ ? "" : task + "_o",
                                   first.cpu.vector_width, first.cpu.stage_strided, first.cpu.k_pack);
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
            const std::string est = std::to_string(*p.estimated_reduction_extent);
            w_.comment("The reduction's extent " + k.text + " as estimated (" + est + "): the kernels chosen for it.");
            const Condition c = w_.equal_to(k, *p.estimated_reduction_extent);
            StageRef hk = w_.specialize(hs, c), ik = w_.specialize(is, c);
            Updates uk = specialize_all(us, c);
            apply_leaves(kc, leaves, host, hk, ik, uk, names, task);
            w_.comment("Any other reduction extent: a general column kernel.");
            apply_kernel(general, host, hs, is, us, names, task, {}, false, {});
            std::ostringstream extent;
            extent << p.reduction[0].extent;
            notes_.push_back("Func " + p.acc + ": the kernels above for a reduction extent of " + est + " (" + extent.str() +
                             " as estimated); any other extent: micro-kernel " + general.to_string() + ".");
        };
        if (!gpu_ && p.vector_period > 0) apply_in_groups(p, out, host_base, init_base, update_base, nm, apply_all);
        apply_all(host_base, init_base, update_base, nm);
    }

    // Whether the task loop runs the batch inside the panels: when no operand moving with the
    // vectors reads a batch dimension, consecutive iterations then reuse one panel of it from
    // cache (a dense layer over 4 sequences at T = 1 streamed its 2.4 MB of weights once per
    // sequence, each time from memory). Otherwise (a batched product: every operand reads the
    // batch) the panels run inside the batch, as each batch slice is its own product.
    bool batch_inside_panels(const MatmulPattern &p) const {
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
    static bool read_through_window(const MatmulPattern &p) {
        for (const ContractionOperand &o : p.operands) {
            if (std::any_of(o.window_acc_arg.begin(), o.window_acc_arg.end(), [](bool b) { return b; })) return true;
        }
        return false;
    }

    // MatmulPattern::vector_period: where the output starts at 0 and holds whole groups, its
    // vector dimension is split into groups (RoundUp: exact there) and the kernels tile one group,
    // a batch dimension of its own fused into the task loop. Each tile then lies in one group, and
    // Halide proves the grouped operand's v / K constant across every vector (a broadcast, not a
    // gather). The leaves' boxes keep the output's extents (leaf_extents_).
    template <typename ApplyAll>
    void apply_in_groups(const MatmulPattern &p, const FuncRef &out, StageRef &host_base, StageRef &init_base,
                         Updates &update_base, const ContractionLoopNames &nm, ApplyAll &apply_all) {
        const int64_t K = p.vector_period;
        const SizeExpr extent0 = host_extents_.at(0);
        const Condition aligned = w_.all_of({w_.equal_to(w_.output_min(out, 0), 0), w_.multiple_of(extent0, K)});
        w_.comment("An operand reads " + nm.n + " / " + std::to_string(K) + ": the kernels tile groups of " +
                   std::to_string(K) + " (where the output starts at 0 and holds whole groups).");
        StageRef hg = w_.specialize(host_base, aligned), ig = w_.specialize(init_base, aligned);
        Updates ug = specialize_all(update_base, aligned);
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
    static MicroKernel general_column_kernel(const Dispatch &leaves, const MicroKernel &first) {
        MicroKernel g;
        g.cpu = {first.cpu.vector_width, 2, 6, 1, 1, first.cpu.stage_strided};
        for (const DispatchLeaf &l : leaves.leaves) {
            if (!l.kernel.cpu.dot) g = l.kernel;
        }
        g.cpu.k_unroll = 1;
        return g;
    }

    // The leaves that share a kernel run under one specialization, the disjunction of their boxes
    // (the boxes partition the shapes, so their order does not matter). Each specialization
    // compiles its kernel's code again, and a noisy tuning can alternate two kernels along T: a
    // dispatch of 14 leaves over 8 kernels kept LLVM busy for over 8 minutes on one library
    // (scripts/main.sh on a clean clone). The group holding the last leaf (every other shape)
    // runs unconditionally, last.
    struct LeafGroup {
        MicroKernel kernel;
        std::vector<Condition> boxes;  // one per leaf; none for the fallback group's last leaf
        bool fallback = false;
        std::vector<int64_t> lo;       // the smallest extents any of its leaves reaches
        std::string covers, note;
    };

    std::vector<LeafGroup> group_leaves(const Dispatch &leaves) {
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

    void apply_leaves(const KernelChoice &kc, const Dispatch &leaves, FuncRef &host, StageRef &host_base,
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
                hs = w_.specialize(host_base, c);
                is = w_.specialize(init_base, c);
                us = specialize_all(update_base, c);
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

    // One kernel's chain of tile variants on (maybe already specialized) stages. Variants larger
    // than the smallest extents `at_least` can reach are kept; the chain stops at the first variant
    // that always fits (with `exact`, only that variant: the extents are known).
    // `shapes`: the host's extents at each family shape this kernel runs (empty: not listed).
    void apply_kernel(const MicroKernel &k, FuncRef &host, StageRef &host_s, StageRef &init_s, Updates &update_s,
                      const ContractionLoopNames &nm, const std::string &task, const std::vector<int64_t> &at_least, bool exact,
                      const std::vector<std::vector<int64_t>> &shapes) {
        std::vector<TileVariant> all = tile_variants(k), variants;
        const int64_t min_cols = std::min<int64_t>(at_least.empty() ? 1 : at_least[0], group_cols_ > 0 ? group_cols_ : INT64_MAX);
        const int64_t min_rows = at_least.size() > 1 ? at_least[1] : 1;
        const int64_t min_depth = at_least.size() > 2 ? at_least[2] : 1;
        if (exact) {
            variants = {gpu_ ? gpu_variant_for(all, at_least, gpu_sms_) : fitting_variant(all, min_cols, min_rows, min_depth)};
        } else {
            for (const TileVariant &t : all) {
                variants.push_back(t);
                // Always taken from here on; on a GPU the smaller variants stay, for the shapes
                // where this one gives too few blocks (blocks_at_least).
                if (t.cols <= min_cols && t.rows <= min_rows && t.depth <= min_depth && !gpu_) break;
            }
        }
        // Dot kernels gathering an input along the reduction: each one-row variant is preceded by
        // its copy for that input stored densely along it (schedule/GatherStrides.h), where the
        // gathers become dense loads (rows of the output hold one element then, T = 1).
        std::vector<bool> dense_copy(variants.size(), false);
        if (!gpu_ && k.cpu.dot && !dense_strides_.empty() && !exact) {
            std::vector<TileVariant> chain;
            std::vector<bool> copies;
            for (const TileVariant &t : variants) {
                if (t.rows == 1) {
                    chain.push_back(t);
                    copies.push_back(true);
                }
                chain.push_back(t);
                copies.push_back(false);
            }
            variants = chain;
            dense_copy = copies;
        }
        // Each shape runs the first variant that fits it: one that no shape of the family takes
        // is dropped (the last stays, for every other shape). Each costs a specialization that
        // Halide lowers and LLVM compiles: attention scores with T in [1, 512] (both of the
        // output's tiled extents are T) kept 9 variants of its dot kernel, each with an rfactor
        // intermediate, and took 50 s to compile; the family takes 4 of them.
        // (Not within groups, group_cols_: the tiles' columns are then the group's, not the extent's.)
        if (!gpu_ && !exact && !shapes.empty() && group_cols_ == 0 &&
            std::none_of(dense_copy.begin(), dense_copy.end(), [](bool b) { return b; })) {
            std::vector<bool> taken(variants.size(), false);
            taken.back() = true;
            for (const std::vector<int64_t> &e : shapes) taken[&fitting_variant_at(variants, e) - variants.data()] = true;
            std::vector<TileVariant> taken_variants;
            for (size_t i = 0; i < variants.size(); i++) {
                if (taken[i]) taken_variants.push_back(variants[i]);
            }
            variants = taken_variants;
            dense_copy.assign(variants.size(), false);
        }
        // Conditions already specialized on: a host extent that is a constant (the hidden width of
        // an MLP's first layer) decides some of them before run time, and Halide hands back the
        // existing specialization for a condition it has seen (already tiled: "n_v is already used").
        std::vector<Expr> taken;
        if (!exact) {
            // The full-width tiles of fewer rows too (a dot kernel's 5, 3 rows: B = 4 takes 3).
            std::set<int> rows_tried;
            for (const TileVariant &t : all) {
                if (t.cols != all.front().cols || t.depth > 1 || !rows_tried.insert(t.rows).second) continue;
                rows_along_batch_variant(k, t, host, host_s, init_s, update_s, nm, task, min_rows, shapes, taken);
            }
        }
        for (size_t i = 0; i < variants.size(); i++) {
            const TileVariant &t = variants[i];
            StageRef hs = host_s, is = init_s;
            Updates us = update_s;
            bool last = i + 1 == variants.size();
            if (!last) {
                std::vector<Condition> cs;
                if (dense_copy[i]) {
                    for (const SizeExpr &stride : dense_strides_) cs.push_back(w_.equal_to(stride, 1));
                }
                if (t.cols > 1) cs.push_back(w_.at_least(host_extents_.at(0), t.cols));
                if (t.rows > 1) cs.push_back(w_.at_least(host_extents_.at(kernel_dims_[1]), t.rows));
                if (t.depth > 1) cs.push_back(w_.at_least(host_extents_.at(kernel_dims_[2]), t.depth));
                if (gpu_ && narrower_variant_follows(variants, i)) cs.push_back(blocks_at_least(t, min_gpu_blocks(t, gpu_sms_)));
                const Expr decided = cs.empty() ? Expr(true) : simplify_size_condition(w_.all_of(cs).expr);
                const bool seen = std::any_of(taken.begin(), taken.end(), [&](const Expr &e) { return Internal::equal(e, decided); });
                if (Internal::is_const_zero(decided) || seen) continue;  // never reached
                last = Internal::is_const_one(decided);
                if (!last) {
                    Condition c = w_.all_of(cs);
                    hs = w_.specialize(host_s, c);
                    is = w_.specialize(init_s, c);
                    us = specialize_all(update_s, c);
                    taken.push_back(decided);
                }
            }
            apply_variant(k, t, host, hs, is, us, nm, task, kernel_extents_);
            if (last) break;
        }
    }

    // Rows along the batch: where kernel k's full-width tile `t` has more rows than the rows'
    // extent and no more than the batch's (the kernel's third dimension, which runs like more
    // rows: rows_along_batch_), that tile with the two dimensions' roles swapped, specialized
    // before the chain. A dense layer over batch x sequence, y(o, t, b), at T = 1, B = 16 otherwise
    // runs one-row tiles, loading a weight vector per multiply-add.
    void rows_along_batch_variant(const MicroKernel &k, const TileVariant &t, FuncRef &host, StageRef &host_s,
                                  StageRef &init_s, Updates &update_s, const ContractionLoopNames &nm, const std::string &task,
                                  int64_t min_rows, const std::vector<std::vector<int64_t>> &shapes, std::vector<Expr> &taken) {
        if (!rows_along_batch_ || gpu_ || group_cols_ > 0 || t.depth > 1 || t.rows <= 1 || min_rows >= t.rows ||
            nm.batch.empty() || kernel_extents_.size() < 3) {
            return;
        }
        const auto swaps = [&](const std::vector<int64_t> &e) {
            return e.size() > 2 && e[0] >= t.cols && e[1] < t.rows && e[2] >= t.rows;
        };
        if (!shapes.empty() && std::none_of(shapes.begin(), shapes.end(), swaps)) return;
        std::vector<Condition> cs;
        if (t.cols > 1) cs.push_back(w_.at_least(kernel_extents_[0], t.cols));
        cs.push_back(w_.at_most(kernel_extents_[1], t.rows - 1));
        cs.push_back(w_.at_least(kernel_extents_[2], t.rows));
        const Condition c = w_.all_of(cs);
        const Expr decided = simplify_size_condition(c.expr);
        if (Internal::is_const_zero(decided)) return;
        StageRef hs = w_.specialize(host_s, c), is = w_.specialize(init_s, c);
        Updates us = specialize_all(update_s, c);
        taken.push_back(decided);
        ContractionLoopNames swapped = nm;
        std::swap(swapped.m, swapped.batch[0]);
        std::swap(swapped.rm, swapped.rbatch[0]);
        std::vector<SizeExpr> extents = kernel_extents_;
        std::swap(extents[1], extents[2]);
        apply_variant(k, t, host, hs, is, us, swapped, task, extents);
    }

    // One tile variant on (specialized) stages; `extents`: the host's in the order the tile
    // sees them (kernel order), for the task grain.
    void apply_variant(const MicroKernel &k, const TileVariant &t, FuncRef &host, StageRef &hs, StageRef &is, Updates &us,
                       const ContractionLoopNames &nm, const std::string &task, const std::vector<SizeExpr> &extents) {
        // The staged GPU kernels stage one update's operands; several updates get the other
        // kernels only (gpu_staging_possible).
        internal_assert(us.size() == 1 || !(gpu_ && k.cuda.staged()))
            << "Diet: a kernel for one contraction update applied to " << us.size() << "\n";
        if (gpu_ && k.cuda.staged()) {
            tile_host_staged(w_, hs, t, nm);
            tile_acc_staged(w_, is, us[0], t, k.cuda, nm);
        } else if (gpu_) {
            tile_host_gpu(w_, hs, t, nm);
            tile_acc_init(w_, is, t, nm, false);
            for (size_t u = 0; u < us.size(); u++) tile_update_gpu(w_, us[u], t, k.cuda.k_unroll, nm, nm.update_reductions[u]);
        } else {
            // Tasks per thread-pool task (schedule/TaskGrain.h); 1 inside a consumer's parallel loop.
            const SizeExpr grain = serial_tasks_ ? size_constant(1) : task_grain_expr(extents, t, k.cpu, reduction_);
            tile_host_cpu(w_, hs, t, k.cpu, nm, task, grain, !serial_tasks_, batch_inside_panels_, host_region_inferred_);
            if (k.cpu.dot) {
                tile_acc_dot(w_, is, us, t, k.cpu, nm, host);
            } else {
                tile_acc_init(w_, is, t, nm, true);
                for (size_t u = 0; u < us.size(); u++) tile_update_cpu(w_, us[u], t, k.cpu, nm, nm.update_reductions[u]);
            }
        }
    }

    // The host's tiles of variant t (its blocks on a GPU) number at least n: every dimension's
    // extent, the two kernel dimensions divided by the tile, rounded up.
    Condition blocks_at_least(const TileVariant &t, int64_t n) {
        SizeExpr blocks = size_constant(1);
        for (int d = 0; d < (int)host_extents_.size(); d++) {
            SizeExpr e = host_extents_[d];
            if (d == 0) e = ceil_div(e, size_constant(t.cols));
            else if (d == kernel_dims_[1]) e = ceil_div(e, size_constant(t.rows));
            blocks = blocks * e;
        }
        return {blocks.expr >= (int)n, "(" + blocks.text + ") >= " + std::to_string(n)};
    }

    Updates specialize_all(const Updates &us, const Condition &c) {
        Updates out;
        for (const StageRef &u : us) out.push_back(w_.specialize(u, c));
        return out;
    }
};

}  // namespace

std::vector<std::string> apply_schedule(const FunctionDAG &dag, const std::vector<KernelChoice> &kernels,
                                        const Target &target, const CpuLimits &cpu, ScheduleWriter &w,
                                        const PipelinePlan *plan) {
    return Applier(dag, target, cpu, w).run(kernels, plan);
}

}  // namespace diet
