// Whether a Func's values are read as the coordinates of a read of a pipeline input (`inp(clamp(
// i32(floor(coords(x, y)[0])), 0, W - 1), ...)`: a lens remap, a warp, a resize by computed
// coordinates): its consumers gather from the image at addresses it computes. Inlined there, the
// address arithmetic and the gathers form one long dependent chain per vector (a lens remap's
// bilinear gather: 1.2-1.8 ms with its coordinates inlined, 0.8-0.9 computed per row tile first,
// `apps/results/cpu/gather_index_2026-11-30/`). Not an index into a table the pipeline computes
// (a LUT: camera_pipe's `curve(corrected(x, y, c))` ran 3-6x slower with `corrected` computed per
// tile, the same directory's development run).
#pragma once

#include "analysis/FunctionDAG.h"

namespace diet {

// Heuristic: the arithmetic per point (analysis/Regions.h ops_per_point) from which computing a
// gather's coordinates in a pass of their own pays for storing and loading them.
constexpr double kGatherIndexOps = 8;

// Some consumer of `n` reads it inside the arguments of a read of an input (an image or an input
// wrapper Func).
bool indexes_a_gather(const FunctionDAG &dag, const FuncNode &n);

}  // namespace diet
