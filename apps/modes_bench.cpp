// Issue 4's benchmark: Diet's search modes on the BERT dense layer y[16T, N] = x[16T, K] * w[N, K]^T,
// T in [1, 128], trained on the shapes given by --training (DietCode's {5,24,43,62,81,100,119,128}),
// evaluated on every T.
//
// Each run (--runs mode:trials,...) tunes a fresh copy of the pipeline in this process with its own
// tuning log (so no run reuses another's measurements) and records its wall time and measurement
// count. Then every tuned schedule is JIT-compiled and timed at every T, the runs interleaved
// (for each repeat, for each T, each run once) and the median kept.
//
// With --oracle, every kernel the first run's dispatch uses is also compiled alone (its tile
// variants only, no dispatch) and timed at every T: the per-T best of them is the oracle the
// dispatched library is compared with (issue 5's benchmark).
//
//   build/apps/modes_bench --runs joint:64,per_shape:64,max_shape:64,joint:8 --oracle --out-dir apps/modes
#include "Halide.h"
#include "space/HostCpu.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "dispatch/Dispatch.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "schedule/ApplySchedule.h"
#include "schedule/ScheduleWriter.h"
#include "space/Hardware.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

using namespace Halide;

namespace {

using Clock = std::chrono::steady_clock;

struct Dense {
    ImageParam x{Float(32), 2, "x"}, w{Float(32), 2, "w"};
    Param<int> T{"T", 32, 1, 128};
    Func acc{"acc"}, y{"y"};
    Dense(int K, int N, int t_max) {
        T.set_range(1, t_max);
        Var n("n"), m("m");
        RDom k(0, K, "k");
        acc(n, m) = 0.f;
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);
        x.dim(0).set_estimate(0, K);
        x.dim(1).set_estimate(0, 16 * T);
        w.set_estimates({{0, K}, {0, N}});
        y.set_estimates({{0, N}, {0, 16 * T}});
    }
};

struct Run {
    std::string mode;
    int trials = 0;
    std::string name() const { return mode + "_" + std::to_string(trials); }
    std::unique_ptr<Dense> dense;
    Pipeline pipeline;
    double tune_seconds = 0;
    int measurements = 0;
    std::vector<std::vector<double>> samples;  // per T: seconds of each repeat
};

