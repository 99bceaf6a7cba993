// DietCode's adaptation terms: how a micro-kernel's throughput f_MK is scaled at one shape.
//   f_occ = k * (g / ceil_by(g, N)) + (1 - k)   g: micro-kernel instances (GPU blocks, CPU tasks),
//                                                N: SMs or cores, k: fitted per target
//   f_pad = extent / ceil_by(extent, tile) over the tiled axes (work not wasted on padding)
// Both are throughput factors in (0, 1].
#pragma once

#include <cstdint>
#include <vector>

namespace diet {

double occupancy(int64_t instances, int workers, double k);
double padding_efficiency(const std::vector<int64_t> &extents, const std::vector<int64_t> &tiles);

// One observation for fitting k: a kernel's wave efficiency u = g / ceil_by(g, N) at a shape and
// its measured throughput relative to its best (u = 1) throughput.
struct OccupancySample {
    double wave_efficiency;
    double relative_throughput;
};

// Least squares of relative_throughput = k * u + (1 - k), clamped to [0, 1]; 1 with no information.
double fit_occupancy_k(const std::vector<OccupancySample> &samples);

}  // namespace diet
