// PatternTuner's shape dispatch: which measured kernels serve which shapes of the family, decided
// on a table of measured and predicted times (dispatch/Dispatch.h), then verified by measurement
// at the training shapes (DietCode's verification step).
#include "search/PatternTuner.h"
#include "common/Errors.h"

#include "dispatch/Votes.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstdio>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

Dispatch PatternTuner::dispatch(const std::vector<Shape> &shapes, const std::vector<std::vector<int64_t>> &extents,
                                const std::vector<double> &flops, size_t max_kernels, bool verify, nlohmann::json *rep,
                                const std::vector<size_t> &unmeasured) {
    std::vector<size_t> cands = unmeasured;
    for (const auto &[key, secs] : measured_) {
        // The Ansor features need a lowering; a kernel that cannot be featurized cannot be predicted.
        if (secs && (opts_.model_features != "ansor" || !features(key.first).empty()) &&
            std::find(cands.begin(), cands.end(), key.first) == cands.end()) {
            cands.push_back(key.first);
        }
    }
    std::sort(cands.begin(), cands.end());
    cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
    if (cands.empty() || !can_predict()) return {};
    std::vector<int> training_index(shapes.size(), -1);
    for (size_t v = 0; v < shapes.size(); v++) {
        for (size_t t = 0; t < training_.size(); t++) {
            if (training_[t] == shapes[v]) training_index[v] = (int)t;
        }
    }
    // Named heuristic ("the run's model interpolates"): a shape outside the box of the training
    // shapes' extents (T = 1..4 when the smallest training shape is T = 5) votes with the prior
    // ranking the untuned run uses (the shipped model, else the heuristic), not with this run's
    // model, which has no measurement near it. The BERT dense layer tuned with 32 trials on
    // T = 5..128 sent T = 1..4 a staged column kernel 2.2x slower there than the untuned
    // dot-product kernel, which it had measured at T = 5 only.
    std::vector<int64_t> lo, hi;  // the training shapes' box, per extent
    for (const std::vector<int64_t> &t : ext_.host_extents) {
        lo.resize(std::max(lo.size(), t.size()), INT64_MAX);
        hi.resize(lo.size(), INT64_MIN);
        for (size_t d = 0; d < t.size(); d++) lo[d] = std::min(lo[d], t[d]), hi[d] = std::max(hi[d], t[d]);
    }
    const auto outside_training = [&](const std::vector<int64_t> &e) {
        for (size_t d = 0; d < e.size() && d < lo.size(); d++) {
            if (e[d] < lo[d] || e[d] > hi[d]) return true;
        }
        return false;
    };
    std::vector<bool> prior_votes(shapes.size(), false);
    if (model_.trained()) {
        for (size_t v = 0; v < shapes.size(); v++) prior_votes[v] = training_index[v] < 0 && outside_training(extents[v]);
    }
    auto table_for = [&](const std::vector<size_t> &ks) {
        std::vector<size_t> kk, pk;
        std::vector<std::vector<int64_t>> ee, pe;
        std::vector<double> ff, pf;
        for (size_t v = 0; v < shapes.size(); v++) {
            for (size_t k : ks) {
                (prior_votes[v] ? pk : kk).push_back(k);
                (prior_votes[v] ? pe : ee).push_back(extents[v]);
                (prior_votes[v] ? pf : ff).push_back(flops[v]);
            }
        }
        const std::vector<double> model_thr = kk.empty() ? std::vector<double>{} : predicted_throughputs(kk, ee, ff);
        const std::vector<double> prior_thr = pk.empty() ? std::vector<double>{} : prior_throughputs(pk, pe, pf);
        // Back in shape order: each shape's row comes from one predictor (rows are compared
        // within themselves only: relative times per shape).
        std::vector<double> thr;
        size_t next_model = 0, next_prior = 0;
        for (size_t v = 0; v < shapes.size(); v++) {
            for (size_t c = 0; c < ks.size(); c++) thr.push_back(prior_votes[v] ? prior_thr[next_prior++] : model_thr[next_model++]);
        }
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
    // or for none): the staging of most shapes' winners; the candidates restricted to it. Not
    // where in-place leaves run beside staged ones (MatmulExtents::unstaged_alternatives).
    CostTable table = table_for(cands);
    if (!ext_.unstaged_alternatives) {
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
    }
    DispatchProblem prob{shapes, extents, table, {}, max_kernels};
    // Predictions only (nothing measured, the shipped model's ranking): its within-shape tau is
    // about 0.5, so differences of a few percent are not resolved; 3% (a named heuristic) keeps
    // such a dispatch from splitting the family over near-ties.
    bool any_measured = false;
    for (const auto &[key, secs] : measured_) any_measured |= secs.has_value();
    if (!any_measured) prob.merge_tolerance = 0.03;
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
        // Without a model (trained or shipped) the table holds the heuristic's flops / score, in
        // arbitrary units: no mean time is printed then.
        if (!model_.trained() && !base_) {
            d.leaves[li].note = "chosen by the heuristic (no model)" + (measured.empty() ? "" : "; measured " + measured);
        } else {
            d.leaves[li].note = "mean time over its shapes " + (n ? ms(sum / n) : std::string("-")) +
                                (measured.empty() ? "" : "; measured " + measured);
        }
    }

    // DietCode's verification step: the tree's kernel at every training shape, measured in one
    // round (on a farm, one job for all shapes instead of one per shape).
    auto dispatched = [&](size_t t) { return cands[index_of(d.leaves[d.leaf_for(ext_.host_extents[t])].kernel)]; };
    if (verify) {
        std::vector<std::pair<size_t, size_t>> unverified;
        for (size_t t = 0; t < training_.size(); t++) {
            if (!measured_.count({dispatched(t), t})) unverified.emplace_back(dispatched(t), t);
        }
        const int before = measurements_;
        if (!unverified.empty()) measure_pairs(unverified);
        verification_measurements_ += measurements_ - before;
    }
    nlohmann::json checks = nlohmann::json::array();
    for (size_t t = 0; t < training_.size(); t++) {
        const size_t kd = dispatched(t);
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
        std::vector<Shape> by_prior;
        for (size_t v = 0; v < shapes.size(); v++) {
            if (prior_votes[v]) by_prior.push_back(shapes[v]);
        }
        // The shapes outside the training shapes' box, which voted with the prior.
        (*rep)["prior_votes"] = by_prior.empty() ? std::string() : describe_shapes(by_prior);
        (*rep)["verification"] = checks;
    }
    return d;
}

}  // namespace diet
