// What earlier tuning runs left in the tuning log (HL_DIET_LOG): the measurements a run reuses
// instead of repeating them (resume), and the dispatch decisions a run without trials applies
// ("apply history best").
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "measure/TuningLog.h"
#include "options/Options.h"
#include "schedule/ApplySchedule.h"
#include "search/Tuner.h"

#include <map>
#include <string>
#include <vector>

namespace diet {

struct TuningHistory {
    LogContents log;
    std::string log_path;                         // "" without a log, or when the file is not a Diet log
    std::map<std::string, TuningRecord> logged;  // this pipeline's and target's, by "shape|candidate"
};

    // The tuning log, read once. Records of other pipelines or targets, corrupt lines and records
    // of another log format are left out, in one summary line; a file that is not a Diet log is
    // neither read nor appended to (tuning goes on without a log).
TuningHistory read_tuning_history(const Options &opts, const std::string &fingerprint, const Halide::Target &target);

// What a recorded dispatch decision is valid for, besides pipeline and target: the family, the
// training shapes and the kernel cap.
std::string dispatch_key(const ShapeFamily &family, const std::vector<Shape> &training, const Options &opts);

    // No trials: apply the decisions a tuning run of this pipeline, target and family left in the
    // log ("apply history best"): no measurement, and the same schedule source as that run.
// Returns true when the log holds a decision for every stage, applied to `result` (kernels and
// report); false when it lacks one, leaving `result` as it was.
bool replay_recorded_dispatch(const TuningHistory &history, const std::string &fingerprint,
                              const Halide::Target &target, const std::string &family_key,
                              const std::vector<KernelChoice> &initial, const Options &opts, TuneResult &result);

}  // namespace diet
