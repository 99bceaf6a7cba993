// diet_model: trains and evaluates Diet's cost model on a dataset (cost/Dataset.h).
//
//   diet_model eval  --data models/data/cpu_avx512_random.jsonl.gz [--json report.json]
//   diet_model train --data models/data/cpu_avx512_random.jsonl.gz --out models/cpu_x86_avx512.json
//
// eval prints, for the loop-nest features (features/KernelFeatures.h) under each objective
// (pairwise ranking within a shape, label-weighted regression), how well the model orders the
// kernels measured at one shape of one stage ("group"):
//   - cross-validated: 8 folds over the groups' records, each fold predicted by a model trained on
//     the others (every group is seen in training, other kernels of it are predicted);
//   - held out: one family of forms (dense, layout, bmm_nt, bmm_nn, conv, int) at a time, predicted
//     by a model trained on the other families only (pipelines the model never saw);
// as the mean over groups of Kendall's tau between predicted and measured times, and the top-1
// and top-5 recall of each group's measured best; and the analytic heuristic's figures
// (space/MicroKernel.h) on the same groups, as the baseline the model has to beat.
// train-plans does the same for stage-rule plans (features/PlanFeatures.h; the plan model the
// stage-rule search starts from, cost/BaseModel.h base_plan_model_path).
// train fits one model on every record and saves it with Diet's attributes (pipeline "*": any
// pipeline; target: the instruction-set class the data was measured on), the file the plugin
// loads by default (cost/BaseModel.h).
#include "cost/BaseModel.h"
#include "cost/Dataset.h"
#include "cost/PackSumModel.h"
#include "features/KernelFeatures.h"
#include "features/PlanFeatures.h"
#include "search/ModelTraining.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>

using namespace diet;

