// The measurement dispatch of the tuning loop: local measurement (Measurer), or, with
// HL_DIET_FARM=slurm, one Slurm array job per round (FarmRun.h). Either way the records come
// back in job order and are appended to the tuning log, so the search, the model and the log
// cannot tell the two apart.
#pragma once

#include "measure/Measure.h"

#include <string>
#include <vector>

namespace diet {

// Measures `jobs` the way `opts.farm` says. On the farm the round is written as a batch
// directory under opts.farm_dir (default ./diet-farm, which must be on a path the compute
// nodes share), run by run_batch_on_farm, and removed afterwards unless farm_args has keep=1.
std::vector<TuningRecord> measure_jobs(Measurer &measurer, const Options &opts,
                                       const std::vector<Halide::Internal::Function> &outputs,
                                       const std::vector<MeasureJob> &jobs, const CpuLimits &cpu);

// How many measurements one search round asks for: 8 on this machine (DietCode's and Ansor's
// batch on one device); on a farm, 8 per array task, so that a round fills every task it may use
// and a search of N trials costs N / (8 tasks) scheduler round trips instead of N / 8.
int measurements_per_round(const Options &opts);

// The diet_runner next to the loaded plugin (build trees and installs keep them together), or
// "diet_runner" (looked up in PATH) when there is none.
std::string default_runner_path();

}  // namespace diet
