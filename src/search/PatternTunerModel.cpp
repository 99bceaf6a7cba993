// PatternTuner's cost model (DietCode's joint f_MK * f_occ * f_pad): predictions, retraining on
// the measurements, the model file (warm start, save) and the quality figures of the report.
#include "search/PatternTuner.h"
#include "common/Errors.h"

#include "cost/Adaptation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

double PatternTuner::predicted_throughput(size_t k, size_t s) {
    return predicted_throughputs({k}, {ext_.host_extents[s]}, {flops_[s]})[0];
}

double PatternTuner::heuristic_throughput(size_t k, const std::vector<int64_t> &extents) const {
    // Before the model has data: the analytic heuristic, in arbitrary units (named prior).
    return heuristic_score(space_[k], extents_at_one_shape(ext_, extents), workers_);
}

std::vector<double> PatternTuner::prior_throughputs(const std::vector<size_t> &ks,
                                                    const std::vector<std::vector<int64_t>> &extents,
                                                    const std::vector<double> &flops) const {
    // The shipped model, else the analytic heuristic (in its own units). Also the heuristic where an
    // operand's vectors are gathers (OperandMotion::gathered: a strided convolution): the shipped
    // model's training forms have none and its features count loads, not gathers. Scaled by the
    // gathers' load ratio, its ranking still took 7-row tiles over 32 channels on AVX2, where
    // 8 rows ran 1.36x faster by hand (apps/results/cpu/gathered_vector_operand_2026-12-03/).
    if (!base_ || any_gathered_operand(ext_)) {
        std::vector<double> out;
        for (size_t i = 0; i < ks.size(); i++) out.push_back(heuristic_throughput(ks[i], extents[i]));
        return out;
    }
    std::vector<KernelAtShape> in;
    for (size_t i = 0; i < ks.size(); i++) in.push_back(at_shape(ks[i], extents[i], flops[i]));
    return base_->predict(in);
}

std::vector<double> PatternTuner::predicted_throughputs(const std::vector<size_t> &ks,
                                                        const std::vector<std::vector<int64_t>> &extents,
                                                        const std::vector<double> &flops) {
    // Before the model has data: the prior (the shipped model, else the heuristic).
    if (!model_.trained()) return prior_throughputs(ks, extents, flops);
    std::vector<FeatureRows> programs;
    for (size_t i = 0; i < ks.size(); i++) programs.push_back(rows_for(ks[i], extents[i], flops[i]));
    std::vector<float> scores = model_.predict(programs);
    std::vector<double> out;
    for (size_t i = 0; i < ks.size(); i++) {
        out.push_back(throughput_of_label(scores[i] * label_scale_) *
                      adaptation_for(opts_.model_features, ks[i], extents[i]));
    }
    return out;
}

double PatternTuner::adaptation_for(const std::string &kind, size_t k, const std::vector<int64_t> &e) const {
    return kind == "kernel" ? 1.0 : adaptation(k, e);
}

double PatternTuner::adaptation(size_t k, const std::vector<int64_t> &e) const {
    return occupancy(kernel_instances(space_[k], e), workers_, occupancy_k_) * kernel_padding_efficiency(space_[k], e);
}

double PatternTuner::top1_within_10_percent() {
    std::map<size_t, std::vector<std::pair<size_t, double>>> at;  // shape -> (kernel, seconds)
    for (const auto &[key, secs] : measured_) {
        if (secs) at[key.second].emplace_back(key.first, *secs);
    }
    int shapes = 0, hits = 0;
    for (const auto &[s, ks] : at) {
        if (ks.size() < 2) continue;
        double best = INFINITY, pred_best = -1, pred_secs = 0;
        for (auto [k, secs] : ks) {
            best = std::min(best, secs);
            double p = predicted_throughput(k, s);
            if (p > pred_best) {
                pred_best = p;
                pred_secs = secs;
            }
        }
        shapes++;
        hits += pred_secs <= 1.1 * best;
    }
    return shapes ? (double)hits / shapes : -1.0;
}

ModelQuality PatternTuner::held_out_quality(size_t min_trained) const {
    std::vector<size_t> shape;
    std::vector<double> pred, meas, flops;
    for (const HeldOut &h : held_out_) {
        if (h.trained_on < min_trained) continue;
        shape.push_back(h.shape);
        pred.push_back(h.predicted);
        meas.push_back(h.measured);
        flops.push_back(flops_[h.shape]);
    }
    return quality_of(shape, pred, meas, flops);
}

ModelQuality PatternTuner::cross_validated_quality(int folds, uint64_t seed) {
    return cross_validated_quality(folds, seed, opts_.model_features, objective_from_name(opts_.model_objective));
}