namespace {

// Tree parameters for experiments (0: the shipped model's, cost/BaseModel.cpp).
int g_depth = 0, g_rounds = 0;
std::vector<std::string> g_drop;  // plan feature name prefixes zeroed (experiments)
double g_eta = 0;

struct Data {
    std::vector<DatasetRecord> recs;  // measured (seconds present) only
    std::vector<FeatureRows> rows;
    std::vector<float> labels;        // label_of_throughput
    std::vector<double> throughput;
    std::vector<size_t> group;        // index of record's group
    std::vector<std::string> family;  // the form's family ("dense", "bmm_nt", ...) or the pipeline
};

std::string family_of(const DatasetRecord &r) {
    if (r.label.empty()) return r.pipeline;
    return r.label.substr(0, r.label.find('/'));
}

// The unit a plan record is held out with: its pipeline, except that random pipelines
// (apps/diet_collect_pipelines.cpp, "random/<seed>") are held out in five folds by seed, so that
// each hand-written pipeline is predicted by a model trained on the others and on 4/5 of the
// random ones.
std::string plan_family(const std::string &label) {
    if (label.rfind("random/", 0) != 0) return label;
    const std::string seed = label.substr(7);
    unsigned long v = 0;
    for (char c : seed) v = std::isdigit((unsigned char)c) ? v * 10 + (unsigned long)(c - '0') : v;
    return "random/fold" + std::to_string(v % 5);
}

// Plans: one group per pipeline and shape; labelled by rank within the group, as the search's
// plan model is (search/ModelTraining.h rank_labels_within_groups; only the order within a group
// means anything); "heuristic": the rules' estimate.
Data load_plans(const std::vector<std::string> &paths, std::vector<double> *estimate) {
    Data d;
    std::map<std::string, size_t> groups;
    std::vector<PlanRecord> plans;
    std::vector<double> seconds;
    for (PlanRecord &r : read_plan_dataset(paths)) {
        if (!r.seconds || *r.seconds <= 0 || r.rows.empty()) continue;
        seconds.push_back(*r.seconds);
        plans.push_back(std::move(r));
    }
    std::vector<size_t> dropped;
    for (size_t f = 0; f < plan_feature_names().size(); f++) {
        for (const std::string &p : g_drop) {
            if (plan_feature_names()[f].rfind(p, 0) == 0) dropped.push_back(f);
        }
    }
    for (PlanRecord &r : plans) {
        for (auto &row : r.rows) {
            for (size_t f : dropped) {
                if (f < row.size()) row[f] = 0;
            }
        }
        d.rows.push_back(r.rows);
        d.throughput.push_back(1.0 / *r.seconds);
        d.group.push_back(groups.emplace(r.group(), groups.size()).first->second);
        d.family.push_back(plan_family(r.label.empty() ? r.pipeline : r.label));
        estimate->push_back(1.0 / std::max(r.estimate, 1e-30));
        DatasetRecord stub;  // only the count of records is read for plans
        d.recs.push_back(stub);
    }
    d.labels = rank_labels_within_groups(d.group, seconds);
    return d;
}

Data load(const std::vector<std::string> &paths) {
    Data d;
    std::map<std::string, size_t> groups;
    for (DatasetRecord &r : read_dataset(paths)) {
        if (!r.seconds || *r.seconds <= 0) continue;
        const double thr = r.flops / *r.seconds;
        d.rows.push_back({kernel_features(r.kernel)});
        d.labels.push_back((float)label_of_throughput(thr));
        d.throughput.push_back(thr);
        d.group.push_back(groups.emplace(r.group(), groups.size()).first->second);
        d.family.push_back(family_of(r));
        d.recs.push_back(std::move(r));
    }
    return d;
}

struct Quality {
    double tau = 0, top1 = -1, top5 = -1;
    size_t groups = 0;
    nlohmann::json to_json() const {
        return {{"kendall_tau_within_shape", tau}, {"top1_recall", top1}, {"top5_recall", top5}, {"groups", groups}};
    }
};

Quality quality(const Data &d, const std::vector<size_t> &ix, const std::vector<double> &pred_throughput) {
    std::vector<size_t> g;
    std::vector<double> pt, mt, pm, mm;
    for (size_t j = 0; j < ix.size(); j++) {
        g.push_back(d.group[ix[j]]);
        pm.push_back(pred_throughput[j]);
        mm.push_back(d.throughput[ix[j]]);
        // Times at one group share the work, so the order of times is the reverse of throughputs.
        pt.push_back(1.0 / std::max(pred_throughput[j], 1e-30));
        mt.push_back(1.0 / d.throughput[ix[j]]);
    }
    Quality q;
    q.tau = mean_tau_within_shape(g, pt, mt);
    q.top1 = top_k_recall(g, pm, mm, 1);
    q.top5 = top_k_recall(g, pm, mm, 5);
    std::map<size_t, int> n;
    for (size_t x : g) n[x]++;
    for (auto [k, c] : n) q.groups += c >= 3;
    return q;
}

// Labels are normalized by their largest value while training; predictions scale back by it.
bool g_plans = false;  // predictions are plan labels (relative speeds), not kernel throughput labels

PackSumModelParams params_for(Objective o) {
    // Plans: the search's plan model's parameters (the pairwise objective's; regression keeps
    // them, with its own objective).
    PackSumModelParams params = g_plans ? plan_model_params() : base_model_params(o);
    params.objective = o;
    if (g_depth > 0) params.max_depth = g_depth;
    if (g_rounds > 0) params.rounds = g_rounds;
    if (g_eta > 0) params.eta = g_eta;
    return params;
}

double throughput_of(double label) {
    return g_plans ? std::exp2(label) : throughput_of_label(label);
}

std::vector<double> predict(const PackSumModel &m, const Data &d, const std::vector<size_t> &ix) {
    std::vector<FeatureRows> p;
    for (size_t i : ix) p.push_back(d.rows[i]);
    std::vector<double> out;
    for (float s : m.predict(p)) out.push_back(throughput_of(s * m.info().label_scale));
    return out;
}

std::unique_ptr<PackSumModel> fit(const Data &d, const std::vector<size_t> &ix, Objective o) {
    std::vector<FeatureRows> p;
    std::vector<float> y;
    std::vector<size_t> g;
    for (size_t i : ix) {
        p.push_back(d.rows[i]);
        y.push_back(d.labels[i]);
        g.push_back(d.group[i]);
    }
    auto m = std::make_unique<PackSumModel>(params_for(o));
    m->train(p, y, g);
    ModelInfo info;
    info.label_scale = y.empty() ? 1.0 : *std::max_element(y.begin(), y.end());
    m->set_info(info);
    return m;
}

Quality cross_validated(const Data &d, Objective o, int folds, uint64_t seed) {
    std::vector<double> scores = cross_validated_scores(d.rows, d.labels, d.group, folds, seed, params_for(o));
    std::vector<double> pred;
    for (double s : scores) pred.push_back(throughput_of(s));
    std::vector<size_t> all(d.recs.size());
    for (size_t i = 0; i < all.size(); i++) all[i] = i;
    if (pred.size() != all.size()) return {};
    return quality(d, all, pred);
}

// Each family held out in turn; the figures over all held-out predictions, and per family.
Quality held_out(const Data &d, Objective o, nlohmann::json *per_family) {
    std::vector<std::string> fams = d.family;
    std::sort(fams.begin(), fams.end());
    fams.erase(std::unique(fams.begin(), fams.end()), fams.end());
    std::vector<double> pred(d.recs.size());
    for (const std::string &fam : fams) {
        std::vector<size_t> train, test;
        for (size_t i = 0; i < d.recs.size(); i++) (d.family[i] == fam ? test : train).push_back(i);
        auto m = fit(d, train, o);
        std::vector<double> p = predict(*m, d, test);
        for (size_t j = 0; j < test.size(); j++) pred[test[j]] = p[j];
        (*per_family)[fam] = quality(d, test, p).to_json();
    }
    std::vector<size_t> all(d.recs.size()), hand;
    std::vector<double> hand_pred;
    for (size_t i = 0; i < all.size(); i++) {
        all[i] = i;
        if (d.family[i].rfind("random/", 0) != 0) {
            hand.push_back(i);
            hand_pred.push_back(pred[i]);
        }
    }
    // With random pipelines in the data, the figure on the hand-written ones alone too.
    if (!hand.empty() && hand.size() < all.size()) (*per_family)["(hand-written pipelines)"] = quality(d, hand, hand_pred).to_json();
    return quality(d, all, pred);
}

Quality heuristic(const Data &d) {
    std::vector<double> pred;
    std::vector<size_t> all;
    for (size_t i = 0; i < d.recs.size(); i++) {
        const KernelAtShape &k = d.recs[i].kernel;
        MatmulExtents e;
        e.host_extents = {k.extents};
        e.reduction_max = k.reduction_points;
        pred.push_back(heuristic_score(k.kernel, e, k.machine.cores));
        all.push_back(i);
    }
    return quality(d, all, pred);
}

void print(const std::string &what, const Quality &q) {
    std::printf("  %-34s tau within shape %6.3f   top-1 %5.2f   top-5 %5.2f   (%zu groups)\n", what.c_str(), q.tau,
                q.top1, q.top5, q.groups);
}

// Both objectives, cross-validated and with each family (or pipeline: `held`) held out: printed,
// and into rep[objective].
void evaluate_objectives(const Data &d, int folds, uint64_t seed, const std::string &what, const std::string &held,
                         nlohmann::json &rep) {
    for (Objective o : {Objective::PairwiseRank, Objective::Regression}) {
        const std::string name = objective_name(o);
        Quality cv = cross_validated(d, o, folds, seed);
        print(what + ", " + name + ", " + std::to_string(folds) + "-fold", cv);
        nlohmann::json per;
        Quality ho = held_out(d, o, &per);
        print(what + ", " + name + ", " + held + " held out", ho);
        for (auto &[f, q] : per.items()) {
            std::printf("      %-16s tau %6.3f  top-1 %5.2f  top-5 %5.2f\n", f.c_str(),
                        q["kendall_tau_within_shape"].get<double>(), q["top1_recall"].get<double>(),
                        q["top5_recall"].get<double>());
        }
        rep[name] = {{"cross_validated", cv.to_json()}, {"held_out_" + held, ho.to_json()}, {"per_" + held, per}};
    }
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"diet_model: train and evaluate Diet's cost model on a dataset"};
    app.require_subcommand(1);
    std::vector<std::string> data;
    std::string json_out, model_out, objective = "pairwise";
    int folds = 8;
    uint64_t seed = 1;
    auto *ev = app.add_subcommand("eval", "cross-validated and held-out ranking quality, both objectives");
    ev->add_option("--data", data, "dataset files (.jsonl, .jsonl.gz)")->required();
    ev->add_option("--json", json_out, "also write the figures as JSON here");
    ev->add_option("--folds", folds, "cross-validation folds");
    ev->add_option("--seed", seed, "fold assignment seed");
    ev->add_option("--depth", g_depth, "tree depth (experiments; default: the shipped model's)");
    ev->add_option("--rounds", g_rounds, "boosting rounds (experiments)");
    ev->add_option("--eta", g_eta, "learning rate (experiments)");
    auto *ep = app.add_subcommand("eval-plans", "the same figures for stage-rule plans (records of kind plan)");
    ep->add_option("--data", data, "dataset files (.jsonl, .jsonl.gz)")->required();
    ep->add_option("--json", json_out, "also write the figures as JSON here");
    ep->add_option("--folds", folds, "cross-validation folds");
    ep->add_option("--seed", seed, "fold assignment seed");
    ep->add_option("--depth", g_depth, "tree depth (experiments; default: the shipped model's)");
    ep->add_option("--rounds", g_rounds, "boosting rounds (experiments)");
    ep->add_option("--eta", g_eta, "learning rate (experiments)");
    ep->add_option("--drop", g_drop, "plan features to zero, by name prefix (experiments)");
    auto *tp = app.add_subcommand("train-plans", "fit the plan model on every plan record and save it");
    tp->add_option("--data", data, "dataset files (.jsonl, .jsonl.gz)")->required();
    tp->add_option("--out", model_out, "model file to write (.json)")->required();
    tp->add_option("--depth", g_depth, "tree depth (default: the search's plan model's)");
    auto *tr = app.add_subcommand("train", "fit the model on every record and save it");
    tr->add_option("--data", data, "dataset files (.jsonl, .jsonl.gz)")->required();
    tr->add_option("--out", model_out, "model file to write (.json)")->required();
    tr->add_option("--objective", objective, "pairwise or regression");
    CLI11_PARSE(app, argc, argv);

