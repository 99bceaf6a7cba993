#include "cost/Adaptation.h"

#include <algorithm>

namespace diet {

namespace {
int64_t ceil_by(int64_t x, int64_t m) {
    return m <= 0 ? x : (x + m - 1) / m * m;
}
}  // namespace

double occupancy(int64_t instances, int workers, double k) {
    if (instances <= 0) return 0.0;
    double u = (double)instances / (double)ceil_by(instances, std::max(1, workers));
    return k * u + (1.0 - k);
}

double padding_efficiency(const std::vector<int64_t> &extents, const std::vector<int64_t> &tiles) {
    double e = 1.0;
    for (size_t d = 0; d < extents.size() && d < tiles.size(); d++) {
        if (extents[d] > 0 && tiles[d] > 0) e *= (double)extents[d] / (double)ceil_by(extents[d], tiles[d]);
    }
    return e;
}

double fit_occupancy_k(const std::vector<OccupancySample> &samples) {
    // y - 1 = k (u - 1): a one-parameter least-squares fit through (1, 1).
    double num = 0, den = 0;
    for (const auto &s : samples) {
        double du = s.wave_efficiency - 1.0, dy = s.relative_throughput - 1.0;
        num += du * dy;
        den += du * du;
    }
    if (den < 1e-12) return 1.0;
    return std::clamp(num / den, 0.0, 1.0);
}

}  // namespace diet
