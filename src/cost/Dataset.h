// A cost model's dataset: one JSON line per measured (micro-kernel, shape) pair, with what the
// loop-nest features (features/KernelFeatures.h) are computed from rather than the features
// themselves, so that a dataset outlives a change of the features. Written by the tuner when
// HL_DIET_DATASET names a file (appended, one write per line), read by the model trainer
// (apps/diet_model.cpp) and the tests.
#pragma once

#include "features/KernelFeatures.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace diet {

constexpr int kDatasetFormat = 1;

struct DatasetRecord {
    std::string pipeline;   // fingerprint of the pipeline (measure/Fingerprint.h)
    std::string label;      // what the collector called it (a form's name), "" when unknown
    std::string stage;      // the contraction's accumulator Func
    std::string target;     // Target::to_string()
    std::string shape;      // ShapeFamily::to_string of the shape
    KernelAtShape kernel;
    double flops = 0;       // the stage's work at the shape
    std::optional<double> seconds;  // median; empty when the candidate failed
    nlohmann::json to_json() const;
    static DatasetRecord from_json(const nlohmann::json &j);  // user_error when malformed
    // The group a ranking model orders within: one stage of one pipeline at one shape.
    std::string group() const { return pipeline + "|" + stage + "|" + shape; }
};

// A measured stage-rule plan (search/PlanSearch.cpp): its plan features (features/PlanFeatures.h)
// are stored as they are, since they need the pipeline to be recomputed.
struct PlanRecord {
    std::string pipeline, label, target, shape;
    std::string plan;             // plan_key(): what was measured
    std::vector<std::vector<float>> rows;  // one per group
    double estimate = 0;          // the rules' analytic estimate of the plan at the shape
    std::optional<double> seconds;
    nlohmann::json to_json() const;
    static PlanRecord from_json(const nlohmann::json &j);
    std::string group() const { return pipeline + "|" + shape; }
};
void append_plan_dataset(const std::string &path, const std::vector<PlanRecord> &records);

// Appends the records to `path` (created when missing), one line each, each with one write():
// concurrent writers interleave whole lines.
void append_dataset(const std::string &path, const std::vector<DatasetRecord> &records);

// Every record of the files; a line that does not parse is a user_error naming file and line.
// Files ending in .gz are read through gzip.
// Lines of other kinds (plans) are skipped by read_dataset and read by read_plan_dataset.
std::vector<DatasetRecord> read_dataset(const std::vector<std::string> &paths);
std::vector<PlanRecord> read_plan_dataset(const std::vector<std::string> &paths);

// The labels of the records in an uncompressed dataset file (empty when it does not exist):
// the collectors skip what is already there, so an interrupted collection resumes.
std::set<std::string> dataset_labels(const std::string &path);

}  // namespace diet
