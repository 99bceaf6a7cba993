// Kernel votes and the kernel cap of shape dispatch (see Votes.h for the policy and the loss).
#include "dispatch/Votes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace diet {

namespace {

// Number of kernels of a well-formed table (0 if it has no shapes); throws if it is malformed.
size_t checked_kernel_count(const CostTable &seconds) {
    if (seconds.empty()) {
        return 0;
    }
    const size_t kernels = seconds[0].size();
    if (kernels == 0) {
        throw std::invalid_argument("cost table: a shape has no kernels");
    }
    for (size_t s = 0; s < seconds.size(); s++) {
        if (seconds[s].size() != kernels) {
            throw std::invalid_argument("cost table: shape " + std::to_string(s) + " has " +
                                        std::to_string(seconds[s].size()) + " kernels, shape 0 has " +
                                        std::to_string(kernels));
        }
        for (double t : seconds[s]) {
            if (std::isnan(t) || t <= 0) {
                throw std::invalid_argument("cost table: times must be positive or INFINITY, shape " +
                                            std::to_string(s) + " has " + std::to_string(t));
            }
        }
    }
    return kernels;
}

// The weights to use: 1 per shape if none were given; throws if they do not fit the table.
std::vector<double> checked_weights(const CostTable &seconds, const std::vector<double> &shape_weights) {
    if (shape_weights.empty()) {
        return std::vector<double>(seconds.size(), 1.0);
    }
    if (shape_weights.size() != seconds.size()) {
        throw std::invalid_argument("shape weights: " + std::to_string(shape_weights.size()) +
                                    " weights for " + std::to_string(seconds.size()) + " shapes");
    }
    for (double w : shape_weights) {
        if (!std::isfinite(w) || w < 0) {
            throw std::invalid_argument("shape weights must be finite and >= 0, got " + std::to_string(w));
        }
    }
    return shape_weights;
}

void check_kernel_indices(const std::vector<size_t> &kernels, size_t kernel_count) {
    for (size_t k : kernels) {
        if (k >= kernel_count) {
            throw std::invalid_argument("kernel index " + std::to_string(k) + " is outside the table (" +
                                        std::to_string(kernel_count) + " kernels)");
        }
    }
}

// The fastest of `candidates` at one shape; ties (equal times, infinities included) go to the
// lowest kernel index whatever the order of `candidates`. `candidates` is not empty.
size_t fastest_among(const std::vector<double> &times, const std::vector<size_t> &candidates) {
    size_t best = candidates[0];
    for (size_t k : candidates) {
        if (times[k] < times[best] || (times[k] == times[best] && k < best)) {
            best = k;
        }
    }
    return best;
}

// loss(kept), split so that a shape left without any runnable kernel outweighs any finite loss:
// first the weight of such shapes, then the weighted relative time of the others.
struct Loss {
    double unrunnable_weight = 0;
    double relative_time = 0;
};

// Per shape: the best time over all kernels (the denominator of the relative loss).
std::vector<double> best_times(const CostTable &seconds) {
    std::vector<double> best(seconds.size(), INFINITY);
    for (size_t s = 0; s < seconds.size(); s++) {
        for (double t : seconds[s]) {
            best[s] = std::min(best[s], t);
        }
    }
    return best;
}

Loss loss_of(const CostTable &seconds, const std::vector<double> &weights, const std::vector<double> &best,
             const std::vector<size_t> &kept) {
    Loss loss;
    for (size_t s = 0; s < seconds.size(); s++) {
        if (!std::isfinite(best[s])) {
            continue;  // nobody can run it: the same for every kept set
        }
        double kept_best = INFINITY;
        for (size_t k : kept) {
            kept_best = std::min(kept_best, seconds[s][k]);
        }
        if (std::isfinite(kept_best)) {
            loss.relative_time += weights[s] * kept_best / best[s];
        } else {
            loss.unrunnable_weight += weights[s];
        }
    }
    return loss;
}

// a < b, with a tolerance so that losses equal in exact arithmetic but summed in a different order
// count as ties (which then go to the lowest index, deterministically).
bool lower_loss(const Loss &a, const Loss &b, double tolerance) {
    if (a.unrunnable_weight < b.unrunnable_weight - tolerance) {
        return true;
    }
    if (a.unrunnable_weight > b.unrunnable_weight + tolerance) {
        return false;
    }
    return a.relative_time < b.relative_time - tolerance;
}

// Step 2 of cap_kernels: drop, one at a time, the kernel whose removal costs least.
void drop_cheapest_until(std::vector<size_t> &kept, size_t max_kernels, const CostTable &seconds,
                         const std::vector<double> &weights, const std::vector<double> &best,
                         double tolerance) {
    while (kept.size() > max_kernels) {
        size_t drop_position = 0;
        Loss drop_loss;
        for (size_t i = 0; i < kept.size(); i++) {  // kept is sorted: ties keep the lowest index
            std::vector<size_t> without = kept;
            without.erase(without.begin() + i);
            Loss loss = loss_of(seconds, weights, best, without);
            if (i == 0 || lower_loss(loss, drop_loss, tolerance)) {
                drop_position = i;
                drop_loss = loss;
            }
        }
        kept.erase(kept.begin() + drop_position);
    }
}

// Step 3 of cap_kernels: apply the best single swap (kept kernel -> any other kernel) while one
// strictly lowers the loss. Each accepted swap lowers the loss by more than the tolerance, so this
// ends.
void improve_by_swaps(std::vector<size_t> &kept, size_t kernel_count, const CostTable &seconds,
                      const std::vector<double> &weights, const std::vector<double> &best, double tolerance) {
    Loss current = loss_of(seconds, weights, best, kept);
    while (true) {
        bool improved = false;
        std::vector<size_t> best_set;
        Loss best_loss = current;
        for (size_t i = 0; i < kept.size(); i++) {
            for (size_t k = 0; k < kernel_count; k++) {
                if (std::find(kept.begin(), kept.end(), k) != kept.end()) {
                    continue;
                }
                std::vector<size_t> swapped = kept;
                swapped[i] = k;
                Loss loss = loss_of(seconds, weights, best, swapped);
                if (lower_loss(loss, best_loss, tolerance)) {
                    best_loss = loss;
                    best_set = swapped;
                    improved = true;
                }
            }
        }
        if (!improved) {
            return;
        }
        std::sort(best_set.begin(), best_set.end());
        kept = best_set;
        current = best_loss;
    }
}

}  // namespace

