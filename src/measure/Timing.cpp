#include "measure/Timing.h"

#include <algorithm>
#include <chrono>

namespace diet {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

TimingResult time_runs(const TimingPolicy &p, const std::function<int(double *)> &run) {
    TimingResult r;
    double ignored = 0;
    for (int i = 0; i < p.warmup_runs; i++) {
        if ((r.error = run(&ignored)) != 0) return r;
    }
    std::vector<double> samples;
    double total = 0;
    while ((int)samples.size() < std::max(1, p.max_repeats)) {
        double s = 0;
        if ((r.error = run(&s)) != 0) return r;
        samples.push_back(s);
        total += s;
        if ((int)samples.size() >= p.min_repeats && total >= p.min_seconds) break;
    }
    r.median_seconds = median(samples);
    r.repeats = (int)samples.size();
    return r;
}

}  // namespace diet
