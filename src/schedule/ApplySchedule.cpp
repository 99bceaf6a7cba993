// The schedule applier's driver and the default stage rules (schedule/ScheduleApplier.h); apply_schedule.
#include "schedule/ScheduleApplier.h"
#include "analysis/SymbolicRegion.h"
#include "space/GpuSpace.h"

#include <algorithm>
#include <sstream>

namespace diet {

using namespace Halide;
using FuncRef = ScheduleApplier::FuncRef;
using StageRef = ScheduleApplier::StageRef;
using Updates = ScheduleApplier::Updates;

ScheduleApplier::ScheduleApplier(const FunctionDAG &dag, const Target &t, const CpuLimits &cpu, ScheduleWriter &w)
    : dag_(dag), cpu_(cpu), w_(w), gpu_(t.has_gpu_feature()), gpu_sms_(gpu_ ? GpuLimits::for_target(t).sm_count : 0) {}

std::vector<std::string> ScheduleApplier::run(const std::vector<KernelChoice> &kernels, const PipelinePlan *plan) {
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
        const std::set<std::string> inlined(plan->inlined.begin(), plan->inlined.end());
        for (const GroupPlan &g : plan->groups) {
            if (handled.count(g.root)) continue;
            for (const std::string &n : apply_group(g, dag_, w_, lookup, cpu_.vector_bits, cpu_.masked_narrow_lanes, inlined, cpu_.vector_registers)) {
                notes_.push_back(n);
            }
        }
        return notes_;
    }
    for (const FuncNode &n : dag_.nodes()) {
        if (!handled.count(n.name)) place(n);
    }
    return notes_;
}

// A Func's extents at run time (analysis/SymbolicRegion.h), as the schedule spells them; empty
// when one is not known before the pipeline runs.
std::vector<SizeExpr> ScheduleApplier::run_time_extents_of(const std::string &func, const FuncRefLookup &lookup) {
    const auto output_ident = [&](const std::string &buffer) { return output_buffer_ident(dag_, lookup, buffer); };
    std::vector<SizeExpr> out;
    for (const Expr &e : run_time_extents(dag_, func)) {
        if (!is_run_time_size(e)) return {};
        out.push_back(w_.run_time_size(e, output_ident));
    }
    return out;
}

FuncRef &ScheduleApplier::ref(const std::string &name) {
    auto it = refs_.find(name);
    if (it == refs_.end()) it = refs_.emplace(name, w_.func(dag_.node(name))).first;
    return it->second;
}

int ScheduleApplier::lanes_of(const FuncNode &n) const {
    int bits = 8;
    for (const Type &t : n.func.output_types()) bits = std::max(bits, t.bits());
    return std::max(1, cpu_.vector_bits / bits);
}

// Inline what is cheap to recompute, compute_root the rest.
void ScheduleApplier::place(const FuncNode &n) {
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
void ScheduleApplier::materialize(const FuncNode &n) {
    w_.compute_root(ref(n.name));
    StageRef st = w_.stage(ref(n.name), 0, n.stages[0]);
    if (gpu_) default_gpu_stage(st, n.stages[0]);
    else default_cpu_stage(st, n.stages[0], lanes_of(n));
    notes_.push_back("Func " + n.name + ": operand of a contraction, computed at root (dense, read in place).");
}

// Vectorize the innermost pure loop (guarded tail), parallelize the outermost pure loop.
bool ScheduleApplier::default_cpu_stage(StageRef &st, const StageNode &s, int lanes) {
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

// A per-point update of an output after its contraction (analysis/PointwiseUpdate.h: a reduction
// inside each point, y(n, m) += u(n, s) v(m, s)): the points are independent, so the reduction runs
// inside the innermost pure loop's vectors (by default it is innermost: scalar code), the
// outermost pure loop parallel.
void ScheduleApplier::per_point_update_pass(StageRef &st, const StageNode &s, int lanes) {
    const std::vector<std::string> pure = s.pure_vars(), rv = s.rvars();
    if (pure.empty()) return;
    std::vector<std::string> order = {pure[0]};
    order.insert(order.end(), rv.begin(), rv.end());
    order.insert(order.end(), pure.begin() + 1, pure.end());
    w_.reorder(st, order);
    if (pure.size() >= 2) w_.parallel(st, pure.back());
    if (lanes > 1) {
        w_.split(st, pure[0], pure[0] + "_vo", pure[0] + "_vi", lanes, TailStrategy::GuardWithIf);
        w_.vectorize(st, pure[0] + "_vi");
    }
}

// A wrapper the kernel tiles, stored with its arguments in the pattern's host order
// (MatmulPattern::host_arg_of_dim); nothing when that is its own order.
void ScheduleApplier::store_in_host_order(const FuncRef &host, const MatmulPattern &p) {
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
void ScheduleApplier::transposed_output_pass(const FuncRef &out, StageRef &st, const StageNode &s, int lanes) {
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
// the innermost loop vectorized (guarded tail) where it is at least a vector long, the outermost
// batch loop parallel in groups of `slices_per_task` slices (a slice of a small shape is too little
// work for one task).
void ScheduleApplier::batched_output_pass(StageRef &st, const StageNode &s, int lanes, const SizeExpr &slices_per_task,
                                          const SizeExpr &inner_extent) {
    const std::string inner = s.loops.front().name, outer = s.loops.back().name;
    w_.split(st, outer, outer + "_o", outer + "_i", slices_per_task, TailStrategy::GuardWithIf);
    w_.parallel(st, outer + "_o");
    if (lanes > 1) {
        // Rows narrower than a vector run scalar: with masked vectors each row's store overlaps
        // the next row's load (rows T = 1-7 floats apart), which the CPU cannot forward, and the
        // update pass waited on every row (attention scores updated on the output, 192 heads,
        // AVX2: 1.5x faster at T = 1-2, 1.16-1.39x at T = 3-7, apps/results/cpu/dense_vector_moves_2026-11-29/).
        const Condition wide_rows = w_.at_least(inner_extent, lanes);
        const Expr decided = simplify_size_condition(wide_rows.expr);
        if (Internal::is_const_zero(decided)) return;
        StageRef wide = Internal::is_const_one(decided) ? st : w_.specialize(st, wide_rows);
        w_.split(wide, inner, inner + "_vo", inner + "_vi", lanes, TailStrategy::GuardWithIf);
        w_.vectorize(wide, inner + "_vi");
    }
}

// 16x16 (or 256 x 1) thread blocks over the pure loops; reductions run inside each thread.
bool ScheduleApplier::default_gpu_stage(StageRef &st, const StageNode &s) {
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

std::vector<std::string> apply_schedule(const FunctionDAG &dag, const std::vector<KernelChoice> &kernels,
                                        const Target &target, const CpuLimits &cpu, ScheduleWriter &w,
                                        const PipelinePlan *plan) {
    return ScheduleApplier(dag, target, cpu, w).run(kernels, plan);
}

}  // namespace diet
