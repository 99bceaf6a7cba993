#include "space/GpuSpace.h"

#include <algorithm>
#include <cmath>

namespace diet {

namespace {

constexpr int kAddressRegisters = 32;
// staged_tile_fit's heuristic constants (calibrated there).
constexpr double kJitRegistersPerAccumulator = 8.0;
constexpr double kMinStagedRows = 8.0;
constexpr int kMaxStagedColumnsPerLane = 2;

std::vector<int> staged_k_tiles(const MatmulPattern &p, int warp) {
    std::vector<int> out;
    for (int kt : {warp, 2 * warp}) {
        if (*p.reduction_extent % kt == 0) out.push_back(kt);
    }
    return out;
}

// Accumulators per lane that fit under a JIT register cap beside the operands and addresses.
double accumulators_under_jit_cap(int jit_registers) {
    return jit_registers / kJitRegistersPerAccumulator;
}

}  // namespace

bool gpu_operand_stageable(const MatmulPattern &p, const ContractionOperand &o) {
    const std::vector<int> dims = p.kernel_dims();
    if (dims.size() < 2 || p.acc_arg_of_host_dim.size() <= (size_t)dims[1]) return false;
    const int cols = p.acc_arg_of_host_dim[0], rows = p.acc_arg_of_host_dim[dims[1]];
    const auto uses = [&](int a) { return a < (int)o.uses_acc_arg.size() && o.uses_acc_arg[a]; };
    // An operand read at coordinates computed from values (an embedding table at token ids) has
    // no bounded tile to copy into shared memory (Halide: "calls ... in an unbounded way"): the
    // kernel reads it in place.
    return o.separable && !o.data_dependent && !(uses(cols) && uses(rows));
}

bool gpu_staging_possible(const MatmulPattern &p, const GpuLimits &lim) {
    // A reduction extent known only at run time gets the unstaged kernels: staged under
    // specialize(extent == estimate) was tried, but the tiles exist in the general case too, where
    // Halide 14 sizes them at run time with loose bounds (about 1 MB for w's tile at K = 768).
    const std::optional<int64_t> k = p.reduction_extent;
    if (!(p.reduction.size() == 1 && !p.several_updates() && k && *k % lim.warp_size == 0 && p.operands.size() >= 2)) {
        return false;
    }
    return std::any_of(p.operands.begin(), p.operands.end(),
                       [&](const ContractionOperand &o) { return gpu_operand_stageable(p, o); });
}

int staged_registers(const GpuKernel &k, int warp) {
    const int copy_in_flight = k.k_tile * (k.block_cols() + k.block_rows()) / warp;
    return k.reg_x * k.reg_y + copy_in_flight + k.reg_x + k.reg_y + kAddressRegisters;
}

double staged_tile_fit(int reg_x, int reg_y, int k_tile, int jit_registers) {
    // Heuristic, calibrated on GPU measurements of the BERT dense layer and attention scores
    // (apps/results/gpu/h200_2026-11-27_NOTES.md, apps/results/gpu/h200_2026-11-30_*; the H100
    // tuning log of 2026-11-24):
    // - Accumulators: Halide 14's CUDA runtime JIT-compiles every kernel with at most 64 registers
    //   per thread unless HL_CUDA_JIT_MAX_REGISTERS says otherwise (Options::cuda_registers tells
    //   Diet). Under 64, 8 accumulators per lane beat 16 in two H200 sweeps of the dense layer
    //   (1x8 / 2x8 with 64-step tiles, geomean cuBLAS time / kernel time over T: 0.582 / 0.494 on
    //   2026-11-27, 0.588 / 0.473 on 2026-11-30, 1x8 never slower at any T), 32 accumulators ran at
    //   0.31-0.44x, 64 at 0.14-0.28x: one accumulator per 8 registers of the cap. Under 255 the
    //   same rule allows 32, and 2x16 was the fastest of the three (0.745 / 0.618 / 0.565).
    // - Columns per lane: more than 2 cost registers beyond the accumulators (ptxas -arch=sm_90:
    //   4x8 with 32-step tiles 255 registers, 2x16 with 64-step tiles 158, 2x8 128, 1x8 40), so
    //   fewer warps fit an SM: under a cap of 255, 4x8 ran at 0.56-0.58x cuBLAS where 2x8 and
    //   2x16 ran at 0.61-0.77x (two H200 runs, 2026-11-27 and 2026-11-30); under 64, 0.41-0.44x.
    // - Rows: a block of fewer than 8 rows re-reads the column operand from L2 too often (4x4 ran
    //   at 0.26x where 2x8 ran at 0.49x in the same sweep).
    // - Reduction tiles: fewer staging rounds and barriers per reduction; a tie-breaker (in the
    //   H100 tuning log 64-step tiles of 2x8 were 1.0-1.45x faster than 32-step ones, except dense
    //   at T = 37, 0.88x; within run-to-run noise in the H200 sweeps).
    const double accumulators = (double)reg_x * reg_y;
    const double fit_registers = std::min(1.0, accumulators_under_jit_cap(jit_registers) / accumulators);
    const double fit_rows = std::min(1.0, reg_y / kMinStagedRows);
    const double fit_k_tile = 1.0 + 0.05 * std::log2(std::max(1.0, k_tile / 32.0));
    const double fit_columns = reg_x <= kMaxStagedColumnsPerLane ? 1.0 : 0.5;
    return fit_registers * fit_rows * fit_k_tile * fit_columns;
}

int64_t staged_shared_bytes(const GpuKernel &k, int elem_bytes) {
    return (int64_t)(k.k_tile + 1) * (k.block_cols() + k.block_rows()) * elem_bytes;
}

int staged_blocks_per_sm(const GpuKernel &k, const GpuLimits &lim, int elem_bytes) {
    const int threads = k.threads_x * k.threads_y;
    int64_t by_regs = lim.registers_per_block / std::max(1, staged_registers(k, lim.warp_size) * threads);
    int64_t by_smem = lim.shared_bytes_per_sm / std::max<int64_t>(1, staged_shared_bytes(k, elem_bytes));
    return (int)std::max<int64_t>(0, std::min<int64_t>({by_regs, by_smem, (int64_t)lim.max_blocks_per_sm}));
}

std::vector<MicroKernel> enumerate_staged_gpu_kernels(const MatmulPattern &p, const GpuLimits &lim) {
    std::vector<MicroKernel> out;
    const int warp = lim.warp_size, elem = p.type.bytes();
    for (int rx : {1, 2, 4, 8}) {
        for (int ry : {1, 2, 4, 8, 16, 32}) {
            for (int kt : staged_k_tiles(p, warp)) {
                for (int ku : {1, 4}) {
                    MicroKernel k;
                    k.gpu = true;
                    k.cuda = {warp, 1, rx, ry, ku, kt};
                    // Limits: registers per lane (no spills), shared memory per block, and at
                    // least two resident blocks per SM so one block's copy overlaps another's math.
                    if (staged_registers(k.cuda, warp) > std::min(lim.registers_per_thread, 255)) continue;
                    if (staged_shared_bytes(k.cuda, elem) > lim.shared_bytes_per_block) continue;
                    if (staged_blocks_per_sm(k.cuda, lim, elem) < 2) continue;
                    out.push_back(k);
                }
            }
        }
    }
    return out;
}

std::vector<TileVariant> staged_gpu_variants(const GpuKernel &g) {
    std::vector<TileVariant> v;
    auto add = [&](int rx, int ry, int lanes) {
        TileVariant t;
        t.cols = lanes * rx;
        t.rows = ry;
        t.threads_x = lanes;
        t.threads_y = 1;
        t.reg_x = rx;
        t.reg_y = ry;
        // One lane: not a lane loop. Halide 14 lowers the register tile of a lane loop narrower
        // than the warp to full-mask shuffles inside `if (lane < n)`, which hangs the warp.
        t.lanes = lanes > 1;
        for (const TileVariant &o : v) {
            if (o.cols == t.cols && o.rows == t.rows) return;
        }
        v.push_back(t);
    };
    add(g.reg_x, g.reg_y, g.threads_x);
    add(1, g.reg_y, g.threads_x);
    add(g.reg_x, 1, g.threads_x);
    add(1, 1, g.threads_x);
    add(1, 1, 1);  // narrower than a warp: one output per block, still staged
    std::stable_sort(v.begin(), v.end(), [](const TileVariant &a, const TileVariant &b) {
        return a.cols * a.rows > b.cols * b.rows;
    });
    return v;
}

}  // namespace diet
