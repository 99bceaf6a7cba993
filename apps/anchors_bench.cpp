// anchors_bench (issue 6): Diet against the anchors on DietCode's BERT workloads, every T in 1..128,
// on this machine's CPU, in one run:
//
//   workloads   dense_qkv  y[16T, 2304] = x[16T, 768] · w[2304, 768]ᵀ
//               dense_out  y[16T,  768] = x[16T, 768] · w[ 768, 768]ᵀ
//               dense_ffn1 y[16T, 3072] = x[16T, 768] · w[3072, 768]ᵀ
//               dense_ffn2 y[16T,  768] = x[16T,3072] · w[ 768,3072]ᵀ
//               bmm_nt     s[192, T, T]  = q[192, T, 64] · k[192, T, 64]ᵀ
//               bmm_nn     o[192, T, 64] = p[192, T, T]  · v[192, T, 64]
//               encoder    one BERT-base encoder layer (16 sequences of T tokens): the six GEMMs
//                          above chained by glue stages (bias + head split, softmax, head merge,
//                          bias + residual + layernorm, bias + GELU). The glue stages are the same
//                          Halide pipelines (scheduled by Diet) for every system, so the systems
//                          differ by their GEMMs only.
//   systems     openblas, onednn (cblas_sgemm / dnnl_sgemm; batch_matmul as a loop of 192 calls,
//               each threaded by the library);
//               adams2019_{per_shape,max_shape}, mullapudi2016_{per_shape,max_shape}: Halide's own
//               autoschedulers from the Debian package, loaded as plugins; per_shape schedules the
//               algorithm once per training T (constant estimates at that T) and runs each T with the
//               schedule of the smallest training T >= T (the "nearest bucket up" rule, named here:
//               the library a per-shape tuner would ship for the range); max_shape schedules once at
//               T = 128 and runs it everywhere;
//               diet_<mode> for each --diet-runs item (joint, per_shape, max_shape): Diet tuned for the
//               whole range in this process, each run from a fresh tuning log.
//
// Timing: for each repeat, for each T, every system runs once untimed and then in a loop for at least
// --min-time seconds (calls averaged; a first call of 50 ms or more is taken as it is); the systems
// interleave, and each (system, T) keeps the median over repeats. The first repeat checks every
// output against OpenBLAS's (max relative error 1e-3). Halide's own autoschedulers are timed at every
// 4th (Adams2019) and 8th (Mullapudi2016) T only (--sparse): they are 3-20x slower, and timing them
// everywhere would take most of an hour. Their speedups are over the T they were timed at.
//
// Outputs, in --out-dir: <workload>.csv (median ms per T and system), <workload>.md (geomean speedup of
// Diet over each system with the worst and best T, and each system's tuning cost), <workload>.png
// (time against T, gnuplot), tuning logs and reports under logs/, and summary.md (all tables).
//
//   anchors_bench --workloads all --out-dir apps/results/cpu
#include "Halide.h"
#include "space/HostCpu.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "measure/CudaDriver.h"
#include "bench_common.h"

#include <CLI/CLI.hpp>
#include <cblas.h>
#include <dnnl.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

using namespace Halide;

namespace {

using bench::Clock;
using bench::median;
using bench::seconds_since;
using bench::Sgemm;
using bench::time_call;

constexpr const char *kEncoderTitle = "encoder: one BERT-base encoder layer, 16 sequences of T tokens";
constexpr int kHeads = 12, kHeadDim = 64, kSequences = 16, kBatch = kSequences * kHeads, kHidden = 768,
              kFfn = 3072;

// ---------------------------------------------------------------------------------------------
// Workloads: operand and output shapes (Halide order: innermost first) at a given T.
// ---------------------------------------------------------------------------------------------
enum class Kind { Dense, BmmNT, BmmNN };

struct Workload {
    std::string name;
    Kind kind;
    int N = 0, K = 0;  // dense only
    std::string formula;

    std::vector<int> a_shape(int t) const {
        switch (kind) {
        case Kind::Dense: return {K, 16 * t};
        case Kind::BmmNT: return {kHeadDim, t, kBatch};
        default: return {t, t, kBatch};
        }
    }
    std::vector<int> b_shape(int t) const {
        switch (kind) {
        case Kind::Dense: return {K, N};
        default: return {kHeadDim, t, kBatch};
        }
    }
    std::vector<int> out_shape(int t) const {
        switch (kind) {
        case Kind::Dense: return {N, 16 * t};
        case Kind::BmmNT: return {t, t, kBatch};
        default: return {kHeadDim, t, kBatch};
        }
    }
};

const std::vector<Workload> &all_workloads() {
    static const std::vector<Workload> w = {
        {"dense_qkv", Kind::Dense, 2304, 768, "y[16T,2304] = x[16T,768] · w[2304,768]ᵀ"},
        {"dense_out", Kind::Dense, 768, 768, "y[16T,768] = x[16T,768] · w[768,768]ᵀ"},
        {"dense_ffn1", Kind::Dense, 3072, 768, "y[16T,3072] = x[16T,768] · w[3072,768]ᵀ"},
        {"dense_ffn2", Kind::Dense, 768, 3072, "y[16T,768] = x[16T,3072] · w[768,3072]ᵀ"},
        {"bmm_nt", Kind::BmmNT, 0, 0, "s[192,T,T] = q[192,T,64] · k[192,T,64]ᵀ"},
        {"bmm_nn", Kind::BmmNN, 0, 0, "o[192,T,64] = p[192,T,T] · v[192,T,64]"},
    };
    return w;
}

// ---------------------------------------------------------------------------------------------
// The GEMM algorithms in Halide, with the project generators' structure (generators/dense.cpp,
// generators/batch_matmul.cpp): an accumulator with a pure init and one += update over an RDom.
// Estimates are symbolic in T (for Diet) or constant at `fixed_t` (for the other autoschedulers:
// Halide 14's codegen needs constant estimates, and neither plugin folds symbolic ones).
// ---------------------------------------------------------------------------------------------
struct GemmAlgorithm {
    ImageParam a, b;
    Param<int> T{"T", 64, 1, 128};
    Func acc{"acc"}, out{"out"};