std::vector<size_t> vote(const CostTable &seconds) {
    const size_t kernels = checked_kernel_count(seconds);
    if (kernels == 0) {
        return {};  // no shapes
    }
    std::vector<size_t> all(kernels);
    for (size_t k = 0; k < kernels; k++) {
        all[k] = k;
    }
    return vote_among(seconds, all);
}

std::vector<size_t> vote_among(const CostTable &seconds, const std::vector<size_t> &allowed) {
    const size_t kernels = checked_kernel_count(seconds);
    if (allowed.empty()) {
        throw std::invalid_argument("vote_among: no kernel allowed");
    }
    if (seconds.empty()) {
        return {};
    }
    check_kernel_indices(allowed, kernels);
    std::vector<size_t> choice(seconds.size());
    for (size_t s = 0; s < seconds.size(); s++) {
        choice[s] = fastest_among(seconds[s], allowed);
    }
    return choice;
}

std::vector<size_t> cap_kernels(const CostTable &seconds, const std::vector<double> &shape_weights,
                                size_t max_kernels) {
    if (max_kernels == 0) {
        throw std::invalid_argument("cap_kernels: max_kernels must be at least 1");
    }
    const size_t kernels = checked_kernel_count(seconds);
    const std::vector<double> weights = checked_weights(seconds, shape_weights);
    if (seconds.empty()) {
        return {};
    }

    const std::vector<double> best = best_times(seconds);
    const std::vector<size_t> votes = vote(seconds);
    std::vector<size_t> kept;
    for (size_t s = 0; s < seconds.size(); s++) {
        if (std::isfinite(best[s])) {
            kept.push_back(votes[s]);
        }
    }
    if (kept.empty()) {
        return {0};
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    if (kept.size() <= max_kernels) {
        return kept;  // every shape runs its winner: nothing to improve
    }

    double total_weight = 0;
    for (double w : weights) {
        total_weight += w;
    }
    const double tolerance = 1e-9 * std::max(1.0, total_weight);
    drop_cheapest_until(kept, max_kernels, seconds, weights, best, tolerance);
    improve_by_swaps(kept, kernels, seconds, weights, best, tolerance);
    return kept;
}

double relative_loss(const CostTable &seconds, const std::vector<double> &shape_weights,
                     const std::vector<size_t> &kept) {
    const size_t kernels = checked_kernel_count(seconds);
    const std::vector<double> weights = checked_weights(seconds, shape_weights);
    check_kernel_indices(kept, kernels);
    const Loss loss = loss_of(seconds, weights, best_times(seconds), kept);
    return loss.unrunnable_weight > 0 ? INFINITY : loss.relative_time;
}

}  // namespace diet
