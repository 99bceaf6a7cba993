// How many rows of its input a gathering update's reduction step reads at once (update_loops):
// each lane of a vector that gathers along dim 0 streams its own row of the input, one element
// per step, so a step keeps (lanes x vectors) lines of as many rows in the L1 cache.
#include "schedule/GroupApplier.h"
#include "analysis/StridedReads.h"

#include <algorithm>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Rows of the input a gathering arg-reduction's step reads at once, one per lane (heuristic, from
// 8 red-team arg-reductions x 2 shapes, apps/results/cpu/gathered_steps_2026-12-07/: on AVX-512,
// 2 vectors of 16 lanes (32 rows) geomean 0.85x the time of 4 (64 rows); on AVX2 4 vectors of 8
// (32 rows) beat 1 of 8 (1 vector: up to 1.6x slower there)).
constexpr int kGatheredRowsInFlight = 32;

// Rows a gathering arg-reduction's step reads at once with its accumulators on the task's stack
// (task_accumulators): as many as the ways of an L1 set (8 on the x86 CPUs of this decade), since
// rows a multiple of 4 KB apart fall into one set (an L1 of 64 sets of 64-byte lines: every x86
// L1d of 32 or 48 KB). Red-team round 22's argmax over logits of 4096 x 128 floats (rows 16 KB
// apart), accumulators per task, ran 0.038 ms with 8 rows per step, 0.070 with 16, 0.18 with 32
// (AMD EPYC guest, L1d 48 KB, both targets); over rows of 4000 floats 0.036 / 0.036 / 0.047
// (apps/results/cpu/aliased_rows_2026-12-07/).
constexpr int kTaskRowsPerStep = 8;

// Whether some value of the update is one of its reduction variables, bare or cast (the index an
// argmax or argmin carries along with its best value).
bool carries_reduction_index(const Definition &u) {
    std::set<std::string> rvars;
    for (const ReductionVariable &rv : u.schedule().rvars()) rvars.insert(rv.var);
    for (const Expr &v : u.values()) {
        Expr e = v;
        while (const Cast *c = e.as<Cast>()) e = c->value;
        // Halide's argmax stores select(better, r, old): the index is a select's true value.
        if (const Select *sel = e.as<Select>()) e = sel->true_value;
        while (const Cast *c = e.as<Cast>()) e = c->value;
        const Variable *var = e.as<Variable>();
        if (var && rvars.count(var->name)) return true;
    }
    return false;
}

}  // namespace

int GroupApplier::gathered_step_vectors(const StageNode &s, const FuncNode &n, int lanes, int vectors) const {
    if (s.index == 0 || !carries_reduction_index(n.func.updates()[s.index - 1])) return vectors;
    // An arg-reduction: Halide 14 proves no such update associative, so it takes no per-lane
    // partial results along its rows (red-team round 22's argmax over 4096 x 128 logits on
    // AVX-512: 0.73 ms with 64 rows, 0.30 with 32; one vector per step for every gathering
    // update was mixed: same folder as kGatheredRowsInFlight).
    return std::max(1, std::min(vectors, kGatheredRowsInFlight / lanes));
}

