// Evolutionary search over micro-kernels, scored for all training shapes at once (DietCode's joint
// search). The search knows nothing about Halide: the cost model and the measurements come in as
// callbacks, so the policy can be tested on synthetic landscapes.
#pragma once

#include "space/MicroKernel.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace diet {

struct SearchParams {
    int population = 64;        // kernels kept per generation
    int generations = 4;        // evolution steps per round before picking what to measure
    int measures_per_round = 8; // measurements per round (the last round may use fewer)
    int budget = 64;            // total measurements, exactly; 0: no measurement at all
    double mutation_prob = 0.85;
    double crossover_prob = 0.15;
    double eps_greedy = 0.05;   // share of each round's picks drawn at random
    uint64_t seed = 0;
    // Kernels the initial population starts with (the rest is drawn at random): a prior's
    // favourites, so that a kind of kernel few random draws reach is measured early.
    std::vector<size_t> seeds;
    // (kernel, shape) pairs the first round measures before any evolved pick (within the budget):
    // the untuned choice at each shape, so that tuning never ends slower than no tuning there.
    std::vector<std::pair<size_t, size_t>> first_round;
};

struct Trial {
    size_t kernel;  // index into the space
    size_t shape;   // index into the training shapes
    std::optional<double> seconds;  // empty: the measurement failed (recorded, never retried)
};

// predict(kernels) -> score[k][s]: predicted throughput of kernel k at shape s (higher is better).
using Predict = std::function<std::vector<std::vector<double>>(const std::vector<size_t> &kernels)>;
// measure(batch) -> seconds (or failure) for each (kernel, shape) pair, in order.
using Measure = std::function<std::vector<std::optional<double>>(const std::vector<std::pair<size_t, size_t>> &batch)>;
// Called after every round with all trials so far (retrain the model here).
using Learn = std::function<void(const std::vector<Trial> &trials)>;
// Progress line for stderr.
using Report = std::function<void(const std::string &line)>;

struct SearchResult {
    std::vector<Trial> trials;
    // Per training shape: the kernel with the best measured time, else the best predicted one.
    std::vector<size_t> best_kernel;
    std::vector<std::optional<double>> best_seconds;
};

// shape_weights: each shape's share of the family (e.g. how many shapes it stands for).
SearchResult evolutionary_search(const std::vector<MicroKernel> &space, const std::vector<double> &shape_weights,
                                 const Predict &predict, const Measure &measure, const Learn &learn,
                                 const SearchParams &params, const Report &report = {});

// Neighbors of a kernel in the space: kernels that differ from it in exactly one field.
std::vector<size_t> neighbors(const std::vector<MicroKernel> &space, size_t k);

}  // namespace diet
