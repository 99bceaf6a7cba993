#include "search/ModelTraining.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace diet {

double label_of_throughput(double flops_per_second) {
    return std::log2(1.0 + std::max(0.0, flops_per_second) / 1e9);
}
double throughput_of_label(double label) {
    return (std::exp2(std::max(0.0, label)) - 1.0) * 1e9;
}

PackSumModelParams model_params() {
    PackSumModelParams p;
    p.max_depth = 3;
    p.eta = 0.1;
    p.rounds = 300;
    p.early_stop_rounds = 50;
    return p;
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

}  // namespace diet
