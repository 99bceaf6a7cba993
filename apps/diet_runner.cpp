// diet_runner: measures a batch directory written by diet::write_batch (src/measure/Batch.h) on a
// machine that has no Halide: it needs only libc, libdl, pthreads and, for GPU candidates, the
// CUDA driver. Each candidate runs in a child process (a crash or a hang is recorded and the batch
// goes on), is checked against its shape's reference on the same seeded inputs, and is timed by
// the same code the in-process runner uses (src/measure/Runner.cpp). Results go to
// <dir>/results.json, rewritten after every candidate, so a stopped run keeps what it measured.
//
//   diet_runner <batch-dir> [--timeout S] [--cold-l2] [--warm] [--min-seconds S] [--only ID]...
//
// Exit status: 0 when every entry has a result (errors included), 2 when the batch cannot be
// measured here at all (unreadable manifest, CUDA candidates without a usable GPU).
#include "measure/Manifest.h"
#include "measure/Runner.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <set>

using namespace diet;

namespace {

std::string hostname() {
    char name[256] = {0};
    gethostname(name, sizeof(name) - 1);
    return name;
}

std::string shape_text(const std::map<std::string, int64_t> &shape) {
    std::string s;
    for (const auto &[k, v] : shape) s += (s.empty() ? "" : ",") + k + "=" + std::to_string(v);
    return s.empty() ? "(fixed shape)" : s;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"Measures a batch of Diet candidates compiled elsewhere (see src/measure/Batch.h)"};
    std::string dir;
    double timeout = 0, min_seconds = 0;
    bool cold = false, warm = false;
    std::vector<std::string> only;
    app.add_option("dir", dir, "batch directory holding manifest.json")->required();
    app.add_option("--timeout", timeout, "seconds one measurement may take (default: the manifest's)");
    app.add_option("--min-seconds", min_seconds, "timed runs until their sum reaches this (default: the manifest's)");
    app.add_flag("--cold-l2", cold, "CUDA: evict the L2 cache before every timed run");
    app.add_flag("--warm", warm, "CUDA: keep the L2 cache warm (overrides the manifest's cold-L2 mode)");
    app.add_option("--only", only, "measure only these candidate ids");
    CLI11_PARSE(app, argc, argv);

    nlohmann::json mj;
    BatchManifest m;
    std::string why;
    if (!read_json_file(dir + "/manifest.json", &mj, &why) || !manifest_from_json(mj, &m, &why)) {
        std::cerr << "diet_runner: cannot read the batch in " << dir << ": " << why << "\n";
        return 2;
    }
    if (m.cuda) {
        std::string reason = cuda_unusable_reason();
        if (!reason.empty()) {
            std::cerr << "diet_runner: " << cuda_missing_message(m.target, reason) << "\n";
            return 2;
        }
    }
    RunnerOptions opts;
    opts.timing = m.timing;
    opts.limits.timeout_seconds = timeout > 0 ? timeout : m.timeout_seconds;
    if (min_seconds > 0) opts.timing.min_seconds = min_seconds;
    opts.cold_l2 = (m.cold_l2 || cold) && !warm;
    opts.seed = m.seed;
    std::set<std::string> wanted(only.begin(), only.end());

    std::vector<BatchResult> results;
    auto save = [&]() {
        std::string err;
        if (!write_json_file(dir + "/results.json", results_to_json(results, hostname()), &err)) {
            std::cerr << "diet_runner: " << err << "\n";
        }
    };
    for (size_t s = 0; s < m.shapes.size(); s++) {
        const BatchShape &shape = m.shapes[s];
        std::vector<const BatchEntry *> entries;
        for (const BatchEntry &e : m.entries) {
            if (e.shape_index == (int)s && (wanted.empty() || wanted.count(e.id))) entries.push_back(&e);
        }
        if (entries.empty()) continue;
        // The shape's inputs and reference output, shared by all its candidates.
        std::unique_ptr<ShapeBench> bench;
        std::string shape_error =
            shape.reference_error.empty() ? "" : "no reference: it did not build: " + shape.reference_error;
        if (shape_error.empty()) {
            try {
                bench = std::make_unique<ShapeBench>(shape.args, opts.seed);
                std::string err =
                    bench->run_reference({dir + "/" + shape.reference_library, shape.reference_symbol, false}, opts);
                if (!err.empty()) shape_error = "no reference: " + err;
            } catch (const std::bad_alloc &) {
                shape_error = "the inputs of this shape do not fit in memory";
            }
        }
        for (const BatchEntry *e : entries) {
            BatchResult r;
            r.id = e->id;
            r.outcome.mode = !m.cuda ? "cpu" : opts.cold_l2 ? "cuda-cold" : "cuda-warm";
            if (!e->build_error.empty()) {
                r.outcome.error = e->build_error;
            } else if (!shape_error.empty()) {
                r.outcome.error = shape_error;
            } else {
                r.outcome = bench->measure({dir + "/" + e->library, e->symbol, m.cuda}, opts);
            }
            results.push_back(r);
            save();
            if (r.outcome.ok()) {
                std::printf("%-6s %-16s %10.4f ms  %4d runs  %s\n", e->id.c_str(), shape_text(shape.shape).c_str(),
                            r.outcome.median_seconds * 1e3, r.outcome.repeats, e->micro_kernel.c_str());
            } else {
                std::printf("%-6s %-16s      error  %s: %s\n", e->id.c_str(), shape_text(shape.shape).c_str(),
                            e->micro_kernel.c_str(), r.outcome.error.c_str());
            }
            std::fflush(stdout);
        }
    }
    save();
    return 0;
}
