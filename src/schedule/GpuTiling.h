// The staged CUDA micro-kernel (GpuKernel::k_tile > 0, see space/GpuSpace.h) applied to a
// contraction: the host tiled into one-warp blocks, the accumulator computed per block in
// lane-striped registers, and each operand copied per reduction tile into shared memory.
//
// Loop structure of one block (innermost last):
//   gpu_block n_b, m_b, batch_b
//     acc init:   lanes rn_t { unrolled rm, rn_r }
//     for k_o:                                     (serial, the reduction tiles)
//       copy of each operand tile:  thread f_y (extent 1) { unrolled f_o { lanes f_t } }
//       barrier
//       acc update: lanes rn_t { for k_i { unrolled rm, rn_r: fma } }
//       barrier
//     host store: lanes n_t { unrolled m_r, n_r }
// Lanes walk the operand's innermost storage dimension in the copy and the output's innermost
// dimension in the store (unit stride across a warp: coalesced); a lane's register columns are
// a warp apart, so shared-memory reads of the operand that moves with the output's columns hit
// consecutive addresses (or, when that operand's innermost dimension is the reduction, rows
// padded to k_tile + 1 elements: an odd row stride, no bank conflicts). The unit thread loop in
// the copy is what makes Halide insert the barriers (it inserts none for lane loops alone).
#pragma once

#include "schedule/ContractionLoopNames.h"
#include "schedule/ScheduleWriter.h"
#include "space/MicroKernel.h"

#include <string>
#include <vector>

namespace diet {

struct StagedOperand {
    ScheduleWriter::FuncRef func;
    int vector_arg = -1;  // ContractionOperand::vector_arg
    ScheduleWriter::FuncRef caller;  // the Func whose definition reads it (acc, or one inlined into acc)
};

// The name of the serial loop over reduction tiles in acc's update.
std::string reduction_tile_loop(const ContractionLoopNames &nm);

// Func level, shared by every variant: each operand is read through a wrapper computed per
// reduction tile in shared memory, copied by the warp with coalesced loads.
void stage_gpu_operands(ScheduleWriter &w, const std::vector<StagedOperand> &operands,
                        const ScheduleWriter::FuncRef &acc, const GpuKernel &k, const ContractionLoopNames &nm);

void tile_host_staged(ScheduleWriter &w, ScheduleWriter::StageRef &hs, const TileVariant &t, const ContractionLoopNames &nm);
void tile_acc_staged(ScheduleWriter &w, ScheduleWriter::StageRef &is, ScheduleWriter::StageRef &us,
                     const TileVariant &t, const GpuKernel &k, const ContractionLoopNames &nm);

// The unstaged kernel (GpuKernel::k_tile == 0) on one variant's host stage and accumulator updates.
void tile_host_gpu(ScheduleWriter &w, ScheduleWriter::StageRef &hs, const TileVariant &t, const ContractionLoopNames &nm);
void tile_update_gpu(ScheduleWriter &w, ScheduleWriter::StageRef &us, const TileVariant &t, int k_unroll,
                     const ContractionLoopNames &nm, std::vector<std::string> red);

}  // namespace diet
