#include "measure/Measure.h"

#include <chrono>
#include "common/Errors.h"
#include "measure/Fingerprint.h"
#include "measure/Inputs.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <new>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

MeasureSetup MeasureSetup::from_options(const Options &o, const Target &t) {
    MeasureSetup s;
    s.target = t;
    s.runner.limits.timeout_seconds = o.timeout_seconds;
    s.runner.seed = o.seed;
    s.log_path = o.log_path;
    return s;
}

Measurer::Measurer(MeasureSetup setup) : setup_(std::move(setup)) {
    if (setup_.work_dir.empty()) {
        const char *tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/diet-measure-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back(0);
        user_assert(mkdtemp(buf.data())) << "Diet: cannot create a temporary directory " << pattern << "\n";
        dir_ = buf.data();
        own_dir_ = true;
    } else {
        dir_ = setup_.work_dir;
    }
}

Measurer::~Measurer() {
    // The libraries are removed as soon as they are measured, so the directory is empty.
    if (own_dir_) rmdir(dir_.c_str());
}

ShapeBench *Measurer::find_bench(const std::string &key) {
    for (auto it = benches_.begin(); it != benches_.end(); ++it) {
        if (it->first == key) {
            benches_.splice(benches_.end(), benches_, it);  // most recently used last
            return benches_.back().second.get();
        }
    }
    return nullptr;
}

void Measurer::keep_bench(const std::string &key, std::unique_ptr<ShapeBench> b) {
    benches_.emplace_back(key, std::move(b));
    int64_t total = 0;
    for (const auto &kv : benches_) total += kv.second->bytes();
    while (benches_.size() > 1 && total > setup_.reference_cache_bytes) {
        total -= benches_.front().second->bytes();
        benches_.pop_front();
    }
}

std::vector<TuningRecord> Measurer::measure_variants(const Pipeline &reference, const std::vector<Variant> &variants,
                                                     const Shape &shape, const std::string &fingerprint) {
    return measure_with_specs(reference, argument_specs(reference, shape), variants, shape, fingerprint);
}

void Measurer::add_requests(std::vector<BuildRequest> &requests, const Pipeline *reference,
                            const std::vector<Variant> &variants) {
    const std::string prefix = "diet" + std::to_string(getpid()) + "_";
    if (reference) requests.push_back({prefix + std::to_string(next_symbol_++), *reference, reference_target(setup_.target)});
    for (const Variant &v : variants) requests.push_back({prefix + std::to_string(next_symbol_++), v.pipeline, setup_.target});
}

std::vector<BuildResult> Measurer::build(const std::vector<BuildRequest> &requests) {
    Builder builder(dir_, setup_.build_jobs);
    const auto build_start = std::chrono::steady_clock::now();
    std::vector<BuildResult> built = builder.build(requests);
    seconds_compiling_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - build_start).count();
    return built;
}

std::vector<TuningRecord> Measurer::measure_with_specs(const Pipeline &reference, const std::vector<ArgSpec> &specs,
                                                       const std::vector<Variant> &variants, const Shape &shape,
                                                       const std::string &fingerprint,
                                                       const std::vector<BuildResult> *prebuilt) {
    const Target &target = setup_.target;
    bool cuda = target.has_feature(Target::CUDA);
    if (cuda) {
        std::string why = cuda_unusable_reason();
        user_assert(why.empty()) << cuda_missing_message(target.to_string(), why) << "\n";
    }
    Target ref_target = reference_target(target);
    std::string key = pipeline_fingerprint(reference, ref_target) + "|" + ShapeFamily::to_string(shape) + "|" +
                      std::to_string(setup_.runner.seed);
    ShapeBench *bench = find_bench(key);

    // The reference is built with the candidates (in parallel) unless its output is cached.
    std::vector<BuildResult> built;
    if (prebuilt) {
        built = *prebuilt;
        if (bench) {  // cached since: its build is not needed
            if (built[0].ok()) unlink(built[0].library.c_str());
            built.erase(built.begin());
        }
    } else {
        std::vector<BuildRequest> requests;
        add_requests(requests, bench ? nullptr : &reference, variants);
        built = build(requests);
    }
    size_t first_variant = bench ? 0 : 1;

    std::string shared_error;  // a failure that concerns every variant of this call
    if (!bench) {
        const BuildResult &ref = built[0];
        if (!ref.ok()) {
            shared_error = "no reference: it did not build: " + ref.error;
        } else {
            try {
                auto b = std::make_unique<ShapeBench>(specs, setup_.runner.seed);
                std::string err = b->run_reference({ref.library, ref.symbol, false}, setup_.runner);
                if (err.empty()) {
                    bench = b.get();
                    keep_bench(key, std::move(b));
                } else {
                    shared_error = "no reference: " + err;
                }
            } catch (const std::bad_alloc &) {
                shared_error = "the inputs of this shape do not fit in memory";
            }
            unlink(ref.library.c_str());
        }
    }

    // Each candidate runs in its own child, one after another. On a shared VM a slow spell of a
    // second or more can fall on one candidate and not on the next (measured: one kernel's time
    // moved 1.3-1.7x between runs minutes apart). So several CPU candidates of one shape are
    // timed twice, the second pass in reverse order, and each keeps the smaller of its two
    // medians (interference only adds time): a named choice, like the benchmarks' interleaving.
    const auto runnable = [&](size_t i) { return built[first_variant + i].ok() && shared_error.empty(); };
    const auto run = [&](size_t i) {
        const BuildResult &b = built[first_variant + i];
        return bench->measure({b.library, b.symbol, cuda}, setup_.runner);
    };
    std::vector<Outcome> outcomes(variants.size());
    for (size_t i = 0; i < variants.size(); i++) {
        if (runnable(i)) outcomes[i] = run(i);
    }
    if (!cuda && variants.size() > 1) {
        for (size_t j = variants.size(); j-- > 0;) {
            if (!runnable(j) || !outcomes[j].ok()) continue;
            Outcome again = run(j);
            if (!again.ok()) {
                outcomes[j] = again;  // a failure in either pass is the candidate's outcome
                continue;
            }
            outcomes[j].median_seconds = std::min(outcomes[j].median_seconds, again.median_seconds);
            outcomes[j].repeats += again.repeats;
            outcomes[j].max_rel_error = std::max(outcomes[j].max_rel_error, again.max_rel_error);
        }
    }

    std::vector<TuningRecord> records;
    for (size_t i = 0; i < variants.size(); i++) {
        const BuildResult &b = built[first_variant + i];
        TuningRecord r;
        r.pipeline = fingerprint;
        r.target = target.to_string();
        r.shape = shape;
        r.micro_kernel = variants[i].label;
        r.features_digest = variants[i].features_digest;
        r.unix_time = (int64_t)std::time(nullptr);
        r.mode = cuda ? (setup_.runner.cold_l2 ? "cuda-cold" : "cuda-warm") : "cpu";
        if (!b.ok()) {
            r.error = b.error;
        } else if (!shared_error.empty()) {
            r.error = shared_error;
        } else {
            const Outcome &o = outcomes[i];
            r.median_seconds = o.median_seconds;
            r.repeats = o.repeats;
            r.max_rel_error = o.max_rel_error;
            r.mode = o.mode;
            r.error = o.error;
        }
        if (b.ok()) unlink(b.library.c_str());
        if (!setup_.log_path.empty()) append_record(setup_.log_path, r);
        records.push_back(r);
    }
    return records;
}

