#include "measure/Batch.h"
#include "common/Errors.h"
#include "measure/Fingerprint.h"
#include "measure/Inputs.h"

#include <ctime>
#include <iostream>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::string base_name(const std::string &path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

BatchManifest write_batch(const std::string &dir, const std::vector<Function> &outputs,
                          const std::vector<MeasureJob> &jobs, const CpuLimits &cpu, const MeasureSetup &setup) {
    BatchManifest m;
    m.tool_version = kToolVersion;
    m.pipeline = pipeline_fingerprint(outputs, setup.target);
    m.target = setup.target.to_string();
    m.cuda = setup.target.has_feature(Target::CUDA);
    m.timing = setup.runner.timing;
    m.timeout_seconds = setup.runner.limits.timeout_seconds;
    m.cold_l2 = setup.runner.cold_l2;
    m.seed = setup.runner.seed;
    m.entries.resize(jobs.size());

    Builder builder(dir, setup.build_jobs);
    Target ref_target = reference_target(setup.target);
    SavedEstimates saved(outputs);
    for (const auto &[shape, indices] : group_by_shape(jobs)) {
        int shape_index = (int)m.shapes.size();
        // As in Measurer::measure_candidates: the arguments from the caller's estimates, then
        // every copy of this shape, then its build.
        saved.restore();
        BatchShape bs;
        bs.shape = shape;
        bs.args = argument_specs(pipeline_of(outputs), shape);
        Pipeline reference = unscheduled_copy(outputs, shape);
        std::vector<BuildRequest> requests{{"ref" + std::to_string(shape_index), reference, ref_target}};
        for (size_t i : indices) {
            requests.push_back({"c" + std::to_string(i),
                                instantiate(outputs, jobs[i].candidate, setup.target, cpu, shape), setup.target});
        }
        std::vector<BuildResult> built = builder.build(requests);
        bs.reference_symbol = built[0].symbol;
        if (built[0].ok()) {
            bs.reference_library = base_name(built[0].library);
        } else {
            bs.reference_error = built[0].error;
        }
        m.shapes.push_back(bs);
        for (size_t k = 0; k < indices.size(); k++) {
            const BuildResult &b = built[k + 1];
            BatchEntry &e = m.entries[indices[k]];
            e.id = b.symbol;
            e.micro_kernel = jobs[indices[k]].candidate.describe();
            e.features_digest = jobs[indices[k]].features_digest;
            e.shape_index = shape_index;
            e.symbol = b.symbol;
            if (b.ok()) {
                e.library = base_name(b.library);
            } else {
                e.build_error = b.error;
            }
        }
    }
    std::string why;
    user_assert(write_json_file(dir + "/manifest.json", manifest_to_json(m), &why)) << "Diet: " << why << "\n";
    return m;
}

std::vector<TuningRecord> import_batch_results(const std::string &dir, const std::string &log_path) {
    nlohmann::json mj, rj;
    BatchManifest m;
    std::vector<BatchResult> results;
    std::string why;
    user_assert(read_json_file(dir + "/manifest.json", &mj, &why) && manifest_from_json(mj, &m, &why))
        << "Diet: cannot import the batch in " << dir << ": manifest.json: " << why << "\n";
    user_assert(read_json_file(dir + "/results.json", &rj, &why) && results_from_json(rj, &results, &why))
        << "Diet: cannot import the batch in " << dir << ": results.json: " << why
        << " (run diet_runner on the batch directory first)\n";
    std::map<std::string, const BatchResult *> by_id;
    for (const BatchResult &r : results) by_id[r.id] = &r;

    std::vector<TuningRecord> records;
    int missing = 0;
    for (const BatchEntry &e : m.entries) {
        auto it = by_id.find(e.id);
        if (it == by_id.end()) {
            missing++;
            continue;
        }
        const TuningRecord r = record_of(m, e, it->second->outcome);
        if (!log_path.empty()) append_record(log_path, r);
        records.push_back(r);
    }
    if (missing > 0) {
        std::cerr << "Diet: warning: " << missing << " of the " << m.entries.size() << " candidates in " << dir
                  << " have no result (was the runner stopped early?); they are not imported\n";
    }
    return records;
}

}  // namespace diet
