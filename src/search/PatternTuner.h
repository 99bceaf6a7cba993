// The tuner of one matmul-like stage: its micro-kernel space, its cost model, its measurements.
// search/Tuner.cpp makes one per stage and drives it; the class is split by concern:
//   PatternTuner.cpp         the search over the space, featurization, measurement bookkeeping
//   PatternTunerModel.cpp    the cost model: predictions, retraining, warm start / save, quality
//   PatternTunerDispatch.cpp the shape dispatch over the family and its verification
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "cost/BaseModel.h"
#include "cost/Dataset.h"
#include "cost/PackSumModel.h"
#include "dispatch/Dispatch.h"
#include "features/KernelFeatures.h"
#include "features/Lowering.h"
#include "measure/Measure.h"
#include "measure/TuningLog.h"
#include "options/Options.h"
#include "schedule/ApplySchedule.h"
#include "schedule/Instantiate.h"
#include "search/Evolution.h"
#include "search/ModelTraining.h"
#include "space/Hardware.h"
#include "space/MicroKernel.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace diet {

// Floating-point work of the matmul-like stage at one shape: 2 * outputs * reduction points.
double stage_flops(const MatmulPattern &p, const std::vector<int64_t> &host_extents, const ShapeBinding &b);

// What is known of each (kernel, training shape) pair measured so far: its median seconds, or
// nothing when it failed (indices into the space and into the training shapes).
using MeasuredTimes = std::map<std::pair<size_t, size_t>, std::optional<double>>;

class PatternTuner {
public:
    PatternTuner(const std::vector<Halide::Internal::Function> &outputs, const std::vector<KernelChoice> &current,
                 size_t which, const std::vector<Shape> &training, const std::vector<ShapeBinding> &bindings,
                 const MatmulExtents &ext, const std::vector<MicroKernel> &space, const Halide::Target &target,
                 const CpuLimits &cpu, int workers, const Options &opts, Measurer *measurer,
                 const std::map<std::string, TuningRecord> *logged);

    const MatmulPattern &pattern() const { return current_[which_].pattern; }

    // Searches over the shapes `shape_ids` (indices into the training shapes) with `budget`
    // measurements; returns the best kernel for each of those shapes.
    SearchResult search(const std::vector<size_t> &shape_ids, const std::vector<double> &weights, int budget,
                        uint64_t seed);

    // `budget` uniformly drawn (kernel, training shape) pairs, measured in rounds of 8 (mode random);
    // the best measured kernel per shape (the heuristic's where a shape got none).
    SearchResult random_search(int budget, uint64_t seed);

    // Throughput the model expects of kernel k at training shape s (FLOP/s).
    double predicted_throughput(size_t k, size_t s);

    // The model's throughput (FLOP/s) of kernel ks[i] at an output of extents[i] with flops[i] of
    // work, for any shape (the dispatch asks at every shape of the family): this run's model, else
    // the shipped one, else the analytic heuristic (in its own units).
    std::vector<double> predicted_throughputs(const std::vector<size_t> &ks,
                                              const std::vector<std::vector<int64_t>> &extents,
                                              const std::vector<double> &flops);
    // What the untuned run ranks with: the shipped model, else the heuristic (never this run's model).
    std::vector<double> prior_throughputs(const std::vector<size_t> &ks, const std::vector<std::vector<int64_t>> &extents,
                                          const std::vector<double> &flops) const;

    bool model_trained() const { return model_.trained(); }
    // The shipped model (cost/BaseModel.h): predicts until this run's model is trained.
    void set_base_model(const BaseModel *m) { base_ = m; }
    // Nothing measured and no model at all (trials = 0, no shipped model): the analytic
    // heuristic predicts per shape, so that the dispatch can still give each range of shapes
    // the kernel the heuristic prefers there (one kernel for all would be the average's choice).
    void set_heuristic_predictions(bool on) { heuristic_predictions_ = on; }
    bool can_predict() const { return model_.trained() || base_ != nullptr || heuristic_predictions_; }
    const std::string &model_features() const { return opts_.model_features; }
    bool on_gpu() const { return target_.has_gpu_feature(); }

    // f_occ * f_pad of kernel k at an output of these extents.
    double adaptation(size_t k, const std::vector<int64_t> &e) const;
    // The register-tile intensity heuristic's score of kernel k at these extents.
    double heuristic_throughput(size_t k, const std::vector<int64_t> &extents) const;
    // The heuristic's best kernel of each kind at each of these shapes (the search's seeds).
    std::vector<size_t> heuristic_seeds(const std::vector<size_t> &shape_ids) const;

    std::optional<double> seconds_of(size_t k, size_t s) const;

    double flops(size_t s) const { return flops_[s]; }

    // Model quality per shape: among the kernels measured at a shape, is the one the model ranks
    // first within 10% of the measured best? Returns the fraction of shapes where it is (shapes
    // with fewer than two measured kernels are left out), -1 when none qualifies.
    double top1_within_10_percent();
    double model_seconds() const { return model_seconds_; }
    void add_model_seconds(double s) { model_seconds_ += s; }
    double measure_seconds() const { return measure_seconds_; }
    double occupancy_k() const { return occupancy_k_; }
    int measurements() const { return measurements_; }
    int log_hits() const { return log_hits_; }
    // Quality of the held-out predictions made by models trained on at least `min_trained` programs
    // (each measurement predicted before the model saw it).
    ModelQuality held_out_quality(size_t min_trained) const;