Pipeline pipeline_of(const std::vector<Function> &outputs) {
    return Pipeline(std::vector<Func>(outputs.begin(), outputs.end()));
}

std::vector<std::pair<Shape, std::vector<size_t>>> group_by_shape(const std::vector<MeasureJob> &jobs) {
    std::vector<std::pair<Shape, std::vector<size_t>>> groups;
    for (size_t i = 0; i < jobs.size(); i++) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto &g) { return g.first == jobs[i].shape; });
        if (it == groups.end()) {
            groups.push_back({jobs[i].shape, {}});
            it = groups.end() - 1;
        }
        it->second.push_back(i);
    }
    return groups;
}

std::vector<TuningRecord> Measurer::measure_candidates(const std::vector<Function> &outputs,
                                                       const std::vector<MeasureJob> &jobs, const CpuLimits &cpu) {
    std::string fingerprint = pipeline_fingerprint(outputs, setup_.target);
    std::vector<TuningRecord> records(jobs.size());
    SavedEstimates saved(outputs);
    // Every shape's reference and candidates are made first, then built at once: a joint search
    // measures one or two candidates per shape, and built shape by shape one core of two sat idle
    // (joint-8's compiles cost 0.56 s per measurement against per-shape tuning's 0.26 s). Making a
    // shape's copies writes its estimates into the shared input Parameters (below: what the build
    // does with them). (CUDA keeps the shape-by-shape path: its builds are few, its runs dominate.)
    struct Prepared {
        Shape shape;
        std::vector<size_t> indices;
        std::vector<ArgSpec> specs;
        Pipeline reference;
        std::vector<Variant> variants;
        size_t first_request = 0;
    };
    const bool at_once = !setup_.target.has_feature(Target::CUDA);
    std::vector<Prepared> shapes;
    std::vector<BuildRequest> requests;
    for (const auto &[shape, indices] : group_by_shape(jobs)) {
        // The arguments from the caller's (symbolic) estimates; then the copies.
        saved.restore();
        Prepared pr{shape, indices, argument_specs(pipeline_of(outputs), shape), unscheduled_copy(outputs, shape), {}, 0};
        for (size_t i : indices) {
            pr.variants.push_back({jobs[i].candidate.describe(),
                                   instantiate(outputs, jobs[i].candidate, setup_.target, cpu, shape),
                                   jobs[i].features_digest});
        }
        if (!at_once) {
            std::vector<TuningRecord> got = measure_with_specs(pr.reference, pr.specs, pr.variants, shape, fingerprint);
            for (size_t k = 0; k < indices.size(); k++) records[indices[k]] = got[k];
            continue;
        }
        pr.first_request = requests.size();
        add_requests(requests, &pr.reference, pr.variants);
        shapes.push_back(std::move(pr));
    }
    if (!at_once || shapes.empty()) return records;
    // Built with the last shape's constants in the shared Parameters' estimates: Halide 14's code
    // generator writes (constant) estimates into each library's metadata, which the runner does
    // not read; the code itself depends on no estimate.
    const std::vector<BuildResult> built = build(requests);
    saved.restore();
    for (const Prepared &pr : shapes) {
        const std::vector<BuildResult> mine(built.begin() + pr.first_request,
                                            built.begin() + pr.first_request + 1 + pr.variants.size());
        std::vector<TuningRecord> got = measure_with_specs(pr.reference, pr.specs, pr.variants, pr.shape, fingerprint, &mine);
        for (size_t k = 0; k < pr.indices.size(); k++) records[pr.indices[k]] = got[k];
    }
    return records;
}

}  // namespace diet