    GemmAlgorithm(const Workload &w, int t_max, int fixed_t)
        : a(Float(32), w.kind == Kind::Dense ? 2 : 3, "a"), b(Float(32), w.kind == Kind::Dense ? 2 : 3, "b") {
        T.set_range(1, t_max);
        T.set_estimate(std::min(64, t_max));  // (Diet rejects an estimate outside the range)
        // Constant estimates must be IntImms (Adams2019 dereferences as_const_int of them).
        Expr t = fixed_t > 0 ? Expr(fixed_t) : Expr(T), rows = fixed_t > 0 ? Expr(16 * fixed_t) : 16 * T;
        if (w.kind == Kind::Dense) {
            Var n("n"), m("m");
            RDom k(0, w.K, "k");
            acc(n, m) = 0.f;
            acc(n, m) += a(k, m) * b(k, n);
            out(n, m) = acc(n, m);
            a.dim(0).set_estimate(0, w.K);
            a.dim(1).set_estimate(0, rows);
            b.set_estimates({{0, w.K}, {0, w.N}});
            out.set_estimates({{0, w.N}, {0, rows}});
        } else if (w.kind == Kind::BmmNT) {
            Var j("j"), i("i"), bh("bh");
            RDom k(0, kHeadDim, "k");
            acc(j, i, bh) = 0.f;
            acc(j, i, bh) += a(k, i, bh) * b(k, j, bh);
            out(j, i, bh) = acc(j, i, bh);
            a.set_estimates({{0, kHeadDim}, {0, t}, {0, kBatch}});
            b.set_estimates({{0, kHeadDim}, {0, t}, {0, kBatch}});
            out.set_estimates({{0, t}, {0, t}, {0, kBatch}});
        } else {
            Var j("j"), i("i"), bh("bh");
            RDom k(0, a.dim(0).extent(), "k");
            acc(j, i, bh) = 0.f;
            acc(j, i, bh) += a(k, i, bh) * b(j, k, bh);
            out(j, i, bh) = acc(j, i, bh);
            a.set_estimates({{0, t}, {0, t}, {0, kBatch}});
            b.set_estimates({{0, kHeadDim}, {0, t}, {0, kBatch}});
            out.set_estimates({{0, kHeadDim}, {0, t}, {0, kBatch}});
        }
    }
};

// ---------------------------------------------------------------------------------------------
// Systems: something that computes a workload's output from its operands at a given T.
// ---------------------------------------------------------------------------------------------
struct SystemInfo {
    std::string name;
    double tuning_seconds = 0;  // wall time to schedule / tune for the whole range (compiling excluded)
    int measurements = 0;       // benchmark runs the tuning made
    std::string note;
};

struct System : SystemInfo {
    virtual ~System() = default;
    virtual void run(int t, Buffer<float> &a, Buffer<float> &b, Buffer<float> &out) = 0;
};

// One Halide pipeline, JIT-compiled.
struct HalidePipeline {
    std::unique_ptr<GemmAlgorithm> algo;
    Pipeline pipeline;
    void run(int t, Buffer<float> &a, Buffer<float> &b, Buffer<float> &out) {
        algo->a.set(a);
        algo->b.set(b);
        algo->T.set(t);
        pipeline.realize(out);
    }
};

// A Halide system: one pipeline for the whole range, or one per training T (the nearest bucket up).
struct HalideSystem : System {
    std::vector<std::pair<int, std::unique_ptr<HalidePipeline>>> by_t;  // ascending T
    void run(int t, Buffer<float> &a, Buffer<float> &b, Buffer<float> &out) override {
        for (auto &[t0, p] : by_t) {
            if (t <= t0) return p->run(t, a, b, out);
        }
        by_t.back().second->run(t, a, b, out);
    }
};

struct BlasSystem : System {
    Kind kind;
    Sgemm sgemm;
    void run(int t, Buffer<float> &a, Buffer<float> &b, Buffer<float> &out) override {
        if (kind == Kind::Dense) {
            // y[m][n] = sum_k x[m][k] w[n][k]
            const int M = out.dim(1).extent(), N = out.dim(0).extent(), K = a.dim(0).extent();
            sgemm('N', 'T', M, N, K, a.data(), a.dim(1).stride(), b.data(), b.dim(1).stride(), out.data(),
                  out.dim(1).stride());
            return;
        }
        for (int bh = 0; bh < kBatch; bh++) {
            const float *A = &a(0, 0, bh), *B = &b(0, 0, bh);
            float *C = &out(0, 0, bh);
            if (kind == Kind::BmmNT) {  // s[i][j] = sum_d q[i][d] k[j][d]
                sgemm('N', 'T', t, t, kHeadDim, A, a.dim(1).stride(), B, b.dim(1).stride(), C, out.dim(1).stride());
            } else {  // o[i][d] = sum_j p[i][j] v[j][d]
                sgemm('N', 'N', t, kHeadDim, t, A, a.dim(1).stride(), B, b.dim(1).stride(), C, out.dim(1).stride());
            }
        }
    }
};

// ---------------------------------------------------------------------------------------------
// Building the systems of one workload.
// ---------------------------------------------------------------------------------------------
struct Config {
    std::vector<std::string> workloads;
    std::set<std::string> systems;  // empty: all
    std::string diet_runs = "joint:8,per_shape:64,max_shape:8";
    std::vector<int> training{5, 24, 43, 62, 81, 100, 119, 128};
    std::string out_dir = "anchors";
    std::string adams_plugin = DIET_ADAMS2019_PLUGIN, mullapudi_plugin = DIET_MULLAPUDI2016_PLUGIN;
    int t_max = 128, t_step = 1, repeats = 3, threads = 2, seed = 1;
    int64_t llc = 16 << 20;
    double min_time = 0.01;
    bool reuse_logs = false;
    Target target;
    // Systems timed at every step-th T only (prefix -> step): Halide's own autoschedulers are 3-20x
    // slower here, and timing them at every T would take most of the run.
    std::map<std::string, int> sparse{{"adams2019", 4}, {"mullapudi2016", 8}};

    // Whether `system` is timed at the i-th of n sweep values (always the first and the last).
    bool timed_at(const std::string &system, size_t i, size_t n) const {
        for (const auto &[prefix, step] : sparse) {
            if (system.rfind(prefix, 0) == 0) return i % step == 0 || i + 1 == n;
        }
        return true;
    }

    bool wants(const std::string &system) const {
        if (systems.empty()) return true;
        for (const std::string &s : systems) {
            if (system == s || system.rfind(s + "_", 0) == 0) return true;  // "diet" selects every diet_ run
        }
        return false;
    }
};

std::vector<std::string> split(const std::string &s, char c) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, c);) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

