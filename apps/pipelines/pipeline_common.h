// Shared pieces of the issue-14 benchmark pipelines (apps/pipelines/*.cpp).
//
// Every pipeline has an image size given by two scalar Inputs, `width` and `height`, that are used
// only by the estimates (as in generators/unsharp.cpp). Their ranges are the shape family Diet
// schedules for. The estimates are
//   - symbolic in width/height when an autoscheduler runs and symbolic_estimates=true (Diet folds
//     them itself before codegen);
//   - the constants estimate_width x estimate_height otherwise (the hand schedule, and Adams2019,
//     Mullapudi2016 and Li2018, which need constant estimates; the "adams2019_max" variant sets
//     them to the top of the range).
#pragma once

#include "Halide.h"

// Declares the GeneratorParams of the estimates. Put it first in the generator class.
#define DIET_PIPELINE_ESTIMATE_PARAMS(EST_W, EST_H)                                          \
    GeneratorParam<bool> symbolic_estimates{"symbolic_estimates", true};                    \
    GeneratorParam<int> estimate_width{"estimate_width", EST_W};                            \
    GeneratorParam<int> estimate_height{"estimate_height", EST_H};                          \
    bool use_symbolic_estimates() const { return auto_schedule && symbolic_estimates; }     \
    Halide::Expr est_width() {                                                               \
        width.set_estimate(std::min<int>(estimate_width, width_max()));                     \
        return use_symbolic_estimates() ? Halide::Expr(width) : Halide::Expr(int(estimate_width)); \
    }                                                                                        \
    Halide::Expr est_height() {                                                              \
        height.set_estimate(std::min<int>(estimate_height, height_max()));                  \
        return use_symbolic_estimates() ? Halide::Expr(height) : Halide::Expr(int(estimate_height)); \
    }

// Declares the shape Inputs (after the buffer Inputs, so that they come last in the signature).
#define DIET_PIPELINE_SHAPE_INPUTS(EST_W, EST_H, LO, HI)                                     \
    Input<int> width{"width", EST_W, LO, HI};                                                \
    Input<int> height{"height", EST_H, LO, HI};                                              \
    static constexpr int width_max() { return HI; }                                          \
    static constexpr int height_max() { return HI; }

namespace diet_pipelines {

// A tail strategy that is correct for any extent (the images have any size in the family).
constexpr Halide::TailStrategy kGuard = Halide::TailStrategy::GuardWithIf;

}  // namespace diet_pipelines
