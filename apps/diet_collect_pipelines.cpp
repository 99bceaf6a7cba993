// diet_collect_pipelines: tunes random pipelines (generators/random_pipeline.h, the fuzzer's
// generator at realistic sizes) on this CPU and appends what the searches measured (stage-rule
// plans, and the micro-kernels of their contractions) to a cost-model dataset: the data of the
// plan model, which 11 hand-written pipelines could not teach to rank plans of pipelines it had not
// seen (issue 15; models/README.md).
//
//   diet_collect_pipelines --seed 1000 --count 40 --trials 36 --out models/data/plans_random.jsonl
//
// Pipeline i uses seed `--seed` + i; its records are labelled "random/<seed>". A seed already in
// --out is skipped: an interrupted collection resumes where it stopped. A pipeline Diet fails to
// tune is reported and skipped (the fuzzer's business; test/test_fuzz.cpp).
//
// Sizes: T is drawn per pipeline in [lo, hi], lo in {16, 32, 64} and hi = lo * {2, 4, 8} (at most
// 160); extents are a * T + b with a up to 16 (the generator's), so a few tens to 2,560 elements
// a side, at most 4M elements per Func (the apps pipelines' 1536 x 2560 images are 3.9M).
#include "Halide.h"
#include "cost/Dataset.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "random_pipeline.h"
#include "space/HostCpu.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <unistd.h>

using namespace Halide;

namespace {

// The records a run wrote to `from`, labelled, appended to `to`; returns (plans, kernels).
std::pair<int, int> move_labelled(const std::string &from, const std::string &to, const std::string &label) {
    std::ifstream in(from);
    std::ofstream out(to, std::ios::app);
    int plans = 0, kernels = 0;
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded()) continue;
        j["label"] = label;
        (j.value("kind", "") == "plan" ? plans : kernels)++;
        out << j.dump() << "\n";
    }
    return {plans, kernels};
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"diet_collect_pipelines: measure the plans of random pipelines into a cost-model dataset"};
    std::string out, mode;
    uint32_t first_seed = 1000;
    int count = 20, trials = 36, threads = 2;
    app.add_option("--out", out, "dataset file to append to")->required();
    app.add_option("--seed", first_seed, "the first pipeline's seed");
    app.add_option("--count", count, "how many pipelines")->check(CLI::PositiveNumber);
    app.add_option("--trials", trials, "HL_DIET_TRIALS per pipeline (trials/3 plans, each at 3 shapes)")->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "parallelism Diet plans for");
    app.add_option("--mode", mode, "HL_DIET_MODE (default: Diet's)");
    CLI11_PARSE(app, argc, argv);

    const Target target = diet::runnable_host_target();
    const std::set<std::string> done = diet::dataset_labels(out);
    const std::string tmp = out + ".part" + std::to_string((long)getpid());
    random_pipeline::Limits limits;
    limits.max_extent = 2600;
    limits.max_elements = 1 << 22;
    limits.max_macs = 1LL << 27;
    const auto t0 = std::chrono::steady_clock::now();
    int plans_total = 0, failed = 0;
    for (int i = 0; i < count; i++) {
        const uint32_t seed = first_seed + (uint32_t)i;
        const std::string label = "random/" + std::to_string(seed);
        if (done.count(label)) {
            std::cerr << "[collect] " << label << ": already in " << out << "\n";
            continue;
        }
        random_pipeline::Rng rng(seed);
        const int lo = rng.pick(std::vector<int>{16, 32, 64});
        const int hi = std::min(160, lo * rng.pick(std::vector<int>{2, 4, 8}));
        const int est = rng.uniform(lo, hi);
        Param<int> T("T", est, lo, hi);
        random_pipeline::Generator gen((uint32_t)rng.g(), T, lo, hi, true, limits);
        std::string what;
        try {
            gen.build();
            for (const std::string &s : gen.stages) what += (what.empty() ? "" : "; ") + s.substr(0, s.find(" ->"));
        } catch (const std::exception &e) {
            std::cerr << "[collect] " << label << ": the generator failed: " << e.what() << "\n";
            failed++;
            continue;
        }
        std::remove(tmp.c_str());
        std::map<std::string, std::string> kv = {{"trials", std::to_string(trials)}, {"dataset", tmp}, {"seed", std::to_string(seed)}};
        if (!mode.empty()) kv["mode"] = mode;
        const auto s0 = std::chrono::steady_clock::now();
        try {
            diet::autoschedule(Pipeline(gen.outputs), target, threads, 0, diet::Options::from_map(kv));
        } catch (const std::exception &e) {
            std::cerr << "[collect] " << label << ": tuning failed: " << e.what() << "\n";
            failed++;
            std::remove(tmp.c_str());
            continue;
        }
        const auto [plans, kernels] = move_labelled(tmp, out, label);
        std::remove(tmp.c_str());
        plans_total += plans;
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
        std::cerr << "[collect] " << (i + 1) << "/" << count << " " << label << " (T in [" << lo << ", " << hi << "]: " << what
                  << "): " << plans << " plans, " << kernels << " kernel records in " << (int)took << " s; " << plans_total
                  << " plans, " << failed << " failed, " << (int)el << " s so far, ETA " << (int)(el / (i + 1) * (count - i - 1))
                  << " s\n";
    }
    return 0;
}