std::string join_ints(const std::vector<int> &v) {
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

// Halide's own autoscheduler `plugin_name`, at each of `ts` (constant estimates), JIT-compiled.
std::unique_ptr<System> make_halide_baseline(const Workload &w, const Config &cfg, const std::string &plugin_name,
                                             const std::string &system_name, const std::vector<int> &ts) {
    auto sys = std::make_unique<HalideSystem>();
    sys->name = system_name;
    for (int t0 : ts) {
        auto p = std::make_unique<HalidePipeline>();
        p->algo = std::make_unique<GemmAlgorithm>(w, cfg.t_max, t0);
        p->pipeline = Pipeline(p->algo->out);
        auto t_start = Clock::now();
        p->pipeline.auto_schedule(plugin_name, cfg.target, MachineParams(cfg.threads, cfg.llc, 40));
        sys->tuning_seconds += seconds_since(t_start);
        p->pipeline.compile_jit(cfg.target);
        sys->by_t.emplace_back(t0, std::move(p));
    }
    sys->note = ts.size() == 1 ? "scheduled at T=" + std::to_string(ts[0]) + ", used for every T"
                               : "scheduled at T=" + join_ints(ts) + "; each T runs the schedule of the nearest T above";
    return sys;
}

// Diet, tuned for the whole range in this process from a fresh log (unless --reuse-logs).
std::unique_ptr<System> make_diet(const Workload &w, const Config &cfg, const std::string &mode, int trials) {
    auto sys = std::make_unique<HalideSystem>();
    sys->name = "diet_" + mode;
    const std::string stem = cfg.out_dir + "/logs/" + w.name + "_" + mode + "_" + std::to_string(trials);
    const std::string log = stem + ".log", report = stem + ".json";
    if (!cfg.reuse_logs) std::remove(log.c_str());
    auto p = std::make_unique<HalidePipeline>();
    p->algo = std::make_unique<GemmAlgorithm>(w, cfg.t_max, 0);
    p->pipeline = Pipeline(p->algo->out);
    diet::Options o = diet::Options::from_map({{"mode", mode},
                                               {"trials", std::to_string(trials)},
                                               {"training", "T=" + join_ints(cfg.training)},
                                               {"seed", std::to_string(cfg.seed)},
                                               {"log", log},
                                               {"report", report}});
    auto t_start = Clock::now();
    diet::autoschedule(p->pipeline, cfg.target, cfg.threads, cfg.llc, o);
    sys->tuning_seconds = seconds_since(t_start);
    std::ifstream in(report);
    nlohmann::json rep = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    size_t leaves = 1;
    if (rep.is_object()) {  // (no trials: no report)
        sys->measurements = rep.value("measurements", 0);
        if (rep.contains("stages") && !rep["stages"].empty() && rep["stages"][0].contains("dispatch")) {
            leaves = rep["stages"][0]["dispatch"].size();
        }
    }
    sys->note = std::to_string(trials) + " trials, training T=" + join_ints(cfg.training) + "; " +
                std::to_string(leaves) + " dispatch leaves";
    p->pipeline.compile_jit(cfg.target);
    sys->by_t.emplace_back(cfg.t_max, std::move(p));
    return sys;
}

std::vector<std::unique_ptr<System>> make_systems(const Workload &w, const Config &cfg) {
    std::vector<std::unique_ptr<System>> systems;
    auto add = [&](std::unique_ptr<System> s) {
        std::cerr << "  " << s->name << ": ready (" << s->note << "; tuning " << s->tuning_seconds << " s, "
                  << s->measurements << " measurements)\n";
        systems.push_back(std::move(s));
    };
    // OpenBLAS first: it is the reference the others are checked against.
    {
        auto s = std::make_unique<BlasSystem>();
        s->name = "openblas";
        s->kind = w.kind;
        s->sgemm = bench::openblas_sgemm();
        s->note = w.kind == Kind::Dense ? "cblas_sgemm" : "a loop of 192 cblas_sgemm calls";
        add(std::move(s));
    }
    if (cfg.wants("onednn")) {
        auto s = std::make_unique<BlasSystem>();
        s->name = "onednn";
        s->kind = w.kind;
        s->sgemm = bench::onednn_sgemm();
        s->note = w.kind == Kind::Dense ? "dnnl_sgemm" : "a loop of 192 dnnl_sgemm calls";
        add(std::move(s));
    }
    const std::vector<int> max_t{cfg.t_max};
    for (const auto &[plugin, label] : {std::pair<std::string, std::string>{"Adams2019", "adams2019"},
                                        std::pair<std::string, std::string>{"Mullapudi2016", "mullapudi2016"}}) {
        if (cfg.wants(label + "_per_shape")) {
            std::cerr << "  scheduling " << label << "_per_shape\n";
            add(make_halide_baseline(w, cfg, plugin, label + "_per_shape", cfg.training));
        }
        if (cfg.wants(label + "_max_shape")) {
            std::cerr << "  scheduling " << label << "_max_shape\n";
            add(make_halide_baseline(w, cfg, plugin, label + "_max_shape", max_t));
        }
    }
    for (const std::string &item : split(cfg.diet_runs, ',')) {
        auto parts = split(item, ':');
        if (!cfg.wants("diet_" + parts[0])) continue;
        std::cerr << "  tuning diet_" << parts[0] << " (" << parts[1] << " trials)\n";
        add(make_diet(w, cfg, parts[0], std::stoi(parts[1])));
    }
    return systems;
}

// ---------------------------------------------------------------------------------------------
// Timing and results.
// ---------------------------------------------------------------------------------------------
Buffer<float> filled(const std::vector<int> &shape, int salt) {
    Buffer<float> b(shape);
    uint32_t s = 0x9e3779b9u * (uint32_t)(salt + 1);
    b.for_each_value([&](float &v) {
        s = s * 1664525u + 1013904223u;
        v = (float)((s >> 9) & 0x3fff) / 16384.f - 0.5f;
    });
    return b;
}

// The largest relative error of `got` against `want` (relative to want's largest magnitude).
double max_rel_error(const Buffer<float> &got, const Buffer<float> &want) {
    double peak = 0, err = 0;
    want.for_each_element([&](const int *pos) { peak = std::max(peak, (double)std::abs(want(pos))); });
    got.for_each_element([&](const int *pos) { err = std::max(err, (double)std::abs(got(pos) - want(pos))); });
    return err / std::max(peak, 1e-30);
}

struct Sweep {
    std::string title;
    std::vector<int> ts;
    std::vector<std::string> names;
    std::vector<std::vector<std::vector<double>>> samples;  // [system][t index] -> seconds per repeat
    std::vector<double> tuning_seconds;
    std::vector<int> measurements;
    std::vector<std::string> notes;
    std::vector<std::string> wrong;  // "system at T=..: error"
    std::vector<std::vector<int>> failed;  // [system] -> the T at which it failed to run

    double med(size_t s, size_t i) const { return median(samples[s][i]); }
};

void write_csv(const Sweep &sw, const std::string &path) {
    std::ofstream c(path + ".tmp");
    c << "T";
    for (const std::string &n : sw.names) c << "," << n << "_ms";
    c << "\n";
    for (size_t i = 0; i < sw.ts.size(); i++) {
        c << sw.ts[i];
        for (size_t s = 0; s < sw.names.size(); s++) c << "," << sw.med(s, i) * 1e3;
        c << "\n";
    }
    c.close();
    std::rename((path + ".tmp").c_str(), path.c_str());
}

// A system's geomean time over the T where it and Diet (column `d`; none when out of range) both
// ran, and the geomean, lowest and highest of its time over Diet's, with their T.
struct RatioStats {
    double geomean_ms = 0, speedup = 0, worst = INFINITY, best = 0;
    int worst_t = 0, best_t = 0;
};

RatioStats ratio_stats(const Sweep &sw, const std::function<double(size_t)> &seconds_at, size_t d) {
    const bool has_diet = d < sw.names.size();
    RatioStats st;
    double log_time = 0, log_ratio = 0;
    int counted = 0;
    for (size_t i = 0; i < sw.ts.size(); i++) {
        const double v = seconds_at(i);
        if (std::isnan(v) || (has_diet && std::isnan(sw.med(d, i)))) continue;
        counted++;
        log_time += std::log(v);
        if (has_diet) {
            const double r = v / sw.med(d, i);
            log_ratio += std::log(r);
            if (r < st.worst) st.worst = r, st.worst_t = sw.ts[i];
            if (r > st.best) st.best = r, st.best_t = sw.ts[i];
        }
    }
    const double n = std::max(counted, 1);
    st.geomean_ms = std::exp(log_time / n) * 1e3;
    st.speedup = std::exp(log_ratio / n);
    return st;
}

// The Markdown table: for each system, the geomean of (its time / Diet's time) over T — Diet's
// speedup over it — with the T where Diet fares worst and best, and its tuning cost.
std::string markdown_table(const Sweep &sw, const std::string &diet_name, const std::string &machine) {
    std::ostringstream md;
    size_t d = std::find(sw.names.begin(), sw.names.end(), diet_name) - sw.names.begin();
    md << "### " << sw.title << "\n\n";
    md << "T = " << sw.ts.front() << ".." << sw.ts.back() << " (" << sw.ts.size() << " values), " << machine
       << ". Speedup = the system's median time / " << diet_name << "'s (above 1: Diet is faster), geomean over "
          "the T both ran at; geomean ms is over the T the system ran at.\n\n";
    md << "| system | geomean ms | speedup of " << diet_name << " (geomean) | worst T | best T | tuning s | measurements | how |\n";
    md << "|---|---:|---:|---:|---:|---:|---:|---|\n";
    auto row = [&](const std::string &name, const RatioStats &st, bool versus_diet, double tuning_seconds,
                   int measurements, const std::string &how) {
        char line[1024];
        if (versus_diet) {
            std::snprintf(line, sizeof line, "| %s | %.3f | %.3f | %.3f (T=%d) | %.3f (T=%d) | %.1f | %d | %s |\n",
                          name.c_str(), st.geomean_ms, st.speedup, st.worst, st.worst_t, st.best, st.best_t,
                          tuning_seconds, measurements, how.c_str());
        } else {
            std::snprintf(line, sizeof line, "| %s | %.3f | — | — | — | %.1f | %d | %s |\n", name.c_str(),
                          st.geomean_ms, tuning_seconds, measurements, how.c_str());
        }
        md << line;
    };
    for (size_t s = 0; s < sw.names.size(); s++) {
        const RatioStats st = ratio_stats(sw, [&](size_t i) { return sw.med(s, i); }, d);
        std::string how = sw.notes[s];
        size_t timed = 0;
        for (size_t i = 0; i < sw.ts.size(); i++) timed += !std::isnan(sw.med(s, i));
        if (timed + sw.failed[s].size() < sw.ts.size()) {
            how += "; timed at " + std::to_string(timed + sw.failed[s].size()) + " of the " +
                   std::to_string(sw.ts.size()) + " T (--sparse), its ratios over those";
        }
        if (!sw.failed[s].empty()) {
            how += "; **fails to run at " + std::to_string(sw.failed[s].size()) + " T** (" +
                   std::to_string(sw.failed[s].front()) + ".." + std::to_string(sw.failed[s].back()) +
                   "), left out of its geomeans";
        }
        row(sw.names[s], st, d < sw.names.size() && s != d, sw.tuning_seconds[s], sw.measurements[s], how);
    }
    // The CPU bar: Diet against the faster of the two vendor libraries at each T.
    const size_t ob = std::find(sw.names.begin(), sw.names.end(), "openblas") - sw.names.begin(),
                 dn = std::find(sw.names.begin(), sw.names.end(), "onednn") - sw.names.begin();
    if (d < sw.names.size() && ob < sw.names.size() && dn < sw.names.size()) {
        const RatioStats st = ratio_stats(sw, [&](size_t i) { return std::min(sw.med(ob, i), sw.med(dn, i)); }, d);
        row("*faster of openblas, onednn*", st, true, 0, 0, "per T, the faster of the two");
    }
    for (const std::string &w : sw.wrong) md << "\n**WRONG RESULT:** " << w << "\n";
    md << "\n";
    return md.str();
}

// A gnuplot script, run if gnuplot is installed: time against T (log scale) on top; below, each
// system's time over `diet_name`'s (Diet's speedup over it; 1 is parity), where the curves on top
// lie too close to tell apart.
void plot(const Sweep &sw, const std::string &stem, const std::string &diet_name) {
    const size_t d = std::find(sw.names.begin(), sw.names.end(), diet_name) - sw.names.begin();
    auto series = [&](std::ostream &g, bool ratio) {
        bool first = true;
        for (size_t s = 0; s < sw.names.size(); s++) {
            if (ratio && (d >= sw.names.size() || s == d)) continue;
            const bool diet = sw.names[s].rfind("diet_", 0) == 0;
            bool gaps = false;  // timed at some T only: points show where
            for (size_t i = 0; i < sw.ts.size(); i++) gaps |= std::isnan(sw.med(s, i));
            g << (first ? "" : ", ") << "'" << stem << ".csv' using 1:";
            if (ratio) {
                g << "(column(" << s + 2 << ")/column(" << d + 2 << "))";
            } else {
                g << s + 2;
            }
            // One fixed colour per system in both panels (gnuplot's default cycle has only 8).
            static const char *colours[] = {"#7b3294", "#008837", "#56b4e9", "#e69f00", "#b8a000",
                                            "#0072b2", "#d7191c", "#000000", "#f781bf", "#999999"};
            g << " with " << (gaps ? "linespoints pt 7 ps 0.5" : "lines") << " lc rgb '" << colours[s % 10] << "' lw "
              << (diet ? 3 : 1.5) << (sw.names[s].find("max_shape") != std::string::npos ? " dt 2" : "")
              << " title '" << sw.names[s] << "'";
            first = false;
        }
        g << "\n";
    };
    std::ofstream g(stem + ".gp");
    g << "set terminal pngcairo noenhanced size 1100,1000 font 'sans,10'\n"
      << "set output '" << stem << ".png'\n"
      << "set datafile separator ','\nset datafile missing 'nan'\n"
      << "set multiplot layout 2,1 title \"" << sw.title << "\"\n"
      << "set grid\nset key outside right top\nset logscale y\nset xrange [0:" << sw.ts.back() + 1 << "]\n"
      << "set title 'median time per T'\nset ylabel 'time (ms, log scale)'\nplot ";
    series(g, false);
    if (d < sw.names.size()) {
        g << "set title \"time / " << diet_name << " time (above 1: " << diet_name << " is faster)\"\n"
          << "set xlabel 'T'\nset ylabel 'ratio (log scale)'\nplot 1 with lines lc 'black' lw 1 notitle, ";
        series(g, true);
    }
    g << "unset multiplot\n";
    g.close();
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
        std::cerr << "gnuplot is not installed (Debian: gnuplot-nox): no plot for " << stem << "\n";
        return;
    }
    const std::string cmd = "gnuplot '" + stem + ".gp'";
    if (std::system(cmd.c_str()) != 0) std::cerr << "gnuplot failed on " << stem << ".gp\n";
}

