// Batch mode, for measuring where Halide is not installed (a GPU box, a farm of them): the build
// machine writes a directory of compiled candidates with manifest.json; apps/diet_runner measures
// them there and writes results.json into the same directory; the directory comes back and its
// results are imported as tuning-log records.
#pragma once

#include "Halide.h"
#include "measure/Manifest.h"
#include "measure/Measure.h"

#include <string>
#include <vector>

namespace diet {

// Builds every job's candidate (named c0, c1, ... in job order) and each shape's reference into
// `dir` and writes dir/manifest.json. Timing, timeout, cold-L2 mode and seed come from `setup`;
// a candidate that fails to build is listed with its error. Needs no GPU, even for CUDA targets.
BatchManifest write_batch(const std::string &dir, const std::vector<Halide::Internal::Function> &outputs,
                          const std::vector<MeasureJob> &jobs, const CpuLimits &cpu, const MeasureSetup &setup);

// Reads dir/manifest.json and dir/results.json into records (one per measured entry) and appends
// them to `log_path` when it is not empty. Entries without a result (a runner stopped early) are
// left out with a warning; a missing or malformed file is a user_error.
std::vector<TuningRecord> import_batch_results(const std::string &dir, const std::string &log_path = "");

}  // namespace diet
