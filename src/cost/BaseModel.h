// The pre-trained cost model shipped with the plugin (like Adams2019's baseline weights): one
// model of CPU micro-kernels over the loop-nest features (features/KernelFeatures.h), trained on
// a dataset of many contractions measured on one class of CPU (models/README.md says which, and
// the command that retrains it). It ranks kernels when nothing is measured and seeds a tuning
// run's predictions until the run's own model is trained.
//
// Which file: HL_DIET_BASE_MODEL when set ("none" turns it off), else
// <directory of libautoschedule_diet.so>/diet_models/<target class>.json, where the build and
// `cmake --install` put the shipped models. A file is used only when it is a Diet model of this
// format, for any pipeline ("*"), with loop-nest features, trained for this target class; any
// other is rejected with one message and Diet goes on with its heuristic.
#pragma once

#include "Halide.h"
#include "cost/Dataset.h"
#include "cost/PackSumModel.h"
#include "features/KernelFeatures.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace diet {

constexpr const char *kAnyPipeline = "*";
constexpr const char *kToolVersionForModels = "diet 0.1.0";

// What a kernel model transfers across: the instruction set and vector registers, not the exact
// CPU ("x86-64/512-bit/32-vregs"). Models are trained and checked per class.
std::string target_class(const Halide::Target &t);
std::string target_class_of_dataset(const DatasetRecord &r);

// Tree parameters for the shipped model (thousands of records: deeper trees than a tuning run's).
PackSumModelParams base_model_params(Objective o);

// The shipped model's file for a target: HL_DIET_BASE_MODEL's value if given ("" when "none"),
// else the default path above (which may not exist).
std::string base_model_path(const std::string &option_value, const Halide::Target &t);

// `info` (a fitted model's: its label scale) with the attributes a shipped model carries and
// BaseModel::load checks: this format, any pipeline, the target class and the features
// ("kernel" or "plan"), how many records trained it, the tool version.
ModelInfo shipped_model_info(ModelInfo info, const std::string &target_class, const std::string &features,
                             int64_t trained_on);

// The shipped plan model's file (features/PlanFeatures.h rows, stage-rule plans): the option's
// value if given ("" when "none"), else <plugin directory>/diet_models/plans_<target class>.json.
std::string base_plan_model_path(const std::string &option_value, const Halide::Target &t);

class BaseModel {
public:
    // Loads `path` for target class `cls`, a model of `features` ("kernel": loop-nest features of
    // micro-kernels; "plan": stage-rule plans); on any mismatch returns nullptr and puts the
    // reason in *why ("" when the file simply does not exist).
    static std::unique_ptr<BaseModel> load(const std::string &path, const std::string &cls, std::string *why,
                                           const std::string &features = "kernel");
    // Predicted throughputs (FLOP/s, comparable between kernels at one shape).
    std::vector<double> predict(const std::vector<KernelAtShape> &ks) const;
    // A plan model's scores (higher: predicted faster; comparable between plans at one shape).
    std::vector<float> predict_plans(const std::vector<FeatureRows> &rows) const { return model_.predict(rows); }
    const ModelInfo &info() const { return model_.info(); }
    const std::string &path() const { return path_; }

private:
    PackSumModel model_;
    std::string path_;
};

}  // namespace diet
