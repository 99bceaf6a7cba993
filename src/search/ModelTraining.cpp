#include "search/ModelTraining.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <utility>

namespace diet {

double label_of_throughput(double flops_per_second) {
    return std::log2(1.0 + std::max(0.0, flops_per_second) / 1e9);
}
double throughput_of_label(double label) {
    return (std::exp2(std::max(0.0, label)) - 1.0) * 1e9;
}

PackSumModelParams model_params(Objective objective) {
    PackSumModelParams p;
    p.objective = objective;
    p.max_depth = 3;
    p.eta = 0.1;
    p.rounds = 300;
    p.early_stop_rounds = 50;
    return p;
}

PackSumModelParams plan_model_params() {
    PackSumModelParams p = model_params(Objective::PairwiseRank);
    p.max_depth = 5;
    p.rounds = 400;
    p.min_child_weight = 1;
    return p;
}

std::vector<float> rank_labels_within_groups(const std::vector<size_t> &group, const std::vector<double> &seconds) {
    std::map<size_t, std::vector<double>> times;
    for (size_t i = 0; i < group.size(); i++) times[group[i]].push_back(seconds[i]);
    std::vector<float> labels;
    for (size_t i = 0; i < group.size(); i++) {
        const std::vector<double> &t = times[group[i]];
        double slower = 0;
        for (double x : t) slower += x > seconds[i] ? 1.0 : x == seconds[i] ? 0.5 : 0.0;
        labels.push_back((float)((slower + 0.5) / (double)t.size()));
    }
    return labels;
}

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

std::vector<double> cross_validated_scores(const std::vector<FeatureRows> &rows, const std::vector<float> &labels,
                                           const std::vector<size_t> &groups, int folds, uint64_t seed,
                                           const PackSumModelParams &params) {
    folds = std::min<int>(folds, (int)rows.size() / 3);  // at least three programs per fold
    if (folds < 2) return {};
    std::vector<int> fold(rows.size());
    for (size_t i = 0; i < fold.size(); i++) fold[i] = (int)(i % folds);
    std::mt19937_64 rng(seed);
    std::shuffle(fold.begin(), fold.end(), rng);
    std::vector<double> out(rows.size());
    for (int f = 0; f < folds; f++) {
        std::vector<FeatureRows> train, test;
        std::vector<float> y;
        std::vector<size_t> g, test_ix;
        for (size_t i = 0; i < rows.size(); i++) {
            if (fold[i] == f) {
                test.push_back(rows[i]);
                test_ix.push_back(i);
            } else {
                train.push_back(rows[i]);
                y.push_back(labels[i]);
                g.push_back(groups[i]);
            }
        }
        PackSumModel m(params);
        m.train(train, y, g);
        if (!m.trained()) return {};
        const double scale = *std::max_element(y.begin(), y.end());
        std::vector<float> scores = m.predict(test);
        for (size_t j = 0; j < test_ix.size(); j++) out[test_ix[j]] = scores[j] * scale;
    }
    return out;
}

double top_k_recall(const std::vector<size_t> &group, const std::vector<double> &pred,
                    const std::vector<double> &meas, size_t k) {
    std::map<size_t, std::vector<size_t>> by;
    for (size_t i = 0; i < group.size(); i++) by[group[i]].push_back(i);
    int groups = 0, hits = 0;
    for (auto &[g, ix] : by) {
        if (ix.size() < 2) continue;
        size_t best = ix[0];
        for (size_t i : ix) {
            if (meas[i] > meas[best]) best = i;
        }
        // The model's order; ties broken by index, deterministic.
        std::stable_sort(ix.begin(), ix.end(), [&](size_t a, size_t b) { return pred[a] > pred[b]; });
        groups++;
        for (size_t r = 0; r < std::min(k, ix.size()); r++) {
            // A kernel measured as fast as the best counts as finding it.
            if (meas[ix[r]] >= meas[best]) {
                hits++;
                break;
            }
        }
    }
    return groups ? (double)hits / groups : -1.0;
}

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
    q.top1_recall = top_k_recall(shape, pred_throughput, meas_throughput, 1);
    q.top5_recall = top_k_recall(shape, pred_throughput, meas_throughput, 5);
    return q;
}

}  // namespace diet
