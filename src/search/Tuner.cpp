#include "search/Tuner.h"
#include "common/Errors.h"

#include "cost/Adaptation.h"
#include "cost/PackSumModel.h"
#include "dispatch/Dispatch.h"
#include "features/Features.h"
#include "features/Lowering.h"
#include "measure/Fingerprint.h"
#include "measure/FarmMeasure.h"
#include "measure/Measure.h"
#include "measure/TuningLog.h"
#include "schedule/Instantiate.h"
#include "search/Evolution.h"

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <cmath>
#include <cstring>
#include <iostream>
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>

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

// f_MK's label: the micro-kernel's own throughput (adaptation divided out) on a log scale,
// log2(1 + GFLOP/s). Throughputs span two orders of magnitude across kernels and shapes; on a
// linear scale the label-weighted squared error only learns the fastest few, on a log scale it
// ranks the whole space (8-fold cross-validation on a 96-measurement dense run: Kendall's tau
// within a shape 0.60 vs 0.42 linear). The label weighting still favours fast kernels.
double label_of_throughput(double flops_per_second) {
    return std::log2(1.0 + std::max(0.0, flops_per_second) / 1e9);
}
double throughput_of_label(double label) {
    return (std::exp2(std::max(0.0, label)) - 1.0) * 1e9;
}

// Shallow trees: a tuning run trains on tens of programs (same cross-validation: depth 3 beat the
// default depth 10 of Ansor's larger data sets).
PackSumModelParams model_params() {
    PackSumModelParams p;
    p.max_depth = 3;
    p.eta = 0.1;
    p.rounds = 300;
    p.early_stop_rounds = 50;
    return p;
}

// Kendall's tau within each shape, averaged over the shapes with at least three pairs: how well
// the model ranks the kernels at one shape, which is what the search and the dispatch ask of it.
// (Across shapes the tau of times is inflated by the shapes' sizes alone.)
double mean_tau_within_shape(const std::vector<size_t> &shape, const std::vector<double> &pred,
                             const std::vector<double> &meas) {
    std::map<size_t, std::pair<std::vector<double>, std::vector<double>>> by;
    for (size_t i = 0; i < shape.size(); i++) {
        by[shape[i]].first.push_back(pred[i]);
        by[shape[i]].second.push_back(meas[i]);
    }
    double sum = 0;
    int n = 0;
    for (const auto &[s, pm] : by) {
        if (pm.first.size() < 3) continue;
        sum += kendall_tau(pm.first, pm.second);
        n++;
    }
    return n ? sum / n : 0.0;
}

struct ModelQuality {
    size_t pairs = 0;
    double tau_seconds = 0;       // predicted vs measured time, all pairs
    double tau_throughput = 0;    // predicted vs measured FLOP/s, all pairs
    double tau_within_shape = 0;  // mean over shapes of the tau of times at that shape
    nlohmann::json to_json() const {
        return {{"pairs", pairs}, {"kendall_tau_seconds", tau_seconds}, {"kendall_tau_throughput", tau_throughput},
                {"kendall_tau_within_shape", tau_within_shape}};
    }
};

ModelQuality quality_of(const std::vector<size_t> &shape, const std::vector<double> &pred_throughput,
                        const std::vector<double> &meas_throughput, const std::vector<double> &flops) {
    ModelQuality q;
    q.pairs = shape.size();
    if (q.pairs < 2) return q;
    std::vector<double> ps, ms;
    for (size_t i = 0; i < shape.size(); i++) {
        ps.push_back(flops[i] / std::max(pred_throughput[i], 1e-30));
        ms.push_back(flops[i] / meas_throughput[i]);
    }
    q.tau_seconds = kendall_tau(ps, ms);
    q.tau_throughput = kendall_tau(pred_throughput, meas_throughput);
    q.tau_within_shape = mean_tau_within_shape(shape, ps, ms);
    return q;
}

