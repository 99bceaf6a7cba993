#include "schedule/CpuTiling.h"

#include "analysis/FunctionDAG.h"
#include "common/Errors.h"

namespace diet {

using namespace Halide;
using StageRef = ScheduleWriter::StageRef;
using FuncRef = ScheduleWriter::FuncRef;

// The host's tiles of one variant: register tiles of t.cols x t.rows (x t.depth), panels of
// panel_tiles tiles along the vectors, and the panels, row tiles and batch fused into the
// parallel task loop, `grain` iterations per thread-pool task.
void tile_host_cpu(ScheduleWriter &w, StageRef &hs, const TileVariant &t, const CpuKernel &k, const ContractionLoopNames &nm,
                   const std::string &task, const SizeExpr &grain, bool parallel, bool batch_inside_panels,
                   bool region_inferred, bool row_tasks) {
    w.split(hs, nm.n, "n_o", "n_v", t.cols, TailStrategy::ShiftInwards);
    w.split(hs, "n_o", row_tasks ? "n_q" : "n_t", "n_p", k.panel_tiles, TailStrategy::GuardWithIf);
    w.split(hs, nm.m, "m_o", "m_r", t.rows, TailStrategy::ShiftInwards);
    std::vector<std::string> order = {"n_v", "m_r", "n_p", "m_o"};
    std::vector<std::string> outer = {"n_t"};
    outer.insert(outer.end(), nm.batch.begin(), nm.batch.end());
    if (row_tasks) {
        // A row tile runs along every panel: its operand read through a window along the rows is
        // streamed along its rows (row_tasks_apply).
        internal_assert(t.depth <= 1 && !task_spans_depth(t, k) && !batch_inside_panels)
            << "Diet: row tasks for a deep or batch-inside-panels tile\n";
        order = {"n_v", "m_r", "n_p", "n_q"};
        outer = {"m_o"};
        outer.insert(outer.end(), nm.batch.begin(), nm.batch.end());
    } else if (t.depth > 1) {
        // A deep tile (CpuKernel::depth): the depth dimension's tile inside the panel, so the
        // accumulator computed per n_p spans it. Every operand moves with the vectors, so a
        // task is one row tile of one panel, and runs every depth tile: the row tile's operand
        // stays in cache across them, the depth side's slice of the panel in L2 across tasks.
        w.split(hs, nm.batch.at(0), "d_o", "d_r", t.depth, TailStrategy::ShiftInwards);
        order = {"n_v", "m_r", "d_r", "n_p", "d_o"};
        outer = {"m_o", "n_t"};
        if (k.stage_strided) {
            // Staged (the operands' reduction steps a page or more apart: space/MicroKernel.cpp
            // page_strided_rows): a task is one panel over every row and depth tile, so each
            // operand's slice is copied once per panel, reduction-major (OperandStaging.cpp),
            // and every tile reads dense runs. Per row tile, the copy of the depth side's whole
            // slice cost more than the product (0.12-0.21x the canonical form); per panel, 192
            // heads of T = 64-128 ran 0.49-0.79x (before: 0.29-0.38x): in place each step of a
            // tile had loaded from another page.
            order = {"n_v", "m_r", "d_r", "n_p", "d_o", "m_o"};
            outer = {"n_t"};
        }
        outer.insert(outer.end(), nm.batch.begin() + 1, nm.batch.end());
    } else if (task_spans_depth(t, k)) {
        // A staged deep kernel's flat variant (depth or rows shorter than its tile: T < 4 for
        // attention in numpy's order): the task stays one panel over every depth index, so the
        // operands are copied once per panel, not once per depth index (192 heads, AVX2,
        // interleaved: 1.18x at T = 2, 1.79x at T = 3, within noise above).
        order.push_back(nm.batch.at(0));
        outer = {"n_t"};
        outer.insert(outer.end(), nm.batch.begin() + 1, nm.batch.end());
    } else if (batch_inside_panels) {
        outer = nm.batch;
        outer.push_back("n_t");
    }
    order.insert(order.end(), outer.begin(), outer.end());
    w.reorder(hs, order);
    if (outer.size() == 1 && outer[0] != task) {
        // One task loop: named as the fused one would be (the operand panels are computed at
        // `task`_i in every variant).
        w.rename(hs, outer[0], task);
        outer[0] = task;
    }
    if (region_inferred && outer.size() > 1) {
        // Fused, the outer index is `task / max(inner extent, 1)`. Where the host's extents are
        // inferred from its readers (a Func computed at root), Halide 14 cannot prove that inner
        // extent positive, bounds the quotient by +-(tasks - 1), and the host's producers are
        // then required (and read) at negative coordinates: "Input buffer accessed at -3".
        // So the loops stay apart: the outermost is parallel, the innermost, named as the
        // fused loop's tasks would be, is where the operands' panels are computed.
        w.rename(hs, outer[0], task + "_i");
        if (parallel) w.parallel(hs, outer.back());
    } else {
        // The parallel loop runs `grain` tasks per thread-pool task: tiny tiles (small shapes)
        // would otherwise spend more time in the thread pool than computing. The guard this
        // split adds is around whole tiles, never inside the compute loops.
        const std::string fused = fuse_loops(w, hs, outer[0], {outer.begin() + 1, outer.end()}, task);
        w.split(hs, fused, fused + "_o", fused + "_i", grain, TailStrategy::GuardWithIf);
        if (parallel) w.parallel(hs, fused + "_o");
    }
    if (t.vectors > 0) {
        w.split(hs, "n_v", "n_vo", "n_vi", t.vector_lanes, TailStrategy::RoundUp);
        w.vectorize(hs, "n_vi");
    }
}

namespace {

FuncRef tile_update_dot(ScheduleWriter &w, StageRef &us, const TileVariant &t, const CpuKernel &k,
                     const ContractionLoopNames &nm, const std::vector<std::string> &red, FuncRef &host, FuncRef &acc,
                     int update, bool several);

}  // namespace

// The accumulator's pure definition on one tile (in its own loop order): vectors (CPU) or
// registers (GPU), unrolled.
void tile_acc_init(ScheduleWriter &w, StageRef &is, const TileVariant &t, const ContractionLoopNames &nm, bool cpu) {
    if (!cpu) {
        if (t.reg_x > 1) w.unroll(is, nm.rn);
        if (t.reg_y > 1) w.unroll(is, nm.rm);
        return;
    }
    if (t.vectors > 0) {
        w.split(is, nm.rn, nm.rn + "_vo", nm.rn + "_vi", t.vector_lanes, TailStrategy::RoundUp);
        w.vectorize(is, nm.rn + "_vi");
        w.unroll(is, nm.rn + "_vo");
    } else if (t.cols > 1) {
        w.unroll(is, nm.rn);
    }
    if (t.rows > 1) w.unroll(is, nm.rm);
    if (t.depth > 1) w.unroll(is, nm.rbatch.at(0));
}

// One contraction update on one tile: the whole register tile inside the reduction loop
// `red` (this update's variables), unrolled.
void tile_update_cpu(ScheduleWriter &w, StageRef &us, const TileVariant &t, const CpuKernel &k, const ContractionLoopNames &nm,
                     std::vector<std::string> red) {
    std::vector<std::string> update_order;
    if (t.vectors > 0) {
        w.split(us, nm.rn, nm.rn + "_vo", nm.rn + "_vi", t.vector_lanes, TailStrategy::RoundUp);
        update_order = {nm.rn + "_vi", nm.rn + "_vo", nm.rm};
    } else {
        update_order = {nm.rn, nm.rm};
    }
    const std::string packed = red[0] + "_p";
    if (k.k_pack > 1) {
        // Packed (CpuKernel::k_pack): k_pack consecutive steps innermost, vectorized as a vector
        // reduction into each accumulator lane (atomic: the lanes update one element). The
        // extent is a multiple of k_pack (packed_reduction_factor): no tail.
        w.split(us, red[0], red[0] + "_o", packed, k.k_pack, TailStrategy::GuardWithIf);
        update_order.insert(update_order.begin(), packed);
        red = {red[0] + "_o"};
    } else if (k.k_unroll > 1) {
        // The innermost variable unrolled; any other reduction variables stay outside it.
        w.split(us, red[0], red[0] + "_o", red[0] + "_i", k.k_unroll, TailStrategy::GuardWithIf);
        const std::string r0 = red[0];
        red[0] = r0 + "_o";
        red.insert(red.begin(), r0 + "_i");
    }
    // A deep tile's depth indices run inside the reduction with the rows (CpuKernel::depth).
    const size_t inner_batch = t.depth > 1 ? 1 : 0;
    update_order.insert(update_order.end(), nm.rbatch.begin(), nm.rbatch.begin() + inner_batch);
    update_order.insert(update_order.end(), red.begin(), red.end());
    update_order.insert(update_order.end(), nm.rbatch.begin() + inner_batch, nm.rbatch.end());
    w.reorder(us, update_order);
    if (k.k_pack > 1) {
        w.atomic(us);
        w.vectorize(us, packed);
    }
    if (t.vectors > 0) {
        w.vectorize(us, nm.rn + "_vi");
        w.unroll(us, nm.rn + "_vo");
    } else if (t.cols > 1) {
        w.unroll(us, nm.rn);
    }
    if (t.rows > 1) w.unroll(us, nm.rm);
    if (t.depth > 1) w.unroll(us, nm.rbatch.at(0));
    if (k.k_unroll > 1 && k.k_pack <= 1) w.unroll(us, red[0]);
}

// The dot-product kernel (CpuKernel::dot) on one variant's stages: the reduction is split
// into vectors of consecutive steps and moved into an rfactor intermediate `lanes` (one partial
// sum per lane, per output of the tile), computed per register tile in registers with dense
// loads of both operands; the accumulator's own update then reduces across the lanes (a
// vector reduction, `atomic`). The rfactor is on this variant's specialized update only: the
// other leaves and variants keep their definitions, and the operand panels they stage are not
// realized on this branch (nothing on it reads them).
// Several contraction updates: each gets its own lane intermediate, computed inside its own
// update (tile_update_dot), one live at a time.
std::vector<FuncRef> tile_acc_dot(ScheduleWriter &w, StageRef &is, ContractionUpdates &us, const TileVariant &t,
                                  const CpuKernel &k, const ContractionLoopNames &nm, FuncRef &host, FuncRef &acc) {
    const std::vector<std::string> tile = nm.acc_dims();
    w.reorder(is, tile);
    if (t.cols > 1) w.unroll(is, nm.rn);
    if (t.rows > 1) w.unroll(is, nm.rm);
    std::vector<FuncRef> lanes;
    for (size_t u = 0; u < us.size(); u++) {
        lanes.push_back(tile_update_dot(w, us[u], t, k, nm, nm.update_reductions[u], host, acc, (int)u, us.size() > 1));
    }
    return lanes;
}

void tile_acc_direct(ScheduleWriter &w, StageRef &is, ContractionUpdates &us, const TileVariant &t, const CpuKernel &k,
                     const ContractionLoopNames &nm, FuncRef &host) {
    internal_assert(us.size() == 1) << "Diet: an in-place leaf among staged ones applied to " << us.size() << " updates\n";
    tile_acc_init(w, is, t, nm, true);
    FuncRef direct = w.rfactor_all(us[0], "direct");
    w.compute_at(direct, host, "n_p", false);
    w.reorder_storage(direct, nm.acc_dims());
    const std::vector<StageNode> ds = stages_of(direct.func.function());
    StageRef di = w.stage(direct, 0, ds[0]), du = w.stage(direct, 1, ds[1]);
    tile_acc_init(w, di, t, nm, true);
    tile_update_cpu(w, du, t, k, nm, nm.update_reductions[0]);
    // acc's update is now `acc += direct` over the tile: its vectors, unrolled, as the init.
    tile_acc_init(w, us[0], t, nm, true);
}

namespace {

// With several updates each one's lanes are computed just before the update that sums them, so
// one lane tile is live at a time: inside that update's own outer loop of one iteration over the
// tile's rows, named per update (Halide 14 refuses a stage-qualified LoopLevel such as
// LoopLevel(acc, outermost, stage), and a loop name shared by the updates would place them all
// in one). Computed per tile before acc's stages, every update's lanes were live at once: the
// tiles had to shrink (3 x 2 instead of 3 x 4 for two updates on AVX2, 0.7x the canonical form
// at T = 1-5) or spilled.
FuncRef tile_update_dot(ScheduleWriter &w, StageRef &us, const TileVariant &t, const CpuKernel &k, const ContractionLoopNames &nm,
                        const std::vector<std::string> &red, FuncRef &host, FuncRef &acc, int update, bool several) {
    // Lanes along the innermost reduction variable; the others run outside it.
    const std::string r = red[0], lane_r = r + "_l", lane_v = "k_lane";
    const std::vector<std::string> tile = nm.acc_dims();
    auto unroll_tile = [&](StageRef &s) {
        if (t.cols > 1) w.unroll(s, nm.rn);
        if (t.rows > 1) w.unroll(s, nm.rm);
    };
    // The reduction extent is a multiple of the lanes (times k_pack: dot_kernels_apply): no tail.
    // Packed (k_pack > 1): each lane sums k_pack consecutive steps of narrow integers per
    // instruction (vpdpbusd / vpmaddwd), so a vector covers lanes * k_pack steps.
    const std::string pack_r = r + "_p";
    w.split(us, r, r + "_o", lane_r, k.vector_width * k.k_pack, TailStrategy::GuardWithIf);
    if (k.k_pack > 1) w.split(us, lane_r, lane_r, pack_r, k.k_pack, TailStrategy::GuardWithIf);
    FuncRef lanes = w.rfactor(us, lane_r, lane_v, "lanes");
    std::vector<std::string> merge = {lane_r};
    merge.insert(merge.end(), tile.begin(), tile.end());
    const std::string rows_once = nm.rm + "_once" + std::to_string(update);
    if (several) {
        // acc holds one tile: its rows split by the tile's rows leave an outer loop of one iteration.
        w.split(us, nm.rm, rows_once, nm.rm, std::max(1, t.rows), TailStrategy::RoundUp);
        merge.push_back(rows_once);
    }
    w.reorder(us, merge);
    w.atomic(us);
    w.vectorize(us, lane_r);
    unroll_tile(us);

    if (several) w.compute_at(lanes, acc, rows_once, false);
    else w.compute_at(lanes, host, "n_p", false);
    std::vector<std::string> storage = {lane_v};
    storage.insert(storage.end(), tile.begin(), tile.end());
    w.reorder_storage(lanes, storage);
    const std::vector<StageNode> ls = stages_of(lanes.func.function());
    StageRef li = w.stage(lanes, 0, ls[0]), lu = w.stage(lanes, 1, ls[1]);
    w.reorder(li, storage);
    std::vector<std::string> order = storage;
    // Lanes, the tile, then the reduction (the rest of the innermost variable, the others), then batch.
    std::vector<std::string> reduction_loops = {r + "_o"};
    reduction_loops.insert(reduction_loops.end(), red.begin() + 1, red.end());
    order.insert(order.begin() + 1 + 2, reduction_loops.begin(), reduction_loops.end());
    // Packed: the packed steps innermost, then the lanes: Halide 14 matches this vector
    // reduction (k_pack products summed into each lane) to vpdpbusd / vpmaddwd.
    if (k.k_pack > 1) order.insert(order.begin(), pack_r);
    w.reorder(lu, order);
    if (k.k_pack > 1) {
        w.atomic(lu);
        w.vectorize(lu, pack_r);
    }
    for (StageRef *s : {&li, &lu}) {
        w.vectorize(*s, lane_v);
        unroll_tile(*s);
    }
    return lanes;
}

}  // namespace

}  // namespace diet