// A sweep read back from its CSV (one sample per cell: the median), for --plot-only.
Sweep read_csv(const std::string &path, const std::string &title) {
    Sweep sw;
    sw.title = title;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> head = split(line, ',');
    for (size_t c = 1; c < head.size(); c++) sw.names.push_back(head[c].substr(0, head[c].size() - 3));  // "_ms"
    sw.samples.assign(sw.names.size(), {});
    while (std::getline(in, line)) {
        std::vector<std::string> cells = split(line, ',');
        if (cells.size() != head.size()) continue;
        sw.ts.push_back(std::stoi(cells[0]));
        for (size_t c = 1; c < cells.size(); c++) {
            sw.samples[c - 1].push_back({cells[c] == "nan" ? NAN : std::stod(cells[c]) * 1e-3});
        }
    }
    return sw;
}

std::vector<int> sweep_ts(const Config &cfg) {
    std::vector<int> ts;
    for (int t = 1; t <= cfg.t_max; t += cfg.t_step) ts.push_back(t);
    if (ts.back() != cfg.t_max) ts.push_back(cfg.t_max);
    return ts;
}

Sweep make_sweep(const std::string &title, const Config &cfg, const std::vector<SystemInfo> &systems) {
    Sweep sw;
    sw.title = title;
    sw.ts = sweep_ts(cfg);
    for (const SystemInfo &s : systems) {
        sw.names.push_back(s.name);
        sw.tuning_seconds.push_back(s.tuning_seconds);
        sw.measurements.push_back(s.measurements);
        sw.notes.push_back(s.note);
    }
    sw.samples.assign(systems.size(), std::vector<std::vector<double>>(sw.ts.size()));
    sw.failed.assign(systems.size(), {});
    return sw;
}

