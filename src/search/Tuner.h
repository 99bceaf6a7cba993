// The tuning loop (DietCode's joint learning): one micro-kernel space and one learned cost model
// for all training shapes. It wires the pieces together:
//   space (src/space) -> features of each kernel (src/features, shape-generic)
//   -> cost = f_MK(features) * f_occ * f_pad (src/cost) -> evolutionary search (Evolution.h)
//   -> measurements (src/measure, logged, resumable) -> retraining, every round.
#pragma once

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "options/Options.h"
#include "schedule/ApplySchedule.h"
#include "space/Hardware.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace diet {

struct TuneResult {
    std::vector<KernelChoice> kernels;  // the chosen micro-kernel of each matmul-like stage
    nlohmann::json report;              // what HL_DIET_REPORT receives
    int measurements = 0;               // new measurements made (log hits excluded)
};

// Tunes every matmul-like stage of the (still unscheduled) pipeline, starting from `initial`
// (the heuristic's choices). With opts.trials == 0 nothing is measured: a model loaded from
// opts.model_path decides, or the initial choices stay. Must run before the estimates are made
// constant (it evaluates them at every training shape).
TuneResult tune(const std::vector<Halide::Internal::Function> &outputs, const FunctionDAG &dag,
                const ShapeFamily &family, const std::vector<Shape> &training,
                const std::vector<KernelChoice> &initial, const Halide::Target &target, const CpuLimits &cpu,
                const GpuLimits &gpu, const Options &opts);

// The share of the family each training shape stands for: the family's shapes are assigned to
// the nearest training shape (one shape variable); with several variables, equal shares.
std::vector<double> training_weights(const ShapeFamily &family, const std::vector<Shape> &training);

}  // namespace diet
