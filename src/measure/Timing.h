// How one candidate is timed: warm-up runs, then repeated runs until both a minimum count and a
// minimum total time are reached (so a fast kernel is timed over many runs and a slow one is not
// run for ever), and the median of the runs, which a single preempted or page-faulting run does
// not move. Runtime-only.
#pragma once

#include <functional>
#include <vector>

namespace diet {

struct TimingPolicy {
    int warmup_runs = 1;       // untimed runs first: page faults, code and data into caches, GPU module load
    int min_repeats = 5;       // timed runs at least
    int max_repeats = 1000;    // timed runs at most
    double min_seconds = 0.1;  // timed runs until their sum reaches this
};

struct TimingResult {
    double median_seconds = 0;
    int repeats = 0;
    int error = 0;  // the first non-zero return of a run (a Halide error code); timing stops there
};

// `run` performs one run and returns 0 or an error code; it writes the seconds of its timed
// region (the region excludes work a run does around it, such as flushing the GPU's L2).
TimingResult time_runs(const TimingPolicy &p, const std::function<int(double *seconds)> &run);

double median(std::vector<double> v);  // of a non-empty vector; mean of the middle two when even
double now_seconds();                  // a monotonic clock

}  // namespace diet