void progress(const std::string &what, int rep, const Config &cfg, size_t i, size_t n, Clock::time_point t0) {
    const double done = (rep * (double)n + i + 1) / (cfg.repeats * (double)n);
    const double elapsed = seconds_since(t0);
    std::fprintf(stderr, "\r  %s: repeat %d/%d, T %zu/%zu, ETA %.0f s   ", what.c_str(), rep + 1, cfg.repeats, i + 1, n,
                 elapsed / done - elapsed);
    if (i + 1 == n) std::fprintf(stderr, "\n");
}

Sweep sweep_gemm(const Workload &w, const Config &cfg, const std::vector<System *> &systems) {
    std::vector<SystemInfo> infos;
    for (const System *s : systems) infos.push_back(*s);
    Sweep sw = make_sweep(w.name + ": " + w.formula, cfg, infos);
    const auto t0 = Clock::now();
    for (int rep = 0; rep < cfg.repeats; rep++) {
        for (size_t i = 0; i < sw.ts.size(); i++) {
            const int t = sw.ts[i];
            Buffer<float> a = filled(w.a_shape(t), 1), b = filled(w.b_shape(t), 2), want(w.out_shape(t));
            if (rep == 0) systems[0]->run(t, a, b, want);  // OpenBLAS: the reference
            for (size_t s = 0; s < systems.size(); s++) {
                if (!cfg.timed_at(systems[s]->name, i, sw.ts.size())) {
                    sw.samples[s][i].push_back(NAN);
                    continue;
                }
                Buffer<float> out(w.out_shape(t));
                try {
                    sw.samples[s][i].push_back(time_call([&] { systems[s]->run(t, a, b, out); }, cfg.min_time));
                } catch (const Halide::Error &e) {
                    // A schedule that cannot run at this T (e.g. a tile larger than the extent): recorded.
                    sw.samples[s][i].push_back(NAN);
                    if (rep == 0) sw.failed[s].push_back(t);
                    if (rep == 0 && sw.failed[s].size() == 1) {
                        std::cerr << "\n" << systems[s]->name << " fails at T=" << t << ": " << e.what() << "\n";
                    }
                    continue;
                }
                if (rep == 0 && s > 0) {
                    const double err = max_rel_error(out, want);
                    if (!(err < 1e-3)) {
                        sw.wrong.push_back(systems[s]->name + " at T=" + std::to_string(t) +
                                           ": max relative error " + std::to_string(err));
                        std::cerr << "\n" << sw.wrong.back() << "\n";
                    }
                }
            }
            progress(w.name, rep, cfg, i, sw.ts.size(), t0);
        }
    }
    return sw;
}

// ---------------------------------------------------------------------------------------------
// The BERT encoder layer: glue stages in Halide (scheduled by Diet with no trials), GEMMs from each
// system. Activations are [channels, 16T] (channel innermost, token m = sequence * T + t).
// ---------------------------------------------------------------------------------------------
struct Glue {
    Param<int> T{"T"};
    Pipeline pipeline;
    std::vector<ImageParam> inputs;
    explicit Glue(int t_max) {
        T.set_range(1, t_max);
        T.set_estimate(std::min(64, t_max));  // (Diet rejects an estimate outside the range)
    }
};

