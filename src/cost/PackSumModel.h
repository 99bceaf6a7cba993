// f_MK: an XGBoost model of a micro-kernel's throughput from its per-store feature rows, trained
// as Ansor does ("pack-sum"): every row of a program is one XGBoost sample, a program's score is
// the sum of its rows' predictions, and the loss is squared error on that sum weighted by the label
// (fast programs matter most), implemented as a custom objective through the C API.
//
// Model files (HL_DIET_MODEL, issue 7). A saved model is a plain XGBoost model file (the format
// follows the extension: ".json", ".ubj", else binary) whose attributes say what it is: Diet's model
// format (kModelFormat), the pipeline fingerprint and target it was trained for, how many measured
// programs trained it, its label scale and the tool version. The policy (inspect_model_file,
// save_model_with_policy):
//  - warm start: only a Diet model of this format, pipeline and target is loaded; a file that is
//    not an XGBoost model (corrupt, truncated), an XGBoost model without Diet's attributes
//    (another program's, or an older Diet's), another model format, or another pipeline or target
//    is rejected with a message, and tuning starts from the heuristic;
//  - saving never puts less in a file than it held: the model replaces the file only when the file
//    is missing, or is a usable model (this format, pipeline and target) trained on at most as
//    many programs. Otherwise the file is left byte for byte as it was and the model goes to the
//    sibling file (model.json -> model.diet-new.json), under the same rule, with a warning naming
//    both; when the sibling may not be replaced either, nothing is written (warning).
//  - writes are atomic: a temporary file in the same directory (its name has the writer's pid),
//    fsync'ed, then renamed over the target; a killed writer leaves at most that temporary.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace diet {

// One program (a micro-kernel instance): its feature rows, all of the same width.
using FeatureRows = std::vector<std::vector<float>>;

// Version of the model file's contents (features, labels, attributes): a file of another format is
// never used nor overwritten.
constexpr int kModelFormat = 1;

// What a model file says about itself (XGBoost attributes "diet_*").
struct ModelInfo {
    int format = 0;            // 0: no Diet attributes (not a Diet model)
    std::string pipeline;      // pipeline fingerprint (measure/Fingerprint.h)
    std::string target;        // Target::to_string()
    int64_t trained_on = 0;    // measured programs it was trained on
    double label_scale = 1.0;  // labels were divided by this before training
    std::string tool_version;
    std::string objective = "regression";  // objective_name() of what trained it
    std::string features = "ansor";        // which features it reads (the tuner's model_features)
};

// What training minimizes.
//  Regression:   Ansor's label-weighted squared error of each program's pack-sum score against
//                its label (a throughput on some scale): the score is a throughput estimate.
//  PairwiseRank: the logistic loss of every ordered pair of programs within one group (one shape):
//                P(i faster than j) = sigmoid(score_i - score_j), each pair weighted by how far apart
//                their labels are. Only the order within a group is learned, which is what the search
//                and the dispatch use; scores are then mapped back to the label scale by a least-
//                squares line fitted on the training programs (monotone, so the order is kept), so
//                that predictions read as labels either way.
enum class Objective { Regression, PairwiseRank };
const char *objective_name(Objective o);
Objective objective_from_name(const std::string &name);  // user_error when unknown

struct PackSumModelParams {
    Objective objective = Objective::Regression;
    int max_depth = 10;
    double eta = 0.2;
    double gamma = 0.001;
    double min_child_weight = 0;
    int rounds = 200;            // boosting rounds (Ansor stops early on training RMSE; see train())
    int early_stop_rounds = 50;  // stop when the pack-sum RMSE has not improved for this many rounds
    int warmup_programs = 0;     // below this many training programs, predict() returns seeded noise
    uint64_t seed = 43;
    int threads = 1;
};

class PackSumModel {
public:
    explicit PackSumModel(PackSumModelParams p = {});
    ~PackSumModel();
    PackSumModel(const PackSumModel &) = delete;
    PackSumModel &operator=(const PackSumModel &) = delete;

    // Retrains from scratch on the programs and their labels (larger = better, e.g. throughput).
    // groups[i]: the group (shape) of program i, for PairwiseRank (empty: one group).
    void train(const std::vector<FeatureRows> &programs, const std::vector<float> &labels,
               const std::vector<size_t> &groups = {});
    // Predicted score of each program (the sum over its rows).
    std::vector<float> predict(const std::vector<FeatureRows> &programs) const;
    bool trained() const { return booster_ != nullptr; }
    int rounds_used() const { return rounds_used_; }

    // Saved atomically (a temporary file renamed over the target), with info() as attributes
    // (format set to kModelFormat). Use save_model_with_policy() to write a user's file. load()
    // returns false, with the reason in *why, for a missing or unreadable file and leaves the model
    // untouched; it loads any XGBoost model and sets info() from its attributes (format 0 when it
    // has none).
    void save(const std::string &path) const;
    bool load(const std::string &path, std::string *why);
    const ModelInfo &info() const { return info_; }
    void set_info(const ModelInfo &i) { info_ = i; }

private:
    PackSumModelParams params_;
    void *booster_ = nullptr;  // BoosterHandle
    int rounds_used_ = 0;
    size_t training_programs_ = 0;
    double calibration_a_ = 1.0, calibration_b_ = 0.0;  // label = a * score + b (PairwiseRank)
    ModelInfo info_;
    void reset();
};

// What a model file holds, for a pipeline and target, without using it.
struct ModelFile {
    enum State {
        Missing,     // no file
        Unreadable,  // not an XGBoost model: corrupt, truncated, another kind of file
        Foreign,     // an XGBoost model, but not Diet's, of another format, pipeline or target
        Usable       // a Diet model of this format, pipeline and target
    } state = Missing;
    ModelInfo info;
    std::string why;  // for Unreadable and Foreign
};
ModelFile inspect_model_file(const std::string &path, const std::string &pipeline, const std::string &target);

// Where a model goes when `path` may not be replaced: model.json -> model.diet-new.json.
std::string model_sibling_path(const std::string &path);

// Saves `m` (its info() names pipeline, target and trained_on) under the policy above. Returns the
// path written, "" when none; *message says what was done and why (a warning when the model did not
// go to `path`).
std::string save_model_with_policy(const PackSumModel &m, const std::string &path, std::string *message);

// Kendall's tau-b between two score lists (rank agreement, in [-1, 1]).
double kendall_tau(const std::vector<double> &a, const std::vector<double> &b);

}  // namespace diet
