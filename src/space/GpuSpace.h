// The staged CUDA micro-kernel space (GpuKernel with k_tile > 0): one warp per block, a
// per-lane register tile, the reduction staged through shared memory k_tile steps at a time.
//
// Why one warp: Halide 14 keeps a Func computed at the block level in registers only when its
// storage is striped across the lanes of a gpu_lanes loop (LowerWarpShuffles); with a second
// thread dimension every thread would hold the whole block's accumulators in local memory (the
// allocation is duplicated per thread and indexed by the thread id). Per-lane accumulators that
// survive the serial loop over reduction tiles are what shared-memory staging needs, so a staged
// block is one warp wide and one thread tall, and its rows live in each lane's registers.
#pragma once

#include "analysis/FunctionDAG.h"
#include "space/Hardware.h"
#include "space/MicroKernel.h"

#include <vector>

namespace diet {

// Staging needs a single reduction variable of constant extent that k_tile divides (no guard in
// the reduction loop), k_tile a multiple of the warp (every operand copy is whole warps), and at
// least one operand whose tile fits (gpu_operand_stageable).
bool gpu_staging_possible(const MatmulPattern &p, const GpuLimits &lim);

// An operand staged through shared memory takes k_tile x (the tile's columns) or k_tile x (its
// rows): it must be separable (each argument moves with one loop variable) and move with the
// columns or the rows, not both. The others are read in place by the staged kernel: a flattened
// buffer x(k + K * m) would need a tile of K times the rows (its launch failed with
// CUDA_ERROR_INVALID_VALUE on an H200), a batch stored innermost q(b, i, d) one of rows times more.
bool gpu_operand_stageable(const MatmulPattern &p, const ContractionOperand &o);

// Registers per lane the kernel is planned for: accumulators, the copy's loads in flight, one
// operand row and column, and a fixed allowance for addresses and loop counters.
int staged_registers(const GpuKernel &k, int warp);
// The heuristic's correction for a staged register tile of reg_x x reg_y outputs per lane and
// k_tile staged steps, run under a JIT cap of jit_registers per thread (a factor of at most
// ~1.05; see the .cpp for what calibrated it).
double staged_tile_fit(int reg_x, int reg_y, int k_tile, int jit_registers);
// Shared memory of one block: both operand tiles, rows padded by one element.
int64_t staged_shared_bytes(const GpuKernel &k, int elem_bytes);
// Blocks one SM can hold at once under the register, shared-memory and block limits.
int staged_blocks_per_sm(const GpuKernel &k, const GpuLimits &lim, int elem_bytes);

std::vector<MicroKernel> enumerate_staged_gpu_kernels(const MatmulPattern &p, const GpuLimits &lim);

// Tile variants of a staged kernel, largest first: the full block, one warp-wide column of the
// register tile, one row, and a single output (for outputs narrower than a warp).
std::vector<TileVariant> staged_gpu_variants(const GpuKernel &k);

}  // namespace diet