class PatternTuner {
public:
    PatternTuner(const std::vector<Function> &outputs, const std::vector<KernelChoice> &current, size_t which,
                 const std::vector<Shape> &training, const std::vector<ShapeBinding> &bindings,
                 const MatmulExtents &ext, const std::vector<MicroKernel> &space, const Target &target,
                 const CpuLimits &cpu, int workers, const Options &opts, Measurer *measurer,
                 const std::map<std::string, TuningRecord> *logged)
        : outputs_(outputs), current_(current), which_(which), training_(training), bindings_(bindings), ext_(ext),
          space_(space), target_(target), cpu_(cpu), workers_(workers), opts_(opts), measurer_(measurer),
          logged_(logged), model_(model_params()) {
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
        // A search over some of the shapes (per_shape, max_shape) learns only from them, with a
        // model of its own, as an independent tuner would.
        const std::set<size_t> learn_from(shape_ids.begin(), shape_ids.end());
        if (learn_from.size() < training_.size()) model_.train({}, {});
        Predict predict = [&](const std::vector<size_t> &ks) {
            auto t0 = Clock::now();
            std::vector<std::vector<double>> out;
            if (model_.trained()) {
                // One batched prediction for every (kernel, shape) pair.
                std::vector<size_t> kk;
                std::vector<std::vector<int64_t>> ee;
                std::vector<double> ff;
                for (size_t k : ks) {
                    for (size_t s : shape_ids) {
                        kk.push_back(k);
                        ee.push_back(ext_.host_extents[s]);
                        ff.push_back(flops_[s]);
                    }
                }
                std::vector<double> all = predicted_throughputs(kk, ee, ff);
                for (size_t i = 0; i < ks.size(); i++) {
                    out.emplace_back(all.begin() + i * shape_ids.size(), all.begin() + (i + 1) * shape_ids.size());
                }
            } else {
                for (size_t k : ks) {
                    std::vector<double> row;
                    for (size_t s : shape_ids) row.push_back(predicted_throughput(k, s));
                    out.push_back(row);
                }
            }
            model_seconds_ += seconds_since(t0);
            return out;
        };
        Measure measure = [&](const std::vector<std::pair<size_t, size_t>> &batch) {
            std::vector<std::pair<size_t, size_t>> global;
            for (auto [k, local] : batch) global.emplace_back(k, shape_ids[local]);
            return measure_pairs(global);
        };
        Learn learn = [&](const std::vector<Trial> &) { retrain(learn_from); };
        Report report = [&](const std::string &line) {
            std::cerr << "[diet] tune " << pattern().acc << ": " << line << best_line() << "\n";
        };
        return evolutionary_search(space_, weights, predict, measure, learn, sp, report);
    }

    // Throughput the model expects of kernel k at training shape s (FLOP/s).
    double predicted_throughput(size_t k, size_t s) {
        if (!model_.trained()) {
            // Before the model has data: the analytic heuristic, in arbitrary units (named prior).
            MatmulExtents one;
            one.host_extents = {ext_.host_extents[s]};
            one.reduction_max = ext_.reduction_max;
            return heuristic_score(space_[k], one, workers_);
        }
        return predicted_throughputs({k}, {ext_.host_extents[s]}, {flops_[s]})[0];
    }

    // The model's throughput (FLOP/s) of kernel ks[i] at an output of extents[i] with flops[i] of
    // work, for any shape (the dispatch asks at every shape of the family). Model trained only.
    std::vector<double> predicted_throughputs(const std::vector<size_t> &ks,
                                              const std::vector<std::vector<int64_t>> &extents,
                                              const std::vector<double> &flops) {
        internal_assert(model_.trained());
        std::vector<FeatureRows> programs;
        for (size_t i = 0; i < ks.size(); i++) programs.push_back(rows_for(ks[i], extents[i], flops[i]));
        std::vector<float> scores = model_.predict(programs);
        std::vector<double> out;
        for (size_t i = 0; i < ks.size(); i++) {
            out.push_back(throughput_of_label(scores[i] * label_scale_) * adaptation(ks[i], extents[i]));
        }
        return out;
    }

    bool model_trained() const { return model_.trained(); }

