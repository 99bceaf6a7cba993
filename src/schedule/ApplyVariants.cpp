// One micro-kernel's chain of tile variants, each under the specialization of the extents it fits
// (guard-free at every shape), and the rows-along-the-batch variant (schedule/ScheduleApplier.h).
#include "schedule/ScheduleApplier.h"
#include "common/Errors.h"
#include "schedule/GpuTiling.h"
#include "schedule/OperandStaging.h"
#include "space/GpuSpace.h"

#include <algorithm>
#include <sstream>

namespace diet {

using namespace Halide;
using FuncRef = ScheduleApplier::FuncRef;
using StageRef = ScheduleApplier::StageRef;
using Updates = ScheduleApplier::Updates;

// One kernel's chain of tile variants on (maybe already specialized) stages. Variants larger
// than the smallest extents `at_least` can reach are kept; the chain stops at the first variant
// that always fits (with `exact`, only that variant: the extents are known).
// `shapes`: the host's extents at each family shape this kernel runs (empty: not listed).
void ScheduleApplier::apply_kernel(const MicroKernel &k, FuncRef &host, StageRef &host_s, StageRef &init_s, Updates &update_s,
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
    // Each shape runs the first variant that fits it: one that no shape of the family takes
    // is dropped (the last stays, for every other shape). Each costs a specialization that
    // Halide lowers and LLVM compiles: attention scores with T in [1, 512] (both of the
    // output's tiled extents are T) kept 9 variants of its dot kernel, each with an rfactor
    // intermediate, and took 50 s to compile; the family takes 4 of them.
    // (Not within groups, group_cols_: the tiles' columns are then the group's, not the extent's.)
    // Before the dense copies below are added (dropped with them, attention scores with
    // transposed queries kept 9 variants of a dot kernel over T in [1, 64] and compiled in 23 s, 3.4 s with 5).
    if (!gpu_ && !exact && !shapes.empty() && group_cols_ == 0) {
        std::vector<bool> taken(variants.size(), false);
        taken.back() = true;
        for (const std::vector<int64_t> &e : shapes) taken[&fitting_variant_at(variants, e) - variants.data()] = true;
        std::vector<TileVariant> taken_variants;
        for (size_t i = 0; i < variants.size(); i++) {
            if (taken[i]) taken_variants.push_back(variants[i]);
        }
        variants = taken_variants;
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
                std::tie(hs, is, us) = specialize_contraction(host_s, init_s, update_s, c);
                taken.push_back(decided);
            }
        }
        // Dot kernels gathering their row operand along the reduction (transposed queries)
        // read it from a copy per row tile in their variants of several rows, whose column
        // tiles share it (OperandStaging.h copy_gathered_rows). Attention scores with transposed
        // queries (192 heads of 64, AVX2, interleaved, two runs): 1.04-1.77x at T = 4-22, 0.84-1.33x at T = 2-3.
        const bool copy_rows = !gpu_ && k.cpu.dot && k.cpu.k_pack == 1 && t.rows > 1 && t.depth <= 1;
        const bool gathers = !gpu_ && k.cpu.dot && !dense_strides_.empty() && !dense_copy[i] && !copy_rows;
        apply_variant(k, t, host, hs, is, us, nm, task, kernel_extents_, copy_rows, gathers);
        if (last) break;
    }
}

