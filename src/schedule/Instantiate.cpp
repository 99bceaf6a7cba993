#include "schedule/Instantiate.h"
#include "common/Errors.h"

#include "analysis/FunctionDAG.h"

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

std::string Candidate::describe() const {
    std::string s;
    for (const KernelChoice &k : kernels) {
        // Without Halide's per-process uniquifying suffix ("acc$4"): the key must be stable
        // across runs, for the tuning log.
        std::string name = k.pattern.acc.substr(0, k.pattern.acc.find('$'));
        s += (s.empty() ? "" : ";") + name + ":" + k.kernel.to_string();
    }
    return s.empty() ? std::string("default") : s;
}

namespace {

std::vector<Function> copy_of(const std::vector<Function> &outputs, const Shape &estimates_at) {
    std::map<std::string, Function> env;
    for (const Function &f : outputs) {
        auto more = find_transitive_calls(f);
        env.insert(more.begin(), more.end());
        env.emplace(f.name(), f);
    }
    std::vector<Function> copy = deep_copy(outputs, env).first;
    concretize_estimates(copy, estimates_at);
    return copy;
}

Pipeline pipeline_of(const std::vector<Function> &outputs) {
    std::vector<Func> funcs;
    for (const Function &f : outputs) funcs.emplace_back(f);
    return Pipeline(funcs);
}

}  // namespace

Pipeline instantiate(const std::vector<Function> &outputs, const Candidate &c, const Target &target,
                     const CpuLimits &cpu, const Shape &estimates_at) {
    std::vector<Function> copy = copy_of(outputs, estimates_at);
    std::vector<MatmulPattern> analyzed;
    for (const KernelChoice &k : c.kernels) analyzed.push_back(k.pattern);
    FunctionDAG dag(copy, vector_moves_of(analyzed));
    // The copy has the same Func names, so the candidate's patterns name its Funcs too.
    std::vector<KernelChoice> kernels;
    for (const KernelChoice &k : c.kernels) {
        bool found = false;
        for (const MatmulPattern &p : dag.matmuls()) {
            if (p.acc == k.pattern.acc) {
                kernels.push_back({p, k.kernel, k.only_for_extents});
                // What the plugin learnt from the family (the copy's estimates are one shape's):
                // the largest reduction, and the estimate of one no input estimate binds
                // (space/MicroKernel.h reduction_estimate_for_dot_kernels).
                MatmulPattern &q = kernels.back().pattern;
                q.family_reduction_max = k.pattern.family_reduction_max;
                if (!q.estimated_reduction_extent) q.estimated_reduction_extent = k.pattern.estimated_reduction_extent;
                found = true;
            }
        }
        user_assert(found) << "Diet: candidate names " << k.pattern.acc << ", not a matmul-like stage of this pipeline\n";
    }
    ScheduleWriter quiet(false);
    apply_schedule(dag, kernels, target, cpu, quiet, c.plan.get());
    return pipeline_of(copy);
}

Pipeline unscheduled_copy(const std::vector<Function> &outputs, const Shape &estimates_at) {
    return pipeline_of(copy_of(outputs, estimates_at));
}

}  // namespace diet