std::vector<std::string> split(const std::string &s, char c) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, c);) out.push_back(item);
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double time_once(Run &r, int t, Buffer<float> &out, double min_seconds) {
    r.dense->T.set(t);
    int reps = 0;
    auto t0 = Clock::now();
    double elapsed = 0;
    do {
        r.pipeline.realize(out);
        reps++;
        elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (elapsed < min_seconds);
    return elapsed / reps;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"Diet's search modes (joint / per_shape / max_shape) on the BERT dense layer, every T"};
    std::string runs_text = "joint:64,per_shape:64,max_shape:64,joint:8";
    std::string training = "T=5,24,43,62,81,100,119,128";
    std::string out_dir = ".";
    int K = 768, N = 2304, t_max = 128, repeats = 5, seed = 1, threads = 2;
    double min_seconds = 0.02;
    app.add_option("--runs", runs_text, "mode:trials,... (modes: joint, per_shape, max_shape)");
    app.add_option("--training", training, "training shapes (HL_DIET_TRAINING grammar)");
    app.add_option("--out-dir", out_dir, "where the logs, reports and the CSV go");
    app.add_option("-K", K, "reduction extent");
    app.add_option("-N", N, "output columns");
    app.add_option("--t-max", t_max, "T ranges over [1, t-max]");
    app.add_option("--repeats", repeats, "interleaved repeats per (run, T); the median is kept");
    app.add_option("--min-time", min_seconds, "seconds one repeat runs for at least (calls averaged)");
    app.add_option("--seed", seed, "HL_DIET_SEED of every run");
    app.add_option("--threads", threads, "parallelism Diet plans for and Halide runs with");
    bool oracle = false;
    app.add_flag("--oracle", oracle, "also time each kernel of the first run's dispatch alone (the per-T oracle)");
    CLI11_PARSE(app, argc, argv);

    std::vector<std::unique_ptr<Run>> runs;
    for (const std::string &item : split(runs_text, ',')) {
        auto parts = split(item, ':');
        if (parts.size() != 2) {
            std::cerr << "bad --runs item '" << item << "' (want mode:trials)\n";
            return 2;
        }
        auto r = std::make_unique<Run>();
        r->mode = parts[0];
        r->trials = std::stoi(parts[1]);
        runs.push_back(std::move(r));
    }
    setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
    const Target target = diet::runnable_host_target();

    // Tune each run from scratch with its own log.
    for (auto &r : runs) {
        const std::string log = out_dir + "/" + r->name() + ".log", report = out_dir + "/" + r->name() + ".json";
        std::remove(log.c_str());
        r->dense = std::make_unique<Dense>(K, N, t_max);
        r->pipeline = Pipeline(r->dense->y);
        diet::Options o = diet::Options::from_map({{"mode", r->mode},
                                                   {"trials", std::to_string(r->trials)},
                                                   {"training", training},
                                                   {"seed", std::to_string(seed)},
                                                   {"log", log},
                                                   {"report", report}});
        std::cerr << "=== tuning " << r->name() << "\n";
        auto t0 = Clock::now();
        diet::autoschedule(r->pipeline, target, threads, 0, o);
        r->tune_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        std::ifstream in(report);
        r->measurements = nlohmann::json::parse(in)["measurements"];
        r->pipeline.compile_jit(target);
        r->samples.assign(t_max + 1, {});
    }

    // The oracle's contestants: each kernel of the first run's dispatch, alone.
    if (oracle && !runs.empty()) {
        std::ifstream in(out_dir + "/" + runs[0]->name() + ".json");
        nlohmann::json rep = nlohmann::json::parse(in);
        diet::Dispatch d;
        if (rep["stages"][0].contains("dispatch")) d = diet::dispatch_from_json(rep["stages"][0]["dispatch"], "report");
        std::vector<std::string> seen;
        for (const diet::DispatchLeaf &l : d.leaves) {
            if (std::find(seen.begin(), seen.end(), l.kernel.to_string()) != seen.end()) continue;
            seen.push_back(l.kernel.to_string());
            auto r = std::make_unique<Run>();
            r->mode = "kernel" + std::to_string(seen.size() - 1);
            r->dense = std::make_unique<Dense>(K, N, t_max);
            std::vector<Internal::Function> outputs{r->dense->y.function()};
            diet::FunctionDAG dag(outputs);
            diet::ShapeFamily fam = diet::read_shape_family(outputs, diet::Options());
            diet::KernelChoice kc{dag.matmuls().at(0), l.kernel};
            diet::ScheduleWriter w(false);
            diet::apply_schedule(dag, {kc}, target, diet::CpuLimits::for_target(target, threads, 0), w);
            diet::concretize_estimates(outputs, fam.representative());
            r->pipeline = Pipeline(r->dense->y);
            r->pipeline.compile_jit(target);
            r->samples.assign(t_max + 1, {});
            std::cerr << "=== oracle contestant " << r->name() << ": " << l.kernel.to_string() << "\n";
            runs.push_back(std::move(r));
        }
    }

    // Evaluate: interleaved, every T, every run, `repeats` times; check one result per (run, T).
    Buffer<float> x(K, 16 * t_max), w(K, N);
    x.for_each_value([i = 0](float &v) mutable { v = (float)((i++ * 7) % 13) / 13.f - 0.5f; });
    w.for_each_value([i = 0](float &v) mutable { v = (float)((i++ * 5) % 11) / 11.f - 0.5f; });
    for (auto &r : runs) {
        r->dense->x.set(x);
        r->dense->w.set(w);
    }
    std::cerr << "=== evaluating " << runs.size() << " run(s) at T = 1.." << t_max << ", " << repeats
              << " interleaved repeats\n";
    for (int rep = 0; rep < repeats; rep++) {
        for (int t = 1; t <= t_max; t++) {
            Buffer<float> out(N, 16 * t);
            for (auto &r : runs) {
                r->samples[t].push_back(time_once(*r, t, out, min_seconds));
                if (rep == 0) {
                    // Spot check: one output row against a scalar dot product.
                    const int m = (t * 37) % (16 * t);
                    for (int n = 0; n < N; n += 97) {
                        double s = 0;
                        for (int k = 0; k < K; k++) s += (double)x(k, m) * w(k, n);
                        if (std::abs(out(n, m) - s) > 1e-3 * (1 + std::abs(s))) {
                            std::cerr << r->name() << " is wrong at T=" << t << " (" << n << ", " << m << ")\n";
                            return 1;
                        }
                    }
                }
            }
        }
        std::cerr << "  repeat " << rep + 1 << "/" << repeats << " done\n";
    }

    // CSV of medians, then the summary.
    const std::string csv = out_dir + "/modes_dense.csv";
    std::ofstream c(csv);
    c << "T";
    for (auto &r : runs) c << "," << r->name() << "_ms";
    c << "\n";
    for (int t = 1; t <= t_max; t++) {
        c << t;
        for (auto &r : runs) c << "," << median(r->samples[t]) * 1e3;
        c << "\n";
    }
    auto geomean_ratio = [&](const Run &a, const Run &b, int lo, int hi) {
        double s = 0;
        for (int t = lo; t <= hi; t++) s += std::log(median(a.samples[t]) / median(b.samples[t]));
        return std::exp(s / (hi - lo + 1));
    };
    std::printf("%-16s %9s %12s %14s\n", "run", "trials", "tuning (s)", "geomean (ms)");
    for (auto &r : runs) {
        double s = 0;
        for (int t = 1; t <= t_max; t++) s += std::log(median(r->samples[t]));
        std::printf("%-16s %9d %12.1f %14.3f\n", r->name().c_str(), r->measurements, r->tune_seconds,
                    std::exp(s / t_max) * 1e3);
    }
    std::printf("\ngeomean time ratio (row / column) over T = 1..%d; in brackets T = 1..16\n", t_max);
    std::printf("%-16s", "");
    for (auto &b : runs) std::printf(" %18s", b->name().c_str());
    std::printf("\n");
    for (auto &a : runs) {
        std::printf("%-16s", a->name().c_str());
        for (auto &b : runs) {
            std::printf("      %5.3f [%5.3f]", geomean_ratio(*a, *b, 1, t_max), geomean_ratio(*a, *b, 1, std::min(16, t_max)));
        }
        std::printf("\n");
    }
    // The oracle: per T, the best of the dispatch's kernels alone.
    std::vector<Run *> contestants;
    for (auto &r : runs) {
        if (r->mode.rfind("kernel", 0) == 0) contestants.push_back(r.get());
    }
    if (!contestants.empty()) {
        double s = 0, worst = 0;
        int worst_t = 1;
        for (int t = 1; t <= t_max; t++) {
            double best = INFINITY;
            for (Run *c : contestants) best = std::min(best, median(c->samples[t]));
            double ratio = median(runs[0]->samples[t]) / best;
            s += std::log(ratio);
            if (ratio > worst) worst = ratio, worst_t = t;
        }
        std::printf("\n%s (dispatched) / oracle (per-T best of its %zu kernels alone): geomean %.3f over T = 1..%d, "
                    "worst %.3f at T=%d\n",
                    runs[0]->name().c_str(), contestants.size(), std::exp(s / t_max), t_max, worst, worst_t);
    }
    std::printf("\nper-T medians: %s\n", csv.c_str());
    return 0;
}
