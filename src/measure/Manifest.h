// Batch mode's files. A build machine writes a directory of compiled candidates and
// `manifest.json` (Batch.h); the standalone runner (apps/diet_runner.cpp), on a machine without
// Halide, measures them and writes `results.json`; the build machine imports the results as
// tuning-log records. Library paths are relative to the directory, so it can be copied anywhere.
// Runtime-only.
#pragma once

#include "measure/Arguments.h"
#include "measure/Runner.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace diet {

constexpr const char *kManifestFormat = "diet-batch/1";
constexpr const char *kResultsFormat = "diet-batch-results/1";

struct BatchShape {
    std::map<std::string, int64_t> shape;
    std::vector<ArgSpec> args;      // inputs, scalars and outputs at this shape
    std::string reference_library;  // relative to the batch directory
    std::string reference_symbol;
    std::string reference_error;  // set when the reference did not build
};

struct BatchEntry {
    std::string id;            // unique in the batch: "c0", "c1", ...
    std::string micro_kernel;  // Candidate::describe()
    std::string features_digest;
    int shape_index = 0;          // into BatchManifest::shapes
    std::string library, symbol;  // library relative to the batch directory; empty when the build failed
    std::string build_error;
};

struct BatchManifest {
    std::string tool_version;
    std::string pipeline;  // fingerprint
    std::string target;    // of the candidates
    bool cuda = false;
    TimingPolicy timing;
    double timeout_seconds = 10;
    bool cold_l2 = false;
    uint64_t seed = 0;
    std::vector<BatchShape> shapes;
    std::vector<BatchEntry> entries;
};

nlohmann::json manifest_to_json(const BatchManifest &m);
bool manifest_from_json(const nlohmann::json &j, BatchManifest *m, std::string *why);

struct BatchResult {
    std::string id;
    Outcome outcome;
};
nlohmann::json results_to_json(const std::vector<BatchResult> &results, const std::string &machine);
bool results_from_json(const nlohmann::json &j, std::vector<BatchResult> *results, std::string *why);

// Reads a JSON file; false and *why when missing or malformed.
bool read_json_file(const std::string &path, nlohmann::json *j, std::string *why);
// Writes `path` through a temporary file and rename(2): readers see the old or the new file whole.
bool write_json_file(const std::string &path, const nlohmann::json &j, std::string *why);

struct TuningRecord;
// The tuning record of one manifest entry with its outcome (local import and farm import alike).
TuningRecord record_of(const BatchManifest &m, const BatchEntry &e, const Outcome &o);

}  // namespace diet