void diet_schedule(Glue &g, const std::vector<Func> &outputs, const Config &cfg) {
    g.pipeline = Pipeline(outputs);
    diet::autoschedule(g.pipeline, cfg.target, cfg.threads, cfg.llc, diet::Options::from_map({}));
    g.pipeline.compile_jit(cfg.target);
}

// q, k, v [64, T, 192] from qkv [2304, 16T] + bias.
std::unique_ptr<Glue> split_heads(const Config &cfg) {
    auto g = std::make_unique<Glue>(cfg.t_max);
    ImageParam qkv(Float(32), 2, "qkv"), bias(Float(32), 1, "bias");
    Var d("d"), t("t"), bh("bh");
    std::vector<Func> outs;
    for (int part = 0; part < 3; part++) {
        Func f("head_part" + std::to_string(part));
        Expr c = part * kHidden + (bh % kHeads) * kHeadDim + d;
        f(d, t, bh) = qkv(c, (bh / kHeads) * g->T + t) + bias(c);
        f.set_estimates({{0, kHeadDim}, {0, g->T}, {0, kBatch}});
        outs.push_back(f);
    }
    qkv.set_estimates({{0, 3 * kHidden}, {0, 16 * g->T}});
    bias.set_estimates({{0, 3 * kHidden}});
    g->inputs = {qkv, bias};
    diet_schedule(*g, outs, cfg);
    return g;
}

// Softmax over j of s(j, i, bh) / sqrt(64).
std::unique_ptr<Glue> softmax(const Config &cfg) {
    auto g = std::make_unique<Glue>(cfg.t_max);
    ImageParam s(Float(32), 3, "scores");
    Var j("j"), i("i"), bh("bh");
    RDom r(0, s.dim(0).extent(), "r");
    Func mx("row_max"), e("exp_scores"), sum("row_sum"), p("probs");
    mx(i, bh) = maximum(s(r, i, bh));
    e(j, i, bh) = exp((s(j, i, bh) - mx(i, bh)) * 0.125f);
    sum(i, bh) = 0.f;
    sum(i, bh) += e(r, i, bh);
    p(j, i, bh) = e(j, i, bh) / sum(i, bh);
    s.set_estimates({{0, g->T}, {0, g->T}, {0, kBatch}});
    p.set_estimates({{0, g->T}, {0, g->T}, {0, kBatch}});
    g->inputs = {s};
    diet_schedule(*g, {p}, cfg);
    return g;
}

// ctx [64, T, 192] -> [768, 16T].
std::unique_ptr<Glue> merge_heads(const Config &cfg) {
    auto g = std::make_unique<Glue>(cfg.t_max);
    ImageParam ctx(Float(32), 3, "ctx");
    Var c("c"), m("m");
    Func f("merged");
    f(c, m) = ctx(c % kHeadDim, m % g->T, (m / g->T) * kHeads + c / kHeadDim);
    ctx.set_estimates({{0, kHeadDim}, {0, g->T}, {0, kBatch}});
    f.set_estimates({{0, kHidden}, {0, 16 * g->T}});
    g->inputs = {ctx};
    diet_schedule(*g, {f}, cfg);
    return g;
}

// layernorm(y + bias + residual) over 768 channels.
std::unique_ptr<Glue> bias_residual_layernorm(const Config &cfg) {
    auto g = std::make_unique<Glue>(cfg.t_max);
    ImageParam y(Float(32), 2, "y"), bias(Float(32), 1, "bias"), res(Float(32), 2, "residual"),
        gamma(Float(32), 1, "gamma"), beta(Float(32), 1, "beta");
    Var c("c"), m("m");
    RDom r(0, kHidden, "r");
    Func z("pre_norm"), mean("mean"), var("variance"), out("normed");
    z(c, m) = y(c, m) + bias(c) + res(c, m);
    mean(m) = sum(z(r, m)) / kHidden;
    var(m) = sum((z(r, m) - mean(m)) * (z(r, m) - mean(m))) / kHidden;
    out(c, m) = (z(c, m) - mean(m)) / sqrt(var(m) + 1e-12f) * gamma(c) + beta(c);
    for (ImageParam *p : {&y, &res}) p->set_estimates({{0, kHidden}, {0, 16 * g->T}});
    for (ImageParam *p : {&bias, &gamma, &beta}) p->set_estimates({{0, kHidden}});
    out.set_estimates({{0, kHidden}, {0, 16 * g->T}});
    g->inputs = {y, bias, res, gamma, beta};
    diet_schedule(*g, {out}, cfg);
    return g;
}