// A gathering arg-reduction computed at root keeps its running best values in its buffer: each
// step loads them and stores them again, a chain through memory at every step, so a step needs
// several vectors of rows to hide it, which the L1 cache cannot hold where the rows alias
// (kTaskRowsPerStep). Computed per group of rows of a wrapper instead (`f.in()`, read by every
// consumer), `f` is a small buffer on the task's stack, which LLVM keeps in registers over the
// steps: one vector of at most 8 rows per step. Red-team round 22's argmax over 4096 x 128
// logits: 0.038 ms so (2 threads, AVX-512 or AVX2), against 0.10 for 8-row steps in the root
// buffer and 0.18 for 32-row ones; over rows of 4000 floats 0.036 against 0.046
// (apps/results/cpu/aliased_rows_2026-12-07/). Not for an output (it has no wrapper to compute
// it in) nor a root hosting members.
bool GroupApplier::task_accumulators(const GroupPlan &g, const FuncNode &n, FuncRef &root) {
    if (n.is_output || n.stages.size() != 2 || !g.members.empty() || g.short_dim0 || g.row_lanes() || n.func.args().empty() ||
        n.consumers.empty()) {
        return false;
    }
    const StageNode &s = n.stages[1];
    const std::string x = n.func.args()[0];
    const std::vector<std::string> pure = s.pure_vars();
    const Definition &u = n.func.updates()[0];
    if (s.rvars().empty() || std::find(pure.begin(), pure.end(), x) == pure.end() || !writes_at_pure_point(s, n) ||
        !gathers_along(u, x) || !carries_reduction_index(u) || g.vector_lanes < 2) {
        return false;
    }
    const std::optional<SizeExpr> row = extent_of(n, 0);
    if (!row) return false;
    const int lanes = std::min(g.vector_lanes, kTaskRowsPerStep);
    FuncRef wrap = w_.wrapper(root);
    w_.compute_root(wrap);
    const std::vector<StageNode> ws = stages_of(wrap.func.function());
    std::vector<std::string> wargs;
    for (const Var &v : wrap.func.args()) wargs.push_back(v.name());
    const std::string wx = wargs[0], group = wx + "_group", in_group = wx + "_in_group", task = wx + "_task",
                      in_task = wx + "_in_task";
    // Groups of whole vectors: shifted inwards (the wrapper is pure), each computes `f` over
    // exactly its rows, whose vectors are then never guarded (a guarded vector of gathers is
    // predicated lane by lane at every step); rows shorter than a vector, a row per group, scalar.
    // Tasks of several groups where the steps are few (k-means' argmin over 32 centroids, 20000
    // points: 2500 tasks of one group ran 2.6x slower than before), as one-dimensional updates'
    // tasks are sized (kMinTaskPointSteps point-steps, a gathered step counted per lane), but at
    // least kBandsEnough tasks along a one-dimensional Func.
    std::optional<SizeExpr> groups_per_task;
    if (const std::optional<SizeExpr> steps = reduction_steps(n, 1)) {
        const SizeExpr by_work = ceil_div(size_constant(kMinTaskPointSteps), size_constant((int64_t)lanes * lanes) * *steps);
        // (Outer dimensions fused with the tasks feed the cores by themselves.)
        SizeExpr per_task = by_work;
        if (wargs.size() == 1) per_task = size_min(per_task, ceil_div(*row, size_constant((int64_t)lanes * kBandsEnough)));
        groups_per_task = size_max(size_constant(1), per_task);
    }
    StageRef w0 = w_.stage(wrap, 0, ws[0]);
    const auto wrapper_tasks = [&](StageRef &st, int rows) {
        w_.split(st, wx, group, in_group, rows, rows > 1 ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
        if (rows > 1) w_.vectorize(st, in_group);
        if (groups_per_task && rows > 1) w_.split(st, group, task, in_task, *groups_per_task, TailStrategy::GuardWithIf);
        else w_.split(st, group, task, in_task, 1, TailStrategy::GuardWithIf);
        std::vector<std::string> outer = {task};
        outer.insert(outer.end(), wargs.begin() + 1, wargs.end());
        std::vector<std::string> order = {in_group, in_task};
        order.insert(order.end(), outer.begin(), outer.end());
        w_.reorder(st, order);
        // The tasks and the outer dimensions in one parallel loop (a batch of one feeds no core),
        // serial where the steps are few.
        parallel_fused(st, outer, wrap.ident, stage_points(n, 1, 1));
    };
    StageRef one_step = w_.specialize(w0, w_.at_least(*row, lanes));
    wrapper_tasks(one_step, lanes);
    wrapper_tasks(w0, 1);
    w_.compute_at(root, wrap, in_task, false);
    StageRef init = w_.stage(root, 0, n.stages[0]);
    vectorize_dim(init, x, lanes, TailStrategy::GuardWithIf);
    const std::vector<std::string> rvars = s.rvars();
    const auto update_steps_at = [&](StageRef &st, int vector) {
        std::vector<std::string> loops = {x};
        if (vector > 1) {
            w_.split(st, x, x + "_vo", x + "_vi", vector, TailStrategy::GuardWithIf);
            w_.vectorize(st, x + "_vi");
            loops = {x + "_vi"};
        }
        loops.insert(loops.end(), rvars.begin(), rvars.end());
        if (vector > 1) loops.push_back(x + "_vo");
        for (const std::string &p : pure) {
            if (p != x) loops.push_back(p);
        }
        w_.reorder(st, loops);
    };
    StageRef upd = w_.stage(root, 1, s);
    StageRef vectors = w_.specialize(upd, w_.at_least(*row, lanes));
    update_steps_at(vectors, lanes);
    update_steps_at(upd, 1);
    note_once("Func " + n.name + ": an arg-reduction gathering along " + x + ": computed per group of " + std::to_string(lanes) +
              " rows (one step) of a wrapper computed at root, its accumulators on the task's stack.");
    return true;
}

}  // namespace diet
