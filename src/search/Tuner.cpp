#include "search/Tuner.h"
#include "common/Errors.h"

#include "cost/Adaptation.h"
#include "cost/PackSumModel.h"
#include "features/Features.h"
#include "features/Lowering.h"
#include "measure/Fingerprint.h"
#include "measure/Measure.h"
#include "measure/TuningLog.h"
#include "schedule/Instantiate.h"
#include "search/Evolution.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <map>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

Pipeline as_pipeline(const std::vector<Function> &outputs) {
    std::vector<Func> fs;
    for (const Function &f : outputs) fs.emplace_back(f);
    return Pipeline(fs);
}

// FNV-1a over the feature values: the record's features digest (a model can be retrained from a log
// only with the same features).
std::string digest(const FeatureRows &rows) {
    uint64_t h = 1469598103934665603ull;
    for (const auto &r : rows) {
        for (float v : r) {
            uint32_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            for (int b = 0; b < 4; b++) h = (h ^ ((bits >> (8 * b)) & 0xff)) * 1099511628211ull;
        }
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
    return buf;
}

// Floating-point work of the matmul-like stage at one shape: 2 * outputs * reduction points.
double stage_flops(const MatmulPattern &p, const std::vector<int64_t> &host_extents, const ShapeBinding &b) {
    double points = 2.0;
    for (int64_t e : host_extents) points *= (double)e;
    for (const LoopVar &r : p.reduction) {
        std::optional<int64_t> e = constant_value(bind_to_shape(r.extent, b));
        points *= e ? (double)*e : 1.0;
    }
    return points;
}

struct PatternTuning {
    size_t kernel = 0;
    nlohmann::json report;
    int measurements = 0;
};

class PatternTuner {
public:
    PatternTuner(const std::vector<Function> &outputs, const std::vector<KernelChoice> &current, size_t which,
                 const std::vector<Shape> &training, const std::vector<ShapeBinding> &bindings,
                 const MatmulExtents &ext, const std::vector<MicroKernel> &space, const Target &target,
                 const CpuLimits &cpu, int workers, const Options &opts, Measurer *measurer,
                 const std::map<std::string, TuningRecord> *logged)
        : outputs_(outputs), current_(current), which_(which), training_(training), bindings_(bindings), ext_(ext),
          space_(space), target_(target), cpu_(cpu), workers_(workers), opts_(opts), measurer_(measurer),
          logged_(logged) {
        for (size_t s = 0; s < training.size(); s++) {
            flops_.push_back(stage_flops(pattern(), ext.host_extents[s], bindings[s]));
        }
    }

    const MatmulPattern &pattern() const { return current_[which_].pattern; }

    // Searches over the shapes `shape_ids` (indices into the training shapes) with `budget`
    // measurements; returns the best kernel for each of those shapes.
    SearchResult search(const std::vector<size_t> &shape_ids, const std::vector<double> &weights, int budget,
                        uint64_t seed) {
        SearchParams sp;
        sp.budget = budget;
        sp.seed = seed;
        sp.population = 32;
        sp.generations = 3;
        sp.measures_per_round = std::max(1, std::min(8, budget));
        Predict predict = [&](const std::vector<size_t> &ks) {
            auto t0 = Clock::now();
            std::vector<std::vector<double>> out;
            for (size_t k : ks) {
                std::vector<double> row;
                for (size_t s : shape_ids) row.push_back(predicted_throughput(k, s));
                out.push_back(row);
            }
            model_seconds_ += seconds_since(t0);
            return out;
        };
        Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
            std::vector<std::pair<size_t, size_t>> global;
            for (auto [k, local] : batch) global.emplace_back(k, shape_ids[local]);
            return measure_pairs(global);
        };
        Learn learn = [&](const std::vector<Trial> &) { retrain(); };
        Report report = [&](const std::string &line) {
            std::cerr << "[diet] tune " << pattern().acc << ": " << line << best_line() << "\n";
        };
        return evolutionary_search(space_, weights, predict, measure, learn, sp, report);
    }

    // Throughput the model expects of kernel k at training shape s (FLOP/s).
    double predicted_throughput(size_t k, size_t s) {
        const MicroKernel &mk = space_[k];
        const auto &e = ext_.host_extents[s];
        const double adapt = occupancy(kernel_instances(mk, e), workers_, occupancy_k_) *
                             kernel_padding_efficiency(mk, e);
        if (!model_.trained()) {
            // Before the model has data: the analytic heuristic, in arbitrary units (named prior).
            MatmulExtents one;
            one.host_extents = {e};
            one.reduction_max = ext_.reduction_max;
            return heuristic_score(mk, one, workers_);
        }
        return std::max(0.f, model_.predict({rows_at(k, s)})[0]) * label_scale_ * adapt;
    }

    std::optional<double> seconds_of(size_t k, size_t s) const {
        auto it = measured_.find({k, s});
        return it == measured_.end() ? std::nullopt : it->second;
    }

    double flops(size_t s) const { return flops_[s]; }

    // Model quality per shape: among the kernels measured at a shape, is the one the model ranks
    // first within 10% of the measured best? Returns the fraction of shapes where it is (shapes
    // with fewer than two measured kernels are left out), -1 when none qualifies.
    double top1_within_10_percent() {
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
    double model_seconds() const { return model_seconds_; }
    double measure_seconds() const { return measure_seconds_; }
    double occupancy_k() const { return occupancy_k_; }
    int measurements() const { return measurements_; }
    int log_hits() const { return log_hits_; }
    // Kendall's tau of held-out predictions made by models trained on at least `min_trained` programs.
    std::pair<double, size_t> held_out_tau(size_t min_trained) const {
        std::vector<double> pred, meas;
        for (const HeldOut &h : held_out_) {
            if (h.trained_on < min_trained) continue;
            pred.push_back(h.predicted);
            meas.push_back(h.measured);
        }
        return {pred.size() >= 2 ? kendall_tau(pred, meas) : 0.0, pred.size()};
    }
    size_t trained_on() const { return trained_on_; }
    void warm_start(const std::string &path) {
        std::string why;
        if (model_.load(path, &why)) {
            label_scale_ = 1.0;
            std::cerr << "[diet] cost model loaded from " << path << "\n";
        } else {
            std::cerr << "[diet] no cost model loaded (" << why << "); starting from the heuristic\n";
        }
    }
    void save_model(const std::string &path) const {
        if (model_.trained()) model_.save(path);
    }

private:
    const std::vector<Function> &outputs_;
    std::vector<KernelChoice> current_;
    size_t which_;
    const std::vector<Shape> &training_;
    const std::vector<ShapeBinding> &bindings_;
    const MatmulExtents &ext_;
    const std::vector<MicroKernel> &space_;
    Target target_;
    CpuLimits cpu_;
    int workers_;
    Options opts_;
    Measurer *measurer_;
    const std::map<std::string, TuningRecord> *logged_;

    std::vector<double> flops_;
    std::map<size_t, FeatureRows> features_;
    std::map<std::pair<size_t, size_t>, std::optional<double>> measured_;
    PackSumModel model_;
    double label_scale_ = 1.0;
    double occupancy_k_ = 1.0;
    double model_seconds_ = 0, measure_seconds_ = 0;
    int measurements_ = 0, log_hits_ = 0;
    struct HeldOut {
        double predicted, measured;  // throughput, predicted before the model saw this measurement
        size_t trained_on;           // programs the predicting model was trained on
    };
    std::vector<HeldOut> held_out_;
    size_t trained_on_ = 0;

    Candidate candidate(size_t k, size_t s) const {
        Candidate c{current_};
        c.kernels[which_].kernel = space_[k];
        c.kernels[which_].only_for_extents = ext_.host_extents[s];
        return c;
    }

    // Where a kernel is featurized: the training shape where its adaptation penalty is smallest
    // (DietCode's cherry-picked instance), the larger shape on ties.
    size_t cherry_pick(size_t k) const {
        size_t best = 0;
        double best_v = -1;
        for (size_t s = 0; s < training_.size(); s++) {
            const auto &e = ext_.host_extents[s];
            double v = occupancy(kernel_instances(space_[k], e), workers_, 1.0) * kernel_padding_efficiency(space_[k], e);
            if (v >= best_v) {
                best_v = v;
                best = s;
            }
        }
        return best;
    }

    const FeatureRows &features(size_t k) {
        auto it = features_.find(k);
        if (it != features_.end()) return it->second;
        const size_t s = cherry_pick(k);
        FeatureRows rows;
        try {
            Pipeline p = instantiate(outputs_, candidate(k, s), target_, cpu_, training_[s]);
            FeatureOptions fo;
            fo.shape_generic = true;
            ProgramFeatures f = extract_features(lower_at_shape(p, target_, bindings_[s]), fo);
            for (const FeatureRow &r : f.rows) {
                std::vector<float> v = r.ansor;
                v.insert(v.end(), r.halide.begin(), r.halide.end());
                rows.push_back(v);
            }
        } catch (const Halide::Error &e) {
            std::cerr << "[diet] cannot featurize " << space_[k].to_string() << ": " << e.what() << "\n";
        }
        return features_.emplace(k, rows).first->second;
    }

    // The kernel's shape-generic rows with the shape's context appended to each (log2p of the
    // output extents, of the micro-kernel instances and of the work). The generic features
    // describe one task; on the CPU a task also loops over all rows, and how much work a task has
    // decides how well it amortizes its panel copy and its weight traffic: the context lets the one
    // joint model learn that, which f_occ and f_pad alone do not capture.
    FeatureRows rows_at(size_t k, size_t s) {
        FeatureRows rows = features(k);
        std::vector<float> context;
        for (int64_t e : ext_.host_extents[s]) context.push_back(log2p((float)e));
        context.push_back(log2p((float)kernel_instances(space_[k], ext_.host_extents[s])));
        context.push_back(log2p((float)flops_[s]));
        for (auto &r : rows) r.insert(r.end(), context.begin(), context.end());
        return rows;
    }

    std::vector<std::optional<double>> measure_pairs(const std::vector<std::pair<size_t, size_t>> &pairs) {
        auto t0 = Clock::now();
        std::vector<std::optional<double>> out(pairs.size());
        std::vector<MeasureJob> jobs;
        std::vector<size_t> job_of;
        for (size_t i = 0; i < pairs.size(); i++) {
            auto [k, s] = pairs[i];
            Candidate c = candidate(k, s);
            // Featurized whether or not the log already has the measurement, so that a resumed run
            // does exactly the work, in the same order, of the run it resumes.
            const std::string features_digest = digest(features(k));
            // Resume: a measurement already in the tuning log is reused, not repeated.
            auto hit = logged_->find(ShapeFamily::to_string(training_[s]) + "|" + c.describe());
            if (hit != logged_->end()) {
                if (hit->second.ok()) out[i] = hit->second.median_seconds;
                log_hits_++;
                continue;
            }
            jobs.push_back({c, training_[s], features_digest});
            job_of.push_back(i);
        }
        if (!jobs.empty()) {
            std::vector<TuningRecord> recs = measurer_->measure_candidates(outputs_, jobs, cpu_);
            for (size_t j = 0; j < recs.size(); j++) {
                if (recs[j].ok()) out[job_of[j]] = recs[j].median_seconds;
                measurements_++;
            }
        }
        for (size_t i = 0; i < pairs.size(); i++) {
            // Held-out quality: what the model predicted for this pair before it saw it.
            if (out[i] && model_.trained()) {
                auto [k, s] = pairs[i];
                held_out_.push_back({predicted_throughput(k, s), flops_[s] / *out[i], trained_on_});
            }
            measured_[pairs[i]] = out[i];
        }
        measure_seconds_ += seconds_since(t0);
        return out;
    }

    // Labels: the micro-kernel's own throughput, the adaptation terms divided out. All trials of all
    // shapes train one model (joint learning); k of f_occ is refitted from kernels measured at
    // several shapes.
    void retrain() {
        auto t0 = Clock::now();
        std::vector<FeatureRows> programs;
        std::vector<float> labels;
        std::map<size_t, std::vector<std::pair<double, double>>> by_kernel;  // k -> (wave efficiency, FLOP/s)
        for (const auto &[key, secs] : measured_) {
            if (!secs) continue;
            auto [k, s] = key;
            const auto &e = ext_.host_extents[s];
            const int64_t g = kernel_instances(space_[k], e);
            const double u = (double)g / (double)(((g + workers_ - 1) / workers_) * workers_);
            const double throughput = flops_[s] / *secs;
            by_kernel[k].emplace_back(u, throughput);
            const double adapt = occupancy(g, workers_, occupancy_k_) * kernel_padding_efficiency(space_[k], e);
            FeatureRows rows = rows_at(k, s);
            if (rows.empty()) continue;
            programs.push_back(rows);
            labels.push_back((float)(throughput / adapt));
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
            model_.train(programs, labels);
            trained_on_ = programs.size();
        }
        model_seconds_ += seconds_since(t0);
    }

    std::string best_line() const {
        std::map<size_t, double> best;
        for (const auto &[key, secs] : measured_) {
            if (secs && (!best.count(key.second) || *secs < best[key.second])) best[key.second] = *secs;
        }
        std::string s = "; best ms per shape:";
        for (const auto &[shape, secs] : best) {
            char buf[64];
            std::snprintf(buf, sizeof buf, " %s=%.3f", ShapeFamily::to_string(training_[shape]).c_str(), secs * 1e3);
            s += buf;
        }
        return s;
    }
};

}  // namespace

