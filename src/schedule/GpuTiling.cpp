#include "schedule/GpuTiling.h"
#include "common/Errors.h"

namespace diet {

using namespace Halide;
using FuncRef = ScheduleWriter::FuncRef;
using StageRef = ScheduleWriter::StageRef;

std::string reduction_tile_loop(const ContractionLoopNames &nm) {
    return nm.reduction[0] + "_o";
}

namespace {

// The copy of one operand tile: all of the wrapper's dimensions fused (its innermost storage
// dimension first, so consecutive lanes read consecutive addresses), cut into warps. The tile
// size is k_tile times the tile's columns or rows, a multiple of the warp, so no lane is idle.
void schedule_copy(ScheduleWriter &w, const FuncRef &s, int warp) {
    StageRef st = w.stage(s, 0, StageNode{});
    std::vector<Var> args = s.func.args();
    std::string fused = args[0].name();
    for (size_t a = 1; a < args.size(); a++) {
        const std::string next = "f" + std::to_string(a);
        w.fuse(st, fused, args[a].name(), next);
        fused = next;
    }
    w.split(st, fused, "f_o", "f_l", warp, TailStrategy::GuardWithIf);
    w.split(st, "f_l", "f_y", "f_t", warp, TailStrategy::RoundUp);  // f_y: extent 1
    w.reorder(st, {"f_t", "f_o", "f_y"});
    w.gpu_threads(st, {"f_t", "f_y"});
    w.unroll(st, "f_o");
}

}  // namespace

void stage_gpu_operands(ScheduleWriter &w, const std::vector<StagedOperand> &operands, const FuncRef &acc,
                        const GpuKernel &k, const ContractionLoopNames &nm) {
    for (const StagedOperand &o : operands) {
        FuncRef s = w.wrapper(o.func, o.caller);
        w.compute_at(s, acc, reduction_tile_loop(nm), true);
        w.store_in(s, MemoryType::GPUShared);
        // Lanes read this operand across its rows when it moves with the output's columns but
        // its innermost dimension is another one (the reduction): pad the rows to an odd length.
        if (o.vector_arg > 0) w.align_storage(s, s.func.args()[0].name(), k.k_tile + 1);
        schedule_copy(w, s, k.threads_x);
    }
}

void tile_host_staged(ScheduleWriter &w, StageRef &hs, const TileVariant &t, const ContractionLoopNames &nm) {
    // A lane's columns are a warp apart: each store instruction writes one contiguous row
    // segment per warp. The single-output variant (t.lanes false) has no lane loop: its compute
    // and store are the block's single-thread code (Halide runs it on thread 0 between the
    // copies' barriers), with the accumulator in shared memory. A lane loop of extent 1 would
    // keep it in registers through full-mask warp shuffles that only lane 0 executes: on a GPU
    // that is a hang (seen on an H100), and nothing offline fails.
    w.split(hs, nm.n, "n_b", "n_i", t.cols, TailStrategy::ShiftInwards);
    w.split(hs, nm.m, "m_b", "m_r", t.rows, TailStrategy::ShiftInwards);
    w.split(hs, "n_i", "n_r", "n_t", t.threads_x, TailStrategy::RoundUp);
    std::vector<std::string> order = {"n_r", "m_r", "n_t", "n_b", "m_b"};
    order.insert(order.end(), nm.batch.begin(), nm.batch.end());
    w.reorder(hs, order);
    std::vector<std::string> blocks = {"n_b", "m_b"};
    if (!nm.batch.empty()) {
        std::string cur = nm.batch[0];
        for (size_t i = 1; i < nm.batch.size(); i++) {
            const std::string next = i + 1 == nm.batch.size() ? "batch_b" : "batch_b_" + std::to_string(i);
            w.fuse(hs, cur, nm.batch[i], next);
            cur = next;
        }
        blocks.push_back(cur);
    }
    w.gpu_blocks(hs, blocks);
    if (t.lanes) w.gpu_lanes(hs, "n_t");
    else w.gpu_threads(hs, {"n_t"});
    if (t.reg_x > 1) w.unroll(hs, "n_r");
    if (t.rows > 1) w.unroll(hs, "m_r");
}

void tile_acc_staged(ScheduleWriter &w, StageRef &is, StageRef &us, const TileVariant &t, const GpuKernel &k,
                     const ContractionLoopNames &nm) {
    internal_assert(nm.reduction.size() == 1) << "Diet: a staged GPU kernel needs a single reduction variable\n";
    const std::string rn_r = nm.rn + "_r", rn_t = nm.rn + "_t";
    for (StageRef *s : {&is, &us}) w.split(*s, nm.rn, rn_r, rn_t, t.threads_x, TailStrategy::RoundUp);
    const std::string r = nm.reduction[0], ko = reduction_tile_loop(nm), ki = r + "_i";
    w.split(us, r, ko, ki, k.k_tile, TailStrategy::GuardWithIf);  // k_tile divides the extent: no guard
    std::vector<std::string> red = {ki};
    if (k.k_unroll > 1) {
        w.split(us, ki, ki + "o", ki + "i", k.k_unroll, TailStrategy::GuardWithIf);
        red = {ki + "i", ki + "o"};
    }
    // The register tile innermost, then the steps of one reduction tile, then the lanes; the
    // loop over reduction tiles outermost, outside the lanes, where the copies and barriers go.
    std::vector<std::string> init_order = {rn_r, nm.rm, rn_t};
    init_order.insert(init_order.end(), nm.rbatch.begin(), nm.rbatch.end());
    std::vector<std::string> update_order = {rn_r, nm.rm};
    update_order.insert(update_order.end(), red.begin(), red.end());
    update_order.push_back(rn_t);
    update_order.insert(update_order.end(), nm.rbatch.begin(), nm.rbatch.end());
    update_order.push_back(ko);
    w.reorder(is, init_order);
    w.reorder(us, update_order);
    for (StageRef *s : {&is, &us}) {
        if (t.lanes) w.gpu_lanes(*s, rn_t);
        else w.gpu_threads(*s, {rn_t});
        if (t.reg_x > 1) w.unroll(*s, rn_r);
        if (t.rows > 1) w.unroll(*s, nm.rm);
    }
    if (k.k_unroll > 1) w.unroll(us, red[0]);
}

// The unstaged CUDA kernel (GpuKernel::k_tile == 0): blocks of threads_x x threads_y threads over
// the host, reg_x x reg_y outputs per thread, batch dimensions fused into one block dimension.
void tile_host_gpu(ScheduleWriter &w, StageRef &hs, const TileVariant &t, const ContractionLoopNames &nm) {
    w.split(hs, nm.n, "n_b", "n_i", t.cols, TailStrategy::ShiftInwards);
    w.split(hs, "n_i", "n_t", "n_r", t.reg_x, TailStrategy::RoundUp);
    w.split(hs, nm.m, "m_b", "m_i", t.rows, TailStrategy::ShiftInwards);
    w.split(hs, "m_i", "m_t", "m_r", t.reg_y, TailStrategy::RoundUp);
    std::vector<std::string> order = {"n_r", "m_r", "n_t", "m_t", "n_b", "m_b"};
    order.insert(order.end(), nm.batch.begin(), nm.batch.end());
    w.reorder(hs, order);
    std::vector<std::string> blocks = {"n_b", "m_b"};
    if (!nm.batch.empty()) {
        blocks.push_back(fuse_loops(w, hs, nm.batch[0], {nm.batch.begin() + 1, nm.batch.end()}, "batch_b"));
    }
    w.gpu_threads(hs, {"n_t", "m_t"});
    w.gpu_blocks(hs, blocks);
    if (t.reg_x > 1) w.unroll(hs, "n_r");
    if (t.reg_y > 1) w.unroll(hs, "m_r");
}

void tile_update_gpu(ScheduleWriter &w, StageRef &us, const TileVariant &t, int k_unroll, const ContractionLoopNames &nm,
                     std::vector<std::string> red) {
    if (k_unroll > 1 && red.size() == 1) {
        w.split(us, red[0], red[0] + "_o", red[0] + "_i", k_unroll, TailStrategy::GuardWithIf);
        red = {red[0] + "_i", red[0] + "_o"};
    }
    std::vector<std::string> order = {nm.rn, nm.rm};
    order.insert(order.end(), red.begin(), red.end());
    order.insert(order.end(), nm.rbatch.begin(), nm.rbatch.end());
    w.reorder(us, order);
    if (t.reg_x > 1) w.unroll(us, nm.rn);
    if (t.reg_y > 1) w.unroll(us, nm.rm);
    if (k_unroll > 1 && red.size() == 2) w.unroll(us, red[0]);
}

}  // namespace diet