    // k-fold cross-validation over all of this run's measurements: each fold predicted by a model
    // trained, the same way, on the others. Deterministic (folds by a seeded shuffle). By default
    // with this run's features and objective; `features` ("kernel", "ansor") and `objective` ask
    // for another model (the report compares them; "ansor" lowers every measured kernel).
    ModelQuality cross_validated_quality(int folds, uint64_t seed);
    ModelQuality cross_validated_quality(int folds, uint64_t seed, const std::string &features, Objective objective);
    size_t trained_on() const { return trained_on_; }
    // Warm start (HL_DIET_MODEL): only a Diet model of this format, pipeline and target is used
    // (cost/PackSumModel.h); anything else is rejected with a message, and later left as it is.
    void warm_start(const std::string &path, const std::string &pipeline, const std::string &target);
    // Saved under the policy of cost/PackSumModel.h, when this run trained it.
    void save_model(const std::string &path, const std::string &pipeline, const std::string &target);

    // The shape dispatch of this stage (dispatch/Dispatch.h). Candidates: the kernels measured
    // at least once (featurized, and known to build and be correct). Every shape of the family votes
    // with measured times where it is a training shape, the model's elsewhere. With `verify`, a
    // training shape whose dispatched kernel is unmeasured there is measured, and one whose
    // dispatched kernel is more than 10% slower than its best measured kernel gets that kernel.
    // `unmeasured`: more candidates, predicted only (with no measurement at all: the shipped model's
    // per-shape favourites).
    Dispatch dispatch(const std::vector<Shape> &shapes, const std::vector<std::vector<int64_t>> &extents,
                      const std::vector<double> &flops, size_t max_kernels, bool verify, nlohmann::json *rep,
                      const std::vector<size_t> &unmeasured = {});
    int verification_measurements() const { return verification_measurements_; }
    // Retrains the model on every measurement of this stage.
    void learn_from_everything() { retrain(); }

private:
    const std::vector<Halide::Internal::Function> &outputs_;
    std::vector<KernelChoice> current_;
    size_t which_;
    const std::vector<Shape> &training_;
    const std::vector<ShapeBinding> &bindings_;
    const MatmulExtents &ext_;
    const std::vector<MicroKernel> &space_;
    Halide::Target target_;
    CpuLimits cpu_;
    int workers_;
    Options opts_;
    Measurer *measurer_;
    const std::map<std::string, TuningRecord> *logged_;

    std::vector<double> flops_;
    std::map<size_t, FeatureRows> features_;
    ContractionSummary contraction_;  // for the loop-nest features and the dataset
    const BaseModel *base_ = nullptr;
    bool heuristic_predictions_ = false;
    KernelAtShape at_shape(size_t k, const std::vector<int64_t> &extents, double flops) const;
    MachineSummary machine_;
    MeasuredTimes measured_;
    PackSumModel model_;
    double label_scale_ = 1.0;
    double occupancy_k_ = 1.0;
    double model_seconds_ = 0, measure_seconds_ = 0;
    int measurements_ = 0, log_hits_ = 0, verification_measurements_ = 0;
    struct HeldOut {
        size_t shape;
        double predicted, measured;  // throughput, predicted before the model saw this measurement
        size_t trained_on;           // programs the predicting model was trained on
    };
    std::vector<HeldOut> held_out_;
    size_t trained_on_ = 0;

    Candidate candidate(size_t k, size_t s) const;

    // Where a kernel is featurized: the training shape where its adaptation penalty is smallest
    // (DietCode's cherry-picked instance), the larger shape on ties.
    size_t cherry_pick(size_t k) const;

    const FeatureRows &features(size_t k);
    double featurize_seconds_ = 0;
    int featurized_ = 0;

public:
    // Featurization cost so far: seconds and programs featurized (kernel x shape rows built).
    double featurize_seconds() const { return featurize_seconds_; }
    int featurized() const { return featurized_; }

private:
    // The program's rows for the model with `kind` features: "ansor", the kernel's shape-generic
    // Stmt features plus the shape's context; "kernel", one row of loop-nest features at the shape.
    FeatureRows rows_of(const std::string &kind, size_t k, const std::vector<int64_t> &extents, double flops);
    // The factor that model's predictions are multiplied by: f_occ * f_pad for "ansor" (DietCode's
    // decomposition, its features describe one task), 1 for "kernel" (they include the shape).
    double adaptation_for(const std::string &kind, size_t k, const std::vector<int64_t> &e) const;

    // The kernel's shape-generic rows with the shape's context appended to each (log2p of the
    // output extents, of the micro-kernel instances and of the work). The generic features
    // describe one task; on the CPU a task also loops over all rows, and how much work a task has
    // decides how well it amortizes its panel copy and its weight traffic: the context lets the one
    // joint model learn that, which f_occ and f_pad alone do not capture.
    FeatureRows rows_for(size_t k, const std::vector<int64_t> &extents, double flops) {
        return rows_of(opts_.model_features, k, extents, flops);
    }
    FeatureRows rows_at(size_t k, size_t s) { return rows_for(k, ext_.host_extents[s], flops_[s]); }

    DatasetRecord dataset_record(size_t k, size_t s, std::optional<double> seconds) const;
    std::string fingerprint_;  // of the pipeline, for the dataset

public:
    void set_fingerprint(const std::string &f) { fingerprint_ = f; }

private:
    std::vector<std::optional<double>> measure_pairs(const std::vector<std::pair<size_t, size_t>> &pairs);

    // Labels: the micro-kernel's own throughput, the adaptation terms divided out. All trials of all
    // shapes train one model (joint learning); k of f_occ is refitted from kernels measured at
    // several shapes.
    void retrain(const std::set<size_t> &only_shapes = {});
};

}  // namespace diet