std::vector<double> training_weights(const ShapeFamily &family, const std::vector<Shape> &training) {
    std::vector<double> w(training.size(), 1.0);
    if (family.vars.size() != 1 || training.empty()) return w;
    std::fill(w.begin(), w.end(), 0.0);
    const std::string &v = family.vars[0].name;
    for (int64_t x : family.vars[0].values) {
        size_t nearest = 0;
        for (size_t s = 1; s < training.size(); s++) {
            if (std::llabs(training[s].at(v) - x) < std::llabs(training[nearest].at(v) - x)) nearest = s;
        }
        w[nearest] += 1.0;
    }
    return w;
}

TuneResult tune(const std::vector<Function> &outputs, const FunctionDAG &dag, const ShapeFamily &family,
                const std::vector<Shape> &training, const std::vector<KernelChoice> &initial, const Target &target,
                const CpuLimits &cpu, const GpuLimits &gpu, const Options &opts) {
    TuneResult result;
    result.kernels = initial;
    if (initial.empty() || (opts.trials == 0 && opts.model_path.empty())) return result;
    const auto start = Clock::now();
    const bool on_gpu = target.has_gpu_feature();
    const int workers = on_gpu ? gpu.sm_count : cpu.cores;

    // Bind every training shape now, while the estimates are still symbolic.
    Pipeline whole = as_pipeline(outputs);
    std::vector<ShapeBinding> bindings;
    for (const Shape &s : training) bindings.push_back(bind_shape(whole, s));
    const std::vector<double> weights = training_weights(family, training);

    const std::string fingerprint = pipeline_fingerprint(outputs, target);
    std::map<std::string, TuningRecord> logged;
    if (!opts.log_path.empty()) {
        LogContents log = read_log(opts.log_path);
        for (const TuningRecord &r : log.records) {
            if (r.pipeline != fingerprint || r.target != target.to_string()) continue;
            logged[ShapeFamily::to_string(Shape(r.shape.begin(), r.shape.end())) + "|" + r.micro_kernel] = r;
        }
        std::cerr << "[diet] tuning log " << opts.log_path << ": " << logged.size()
                  << " record(s) of this pipeline and target reused" << (log.skipped ? " (corrupt lines skipped)" : "")
                  << "\n";
    }
    Measurer measurer(MeasureSetup::from_options(opts, target));

    nlohmann::json report;
    report["mode"] = opts.mode;
    report["trials_budget"] = opts.trials;
    report["target"] = target.to_string();
    report["workers"] = workers;
    for (const Shape &s : training) report["training_shapes"].push_back(ShapeFamily::to_string(s));
    report["training_weights"] = weights;

    for (size_t pi = 0; pi < result.kernels.size(); pi++) {
        const MatmulPattern &p = result.kernels[pi].pattern;
        MatmulExtents ext = matmul_extents(p, family, training);
        std::vector<MicroKernel> space = on_gpu ? enumerate_gpu_kernels(p, ext, gpu) : enumerate_cpu_kernels(p, ext, cpu);
        PatternTuner tuner(outputs, result.kernels, pi, training, bindings, ext, space, target, cpu, workers, opts,
                           &measurer, &logged);
        if (!opts.model_path.empty()) tuner.warm_start(opts.model_path);

        // The stages are tuned one after another: share the budget evenly.
        const int budget = opts.trials / (int)result.kernels.size() + (pi < opts.trials % result.kernels.size() ? 1 : 0);
        std::vector<size_t> all(training.size());
        for (size_t s = 0; s < all.size(); s++) all[s] = s;
        std::vector<size_t> best(training.size(), 0);
        if (opts.mode == "joint") {
            SearchResult r = tuner.search(all, weights, budget, opts.seed);
            best = r.best_kernel;
        } else if (opts.mode == "per_shape") {
            // Ansor-style: an independent search per training shape, the budget split among them.
            for (size_t s = 0; s < training.size(); s++) {
                int b = budget / (int)training.size() + (s < budget % training.size() ? 1 : 0);
                SearchResult r = tuner.search({s}, {1.0}, b, opts.seed + s);
                best[s] = r.best_kernel[0];
            }
        } else {  // max_shape: tune the largest training shape only and use its kernel everywhere
            size_t largest = 0;
            for (size_t s = 1; s < training.size(); s++) {
                if (tuner.flops(s) > tuner.flops(largest)) largest = s;
            }
            SearchResult r = tuner.search({largest}, {1.0}, budget, opts.seed);
            std::fill(best.begin(), best.end(), r.best_kernel[0]);
        }

        // Until shape dispatch exists, one kernel serves all shapes: among the per-shape winners,
        // the one with the least weighted time relative to each shape's best (measured where
        // measured, else predicted).
        // (Before the model is trained, predictions are the heuristic's relative units: comparable
        // across kernels at one shape, which is all the choice below needs when nothing is measured.)
        auto time_of = [&](size_t k, size_t s) {
            if (auto m = tuner.seconds_of(k, s)) return *m;
            double thr = tuner.predicted_throughput(k, s);
            return thr > 0 ? tuner.flops(s) / thr : INFINITY;
        };
        std::vector<double> best_time(training.size());
        for (size_t s = 0; s < training.size(); s++) best_time[s] = time_of(best[s], s);
        size_t chosen = best[0];
        double chosen_loss = INFINITY;
        for (size_t k : std::set<size_t>(best.begin(), best.end())) {
            double loss = 0;
            for (size_t s = 0; s < training.size(); s++) loss += weights[s] * time_of(k, s) / best_time[s];
            if (loss < chosen_loss) {
                chosen_loss = loss;
                chosen = k;
            }
        }
        result.kernels[pi].kernel = space[chosen];
        result.measurements += tuner.measurements();
        if (!opts.model_path.empty()) tuner.save_model(opts.model_path);

        nlohmann::json pr;
        pr["stage"] = p.acc;
        pr["space_size"] = space.size();
        pr["chosen"] = space[chosen].to_string();
        pr["measurements"] = tuner.measurements();
        pr["log_hits"] = tuner.log_hits();
        pr["fitted_k"] = tuner.occupancy_k();
        // Model quality on measurements it had not seen: all of them, and those predicted by a model
        // trained on at least half of this run's data (the early rounds' models learn from a handful).
        auto [tau_all, n_all] = tuner.held_out_tau(0);
        auto [tau_late, n_late] = tuner.held_out_tau(std::max<size_t>(1, tuner.trained_on() / 2));
        pr["held_out_pairs"] = n_all;
        if (n_all >= 2) pr["kendall_tau_held_out"] = tau_all;
        pr["held_out_pairs_late"] = n_late;
        if (n_late >= 2) pr["kendall_tau_held_out_late"] = tau_late;
        pr["predicted_best_within_10_percent"] = tuner.top1_within_10_percent();
        pr["seconds_measuring"] = tuner.measure_seconds();
        pr["seconds_model"] = tuner.model_seconds();
        for (size_t s = 0; s < training.size(); s++) {
            nlohmann::json js;
            js["shape"] = ShapeFamily::to_string(training[s]);
            js["best_kernel"] = space[best[s]].to_string();
            js["best_seconds"] = best_time[s];
            if (auto m = tuner.seconds_of(chosen, s)) js["chosen_measured_seconds"] = *m;
            double thr = tuner.predicted_throughput(chosen, s);
            if (thr > 0) js["chosen_predicted_seconds"] = tuner.flops(s) / thr;
            pr["shapes"].push_back(js);
        }
        report["stages"].push_back(pr);
        std::cerr << "[diet] tune " << p.acc << ": chose " << space[chosen].to_string() << " after "
                  << tuner.measurements() << " measurement(s), " << tuner.log_hits() << " from the log; fitted k = "
                  << tuner.occupancy_k() << "\n";
    }
    report["seconds_total"] = seconds_since(start);
    report["measurements"] = result.measurements;
    result.report = report;
    return result;
}

}  // namespace diet