// gelu(f + bias), the tanh approximation BERT uses.
std::unique_ptr<Glue> bias_gelu(const Config &cfg) {
    auto g = std::make_unique<Glue>(cfg.t_max);
    ImageParam f(Float(32), 2, "ffn"), bias(Float(32), 1, "bias");
    Var c("c"), m("m");
    Func out("gelu");
    Expr v = f(c, m) + bias(c);
    out(c, m) = 0.5f * v * (1.f + tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
    f.set_estimates({{0, kFfn}, {0, 16 * g->T}});
    bias.set_estimates({{0, kFfn}});
    out.set_estimates({{0, kFfn}, {0, 16 * g->T}});
    g->inputs = {f, bias};
    diet_schedule(*g, {out}, cfg);
    return g;
}

void run_glue(Glue &g, int t, const std::vector<Buffer<float> *> &ins, Realization outs) {
    for (size_t k = 0; k < ins.size(); k++) g.inputs[k].set(*ins[k]);
    g.T.set(t);
    g.pipeline.realize(outs);
}

struct EncoderWeights {
    Buffer<float> w_qkv = filled({kHidden, 3 * kHidden}, 11), b_qkv = filled({3 * kHidden}, 12),
                  w_o = filled({kHidden, kHidden}, 13), b_o = filled({kHidden}, 14),
                  w_1 = filled({kHidden, kFfn}, 15), b_1 = filled({kFfn}, 16), w_2 = filled({kFfn, kHidden}, 17),
                  b_2 = filled({kHidden}, 18), gamma1 = filled({kHidden}, 19), beta1 = filled({kHidden}, 20),
                  gamma2 = filled({kHidden}, 21), beta2 = filled({kHidden}, 22);
};

// The GEMMs of one system, in workload order (qkv, out, ffn1, ffn2, nt, nn).
struct EncoderGemms {
    std::string name;
    System *qkv, *out, *ffn1, *ffn2, *nt, *nn;
};

// The glue stages of the encoder layer, shared by every system.
struct GlueStages {
    std::unique_ptr<Glue> split, soft, merge, norm, gelu;
    explicit GlueStages(const Config &cfg)
        : split(split_heads(cfg)), soft(softmax(cfg)), merge(merge_heads(cfg)), norm(bias_residual_layernorm(cfg)),
          gelu(bias_gelu(cfg)) {}
};

Buffer<float> encoder_layer(const EncoderGemms &sys, int t, Buffer<float> &x, EncoderWeights &W, GlueStages &glue) {
    Glue &split = *glue.split, &soft = *glue.soft, &merge = *glue.merge, &norm = *glue.norm, &gelu = *glue.gelu;
    const int M = 16 * t;
    Buffer<float> qkv(3 * kHidden, M), q(kHeadDim, t, kBatch), k(kHeadDim, t, kBatch), v(kHeadDim, t, kBatch);
    sys.qkv->run(t, x, W.w_qkv, qkv);
    run_glue(split, t, {&qkv, &W.b_qkv}, Realization(q, k, v));
    Buffer<float> s(t, t, kBatch), p(t, t, kBatch), ctx(kHeadDim, t, kBatch), merged(kHidden, M);
    sys.nt->run(t, q, k, s);
    run_glue(soft, t, {&s}, Realization(p));
    sys.nn->run(t, p, v, ctx);
    run_glue(merge, t, {&ctx}, Realization(merged));
    Buffer<float> attn(kHidden, M), h1(kHidden, M), f1(kFfn, M), g(kFfn, M), f2(kHidden, M), y(kHidden, M);
    sys.out->run(t, merged, W.w_o, attn);
    run_glue(norm, t, {&attn, &W.b_o, &x, &W.gamma1, &W.beta1}, Realization(h1));
    sys.ffn1->run(t, h1, W.w_1, f1);
    run_glue(gelu, t, {&f1, &W.b_1}, Realization(g));
    sys.ffn2->run(t, g, W.w_2, f2);
    run_glue(norm, t, {&f2, &W.b_2, &h1, &W.gamma2, &W.beta2}, Realization(y));
    return y;
}

std::string describe_machine(const Config &cfg) {
    return bench::cpu_description() + ", " + std::to_string(cfg.threads) + " threads, Halide target " +
           cfg.target.to_string();
}

}  // namespace

