// f_MK: an XGBoost model of a micro-kernel's throughput from its per-store feature rows, trained
// as Ansor does ("pack-sum"): every row of a program is one XGBoost sample, a program's score is
// the sum of its rows' predictions, and the loss is squared error on that sum weighted by the label
// (fast programs matter most), implemented as a custom objective through the C API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace diet {

// One program (a micro-kernel instance): its feature rows, all of the same width.
using FeatureRows = std::vector<std::vector<float>>;

struct PackSumModelParams {
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
    void train(const std::vector<FeatureRows> &programs, const std::vector<float> &labels);
    // Predicted score of each program (the sum over its rows).
    std::vector<float> predict(const std::vector<FeatureRows> &programs) const;
    bool trained() const { return booster_ != nullptr; }
    int rounds_used() const { return rounds_used_; }

    // Saved atomically (a temporary file renamed over the target). load() returns false, with the
    // reason in *why, for a missing or unreadable file and leaves the model untouched.
    void save(const std::string &path) const;
    bool load(const std::string &path, std::string *why);

private:
    PackSumModelParams params_;
    void *booster_ = nullptr;  // BoosterHandle
    int rounds_used_ = 0;
    size_t training_programs_ = 0;
    void reset();
};

// Kendall's tau-b between two score lists (rank agreement, in [-1, 1]).
double kendall_tau(const std::vector<double> &a, const std::vector<double> &b);

}  // namespace diet