    // f_occ * f_pad of kernel k at an output of these extents.
    double adaptation(size_t k, const std::vector<int64_t> &e) const {
        return occupancy(kernel_instances(space_[k], e), workers_, occupancy_k_) * kernel_padding_efficiency(space_[k], e);
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
    void add_model_seconds(double s) { model_seconds_ += s; }
    double measure_seconds() const { return measure_seconds_; }
    double occupancy_k() const { return occupancy_k_; }
    int measurements() const { return measurements_; }
    int log_hits() const { return log_hits_; }
    // Quality of the held-out predictions made by models trained on at least `min_trained` programs
    // (each measurement predicted before the model saw it).
    ModelQuality held_out_quality(size_t min_trained) const {
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

    // k-fold cross-validation over all of this run's measurements: each fold predicted by a model
    // trained, the same way, on the others. Deterministic (folds by a seeded shuffle).
    ModelQuality cross_validated_quality(int folds, uint64_t seed) {
        std::vector<std::pair<size_t, size_t>> pairs;
        std::vector<double> meas;
        for (const auto &[key, secs] : measured_) {
            if (!secs || features(key.first).empty()) continue;
            pairs.push_back(key);
            meas.push_back(flops_[key.second] / *secs);
        }
        folds = std::min<int>(folds, (int)pairs.size() / 3);  // at least three programs per fold
        if (folds < 2) return {};
        std::vector<int> fold(pairs.size());
        for (size_t i = 0; i < fold.size(); i++) fold[i] = (int)(i % folds);
        std::mt19937_64 rng(seed);
        std::shuffle(fold.begin(), fold.end(), rng);
        std::vector<double> pred(pairs.size());
        for (int f = 0; f < folds; f++) {
            std::vector<FeatureRows> programs, test;
            std::vector<float> labels;
            std::vector<size_t> test_ix;
            for (size_t i = 0; i < pairs.size(); i++) {
                auto [k, s] = pairs[i];
                if (fold[i] == f) {
                    test.push_back(rows_at(k, s));
                    test_ix.push_back(i);
                } else {
                    programs.push_back(rows_at(k, s));
                    labels.push_back((float)label_of_throughput(meas[i] / adaptation(k, ext_.host_extents[s])));
                }
            }
            PackSumModel m(model_params());
            m.train(programs, labels);
            double scale = *std::max_element(labels.begin(), labels.end());
            std::vector<float> scores = m.predict(test);
            for (size_t j = 0; j < test_ix.size(); j++) {
                auto [k, s] = pairs[test_ix[j]];
                pred[test_ix[j]] = throughput_of_label(scores[j] * scale) * adaptation(k, ext_.host_extents[s]);
            }
        }
        std::vector<size_t> shape;
        std::vector<double> flops;
        for (auto [k, s] : pairs) {
            shape.push_back(s);
            flops.push_back(flops_[s]);
        }
        return quality_of(shape, pred, meas, flops);
    }
    size_t trained_on() const { return trained_on_; }
    // Warm start (HL_DIET_MODEL): only a Diet model of this format, pipeline and target is used
    // (cost/PackSumModel.h); anything else is rejected with a message, and later left as it is.
    void warm_start(const std::string &path, const std::string &pipeline, const std::string &target) {
        ModelFile f = inspect_model_file(path, pipeline, target);
        std::string why;
        if (f.state == ModelFile::Missing) {
            std::cerr << "[diet] no cost model at " << path << " yet; starting from the heuristic\n";
        } else if (f.state != ModelFile::Usable) {
            std::cerr << "[diet] warning: the cost model file " << path << " is rejected: it is " << f.why
                      << "; starting from the heuristic (the file will not be overwritten)\n";
        } else if (model_.load(path, &why)) {
            label_scale_ = model_.info().label_scale > 0 ? model_.info().label_scale : 1.0;
            std::cerr << "[diet] cost model loaded from " << path << " (trained on " << model_.info().trained_on
                      << " measurements)\n";
        } else {
            std::cerr << "[diet] warning: the cost model file " << path << " is rejected (" << why
                      << "); starting from the heuristic\n";
        }
    }
    // Saved under the policy of cost/PackSumModel.h, when this run trained it.
    void save_model(const std::string &path, const std::string &pipeline, const std::string &target) {
        if (!model_.trained() || trained_on_ == 0) return;
        ModelInfo info;
        info.format = kModelFormat;
        info.pipeline = pipeline;
        info.target = target;
        info.trained_on = (int64_t)trained_on_;
        info.label_scale = label_scale_;
        info.tool_version = kToolVersion;
        model_.set_info(info);
        std::string message;
        save_model_with_policy(model_, path, &message);
        std::cerr << "[diet] " << message << "\n";
    }

    // The shape dispatch of this stage (dispatch/Dispatch.h). Candidates: the kernels measured
    // at least once (featurized, and known to build and be correct). Every shape of the family votes
    // with measured times where it is a training shape, the model's elsewhere. With `verify`, a
    // training shape whose dispatched kernel is unmeasured there is measured, and one whose
    // dispatched kernel is more than 10% slower than its best measured kernel gets that kernel.
    Dispatch dispatch(const std::vector<Shape> &shapes, const std::vector<std::vector<int64_t>> &extents,
                      const std::vector<double> &flops, size_t max_kernels, bool verify, nlohmann::json *rep) {
        std::vector<size_t> cands;
        for (const auto &[key, secs] : measured_) {
            if (secs && !features(key.first).empty() &&
                std::find(cands.begin(), cands.end(), key.first) == cands.end()) {
                cands.push_back(key.first);
            }
        }
        std::sort(cands.begin(), cands.end());
        if (cands.empty() || !model_.trained()) return {};
        std::vector<int> training_index(shapes.size(), -1);
        for (size_t v = 0; v < shapes.size(); v++) {
            for (size_t t = 0; t < training_.size(); t++) {
                if (training_[t] == shapes[v]) training_index[v] = (int)t;
            }
        }
        auto table_for = [&](const std::vector<size_t> &ks) {
            std::vector<size_t> kk;
            std::vector<std::vector<int64_t>> ee;
            std::vector<double> ff;
            for (size_t v = 0; v < shapes.size(); v++) {
                for (size_t k : ks) {
                    kk.push_back(k);
                    ee.push_back(extents[v]);
                    ff.push_back(flops[v]);
                }
            }
            std::vector<double> thr = predicted_throughputs(kk, ee, ff);
            CostTable t(shapes.size(), std::vector<double>(ks.size()));
            for (size_t v = 0; v < shapes.size(); v++) {
                for (size_t c = 0; c < ks.size(); c++) {
                    double secs = thr[v * ks.size() + c] > 0 ? flops[v] / thr[v * ks.size() + c] : INFINITY;
                    if (training_index[v] >= 0) {
                        auto it = measured_.find({ks[c], (size_t)training_index[v]});
                        if (it != measured_.end()) secs = it->second ? *it->second : INFINITY;
                    }
                    t[v][c] = secs;
                }
            }
            return t;
        };
        // Operand staging is one choice per stage (a wrapper Func exists for every specialization
        // or for none): the staging of most shapes' winners; the candidates restricted to it.
        CostTable table = table_for(cands);
        int staged_votes = 0;
        for (size_t w : vote(table)) staged_votes += space_[cands[w]].cpu.stage_strided ? 1 : -1;
        std::vector<size_t> same;
        for (size_t k : cands) {
            if (space_[k].cpu.stage_strided == (staged_votes >= 0)) same.push_back(k);
        }
        if (same.size() != cands.size()) {
            cands = same;
            table = table_for(cands);
        }
        DispatchProblem prob{shapes, extents, table, {}, max_kernels};
        for (size_t k : cands) prob.candidates.push_back(space_[k]);
        Dispatch d = decide_dispatch(prob);

        auto index_of = [&](const MicroKernel &mk) {
            for (size_t c = 0; c < cands.size(); c++) {
                if (space_[cands[c]] == mk) return c;
            }
            internal_error << "Diet: a dispatched kernel is not a candidate\n";
            return (size_t)0;
        };
        auto ms = [](double secs) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f ms", secs * 1e3);
            return std::string(buf);
        };
        // Per leaf: the mean time of its kernel over the shapes it covers, and what was measured.
        for (size_t li = 0; li < d.leaves.size(); li++) {
            const size_t c = index_of(d.leaves[li].kernel);
            double sum = 0;
            int n = 0;
            std::string measured;
            for (size_t v = 0; v < shapes.size(); v++) {
                if (d.leaf_for(extents[v]) != li) continue;
                sum += table[v][c];
                n++;
                if (training_index[v] >= 0 && seconds_of(cands[c], training_index[v])) {
                    measured += (measured.empty() ? "" : ", ") + ShapeFamily::to_string(shapes[v]) + " " + ms(table[v][c]);
                }
            }
            d.leaves[li].note = "mean time over its shapes " + (n ? ms(sum / n) : std::string("-")) +
                                (measured.empty() ? "" : "; measured " + measured);
        }

        // DietCode's verification step.
        nlohmann::json checks = nlohmann::json::array();
        for (size_t t = 0; t < training_.size(); t++) {
            const size_t kd = cands[index_of(d.leaves[d.leaf_for(ext_.host_extents[t])].kernel)];
            if (!measured_.count({kd, t}) && verify) {
                const int before = measurements_;
                measure_pairs({{kd, t}});
                verification_measurements_ += measurements_ - before;
            }
            std::optional<double> got = seconds_of(kd, t);
            size_t kb = kd;
            for (size_t k : cands) {
                auto m = seconds_of(k, t);
                if (m && (!seconds_of(kb, t) || *m < *seconds_of(kb, t))) kb = k;
            }
            nlohmann::json c = {{"shape", ShapeFamily::to_string(training_[t])}, {"dispatched", space_[kd].to_string()}};
            if (got) c["dispatched_seconds"] = *got;
            if (auto b = seconds_of(kb, t)) c["best_measured_seconds"] = *b;
            if (kb != kd && seconds_of(kb, t) && (!got || *got > 1.1 * *seconds_of(kb, t))) {
                override_shape(d, ext_.host_extents[t], space_[kb], describe_shapes({training_[t]}),
                               "verification: measured " + ms(*seconds_of(kb, t)) + " vs " +
                                   (got ? ms(*got) : std::string("a failure")) + " for the tree's kernel");
                c["overridden_by"] = space_[kb].to_string();
            }
            checks.push_back(c);
        }
        if (rep) {
            (*rep)["candidates"] = cands.size();
            (*rep)["verification"] = checks;
        }
        return d;
    }
    int verification_measurements() const { return verification_measurements_; }
    // Retrains the model on every measurement of this stage.
    void learn_from_everything() { retrain(); }

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
    int measurements_ = 0, log_hits_ = 0, verification_measurements_ = 0;
    struct HeldOut {
        size_t shape;
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
    FeatureRows rows_for(size_t k, const std::vector<int64_t> &extents, double flops) {
        FeatureRows rows = features(k);
        std::vector<float> context;
        for (int64_t e : extents) context.push_back(log2p((float)e));
        context.push_back(log2p((float)kernel_instances(space_[k], extents)));
        context.push_back(log2p((float)flops));
        for (auto &r : rows) r.insert(r.end(), context.begin(), context.end());
        return rows;
    }
    FeatureRows rows_at(size_t k, size_t s) { return rows_for(k, ext_.host_extents[s], flops_[s]); }

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
            std::vector<TuningRecord> recs = measure_jobs(*measurer_, opts_, outputs_, jobs, cpu_);  // here or on Slurm
            for (size_t j = 0; j < recs.size(); j++) {
                if (recs[j].ok()) out[job_of[j]] = recs[j].median_seconds;
                measurements_++;
            }
        }
        for (size_t i = 0; i < pairs.size(); i++) {
            // Held-out quality: what the model predicted for this pair before it saw it.
            if (out[i] && model_.trained()) {
                auto [k, s] = pairs[i];
                held_out_.push_back({s, predicted_throughput(k, s), flops_[s] / *out[i], trained_on_});
            }
            measured_[pairs[i]] = out[i];
        }
        measure_seconds_ += seconds_since(t0);
        return out;
    }