ModelQuality PatternTuner::cross_validated_quality(int folds, uint64_t seed, const std::string &kind,
                                                   Objective objective) {
    std::vector<std::pair<size_t, size_t>> pairs;
    std::vector<double> meas;
    std::vector<FeatureRows> rows;
    for (const auto &[key, secs] : measured_) {
        if (!secs) continue;
        FeatureRows r = rows_of(kind, key.first, ext_.host_extents[key.second], flops_[key.second]);
        if (r.empty()) continue;
        pairs.push_back(key);
        meas.push_back(flops_[key.second] / *secs);
        rows.push_back(std::move(r));
    }
    std::vector<float> labels;
    std::vector<size_t> groups;
    for (size_t i = 0; i < pairs.size(); i++) {
        auto [k, s] = pairs[i];
        labels.push_back((float)label_of_throughput(meas[i] / adaptation_for(kind, k, ext_.host_extents[s])));
        groups.push_back(s);
    }
    std::vector<double> scores = cross_validated_scores(rows, labels, groups, folds, seed, model_params(objective));
    if (scores.empty()) return {};
    std::vector<double> pred(pairs.size());
    for (size_t i = 0; i < pairs.size(); i++) {
        auto [k, s] = pairs[i];
        pred[i] = throughput_of_label(scores[i]) * adaptation_for(kind, k, ext_.host_extents[s]);
    }
    std::vector<size_t> shape;
    std::vector<double> flops;
    for (auto [k, s] : pairs) {
        shape.push_back(s);
        flops.push_back(flops_[s]);
    }
    return quality_of(shape, pred, meas, flops);
}

void PatternTuner::warm_start(const std::string &path, const std::string &pipeline, const std::string &target) {
    ModelFile f = inspect_model_file(path, pipeline, target);
    std::string why;
    if (f.state == ModelFile::Missing) {
        std::cerr << "[diet] no cost model at " << path << " yet; starting from the heuristic\n";
    } else if (f.state != ModelFile::Usable) {
        std::cerr << "[diet] warning: the cost model file " << path << " is rejected: it is " << f.why
                  << "; starting from the heuristic (the file will not be overwritten)\n";
    } else if (f.info.features != opts_.model_features) {
        std::cerr << "[diet] warning: the cost model file " << path << " is rejected: it reads " << f.info.features
                  << " features, this run uses " << opts_.model_features
                  << " (HL_DIET_MODEL_FEATURES); starting from the heuristic (the file will not be overwritten)\n";
    } else if (model_.load(path, &why)) {
        label_scale_ = model_.info().label_scale > 0 ? model_.info().label_scale : 1.0;
        std::cerr << "[diet] cost model loaded from " << path << " (trained on " << model_.info().trained_on
                  << " measurements)\n";
    } else {
        std::cerr << "[diet] warning: the cost model file " << path << " is rejected (" << why
                  << "); starting from the heuristic\n";
    }
}

void PatternTuner::save_model(const std::string &path, const std::string &pipeline, const std::string &target) {
    if (!model_.trained() || trained_on_ == 0) return;
    ModelInfo info;
    info.format = kModelFormat;
    info.pipeline = pipeline;
    info.target = target;
    info.trained_on = (int64_t)trained_on_;
    info.label_scale = label_scale_;
    info.features = opts_.model_features;
    info.tool_version = kToolVersion;
    model_.set_info(info);
    std::string message;
    save_model_with_policy(model_, path, &message);
    std::cerr << "[diet] " << message << "\n";
}

void PatternTuner::retrain(const std::set<size_t> &only_shapes) {
    auto t0 = Clock::now();
    std::vector<FeatureRows> programs;
    std::vector<float> labels;
    std::vector<size_t> groups;
    std::map<size_t, std::vector<std::pair<double, double>>> by_kernel;  // k -> (wave efficiency, FLOP/s)
    for (const auto &[key, secs] : measured_) {
        if (!secs || (!only_shapes.empty() && !only_shapes.count(key.second))) continue;
        auto [k, s] = key;
        const auto &e = ext_.host_extents[s];
        const int64_t g = kernel_instances(space_[k], e);
        const double u = (double)g / (double)(((g + workers_ - 1) / workers_) * workers_);
        const double throughput = flops_[s] / *secs;
        by_kernel[k].emplace_back(u, throughput);
        const double adapt = opts_.model_features == "kernel"
                                 ? 1.0
                                 : occupancy(g, workers_, occupancy_k_) * kernel_padding_efficiency(space_[k], e);
        FeatureRows rows = rows_at(k, s);
        if (rows.empty()) continue;
        programs.push_back(rows);
        labels.push_back((float)label_of_throughput(throughput / adapt));
        groups.push_back(s);
    }
    std::vector<OccupancySample> occ;
    for (const auto &[k, obs] : by_kernel) {
        if (obs.size() < 2) continue;
        double best = 0;
        for (auto [u, t] : obs) best = std::max(best, t / std::max(u, 1e-9));
        for (auto [u, t] : obs) occ.push_back({u, t / best});
    }
    occupancy_k_ = fit_occupancy_k(occ);
    if (programs.size() >= 4) {
        label_scale_ = 0;
        for (float l : labels) label_scale_ = std::max(label_scale_, (double)l);
        model_.train(programs, labels, groups);
        trained_on_ = model_.trained() ? programs.size() : 0;
    }
    model_seconds_ += seconds_since(t0);
}

}  // namespace diet
