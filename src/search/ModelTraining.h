// How the tuner's cost model learns and how its quality is judged: f_MK's label (a kernel's own
// throughput on a log scale), the tree parameters, and Kendall's tau of predicted against measured
// times, over all pairs and within each shape. Shared by the search's model, the cross-validation
// and the dispatch (search/PatternTuner.h); no Halide in here.
#pragma once

#include "cost/PackSumModel.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <vector>

namespace diet {

// f_MK's label: the micro-kernel's own throughput (adaptation divided out) on a log scale,
// log2(1 + GFLOP/s). Throughputs span two orders of magnitude across kernels and shapes; on a
// linear scale the label-weighted squared error only learns the fastest few, on a log scale it
// ranks the whole space (8-fold cross-validation on a 96-measurement dense run: Kendall's tau
// within a shape 0.60 vs 0.42 linear). The label weighting still favours fast kernels.
double label_of_throughput(double flops_per_second);
// The inverse of label_of_throughput (FLOP/s of a label; negative labels read as 0).
double throughput_of_label(double label);

// Shallow trees: a tuning run trains on tens of programs (same cross-validation: depth 3 beat the
// default depth 10 of Ansor's larger data sets).
PackSumModelParams model_params(Objective objective = Objective::Regression);

// The stage-rule plan model (search/PlanSearch.cpp, and `diet_model eval-plans` that judges it):
// pairwise, depth 5, 400 rounds, trained on rank_labels_within_groups. On the committed plan
// dataset (979 plans, 33 groups) this raised the within-shape tau from 0.424 / 0.407 (8-fold,
// fold seeds 1 / 2; depth 3 on log2(1 + best / time)) to 0.468 / 0.463, and with each pipeline
// held out from 0.214 to 0.230; deeper trees raised the 8-fold figure further but lowered the
// held-out one (apps/results/cpu/cost_model/plan_model_experiments_2026-11-29/).
PackSumModelParams plan_model_params();
// Each program's rank by measured time within its group, scaled into (0, 1]: (programs slower
// than it + half of those as fast, itself included, + 1/2) / group size; the fastest 1, ties share. The pairwise loss weighs a pair by its label gap: with ranks, by how many of the
// group's programs lie between the two, not by how much faster one is (the fastest few no longer
// dominate the loss).
std::vector<float> rank_labels_within_groups(const std::vector<size_t> &group, const std::vector<double> &seconds);

// Kendall's tau within each shape, averaged over the shapes with at least three pairs: how well
// the model ranks the kernels at one shape, which is what the search and the dispatch ask of it.
// (Across shapes the tau of times is inflated by the shapes' sizes alone.)
double mean_tau_within_shape(const std::vector<size_t> &shape, const std::vector<double> &pred,
                             const std::vector<double> &meas);

struct ModelQuality {
    size_t pairs = 0;
    double tau_seconds = 0;       // predicted vs measured time, all pairs
    double tau_throughput = 0;    // predicted vs measured FLOP/s, all pairs
    double tau_within_shape = 0;  // mean over shapes of the tau of times at that shape
    // Over the shapes with at least two measured programs: the fraction where the measured best is
    // the model's first choice (top-1) or among its first five (top-5); -1 when no shape qualifies.
    double top1_recall = -1, top5_recall = -1;
    nlohmann::json to_json() const {
        return {{"pairs", pairs},
                {"kendall_tau_seconds", tau_seconds},
                {"kendall_tau_throughput", tau_throughput},
                {"kendall_tau_within_shape", tau_within_shape},
                {"top1_recall", top1_recall},
                {"top5_recall", top5_recall}};
    }
};

// The quality of predicted against measured throughputs of pairs at training shapes shape[i];
// flops[i] (the pair's work) turns throughputs into the times the taus compare.
// k-fold cross-validation: each program's score as predicted by a model (params) trained on the
// other folds (folds by a seeded shuffle, deterministic), on the labels' scale (the model
// normalizes labels by their largest value; each fold's scale is undone). Empty when there are
// fewer than three programs per fold for two folds, or a fold's model cannot be trained.
std::vector<double> cross_validated_scores(const std::vector<FeatureRows> &rows, const std::vector<float> &labels,
                                           const std::vector<size_t> &groups, int folds, uint64_t seed,
                                           const PackSumModelParams &params);

// Top-k recall of the measured best within each group (see ModelQuality).
double top_k_recall(const std::vector<size_t> &group, const std::vector<double> &pred_throughput,
                    const std::vector<double> &meas_throughput, size_t k);

ModelQuality quality_of(const std::vector<size_t> &shape, const std::vector<double> &pred_throughput,
                        const std::vector<double> &meas_throughput, const std::vector<double> &flops);

}  // namespace diet