    // Labels: the micro-kernel's own throughput, the adaptation terms divided out. All trials of all
    // shapes train one model (joint learning); k of f_occ is refitted from kernels measured at
    // several shapes.
    void retrain(const std::set<size_t> &only_shapes = {}) {
        auto t0 = Clock::now();
        std::vector<FeatureRows> programs;
        std::vector<float> labels;
        std::map<size_t, std::vector<std::pair<double, double>>> by_kernel;  // k -> (wave efficiency, FLOP/s)
        for (const auto &[key, secs] : measured_) {
            if (!secs || (!only_shapes.empty() && !only_shapes.count(key.second))) continue;
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
            labels.push_back((float)label_of_throughput(throughput / adapt));
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

// What a recorded dispatch decision is valid for, besides pipeline and target: the family, the
// training shapes and the kernel cap.
std::string dispatch_key(const ShapeFamily &family, const std::vector<Shape> &training, const Options &opts) {
    std::ostringstream o;
    for (const ShapeVar &v : family.vars) {
        o << v.name << "=" << v.values.front() << ".." << v.values.back() << "(" << v.values.size() << ") ";
    }
    o << "training";
    for (const Shape &s : training) o << " [" << ShapeFamily::to_string(s) << "]";
    o << " max_kernels " << opts.max_kernels;
    return o.str();
}

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
    if (initial.empty()) return result;
    const auto start = Clock::now();
    const bool on_gpu = target.has_gpu_feature();
    const int workers = on_gpu ? gpu.sm_count : cpu.cores;
    const std::string fingerprint = pipeline_fingerprint(outputs, target);
    const std::string family_key = dispatch_key(family, training, opts);

    // The tuning log, read once. Records of other pipelines or targets, corrupt lines and records
    // of another log format are left out, in one summary line; a file that is not a Diet log is
    // neither read nor appended to (tuning goes on without a log).
    LogContents log;
    std::string log_path = opts.log_path;
    std::map<std::string, TuningRecord> logged;
    if (!log_path.empty()) {
        log = read_log(log_path);
        if (log.foreign) {
            std::cerr << "[diet] warning: the tuning log " << log_path << " is " << log.summary()
                      << "; tuning without a log (name another file in HL_DIET_LOG)\n";
            log_path.clear();
        } else {
            int ignored = 0;
            for (const TuningRecord &r : log.records) {
                if (r.pipeline != fingerprint || r.target != target.to_string()) {
                    ignored++;
                    continue;
                }
                logged[ShapeFamily::to_string(Shape(r.shape.begin(), r.shape.end())) + "|" + r.micro_kernel] = r;
            }
            const std::string more = log.summary(ignored);
            std::cerr << "[diet] tuning log " << log_path << ": " << logged.size()
                      << " record(s) of this pipeline and target" << (more.empty() ? "" : "; " + more) << "\n";
        }
    }

    // No trials: apply the decisions a tuning run of this pipeline, target and family left in the
    // log ("apply history best"): no measurement, and the same schedule source as that run.
    if (opts.trials == 0 && !log_path.empty()) {
        std::vector<const DispatchRecord *> found(initial.size(), nullptr);
        for (const DispatchRecord &d : log.dispatches) {
            if (d.pipeline == fingerprint && d.target == target.to_string() && d.family == family_key &&
                d.stage >= 0 && d.stage < (int)initial.size()) {
                found[d.stage] = &d;  // the latest wins
            }
        }
        if (std::all_of(found.begin(), found.end(), [](const DispatchRecord *d) { return d != nullptr; })) {
            for (size_t pi = 0; pi < initial.size(); pi++) {
                result.kernels[pi].dispatch = dispatch_from_json(found[pi]->dispatch, "the tuning log " + opts.log_path);
                result.kernels[pi].chosen_by = "tuning (recorded in the tuning log)";
                result.report["stages"].push_back({{"stage", initial[pi].pattern.acc}, {"dispatch", found[pi]->dispatch},
                                                   {"replayed_from_log", true}});
            }
            result.report["measurements"] = 0;
            result.report["replayed_from_log"] = log_path;
            std::cerr << "[diet] applying the dispatch recorded in " << log_path << " (no measurement)\n";
            return result;
        }
        if (opts.model_path.empty()) {
            std::cerr << "[diet] the tuning log " << opts.log_path
                      << " holds no dispatch decision for this pipeline, target and shape family; using the heuristic\n";
        }
    }
    if (opts.trials == 0 && opts.model_path.empty()) return result;

    // Bind every training shape now, while the estimates are still symbolic.
    Pipeline whole = as_pipeline(outputs);
    std::vector<ShapeBinding> bindings;
    for (const Shape &s : training) bindings.push_back(bind_shape(whole, s));
    const std::vector<double> weights = training_weights(family, training);

    // The shapes that vote in the dispatch: the whole family, or a spread of 512 for huge ones.
    const std::vector<Shape> vote_shapes = family.training_shapes(family.size() <= 4096 ? 4096 : 512, opts.seed);
    std::vector<ShapeBinding> vote_bindings;
    for (const Shape &s : vote_shapes) vote_bindings.push_back(bind_shape(whole, s));

    MeasureSetup setup = MeasureSetup::from_options(opts, target);
    setup.log_path = log_path;  // "" when the named file is not a Diet log
    Measurer measurer(setup);

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
        if (!opts.model_path.empty()) tuner.warm_start(opts.model_path, fingerprint, target.to_string());

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

        // Without a trained model (too few measurements) one kernel serves all shapes: among the
        // per-shape winners, the one with the least weighted time relative to each shape's best
        // (measured where measured, else the heuristic's relative units, comparable across
        // kernels at one shape, which is all this choice needs).
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
        result.kernels[pi].chosen_by = opts.trials > 0 ? "tuning" : "the cost model " + opts.model_path;

        // The shape dispatch, decided over every shape of the family by a model trained on all of
        // this stage's measurements.
        nlohmann::json pr;
        Dispatch dispatch;
        if (opts.mode != "joint") tuner.learn_from_everything();
        if (tuner.model_trained()) {
            const auto t0 = Clock::now();
            std::vector<std::vector<int64_t>> vote_extents = matmul_extents(p, family, vote_shapes).host_extents;
            std::vector<double> vote_flops;
            for (size_t v = 0; v < vote_shapes.size(); v++) {
                vote_flops.push_back(stage_flops(p, vote_extents[v], vote_bindings[v]));
            }
            nlohmann::json dr;
            dispatch = tuner.dispatch(vote_shapes, vote_extents, vote_flops, (size_t)opts.max_kernels, opts.trials > 0, &dr);
            dr["seconds"] = seconds_since(t0);
            pr["dispatch_decision"] = dr;
        }
        if (!dispatch.empty()) {
            // Applied as the log keeps it, so that a rerun from the log emits the same source.
            nlohmann::json dj = dispatch_to_json(dispatch);
            result.kernels[pi].dispatch = dispatch_from_json(dj, "the dispatch just decided");
            result.kernels[pi].chosen_by = log_path.empty() ? "tuning" : "tuning (recorded in the tuning log)";
            pr["dispatch"] = dj;
            if (!log_path.empty()) {
                DispatchRecord rec{fingerprint, target.to_string(), (int)pi, family_key, dj, kToolVersion,
                                   (int64_t)std::time(nullptr)};
                append_dispatch(log_path, rec);
            }
        }
        result.measurements += tuner.measurements();
        if (!opts.model_path.empty()) tuner.save_model(opts.model_path, fingerprint, target.to_string());

        pr["stage"] = p.acc;
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
            pr["model_quality_cross_validated"] = tuner.cross_validated_quality(8, opts.seed).to_json();
            tuner.add_model_seconds(seconds_since(t0));
        }
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
        report["stages"].push_back(pr);
        std::cerr << "[diet] tune " << p.acc << ": "
                  << (dispatch.empty() ? "one kernel for every shape: " + space[chosen].to_string()
                                       : std::to_string(dispatch.leaves.size()) + " dispatch leaves over " +
                                             std::to_string(dispatch.kernel_count()) + " kernel(s)")
                  << " after " << tuner.measurements() << " measurement(s) (" << tuner.verification_measurements()
                  << " verifying the dispatch), " << tuner.log_hits() << " from the log; fitted k = " << tuner.occupancy_k()
                  << "\n";
        for (const DispatchLeaf &l : dispatch.leaves) {
            std::cerr << "[diet]   " << l.kernel.to_string() << " for " << l.covers << "\n";
        }
    }
    {
        double measuring = 0, model = 0;
        for (const auto &st : report["stages"]) {
            measuring += st.value("seconds_measuring", 0.0);
            model += st.value("seconds_model", 0.0);
        }
        // Wall time split: compiling candidates, running them, the cost model (features, training,
        // prediction); the rest (search bookkeeping, the dispatch's shape binding) is "other".
        report["seconds_compiling"] = measurer.seconds_compiling();
        report["seconds_running"] = std::max(0.0, measuring - measurer.seconds_compiling());
        report["seconds_model"] = model;
    }
    report["seconds_total"] = seconds_since(start);
    report["measurements"] = result.measurements;
    result.report = report;
    return result;
}

}  // namespace diet
