#include "schedule/OperandStaging.h"
#include "space/MicroKernel.h"

#include <algorithm>
#include <optional>
#include <set>

namespace diet {

using namespace Halide;
using FuncRef = ScheduleWriter::FuncRef;
using StageRef = ScheduleWriter::StageRef;

namespace {

// The panel copy is a transpose (the source is contiguous along `src_inner`, the panel along
// `dst_inner`): blocks of lanes x lanes, each row of the destination one vector (a dense store)
// gathered from the source, the block's rows a loop. Halide 14 lowers neither way of a transpose
// to shuffles when the panel's pitch is known only at run time: vectorized both ways (a 256-lane
// vector on AVX-512) every block stored lane by lane, its guarded tail a 256-lane predicated
// scatter, and a red-team NT product (both operands reduction-innermost, M, N, K in [1, 192])
// took LLVM 15-22 s to compile (gathers: 2.1-2.7 s) and ran slower (0.13 -> 0.116 ms at
// 192 x 192 x 160, 7.5 -> 3.6 us at 7 x 150 x 33; apps/results/cpu/transpose_gathers_2026-12-01/).
// With `dst_vectors` > 1 a block spans that many vectors along the destination (unrolled): whole
// cache lines of it. Returns the block's loops, innermost first (the caller may reorder the outer
// ones around them).
std::vector<std::string> transpose_in_blocks(ScheduleWriter &w, StageRef &st, const std::string &src_inner,
                                             const std::string &dst_inner, int lanes, int dst_vectors = 1) {
    const std::string src_i = src_inner + "_i", dst_i = dst_inner + "_i";
    w.split(st, dst_inner, dst_inner + "_o", dst_i, lanes * dst_vectors, TailStrategy::GuardWithIf);
    w.split(st, src_inner, src_inner + "_o", src_i, lanes, TailStrategy::GuardWithIf);
    std::vector<std::string> block = {dst_i, src_i};
    if (dst_vectors > 1) {
        w.split(st, dst_i, dst_inner + "_io", dst_inner + "_ii", lanes, TailStrategy::GuardWithIf);
        block = {dst_inner + "_ii", src_i, dst_inner + "_io"};
    }
    std::vector<std::string> order = block;
    order.insert(order.end(), {src_inner + "_o", dst_inner + "_o"});
    w.reorder(st, order);
    w.vectorize(st, block[0]);
    if (dst_vectors > 1) w.unroll(st, block[2]);
    return block;
}

// The packed kernel (CpuKernel::k_pack) reads k_pack consecutive reduction steps per lane. A
// vector operand stored with the vectors innermost and the reduction next (NN's B:
// packed_in_natural_panel) is copied per task in that order, its storage bounded to the task's
// columns: each packed vector is then k_pack dense runs a constant pitch apart, which Halide 14
// loads as one dense load and an interleaving shuffle (u8 x i8, K = 768, 256 rows, AVX2, hand
// schedules: 1.6x faster than the unpacked kernel; from a reduction-major panel each lane was
// loaded alone). Without the storage bound the pitch is a run-time value and every lane a gather.
// Another vector operand stored otherwise or computed is copied per task into a panel stored
// reduction-major; one already stored that way (the NT layout of a dense layer's weights) is read
// in place, k_pack-wide groups per lane. The broadcast operand as in stage_cpu_operands.
void stage_packed_operands(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, FuncRef &acc,
                           FuncRef &host, const std::string &task, int lanes, int panel_cols) {
    OperandCallers callers(w, ref, acc);
    std::set<std::string> wrapped;
    for (const ContractionOperand &o : p.operands) {
        if (wrapped.count(o.func)) continue;
        if (copied_reduction_major(p, o)) continue;  // copy_broadcast_operands
        if (o.reduction_arg == 0 && !o.computed) continue;
        if (o.vector_arg < 0 && !o.computed) continue;
        wrapped.insert(o.func);
        FuncRef s = w.wrapper(ref(o.func), callers.of(o));
        w.compute_at(s, host, task, false);
        const std::vector<Var> args = s.func.args();
        if (packed_in_natural_panel(o) && panel_cols > 0) {
            w.bound_storage(s, args[0].name(), panel_cols);
            if (lanes <= 1) continue;
            StageRef st = w.stage(s, 0, StageNode{});
            w.split(st, args[0].name(), args[0].name() + "_vo", args[0].name() + "_vi", lanes, TailStrategy::GuardWithIf);
            w.vectorize(st, args[0].name() + "_vi");
            continue;
        }
        std::vector<std::string> order = {args[o.reduction_arg].name()};
        for (int a = 0; a < (int)args.size(); a++) {
            if (a != o.reduction_arg) order.push_back(args[a].name());
        }
        if (o.reduction_arg > 0) w.reorder_storage(s, order);
        if (lanes <= 1) continue;
        if (o.reduction_arg > 0) {
            StageRef st = w.stage(s, 0, StageNode{});
            transpose_in_blocks(w, st, args[0].name(), args[o.reduction_arg].name(), lanes);
        } else {
            StageRef st = w.stage(s, 0, StageNode{});
            w.split(st, args[0].name(), args[0].name() + "_vo", args[0].name() + "_vi", lanes, TailStrategy::GuardWithIf);
            w.vectorize(st, args[0].name() + "_vi");
        }
    }
}

// Whether the operand is read through a window (in(x + r.x, y + r.y)) along a host dimension the
// parallel task loop runs over (neither the vectors', the rows' nor the depth's): consecutive
// tasks then read overlapping regions, a 3x3 convolution's row task three input rows for one.
// Only where that dimension is the outermost of the fused task loop (the host's last dimension
// that is neither the rows' nor the depth's): a run of tasks spans an interval of it (Halide
// bounds the quotient task / inner tasks tightly). Along an inner one (task / inner % extent)
// Halide bounds a run's region by the whole dimension, and by the whole of each dimension inside
// it: LRN's channel window ce(x, y, c + r, n) with rows along y and tasks over x tiles, c, n
// copied an image's whole feature map for every task (red-team round 20 at 64 x 64 x 64 x 4,
// R = 3: 4.7-4.9 ms, 5-10x Adams2019; copied per task, rows still along y, 0.74-1.2 ms:
// apps/results/cpu/window_rows_2026-12-07/lrn_variants.txt). Copied per task, the region is the task's.
bool windowed_across_tasks(const MatmulPattern &p, const ContractionOperand &o) {
    bool windowed = false;
    int outermost = -1;
    for (int d = 1; d < (int)p.acc_arg_of_host_dim.size(); d++) {
        if (d != p.row_dim && d != p.depth_dim) outermost = d;
    }
    for (int d = 1; d < (int)p.acc_arg_of_host_dim.size(); d++) {
        if (d == p.row_dim || d == p.depth_dim) continue;
        const int a = p.acc_arg_of_host_dim[d];
        if (a < 0 || a >= (int)o.window_acc_arg.size() || !o.window_acc_arg[a]) continue;
        if (d != outermost) return false;
        windowed = true;
    }
    return windowed;
}

}  // namespace

// The broadcast operand stored across the reduction (copied_reduction_major, a transposed A,
// `a(m, k)`): each reduction step of a tile would touch a new cache line (and page) for a few
// scalars, reused by the tile's rows only from L2, and the dot-product kernels could not load
// it as vectors. It is copied once per call into reduction-major storage (the layout the kernel
// streams in the canonical form), as BLAS packs A: M x K moves against M x N x K multiply-adds.
// The wrapper is global (`a.in()`): the dot-product leaves' rfactor intermediates read it too.
//
// The copy's cost must stay below the kernel's at every shape (a batched product at T = 1 does
// 64 multiply-adds per head): one parallel loop over all its blocks and batch dimensions (not one
// per batch slice), serial when small, and, where the source rows are shorter than a vector,
// vectors along the destination only (lanes x lanes blocks would be mostly predicated lanes,
// which Halide 14 scalarizes).
void copy_broadcast_operands(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, int lanes,
                             std::set<std::string> &copied, const OperandExtents &extents_of) {
    for (const ContractionOperand &o : p.operands) {
        if (!copied_reduction_major(p, o) || !copied.insert(o.func).second) continue;
        FuncRef s = w.wrapper(ref(o.func));
        w.compute_root(s);
        const std::vector<Var> args = s.func.args();
        const std::string src = args[0].name(), dst = args[o.reduction_arg].name();
        std::vector<std::string> order = {dst}, others;
        for (int a = 0; a < (int)args.size(); a++) {
            if (a != o.reduction_arg) order.push_back(args[a].name());
            if (a != o.reduction_arg && a != 0) others.push_back(args[a].name());
        }
        w.reorder_storage(s, order);
        const std::vector<SizeExpr> extents = extents_of(o.func);
        std::optional<SizeExpr> elements;
        if (extents.size() == args.size()) {
            elements = size_constant(1);
            for (const SizeExpr &e : extents) elements = *elements * e;
        }
        StageRef st = w.stage(s, 0, StageNode{});
        // The loops outside the copy's vectors (the destination's blocks, then every other
        // dimension in order), made adjacent so that they fuse into one parallel loop.
        std::vector<std::string> outer = {dst + "_o"};
        outer.insert(outer.end(), others.begin(), others.end());
        const auto with_outer = [&](std::vector<std::string> inner) {
            inner.insert(inner.end(), outer.begin(), outer.end());
            return inner;
        };
        if (lanes > 1 && elements) {
            StageRef narrow = w.specialize(st, w.at_most(extents[0], lanes - 1));
            w.split(narrow, dst, dst + "_o", dst + "_i", lanes, TailStrategy::GuardWithIf);
            w.reorder(narrow, with_outer({dst + "_i", src}));
            w.vectorize(narrow, dst + "_i");
            fused_parallel_unless_small(w, narrow, outer, dst + "_par", elements);
        }
        if (lanes > 1) {
            // Each parallel task writes whole cache lines of the copy: blocks of `lanes` along the
            // destination's rows would leave half a line (AVX2, float) to the next block, which the
            // other core writes at the same time (false sharing: a 2048 x 768 copy took 1.5 ms in
            // 8 x 8 blocks, 0.6 ms in 16 x 8, AVX2 guest, apps/results/cpu/tn_copy_lines_2026-11-29/).
            const int line_vectors = std::max(1, 64 / std::max(1, lanes * o.type.bytes()));
            std::vector<std::string> block = transpose_in_blocks(w, st, src, dst, lanes, line_vectors);
            block.push_back(src + "_o");
            w.reorder(st, with_outer(block));
        } else {
            w.split(st, dst, dst + "_o", dst + "_i", 1, TailStrategy::GuardWithIf);
            w.reorder(st, with_outer({src, dst + "_i"}));
        }
        fused_parallel_unless_small(w, st, outer, dst + "_par", elements);
    }
}

FuncRef OperandCallers::of(const ContractionOperand &o) {
    FuncRef cur = acc_;
    std::vector<std::string> path;
    for (const std::string &f : o.via) {
        path.push_back(f);
        auto it = clones_.find(path);
        if (it == clones_.end()) it = clones_.emplace(path, w_.clone_in(ref_(f), cur)).first;
        cur = it->second;
    }
    return cur;
}

// Operands read across the vector dimension (with `strided`: the kernel stages them) are
// copied, per parallel task, into a panel whose innermost storage dimension is the vector one,
// so the compute loop loads vectors. Operands read through a computed Func (a boundary
// condition) are copied per task whatever the kernel: the copy evaluates the select and the
// clamps once per element, the reduction loop loads dense vectors (a convolution's window).
// One read through a window across the tasks (windowed_across_tasks) is copied at `window_task`
// instead, once per run of consecutive tasks a thread takes: per task, a 3x3 depthwise
// convolution over rows copied each input row three times (at 64 x 64 x 32, AVX2, 2 cores:
// 0.10-0.11 ms per call against 0.06-0.07 copied per run of tasks; probe_styles12).
void stage_cpu_operands(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, FuncRef &acc, FuncRef &host,
                        const std::string &task, const std::string &window_task, int lanes, bool strided, int k_pack,
                        int packed_panel_cols) {
    if (k_pack > 1) {
        stage_packed_operands(w, ref, p, acc, host, task, lanes, packed_panel_cols);
        return;
    }
    // One wrapper per Func (`f.in(acc)` is the same Func each time): a Func read as both
    // operands (a product of a matrix with itself) is staged once, for its first role; the
    // reduction-major copy only for a Func read in that role alone.
    OperandCallers callers(w, ref, acc);
    std::set<std::string> wrapped;
    for (const ContractionOperand &o : p.operands) {
        if (wrapped.count(o.func)) continue;
        if (copied_reduction_major(p, o)) continue;  // copy_broadcast_operands
        // Staging kernels copy the operands read across the vectors, and those read along
        // them in rows a page apart (page_strided_rows in space/MicroKernel.cpp).
        const bool panel = strided && (o.strided_along_vector() || (o.vector_arg == 0 && o.reduction_arg > 0));
        if (!panel && !o.computed) continue;
        wrapped.insert(o.func);
        FuncRef s = w.wrapper(ref(o.func), callers.of(o));
        w.compute_at(s, host, !panel && !window_task.empty() && windowed_across_tasks(p, o) ? window_task : task, false);
        if (!o.strided_along_vector()) {
            std::vector<Var> args = s.func.args();
            // The reduction stored next to the vectors (q(b, i, d) stored b, d, i): a tile's row
            // reads its steps from one dense run, not one row of the slice apart per step (the
            // batch stored innermost, a deep tile's operands: schedule/CpuTiling.cpp). `behind`:
            // the dimensions after those two, in order.
            const bool reduction_next = panel && o.reduction_arg > 1;
            std::vector<std::string> behind;
            for (int a = 1; reduction_next && a < (int)args.size(); a++) {
                if (a != o.reduction_arg) behind.push_back(args[a].name());
            }
            if (reduction_next) {
                std::vector<std::string> order = {args[0].name(), args[o.reduction_arg].name()};
                order.insert(order.end(), behind.begin(), behind.end());
                w.reorder_storage(s, order);
            }
            StageRef st = w.stage(s, 0, StageNode{});
            if (!args.empty() && lanes > 1 && o.vector_arg == 0) {
                const std::string v = args[0].name();
                w.split(st, v, v + "_vo", v + "_vi", lanes, TailStrategy::GuardWithIf);
                w.vectorize(st, v + "_vi");
                if (reduction_next) {  // the copy's loops in its storage order: dense writes
                    std::vector<std::string> loops = {v + "_vi", v + "_vo", args[o.reduction_arg].name()};
                    loops.insert(loops.end(), behind.begin(), behind.end());
                    w.reorder(st, loops);
                }
            }
            continue;
        }
        std::vector<std::string> order;
        std::vector<Var> args = s.func.args();
        order.push_back(args[o.vector_arg].name());
        for (int a = 0; a < (int)args.size(); a++) {
            if (a != o.vector_arg) order.push_back(args[a].name());
        }
        w.reorder_storage(s, order);
        if (o.vector_arg > 0 && lanes > 1) {
            StageRef st = w.stage(s, 0, StageNode{});
            transpose_in_blocks(w, st, args[0].name(), args[o.vector_arg].name(), lanes);
        }
    }
}

void copy_gathered_rows(ScheduleWriter &w, const FuncRefLookup &ref, const MatmulPattern &p, const FuncRef &lanes,
                        const FuncRef &host, const std::string &row_loop, int vector_width) {
    if (!gathered_rows_copied(p)) return;
    const std::map<std::string, Internal::Function> called = Internal::find_direct_calls(lanes.func.function());
    std::set<std::string> copied;
    for (const ContractionOperand &o : p.operands) {
        if (!gathered_along_reduction(p, o) || !copied.insert(o.func).second) continue;
        // Read through plain copies (`a(_) = A(_)`): the first of them, which the lane
        // intermediate calls at the operand's own arguments, is wrapped instead.
        const std::string &callee = o.via.empty() ? o.func : o.via[0];
        if (!called.count(callee)) continue;
        FuncRef s = w.wrapper(ref(callee), lanes);
        w.compute_at(s, host, row_loop, false);
        // Its extent along the batch is not provably one: a heap allocation per row tile, which
        // cost 1.26x at T = 2 (192 heads of 64, AVX2); on Halide's pseudostack it is reused.
        w.store_in(s, MemoryType::Stack);
        const std::vector<Var> args = s.func.args();
        const std::string r = args[o.reduction_arg].name();
        std::vector<std::string> storage = {r};
        for (int a = 0; a < (int)args.size(); a++) {
            if (a != o.reduction_arg) storage.push_back(args[a].name());
        }
        w.reorder_storage(s, storage);
        // Vectors along the reduction (its extent is a multiple of the lanes: dot_kernels_apply),
        // each gathered once here, the rows outside them.
        StageRef st = w.stage(s, 0, StageNode{});
        w.split(st, r, r + "_vo", r + "_vi", vector_width, TailStrategy::GuardWithIf);
        w.reorder(st, {r + "_vi", args[0].name(), r + "_vo"});
        w.vectorize(st, r + "_vi");
    }
}

}  // namespace diet
