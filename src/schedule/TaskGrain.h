// The CPU schedule's thread-pool task sizes as run-time Exprs of the output's extents: the shapes
// a dynamic pipeline runs at are only known then, and a fixed grain is wrong at one end of the
// family (at T = 1, a batch_matmul's per-head tile is 64 multiply-adds; on 2 threads, one task per
// head spent 7x the compute time in the thread pool's lock).
#pragma once

#include "schedule/SizeExpr.h"
#include "space/MicroKernel.h"

#include <vector>

namespace diet {

// cpu_task_grain (space/MicroKernel.h) on the run-time extents, in the kernel's order: register
// panels (x batch indices) per task, enough for kMinTaskFmas multiply-adds, at most all of them;
// each multiply-add counted `fma_cost` times (gathered_fma_cost).
SizeExpr task_grain_expr(const std::vector<SizeExpr> &kernel_extents, const TileVariant &t, const CpuKernel &k,
                         const ReductionModel &reduction, int64_t fma_cost = 1);

// The same for tasks of one row tile across every panel (tile_host_cpu's row_tasks): row tiles
// (x batch indices) per task.
SizeExpr row_task_grain_expr(const std::vector<SizeExpr> &kernel_extents, const TileVariant &t,
                             const ReductionModel &reduction);

// The reduction's points at run time (ReductionModel on the kernel-ordered extents), at least 1.
SizeExpr reduction_points_expr(const std::vector<SizeExpr> &kernel_extents, const ReductionModel &reduction);

// Slices of the outermost batch dimension per task of a pass that computes a whole contraction
// per slice (an update on a batched output): enough for kMinTaskFmas (each slice's points times
// the reduction's), at most all slices.
SizeExpr slices_per_task_expr(const std::vector<SizeExpr> &slice_extents, const SizeExpr &reduction_points,
                              const SizeExpr &slices);

}  // namespace diet
