#include "search/TunerReport.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

namespace diet {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

nlohmann::json run_report_header(const Options &opts, const Halide::Target &target, int workers,
                                 const std::vector<Shape> &training, const std::vector<double> &weights) {
    nlohmann::json report;
    report["mode"] = opts.mode;
    report["trials_budget"] = opts.trials;
    report["target"] = target.to_string();
    report["workers"] = workers;
    for (const Shape &s : training) report["training_shapes"].push_back(ShapeFamily::to_string(s));
    report["training_weights"] = weights;
    return report;
}

void add_stage_results(nlohmann::json &pr, PatternTuner &tuner, const std::string &stage,
                       const std::vector<MicroKernel> &space, size_t chosen, const std::vector<size_t> &best,
                       const std::vector<double> &best_time, const Dispatch &dispatch, const MatmulExtents &ext,
                       const std::vector<Shape> &training, uint64_t seed) {
    pr["stage"] = stage;
    pr["space_size"] = space.size();
    pr["chosen"] = space[chosen].to_string();
    pr["measurements"] = tuner.measurements();
    pr["verification_measurements"] = tuner.verification_measurements();
    pr["log_hits"] = tuner.log_hits();
    pr["fitted_k"] = tuner.occupancy_k();
    // Model quality on measurements it had not seen: each measurement as predicted before the
    // model was trained on it (all rounds, and models trained on at least half of this run's
    // data), and an 8-fold cross-validation over all of this run's measurements at the end.
    pr["model_quality_held_out"] = tuner.held_out_quality(0).to_json();
    pr["model_quality_held_out_late"] = tuner.held_out_quality(std::max<size_t>(1, tuner.trained_on() / 2)).to_json();
    {
        const auto t0 = Clock::now();
        pr["model_quality_cross_validated"] = tuner.cross_validated_quality(8, seed).to_json();
        tuner.add_model_seconds(seconds_since(t0));
        // The same cross-validation for every features x objective pair the tuner offers (what
        // chose the defaults); the Ansor features only when this run computed them anyway.
        nlohmann::json variants;
        for (const std::string kind : {"kernel", "ansor"}) {
            if (kind == "ansor" && tuner.model_features() != "ansor") continue;
            if (kind == "kernel" && tuner.on_gpu()) continue;  // loop-nest features describe CPU kernels only
            for (Objective o : {Objective::PairwiseRank, Objective::Regression}) {
                variants[kind + "/" + objective_name(o)] = tuner.cross_validated_quality(8, seed, kind, o).to_json();
            }
        }
        pr["model_quality_cross_validated_variants"] = variants;
    }
    pr["featurize_seconds"] = tuner.featurize_seconds();
    pr["featurized_programs"] = tuner.featurized();
    pr["predicted_best_within_10_percent"] = tuner.top1_within_10_percent();
    pr["seconds_measuring"] = tuner.measure_seconds();
    pr["seconds_model"] = tuner.model_seconds();
    for (size_t s = 0; s < training.size(); s++) {
        nlohmann::json js;
        js["shape"] = ShapeFamily::to_string(training[s]);
        js["best_kernel"] = space[best[s]].to_string();
        js["best_seconds"] = best_time[s];
        const MicroKernel &runs =
            dispatch.empty() ? space[chosen] : dispatch.leaves[dispatch.leaf_for(ext.host_extents[s])].kernel;
        js["dispatched_kernel"] = runs.to_string();
        for (size_t k = 0; k < space.size(); k++) {
            if (!(space[k] == runs)) continue;
            if (auto m = tuner.seconds_of(k, s)) js["dispatched_measured_seconds"] = *m;
            double thr = tuner.predicted_throughput(k, s);
            if (thr > 0 && tuner.model_trained()) js["dispatched_predicted_seconds"] = tuner.flops(s) / thr;
        }
        pr["shapes"].push_back(js);
    }
}

void print_stage_summary(const std::string &stage, const PatternTuner &tuner, const MicroKernel &chosen,
                         const Dispatch &dispatch) {
    std::cerr << "[diet] tune " << stage << ": "
              << (dispatch.empty() ? "one kernel for every shape: " + chosen.to_string()
                                   : std::to_string(dispatch.leaves.size()) + " dispatch leaves over " +
                                         std::to_string(dispatch.kernel_count()) + " kernel(s)")
              << " after " << tuner.measurements() << " measurement(s) (" << tuner.verification_measurements()
              << " verifying the dispatch), " << tuner.log_hits() << " from the log; fitted k = " << tuner.occupancy_k()
              << "\n";
    for (const DispatchLeaf &l : dispatch.leaves) {
        std::cerr << "[diet]   " << l.kernel.to_string() << " for " << l.covers << "\n";
    }
}

void add_time_split(nlohmann::json &report, double seconds_compiling) {
    double measuring = 0, model = 0;
    for (const auto &st : report["stages"]) {
        measuring += st.value("seconds_measuring", 0.0);
        model += st.value("seconds_model", 0.0);
    }
    report["seconds_compiling"] = seconds_compiling;
    report["seconds_running"] = std::max(0.0, measuring - seconds_compiling);
    report["seconds_model"] = model;
}

std::string best_ms_per_shape(const MeasuredTimes &measured, const std::vector<Shape> &training) {
    std::map<size_t, double> best;
    for (const auto &[key, secs] : measured) {
        if (secs && (!best.count(key.second) || *secs < best[key.second])) best[key.second] = *secs;
    }
    std::string s = "; best ms per shape:";
    for (const auto &[shape, secs] : best) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " %s=%.3f", ShapeFamily::to_string(training[shape]).c_str(), secs * 1e3);
        s += buf;
    }
    return s;
}

}  // namespace diet
