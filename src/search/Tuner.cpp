// tune(): the tuning run over a pipeline's matmul-like stages, one PatternTuner each (search,
// cost model, measurements: search/PatternTuner.h), with the tuning log's history
// (search/TunerHistory.h) and the report (search/TunerReport.h).
#include "search/Tuner.h"

#include <optional>

#include "cost/BaseModel.h"
#include "dispatch/Dispatch.h"
#include "features/Lowering.h"
#include "measure/Fingerprint.h"
#include "measure/Measure.h"
#include "measure/TuningLog.h"
#include "search/Evolution.h"
#include "search/PatternTuner.h"
#include "search/TunerHistory.h"
#include "search/TunerReport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <set>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

Pipeline as_pipeline(const std::vector<Function> &outputs) {
    std::vector<Func> fs;
    for (const Function &f : outputs) fs.emplace_back(f);
    return Pipeline(fs);
}

// No trials and no model: the heuristic's per-shape scores also move with each shape's wave and
// padding fractions, and a dispatch built on them would fragment into many leaves (each compiled,
// with its tile variants). Only the structural choice is taken: the heuristic's best kernel of
// each kind over the family (column kernels staging their operands, column kernels reading them
// in place where the space holds both: unstaged_alternatives, and dot-product kernels; within a
// kind the same tie rule as choose_by_heuristic), each training shape taking the one it scores
// highest (ties: in place, then staged, then dot-product: a column kernel over a dot one as before).
// With one kind: its best kernel.
std::vector<size_t> heuristic_kind_per_shape(const std::vector<MicroKernel> &space, const MatmulExtents &ext,
                                             int workers) {
    const auto kind_of = [](const MicroKernel &k) { return k.cpu.dot ? 2 : k.cpu.stage_strided ? 1 : 0; };
    std::map<int, size_t> best_of;
    std::map<int, double> score;
    for (size_t k = 0; k < space.size(); k++) {
        const int kind = kind_of(space[k]);
        const double sc = heuristic_score(space[k], ext, workers);
        if (!best_of.count(kind) || sc > score[kind] * (1 + 1e-9)) {
            score[kind] = sc;
            best_of[kind] = k;
        }
    }
    std::vector<size_t> best;
    for (const std::vector<int64_t> &e : ext.host_extents) {
        const MatmulExtents one = extents_at_one_shape(ext, e);
        std::optional<size_t> pick;
        double pick_score = -1;
        for (const auto &[kind, k] : best_of) {
            const double sc = best_of.size() == 1 ? 0.0 : heuristic_score(space[k], one, workers);
            if (!pick || sc > pick_score) {
                pick = k;
                pick_score = sc;
            }
        }
        best.push_back(*pick);
    }
    return best;
}

}  // namespace

std::vector<double> training_weights(const ShapeFamily &family, const std::vector<Shape> &training) {
    std::vector<double> w(training.size(), 1.0);
    if (family.vars.size() != 1 || training.empty()) return w;
    std::fill(w.begin(), w.end(), 0.0);
    const std::string &v = family.vars[0].name;
    for (int64_t x : family.vars[0].values) {
        size_t nearest = 0;
        for (size_t s = 1; s < training.size(); s++) {
            if (std::llabs(training[s].at(v) - x) < std::llabs(training[nearest].at(v) - x)) nearest = s;
        }
        w[nearest] += 1.0;
    }
    return w;
}

