// diet_collect: measures micro-kernels of many contractions on this CPU and appends them to a
// cost-model dataset (cost/Dataset.h), the data the shipped model is trained from
// (apps/diet_model.cpp, scripts/train_model.sh).
//
//   diet_collect --out models/data/cpu.jsonl --trials 48 --mode random
//   diet_collect --forms dense/inline_sum --configs 0 --trials 64 --mode joint --out d.jsonl
//
// Every form of generators/contraction_forms.h (the ways people write dense layers, batched
// products, convolutions, widening integer products) at several sizes (the size configurations
// below: reduction lengths, output widths, rows per token, batch counts), each tuned by Diet with
// HL_DIET_DATASET pointing at a temporary file; its records are labelled "<form>@<config>" and
// appended to --out. A (form, config) already in --out is skipped: an interrupted collection
// resumes where it stopped.
#include "Halide.h"
#include "contraction_forms.h"
#include "cost/Dataset.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace Halide;

namespace {

// Size configurations, by index. Dense-like forms (dense, layout, int) read K, N and rows per
// token: BERT-base projections, a long reduction, a narrow output, small odd sizes. The batched
// forms read the head dimension and the batch count of the same index; the convolutions have
// fixed sizes (the first configuration only).
struct SizeConfig {
    int K, N, rows_per_t, t_max;
    int head_dim, heads;
};
const std::vector<SizeConfig> kConfigs = {
    {768, 2304, 16, 64, 64, 48}, {768, 768, 8, 64, 64, 12}, {3072, 768, 4, 64, 32, 24},
    {256, 1000, 8, 64, 128, 8},  {96, 200, 16, 128, 16, 64}, {1024, 64, 16, 64, 64, 4},
};

contraction_forms::Sizes sizes_for(const std::string &form, size_t c, int t_max) {
    const SizeConfig &k = kConfigs.at(c);
    contraction_forms::Sizes s;
    s.t_min = 1;
    if (form.rfind("bmm", 0) == 0) {
        s.K = k.head_dim;
        s.heads = k.heads;
        s.t_max = 128;
    } else {
        s.K = k.K;
        s.N = k.N;
        s.rows_per_t = k.rows_per_t;
        s.t_max = k.t_max;
    }
    if (t_max > 0) s.t_max = t_max;
    return s;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"diet_collect: measure micro-kernels of many contractions into a cost-model dataset"};
    std::string forms_arg, configs_arg = "0,1,2,3,4,5", out, mode = "random", training = "T=1,3,8,21,64", report_dir;
    std::vector<std::string> extra;
    int trials = 48, threads = 2, t_max = 0;
    uint64_t seed = 1;
    app.add_option("--forms", forms_arg, "comma-separated form names (default: every form)");
    app.add_option("--configs", configs_arg, "size configurations to use (indices)");
    app.add_option("--out", out, "dataset file to append to")->required();
    app.add_option("--trials", trials, "measurements per (form, configuration)");
    app.add_option("--mode", mode, "HL_DIET_MODE for the tuning: random (uniform samples) or joint (the search)");
    app.add_option("--training", training, "HL_DIET_TRAINING: the shapes measured");
    app.add_option("--t-max", t_max, "the largest T of every form (default: its configuration's, 64 or 128), so that training shapes can reach it")
        ->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "parallelism Diet plans for");
    app.add_option("--seed", seed, "HL_DIET_SEED");
    app.add_option("--report-dir", report_dir, "write each tuning run's JSON report here (<form>@<config>.json)");
    app.add_option("--option", extra, "another Diet option for every run, key=value (e.g. model_features=ansor)");
    CLI11_PARSE(app, argc, argv);

    std::vector<std::string> forms;
    if (forms_arg.empty()) {
        for (const std::string &f : contraction_forms::form_names()) {
            if (f != "int/f16") forms.push_back(f);  // float16 arithmetic: emulated on most CPUs, not a kernel question
        }
    } else {
        std::stringstream ss(forms_arg);
        for (std::string f; std::getline(ss, f, ',');) forms.push_back(f);
    }
    std::vector<size_t> configs;
    {
        std::stringstream ss(configs_arg);
        for (std::string c; std::getline(ss, c, ',');) configs.push_back(std::stoul(c));
    }
    const Target target = diet::runnable_host_target();
    const std::set<std::string> done = diet::dataset_labels(out);
    const std::string tmp = out + ".part" + std::to_string((long)getpid());
    size_t jobs = 0, job = 0;
    for (const auto &f : forms) jobs += f.rfind("conv", 0) == 0 ? 1 : configs.size();
    const auto t0 = std::chrono::steady_clock::now();
    for (const std::string &form : forms) {
        for (size_t c : configs) {
            if (form.rfind("conv", 0) == 0 && c != configs.front()) continue;  // fixed sizes
            job++;
            const std::string label = form + "@" + std::to_string(c);
            if (done.count(label)) {
                std::cerr << "[collect] " << label << ": already in " << out << "\n";
                continue;
            }
            contraction_forms::Form f = contraction_forms::make_form(form, sizes_for(form, c, t_max), true);
            std::remove(tmp.c_str());
            std::map<std::string, std::string> kv = {{"trials", std::to_string(trials)},
                                                     {"mode", mode},
                                                     {"dataset", tmp},
                                                     {"training", training},
                                                     {"seed", std::to_string(seed + c)}};
            for (const std::string &o : extra) {
                const size_t eq = o.find('=');
                if (eq != std::string::npos && eq > 0) kv[o.substr(0, eq)] = o.substr(eq + 1);
            }
            if (!report_dir.empty()) {
                std::string file = label;
                for (char &ch : file) ch = ch == '/' ? '_' : ch;
                kv["report"] = report_dir + "/" + file + ".json";
            }
            try {
                diet::autoschedule(Pipeline(f.out), target, threads, 0, diet::Options::from_map(kv));
            } catch (const Halide::Error &e) {
                std::cerr << "[collect] " << label << ": tuning failed: " << e.what() << "\n";
                continue;
            }
            std::vector<diet::DatasetRecord> recs;
            if (FILE *probe = std::fopen(tmp.c_str(), "r")) {
                std::fclose(probe);
                recs = diet::read_dataset({tmp});
            }
            for (auto &r : recs) r.label = label;
            diet::append_dataset(out, recs);
            std::remove(tmp.c_str());
            const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::cerr << "[collect] " << job << "/" << jobs << " " << label << ": " << recs.size() << " records; "
                      << (int)el << " s so far, ETA " << (int)(el / job * (jobs - job)) << " s\n";
        }
    }
    return 0;
}