    try {
        if (tp->parsed()) {
            g_plans = true;
            std::vector<double> estimate;
            Data d = load_plans(data, &estimate);
            if (d.recs.empty()) {
                std::cerr << "diet_model: no measured plan in the data\n";
                return 1;
            }
            std::set<std::string> classes;
            for (const PlanRecord &r : read_plan_dataset(data)) classes.insert(target_class(Halide::Target(r.target)));
            if (classes.size() != 1) {
                std::cerr << "diet_model: the plan data mixes " << classes.size() << " target classes; train one model per class\n";
                return 1;
            }
            std::vector<size_t> all(d.recs.size());
            for (size_t i = 0; i < all.size(); i++) all[i] = i;
            auto m = fit(d, all, Objective::PairwiseRank);
            const ModelInfo info = shipped_model_info(m->info(), *classes.begin(), "plan", (int64_t)d.recs.size());
            m->set_info(info);
            m->save(model_out);
            std::printf("saved %s (plans, pairwise, %zu records, target %s)\n", model_out.c_str(), d.recs.size(), info.target.c_str());
            return 0;
        }
        if (ep->parsed()) {
            g_plans = true;
            std::vector<double> estimate;
            Data d = load_plans(data, &estimate);
            std::printf("%zu measured plans, %zu groups\n", d.recs.size(),
                        (size_t)(d.group.empty() ? 0 : *std::max_element(d.group.begin(), d.group.end()) + 1));
            if (d.recs.empty()) return 1;
            std::vector<size_t> all(d.recs.size());
            for (size_t i = 0; i < all.size(); i++) all[i] = i;
            nlohmann::json rep;
            rep["records"] = d.recs.size();
            Quality h = quality(d, all, estimate);
            print("analytic estimate (the rules')", h);
            rep["estimate"] = h.to_json();
            evaluate_objectives(d, folds, seed, "plan features", "pipeline", rep);
            if (!json_out.empty()) std::ofstream(json_out) << rep.dump(2) << "\n";
            return 0;
        }
        Data d = load(data);
        std::map<std::string, int> fams;
        for (const auto &f : d.family) fams[f]++;
        std::printf("%zu measured records, %zu groups; families:", d.recs.size(),
                    (size_t)(d.group.empty() ? 0 : *std::max_element(d.group.begin(), d.group.end()) + 1));
        for (auto [f, n] : fams) std::printf(" %s=%d", f.c_str(), n);
        std::printf("\n");
        if (d.recs.empty()) {
            std::cerr << "diet_model: no measured record in the data\n";
            return 1;
        }
        if (ev->parsed()) {
            nlohmann::json rep;
            rep["records"] = d.recs.size();
            Quality h = heuristic(d);
            print("analytic heuristic", h);
            rep["heuristic"] = h.to_json();
            evaluate_objectives(d, folds, seed, "kernel features", "family", rep);
            if (!json_out.empty()) std::ofstream(json_out) << rep.dump(2) << "\n";
        } else {
            std::vector<size_t> all(d.recs.size());
            for (size_t i = 0; i < all.size(); i++) all[i] = i;
            auto m = fit(d, all, objective_from_name(objective));
            const ModelInfo info = shipped_model_info(m->info(), target_class_of_dataset(d.recs.front()), "kernel",
                                                      (int64_t)d.recs.size());
            for (const DatasetRecord &r : d.recs) {
                if (target_class_of_dataset(r) != info.target) {
                    std::cerr << "diet_model: the data mixes targets (" << info.target << " and "
                              << target_class_of_dataset(r) << "); train one model per target\n";
                    return 1;
                }
            }
            m->set_info(info);
            m->save(model_out);
            std::printf("saved %s (%s, %zu records, target %s)\n", model_out.c_str(), objective.c_str(), d.recs.size(),
                        info.target.c_str());
        }
    } catch (const Halide::CompileError &e) {
        std::cerr << "diet_model: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