TuneResult tune(const std::vector<Function> &outputs, const FunctionDAG &dag, const ShapeFamily &family,
                const std::vector<Shape> &training, const std::vector<KernelChoice> &initial, const Target &target,
                const CpuLimits &cpu, const GpuLimits &gpu, const Options &given) {
    // The loop-nest features (model_features=kernel, the default) describe CPU micro-kernels
    // only: a GPU target's model learns from the lowered Stmt's features (Ansor's).
    Options opts = given;
    if (target.has_gpu_feature() && opts.model_features == "kernel") {
        opts.model_features = "ansor";
        if (opts.trials > 0) std::cerr << "[diet] GPU target: the cost model uses the lowered Stmt's features (model_features=ansor)\n";
    }
    TuneResult result;
    result.kernels = initial;
    if (initial.empty()) return result;
    const auto start = Clock::now();
    const bool on_gpu = target.has_gpu_feature();
    const int workers = on_gpu ? gpu.sm_count : cpu.cores;
    const std::string fingerprint = pipeline_fingerprint(outputs, target);
    const std::string family_key = dispatch_key(family, training, opts);

    // The tuning log, read once (search/TunerHistory.h); a file that is not a Diet log is neither
    // read nor appended to (log_path is then "").
    const TuningHistory history = read_tuning_history(opts, fingerprint, target);
    const std::string &log_path = history.log_path;

    // No trials: apply the decisions a tuning run of this pipeline, target and family left in the
    // log ("apply history best"): no measurement, and the same schedule source as that run.
    if (opts.trials == 0 && !log_path.empty()) {
        if (replay_recorded_dispatch(history, fingerprint, target, family_key, initial, opts, result)) return result;
        if (opts.model_path.empty()) {
            std::cerr << "[diet] the tuning log " << opts.log_path
                      << " holds no dispatch decision for this pipeline, target and shape family (pipeline "
                      << fingerprint << ", target " << target.to_string() << ", family \"" << family_key
                      << "\"); using the heuristic\n";
        }
    }
    // The shipped model (cost/BaseModel.h), for CPU kernels: ranks them when nothing is measured
    // and seeds a tuning run's predictions. Rejected files are named once, and Diet goes on.
    std::unique_ptr<BaseModel> base;
    // Packed integer kernels (CpuKernel::k_pack), deep tiles (CpuKernel::depth) and dot kernels
    // that gather an operand (gathered_along_reduction) are not in the shipped model's training
    // data, and its features do not tell them apart from the others: the heuristic ranks those
    // pipelines.
    const auto unseen_by_model = [&](const KernelChoice &k) {
        const MatmulPattern &p = k.pattern;
        // Gathering dot-product kernels only where the space holds dot-product kernels at all.
        const bool gathering_dots = dot_kernels_gather(p) && dot_kernels_apply(p, cpu.lanes(p.type));
        return packed_reduction_factor(p, cpu) > 1 || p.depth_dim > 0 || gathering_dots;
    };
    const bool unseen = !on_gpu && std::any_of(result.kernels.begin(), result.kernels.end(), unseen_by_model);
    if (unseen && opts.trials == 0 && opts.base_model != "none") {
        std::cerr << "[diet] packed integer kernels, deep register tiles or gathering dot-product kernels: the "
                     "heuristic ranks them (the shipped cost model has not seen them)\n";
    }
    if (!on_gpu && opts.model_features == "kernel" && !unseen) {  // it reads loop-nest features only
        const std::string path = base_model_path(opts.base_model, target);
        std::string why;
        base = BaseModel::load(path, target_class(target), &why);
        if (!why.empty()) {
            std::cerr << "[diet] warning: the shipped cost model " << path << " is not used: it is " << why
                      << "; using the heuristic\n";
        } else if (!base && !opts.base_model.empty() && opts.base_model != "none") {
            std::cerr << "[diet] warning: no cost model at " << path << " (HL_DIET_BASE_MODEL); using the heuristic\n";
        }
    }
    // With no trials and no model, the heuristic predicts per shape (PatternTuner::set_heuristic_predictions).
    // (CPU only: GPU kernels keep the heuristic's one kernel until measured.)
    const bool heuristic_only = opts.trials == 0 && opts.model_path.empty() && !base;
    if (heuristic_only && on_gpu) return result;
    // The heuristic's per-shape ranking only changes the choice where the space mixes kernel kinds
    // whose costs scale differently with the shape (dot-product and column kernels, deep and flat
    // register tiles: CpuKernel::depth); elsewhere
    // its one kernel stands, and nothing is bound (binding every voting shape costs time).
    if (heuristic_only) {
        bool mixed = false;
        for (const KernelChoice &k : result.kernels) {
            mixed |= dot_kernels_apply(k.pattern, cpu.lanes(k.pattern.type) * packed_reduction_factor(k.pattern, cpu)) ||
                     k.pattern.depth_dim > 0;
        }
        if (!mixed) return result;
    }

    // Bind every training shape now, while the estimates are still symbolic.
    // Without trials, a pipeline that cannot be bound (an input without estimates) keeps the
    // heuristic's kernel, with one warning: ranking is an improvement, not a requirement. (Tuning
    // needs the bindings to measure, and says which input lacks estimates.)
    Pipeline whole = as_pipeline(outputs);
    std::vector<ShapeBinding> bindings;
    const std::vector<Shape> vote_shapes = family.training_shapes(family.size() <= 4096 ? 4096 : 512, opts.seed);
    std::vector<ShapeBinding> vote_bindings;
    try {
        for (const Shape &s : training) bindings.push_back(bind_shape(whole, s));
        // The shapes that vote in the dispatch: the whole family, or a spread of 512 for huge ones.
        for (const Shape &s : vote_shapes) vote_bindings.push_back(bind_shape(whole, s));
    } catch (const Halide::Error &e) {
        if (opts.trials > 0) throw;
        std::string why = e.what();
        while (!why.empty() && why.back() == '\n') why.pop_back();
        std::cerr << "[diet] warning: the kernels are not ranked per shape (" << why
                  << "); the heuristic's kernel serves every shape\n";
        return result;
    }
    const std::vector<double> weights = training_weights(family, training);

    MeasureSetup setup = MeasureSetup::from_options(opts, target);
    setup.log_path = log_path;  // "" when the named file is not a Diet log
    Measurer measurer(setup);

    nlohmann::json report = run_report_header(opts, target, workers, training, weights);

    for (size_t pi = 0; pi < result.kernels.size(); pi++) {
        const MatmulPattern &p = result.kernels[pi].pattern;
        MatmulExtents ext = matmul_extents(p, family, training);
        ext.gpu_jit_registers = gpu.jit_registers;
        std::vector<MicroKernel> space = on_gpu ? enumerate_gpu_kernels(p, ext, gpu) : enumerate_cpu_kernels(p, ext, cpu);
        PatternTuner tuner(outputs, result.kernels, pi, training, bindings, ext, space, target, cpu, workers, opts,
                           &measurer, &history.logged);
        tuner.set_fingerprint(fingerprint);
        tuner.set_base_model(base.get());
        tuner.set_heuristic_predictions(heuristic_only);
        if (!opts.model_path.empty()) tuner.warm_start(opts.model_path, fingerprint, target.to_string());

        // The stages are tuned one after another: share the budget evenly.
        const int budget = opts.trials / (int)result.kernels.size() + (pi < opts.trials % result.kernels.size() ? 1 : 0);
        std::vector<size_t> all(training.size());
        for (size_t s = 0; s < all.size(); s++) all[s] = s;
        std::vector<size_t> best(training.size(), 0);
        if (heuristic_only) {
            best = heuristic_kind_per_shape(space, ext, workers);
        } else if (opts.mode == "joint") {
            SearchResult r = tuner.search(all, weights, budget, opts.seed);
            best = r.best_kernel;
        } else if (opts.mode == "per_shape") {
            // Ansor-style: an independent search per training shape, the budget split among them.
            for (size_t s = 0; s < training.size(); s++) {
                int b = budget / (int)training.size() + (s < budget % training.size() ? 1 : 0);
                SearchResult r = tuner.search({s}, {1.0}, b, opts.seed + s);
                best[s] = r.best_kernel[0];
            }
        } else if (opts.mode == "random") {
            // Uniform samples of (kernel, shape) pairs, no model in the loop: for a cost model's
            // dataset (HL_DIET_DATASET), whose ranking must be learned over the whole space.
            SearchResult r = tuner.random_search(budget, opts.seed);
            best = r.best_kernel;
        } else {  // max_shape: tune the largest training shape only and use its kernel everywhere
            size_t largest = 0;
            for (size_t s = 1; s < training.size(); s++) {
                if (tuner.flops(s) > tuner.flops(largest)) largest = s;
            }
            SearchResult r = tuner.search({largest}, {1.0}, budget, opts.seed);
            std::fill(best.begin(), best.end(), r.best_kernel[0]);
        }
        // Without a trained model (too few measurements) one kernel serves all shapes: among the
        // per-shape winners, the one with the least weighted time relative to each shape's best
        // (measured where measured, else the heuristic's relative units, comparable across
        // kernels at one shape, which is all this choice needs).
        auto time_of = [&](size_t k, size_t s) {
            if (auto m = tuner.seconds_of(k, s)) return *m;
            double thr = tuner.predicted_throughput(k, s);
            return thr > 0 ? tuner.flops(s) / thr : INFINITY;
        };
        std::vector<double> best_time(training.size());
        for (size_t s = 0; s < training.size(); s++) best_time[s] = time_of(best[s], s);
        size_t chosen = best[0];
        double chosen_loss = INFINITY;
        for (size_t k : std::set<size_t>(best.begin(), best.end())) {
            double loss = 0;
            for (size_t s = 0; s < training.size(); s++) loss += weights[s] * time_of(k, s) / best_time[s];
            if (loss < chosen_loss) {
                chosen_loss = loss;
                chosen = k;
            }
        }
        result.kernels[pi].kernel = space[chosen];
        result.kernels[pi].chosen_by = opts.trials > 0           ? "tuning"
                                       : !opts.model_path.empty() ? "the cost model " + opts.model_path
                                       : base                     ? "the shipped cost model " + base->path()
                                                                  : std::string("the heuristic, per shape");

        // The shape dispatch, decided over every shape of the family by a model trained on all of
        // this stage's measurements.
        nlohmann::json pr;
        Dispatch dispatch;
        if (opts.mode != "joint") tuner.learn_from_everything();
        if (tuner.can_predict()) {
            const auto t0 = Clock::now();
            std::vector<std::vector<int64_t>> vote_extents = matmul_extents(p, family, vote_shapes).host_extents;
            std::vector<double> vote_flops;
            for (size_t v = 0; v < vote_shapes.size(); v++) {
                vote_flops.push_back(stage_flops(p, vote_extents[v], vote_bindings[v]));
            }
            nlohmann::json dr;
            // With no measurement, the candidates are the per-shape favourites of the prediction.
            std::vector<size_t> unmeasured;
            if (tuner.measurements() == 0 && tuner.log_hits() == 0) unmeasured.assign(best.begin(), best.end());
            dispatch = tuner.dispatch(vote_shapes, vote_extents, vote_flops, (size_t)opts.max_kernels, opts.trials > 0,
                                      &dr, unmeasured);
            dr["seconds"] = seconds_since(t0);
            pr["dispatch_decision"] = dr;
        }
        if (!dispatch.empty()) {
            // Applied as the log keeps it, so that a rerun from the log emits the same source.
            nlohmann::json dj = dispatch_to_json(dispatch);
            result.kernels[pi].dispatch = dispatch_from_json(dj, "the dispatch just decided");
            result.kernels[pi].chosen_by = log_path.empty() ? "tuning" : "tuning (recorded in the tuning log)";
            pr["dispatch"] = dj;
            if (!log_path.empty()) {
                DispatchRecord rec{fingerprint, target.to_string(), (int)pi, family_key, dj, kToolVersion,
                                   (int64_t)std::time(nullptr)};
                append_dispatch(log_path, rec);
            }
        }
        result.measurements += tuner.measurements();
        if (!opts.model_path.empty()) tuner.save_model(opts.model_path, fingerprint, target.to_string());

        add_stage_results(pr, tuner, p.acc, space, chosen, best, best_time, dispatch, ext, training, opts.seed);
        report["stages"].push_back(pr);
        print_stage_summary(p.acc, tuner, space[chosen], dispatch);
    }
    add_time_split(report, measurer.seconds_compiling());
    report["seconds_total"] = seconds_since(start);
    report["measurements"] = result.measurements;
    result.report = report;
    return result;
}

}  // namespace diet
