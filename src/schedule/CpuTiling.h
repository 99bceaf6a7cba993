// The CPU micro-kernel on one tile variant's accumulator stages (the host's tiling is in
// ApplyVariants.cpp): the column kernel (vectors along the output's innermost dimension, the whole
// register tile inside the reduction loop) and the dot-product kernel (vectors along the
// reduction, an rfactor intermediate of lanes per update), and the column kernel of an in-place
// leaf among staged ones (its update in an rfactor intermediate `direct`). A contraction may have
// several updates (MatmulPattern::update_reductions): each is tiled the same way on the same tile.
#pragma once

#include "schedule/ContractionLoopNames.h"
#include "schedule/ScheduleWriter.h"
#include "space/MicroKernel.h"

#include <string>
#include <vector>

namespace diet {

// A contraction's update stages, in order.
using ContractionUpdates = std::vector<ScheduleWriter::StageRef>;

// The host's tiling for one tile variant (the accumulator is computed per panel tile, n_p). With
// `batch_inside_panels` the batch loops run inside the panels' (no operand moving with the vectors
// reads the batch); `parallel`: the task loop is parallel (else inside a consumer's parallel loop).
// `region_inferred`: the host is not the pipeline's output, so Halide infers its region from its
// readers and the task loops are not fused (see tile_host_cpu). `row_tasks`: a task is one row
// tile (x batch indices) across every panel, instead of one panel down every row
// (row_tasks_apply).
void tile_host_cpu(ScheduleWriter &w, ScheduleWriter::StageRef &hs, const TileVariant &t, const CpuKernel &k,
                   const ContractionLoopNames &nm, const std::string &task, const SizeExpr &grain, bool parallel,
                   bool batch_inside_panels, bool region_inferred, bool row_tasks = false);

// The accumulator's pure definition on one tile (in its own loop order): vectors (`cpu`) or
// registers (a GPU thread's), unrolled.
void tile_acc_init(ScheduleWriter &w, ScheduleWriter::StageRef &is, const TileVariant &t, const ContractionLoopNames &nm,
                   bool cpu);

// One update of a column kernel; `red`: this update's reduction variables, innermost first.
void tile_update_cpu(ScheduleWriter &w, ScheduleWriter::StageRef &us, const TileVariant &t, const CpuKernel &k,
                     const ContractionLoopNames &nm, std::vector<std::string> red);

// The dot-product kernel on the accumulator's stages; its lane intermediates are computed per
// tile of `host` (several updates: each inside its own update of `acc`). Returns them, one per update.
std::vector<ScheduleWriter::FuncRef> tile_acc_dot(ScheduleWriter &w, ScheduleWriter::StageRef &is, ContractionUpdates &us,
                                                  const TileVariant &t, const CpuKernel &k, const ContractionLoopNames &nm,
                                                  ScheduleWriter::FuncRef &host, ScheduleWriter::FuncRef &acc);

// A column kernel that reads its operands in place, in a dispatch whose other leaves read staged
// panels of them (space/MicroKernel.h unstaged_alternatives): the panel wrappers are Func-level,
// so this leaf's update moves into an rfactor intermediate `direct` (computed per register tile
// of `host`, reading the operands themselves) and acc's update adds that tile. The panels are not
// realized on this branch (nothing on it reads them).
void tile_acc_direct(ScheduleWriter &w, ScheduleWriter::StageRef &is, ContractionUpdates &us, const TileVariant &t,
                     const CpuKernel &k, const ContractionLoopNames &nm, ScheduleWriter::FuncRef &host);

}  // namespace diet
