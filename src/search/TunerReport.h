// What a tuning run reports: the JSON that HL_DIET_REPORT receives (the run's settings, one entry
// per stage with its choices, model quality and timings, the run's time split) and the progress
// and summary lines on stderr.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "dispatch/Dispatch.h"
#include "options/Options.h"
#include "search/PatternTuner.h"
#include "space/MicroKernel.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace diet {

// The run's settings, at the head of the report.
nlohmann::json run_report_header(const Options &opts, const Halide::Target &target, int workers,
                                 const std::vector<Shape> &training, const std::vector<double> &weights);

// Completes a stage's entry `pr` (which already holds its dispatch decision, if any): the chosen
// kernel, the measurement counts, the model's quality (this runs the cross-validation, its time
// counted as the model's), the timings, and per training shape the best and the dispatched kernel.
void add_stage_results(nlohmann::json &pr, PatternTuner &tuner, const std::string &stage,
                       const std::vector<MicroKernel> &space, size_t chosen, const std::vector<size_t> &best,
                       const std::vector<double> &best_time, const Dispatch &dispatch, const MatmulExtents &ext,
                       const std::vector<Shape> &training, uint64_t seed);

// The stage's outcome on stderr: its one kernel or its dispatch leaves, and how it was measured.
void print_stage_summary(const std::string &stage, const PatternTuner &tuner, const MicroKernel &chosen,
                         const Dispatch &dispatch);

// Wall time split: compiling candidates, running them, the cost model (features, training,
// prediction); the rest (search bookkeeping, the dispatch's shape binding) is "other".
// Summed over the report's stages; what the measurer spent compiling is the compiling share.
void add_time_split(nlohmann::json &report, double seconds_compiling);

// The search's progress lines end with the best measured time at each training shape so far.
std::string best_ms_per_shape(const MeasuredTimes &measured, const std::vector<Shape> &training);

}  // namespace diet