int main(int argc, char **argv) {
    bench::restart_with_quiet_vendor_threads(argv);
    CLI::App app{"Diet against OpenBLAS, oneDNN, Adams2019, Mullapudi2016 on the BERT workloads, every T"};
    Config cfg;
    std::string workloads = "all", systems, training = join_ints(cfg.training);
    app.add_option("--workloads", workloads,
                   "comma-separated: dense_qkv, dense_out, dense_ffn1, dense_ffn2, bmm_nt, bmm_nn, encoder, or all");
    app.add_option("--systems", systems,
                   "comma-separated subset (default all): onednn, adams2019_per_shape, adams2019_max_shape, "
                   "mullapudi2016_per_shape, mullapudi2016_max_shape, diet (every --diet-runs item) or "
                   "diet_<mode>; openblas always runs (the reference)");
    app.add_option("--diet-runs", cfg.diet_runs, "Diet runs, mode:trials,... (modes: joint, per_shape, max_shape)");
    app.add_option("--training", training, "training T values (Diet's, and the per-shape baselines')");
    app.add_option("--out-dir", cfg.out_dir, "where the CSVs, tables, plots and tuning logs go");
    app.add_option("--t-max", cfg.t_max, "T ranges over [1, t-max]");
    app.add_option("--t-step", cfg.t_step, "time every t-step-th T (and t-max)");
    app.add_option("--repeats", cfg.repeats, "interleaved repeats; the median is kept");
    app.add_option("--min-time", cfg.min_time, "seconds one timing runs for at least (calls averaged)");
    app.add_option("--threads", cfg.threads, "threads of every system (Halide, OpenBLAS, oneDNN)");
    app.add_option("--llc", cfg.llc, "last-level cache bytes passed to the autoschedulers");
    app.add_option("--seed", cfg.seed, "Diet's seed");
    bool plot_only = false;
    app.add_flag("--plot-only", plot_only, "only redraw the plots of --workloads from their CSVs in --out-dir");
    std::string sparse = "adams2019:4,mullapudi2016:8";
    app.add_option("--sparse", sparse, "systems timed at every step-th T only, prefix:step,... ('' for none)");
    app.add_flag("--reuse-logs", cfg.reuse_logs, "resume Diet's tuning from earlier logs (tuning costs then undercount)");
    CLI11_PARSE(app, argc, argv);

    cfg.training.clear();
    for (const std::string &t : split(training, ',')) cfg.training.push_back(std::stoi(t));
    for (const std::string &s : split(systems, ',')) cfg.systems.insert(s);
    cfg.sparse.clear();
    for (const std::string &item : split(sparse, ',')) {
        auto parts = split(item, ':');
        if (parts.size() != 2 || std::stoi(parts[1]) < 1) {
            std::cerr << "bad --sparse item '" << item << "' (want prefix:step)\n";
            return 2;
        }
        cfg.sparse[parts[0]] = std::stoi(parts[1]);
    }
    cfg.target = diet::runnable_host_target();
    std::vector<std::string> names = split(workloads, ',');
    if (names == std::vector<std::string>{"all"}) {
        names = {"dense_qkv", "dense_out", "dense_ffn1", "dense_ffn2", "bmm_nt", "bmm_nn", "encoder"};
    }
    const bool encoder = std::find(names.begin(), names.end(), "encoder") != names.end();
    std::vector<const Workload *> gemms;
    for (const Workload &w : all_workloads()) {
        if (encoder || std::find(names.begin(), names.end(), w.name) != names.end()) gemms.push_back(&w);
    }
    for (const std::string &n : names) {
        bool known = n == "encoder";
        for (const Workload &w : all_workloads()) known |= n == w.name;
        if (!known) {
            std::cerr << "unknown workload '" << n << "'\n";
            return 2;
        }
    }
    if (std::system(("mkdir -p '" + cfg.out_dir + "/logs'").c_str()) != 0) return 2;
    const std::string diet_primary = "diet_" + split(split(cfg.diet_runs, ',').at(0), ':').at(0);
    if (plot_only) {
        for (const std::string &n : names) {
            std::string title = n == "encoder" ? kEncoderTitle : n;
            for (const Workload &w : all_workloads()) {
                if (w.name == n) title = w.name + ": " + w.formula;
            }
            plot(read_csv(cfg.out_dir + "/" + n + ".csv", title), cfg.out_dir + "/" + n, diet_primary);
        }
        return 0;
    }

    setenv("HL_NUM_THREADS", std::to_string(cfg.threads).c_str(), 1);
    setenv("OMP_NUM_THREADS", std::to_string(cfg.threads).c_str(), 1);
    openblas_set_num_threads(cfg.threads);
    load_plugin(cfg.adams_plugin);
    load_plugin(cfg.mullapudi_plugin);
    const std::string machine = describe_machine(cfg);
    // The kernels OpenBLAS runs (its config string names the build's baseline, not them), and
    // whether the environment chose them (scripts/openblas_env.sh).
    const char *coretype = std::getenv("OPENBLAS_CORETYPE");
    const std::string openblas = std::string(openblas_get_config()) + ", kernels " + openblas_get_corename() +
                                 (coretype ? std::string(" (OPENBLAS_CORETYPE=") + coretype + ")" : " (its own choice)");
    std::printf("anchors_bench on %s\nOpenBLAS %s; oneDNN %d.%d.%d\n", machine.c_str(), openblas.c_str(),
                dnnl_version()->major, dnnl_version()->minor, dnnl_version()->patch);
    {
        diet::CudaDriver cuda;
        if (!cuda.usable()) {
            std::printf("GPU: skipped (%s): cuBLAS, Li2018 and Diet's CUDA runs need a CUDA device\n",
                        cuda.why().c_str());
        } else {
            std::printf("GPU: %s is present, but this program measures the CPU only; the GPU comparison is "
                        "not implemented here yet\n",
                        cuda.device_name().c_str());
        }
    }

    std::map<std::string, std::vector<std::unique_ptr<System>>> by_workload;
    std::string command;
    for (int i = 0; i < argc; i++) command += (i ? " " : "") + std::string(argv[i]);
    char when[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::string summary = "# Diet against the anchors (CPU)\n\n- machine: " + machine + "\n- libraries: " +
                          openblas + "; oneDNN " + std::to_string(dnnl_version()->major) + "." +
                          std::to_string(dnnl_version()->minor) + "." + std::to_string(dnnl_version()->patch) +
                          "; Halide 14 (Debian), its Adams2019 and Mullapudi2016 plugins\n- command: `" + command +
                          "`\n- started: " + when + "\n\n";
    for (const Workload *w : gemms) {
        std::cerr << "=== " << w->name << ": preparing systems\n";
        by_workload[w->name] = make_systems(*w, cfg);
    }
    bool any_wrong = false;
    for (const Workload *w : gemms) {
        if (std::find(names.begin(), names.end(), w->name) == names.end()) continue;
        std::vector<System *> sys;
        for (auto &s : by_workload[w->name]) sys.push_back(s.get());
        Sweep sw = sweep_gemm(*w, cfg, sys);
        const std::string stem = cfg.out_dir + "/" + w->name;
        write_csv(sw, stem + ".csv");
        const std::string md = markdown_table(sw, diet_primary, machine);
        std::ofstream(stem + ".md") << md;
        plot(sw, stem, diet_primary);
        std::printf("\n%s", md.c_str());
        std::fflush(stdout);
        summary += md;
        any_wrong |= !sw.wrong.empty();
    }

    if (encoder) {
        std::cerr << "=== encoder: preparing the glue stages\n";
        GlueStages glue(cfg);
        std::vector<EncoderGemms> chains;
        std::vector<SystemInfo> infos;  // for the table: name, the six GEMMs' summed tuning cost
        for (auto &s : by_workload["dense_qkv"]) {
            auto find = [&](const std::string &wl) -> System * {
                for (auto &x : by_workload[wl]) {
                    if (x->name == s->name) return x.get();
                }
                return nullptr;
            };
            EncoderGemms e{s->name, find("dense_qkv"), find("dense_out"), find("dense_ffn1"),
                           find("dense_ffn2"), find("bmm_nt"), find("bmm_nn")};
            if (!e.qkv || !e.out || !e.ffn1 || !e.ffn2 || !e.nt || !e.nn) continue;
            chains.push_back(e);
            SystemInfo info{s->name, 0, 0, "its six GEMMs + the shared glue stages"};
            for (System *g : {e.qkv, e.out, e.ffn1, e.ffn2, e.nt, e.nn}) {
                info.tuning_seconds += g->tuning_seconds;
                info.measurements += g->measurements;
            }
            infos.push_back(info);
        }
        Sweep sw = make_sweep(kEncoderTitle, cfg, infos);
        EncoderWeights W;
        const auto t0 = Clock::now();
        for (int rep = 0; rep < cfg.repeats; rep++) {
            for (size_t i = 0; i < sw.ts.size(); i++) {
                const int t = sw.ts[i];
                Buffer<float> x = filled({kHidden, 16 * t}, 3), want;
                for (size_t s = 0; s < chains.size(); s++) {
                    if (!cfg.timed_at(chains[s].name, i, sw.ts.size())) {
                        sw.samples[s][i].push_back(NAN);
                        continue;
                    }
                    Buffer<float> got;
                    try {
                        sw.samples[s][i].push_back(time_call(
                            [&] { got = encoder_layer(chains[s], t, x, W, glue); },
                            cfg.min_time));
                    } catch (const Halide::Error &e) {
                        sw.samples[s][i].push_back(NAN);
                        if (rep == 0) sw.failed[s].push_back(t);
                        continue;
                    }
                    if (rep == 0 && s == 0) want = got;
                    if (rep == 0 && s > 0) {
                        const double err = max_rel_error(got, want);
                        if (!(err < 1e-3)) {
                            sw.wrong.push_back(chains[s].name + " at T=" + std::to_string(t) +
                                               ": max relative error " + std::to_string(err));
                            std::cerr << "\n" << sw.wrong.back() << "\n";
                        }
                    }
                }
                progress("encoder", rep, cfg, i, sw.ts.size(), t0);
            }
        }
        const std::string stem = cfg.out_dir + "/encoder";
        write_csv(sw, stem + ".csv");
        const std::string md = markdown_table(sw, diet_primary, machine);
        std::ofstream(stem + ".md") << md;
        plot(sw, stem, diet_primary);
        std::printf("\n%s", md.c_str());
        summary += md;
        any_wrong |= !sw.wrong.empty();
    }
    {
        std::ofstream(cfg.out_dir + "/summary.md.tmp") << summary;
        std::rename((cfg.out_dir + "/summary.md.tmp").c_str(), (cfg.out_dir + "/summary.md").c_str());
    }
    std::printf("\nwritten: %s/{<workload>.csv,.md,.png,summary.md}\n", cfg.out_dir.c_str());
    return any_wrong ? 1 : 0;
}