// Rows along the batch: where kernel k's full-width tile `t` has more rows than the rows'
// extent and no more than the batch's (the kernel's third dimension, which runs like more
// rows: rows_along_batch_), that tile with the two dimensions' roles swapped, specialized
// before the chain. A dense layer over batch x sequence, y(o, t, b), at T = 1, B = 16 otherwise
// runs one-row tiles, loading a weight vector per multiply-add.
void ScheduleApplier::rows_along_batch_variant(const MicroKernel &k, const TileVariant &t, FuncRef &host, StageRef &host_s,
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
    auto [hs, is, us] = specialize_contraction(host_s, init_s, update_s, c);
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
void ScheduleApplier::apply_variant(const MicroKernel &k, const TileVariant &t, FuncRef &host, StageRef &hs, StageRef &is, Updates &us,
                            const ContractionLoopNames &nm, const std::string &task, const std::vector<SizeExpr> &extents,
                            bool copy_rows, bool gathers) {
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
        // A variant gathering its row operand lane by lane loads each lane from its own cache
        // line: it counts a multiply-add as a load (gathered_fma_cost), so small outputs spread
        // over the cores.
        const bool row_tasks = row_tasks_apply(k, t);
        const SizeExpr grain = serial_tasks_ || constant_grain_ ? size_constant(1)
                               : row_tasks ? row_task_grain_expr(extents, t, reduction_)
                                           : task_grain_expr(extents, t, k.cpu, reduction_, gathers ? gathered_fma_cost(k.cpu) : 1);
        // One panel spans the vectors' whole dimension (a constant extent: Winograd's 4 x 4 tile
        // coordinates): there is no panel to reuse across the batch, and outermost its one
        // iteration would be the only parallel loop of a host whose loops stay apart.
        const Expr n_extent = simplify(host_extents_.at(0).expr);
        const bool one_panel = is_const(n_extent) && *as_const_int(n_extent) <= (int64_t)t.cols * std::max(k.cpu.panel_tiles, 1);
        tile_host_cpu(w_, hs, t, k.cpu, nm, task, grain, !serial_tasks_, batch_inside_panels_ && !one_panel, host_region_inferred_,
                      row_tasks);
        if (k.cpu.dot) {
            const std::vector<FuncRef> lanes = tile_acc_dot(w_, is, us, t, k.cpu, nm, host, acc_);
            if (copy_rows) {
                const FuncRefLookup lookup = [this](const std::string &name) -> FuncRef & { return ref(name); };
                for (const FuncRef &l : lanes) copy_gathered_rows(w_, lookup, *pattern_, l, host, "m_o", k.cpu.vector_width);
            }
            return;
        }
        // A variant narrower than the kernel's tile reading a natural-order packed panel (its
        // pitch the widest tile's) would gather its packed vectors k_pack lanes at a time where
        // their span exceeds Halide 14's dense-load limit: NN uint8 x int8 with VNNI (pack 4,
        // pitch 48) in its 8-lane variant. Such a variant runs unpacked: dense loads along the
        // panel's rows, one reduction step at a time.
        CpuKernel kc = k.cpu;
        if (natural_panel_pitch_ > 0 && kc.k_pack > 1 &&
            !packed_panel_load_dense(natural_panel_pitch_, t.vectors > 0 ? t.vector_lanes : 1, kc.k_pack)) {
            kc.k_pack = 1;
        }
        if (operands_staged_ && !kc.stage_strided) {
            tile_acc_direct(w_, is, us, t, kc, nm, host);
        } else {
            tile_acc_init(w_, is, t, nm, true);
            for (size_t u = 0; u < us.size(); u++) tile_update_cpu(w_, us[u], t, kc, nm, nm.update_reductions[u]);
        }
    }
}

// The host's tiles of variant t (its blocks on a GPU) number at least n: every dimension's
// extent, the two kernel dimensions divided by the tile, rounded up.
Condition ScheduleApplier::blocks_at_least(const TileVariant &t, int64_t n) {
    SizeExpr blocks = size_constant(1);
    for (int d = 0; d < (int)host_extents_.size(); d++) {
        SizeExpr e = host_extents_[d];
        if (d == 0) e = ceil_div(e, size_constant(t.cols));
        else if (d == kernel_dims_[1]) e = ceil_div(e, size_constant(t.rows));
        blocks = blocks * e;
    }
    return {blocks.expr >= (int)n, "(" + blocks.text + ") >= " + std::to_string(n)};
}

Updates ScheduleApplier::specialize_all(const Updates &us, const Condition &c) {
    Updates out;
    for (const StageRef &u : us) out.push_back(w_.specialize(u, c));
    return out;
}

// The host, its accumulator's init and updates specialized on `c` together. Where the host's
// specialization is left out (its definition's reads vanish: ScheduleWriter::specialize), the
// accumulator's stages leave theirs out too, so that its tiles stay the host's: a 4-lane
// rounded-up variant of the accumulator under the host's one-column fallback tiles read the
// input past its end (fuzz seed 20320065: "in0 is accessed at 6, beyond the max (3)").
std::tuple<StageRef, StageRef, Updates> ScheduleApplier::specialize_contraction(const StageRef &host, const StageRef &init,
                                                                                const Updates &updates, const Condition &c) {
    StageRef hs = w_.specialize(host, c), is = w_.specialize(init, c);
    Updates us = specialize_all(updates, c);
    if (hs.discarded) {
        is.discarded = true;
        for (StageRef &u : us) u.discarded = true;
    }
    return {hs, is, us};
}

}  // namespace diet
