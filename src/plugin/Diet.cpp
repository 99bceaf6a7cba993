#include "plugin/Diet.h"
#include "common/Errors.h"

#include "analysis/FunctionDAG.h"
#include "analysis/VectorChoice.h"
#include "analysis/ShapeFamily.h"
#include "emit/GeneratorSource.h"
#include "emit/ScheduleSource.h"
#include "features/Features.h"
#include "features/Lowering.h"
#include "schedule/Instantiate.h"
#include "schedule/ApplySchedule.h"
#include "schedule/ScheduleSnapshot.h"
#include "schedule/ScheduleWriter.h"
#include "search/PlanSearch.h"
#include "search/Tuner.h"
#include "space/Hardware.h"
#include "space/HostCpu.h"
#include "space/MicroKernel.h"
#include "space/Rules.h"

#include <chrono>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>
#include <type_traits>

namespace diet {

using namespace Halide;
using namespace Halide::Internal;

namespace {
// Writes a temporary file next to `path`, then renames it over `path`: readers see the old file or
// the new one, never a partial one.
void write_file_atomically(const std::string &path, const std::string &text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        user_assert(out.good()) << "Diet: cannot write " << tmp << "\n";
    }
    user_assert(std::rename(tmp.c_str(), path.c_str()) == 0) << "Diet: cannot move " << tmp << " to " << path << "\n";
}
// The largest family whose shapes are listed to prune tile variants (ApplyVariants.cpp).
constexpr uint64_t kShapesToList = 4096;

// Every corner of a large family (each variable at its smallest or largest value; at most 2^10)
// and a spread of 512 of its shapes: what its extents' box is taken over.
std::vector<Shape> box_shapes(const ShapeFamily &family) {
    std::vector<Shape> shapes = family.training_shapes(512, 0);
    if (family.vars.size() > 10) return shapes;
    for (uint64_t mask = 0; mask < (uint64_t(1) << family.vars.size()); mask++) {
        Shape corner;
        for (size_t i = 0; i < family.vars.size(); i++) {
            const ShapeVar &v = family.vars[i];
            corner[v.name] = (mask >> i) & 1 ? v.values.back() : v.values.front();
        }
        shapes.push_back(corner);
    }
    return shapes;
}

// `-e featurization`: JSON with, per matmul-like stage, each chosen micro-kernel's per-store
// feature rows (Ansor's 164 + Diet's Halide features, shape-generic, as the cost model sees them),
// lowered at the family's representative shape. A kernel that cannot be lowered gets its error.
// Each kernel is applied for that shape's extents only (its one tile variant there): lowering every
// variant of its chain (and the dispatch's other kernels') took 15-57 s per build of a dense layer
// over batch x sequence, on every build, whether or not `-e featurization` was asked for.
std::string featurize_choices(const std::vector<Function> &outputs, const std::vector<KernelChoice> &kernels,
                              const Target &target, const CpuLimits &cpu, const ShapeFamily &family, const Shape &at) {
    nlohmann::json j;
    j["shape"] = ShapeFamily::to_string(at);
    j["ansor_feature_names"] = ansor_feature_names();
    j["halide_feature_names"] = halide_feature_names();
    j["stages"] = nlohmann::json::array();
    if (kernels.empty()) return j.dump(1) + "\n";
    ShapeBinding binding;
    try {
        binding = bind_shape(Pipeline(std::vector<Func>(outputs.begin(), outputs.end())), at);
    } catch (const Halide::Error &e) {
        // E.g. an input without estimates: scheduling does not need them, featurization does.
        j["error"] = std::string("no features: ") + e.what();
        return j.dump(1) + "\n";
    }
    for (const KernelChoice &kc : kernels) {
        nlohmann::json st;
        st["stage"] = kc.pattern.acc;
        std::vector<MicroKernel> ks;
        if (kc.dispatch.empty()) ks.push_back(kc.kernel);
        for (const DispatchLeaf &l : kc.dispatch.leaves) {
            if (std::find(ks.begin(), ks.end(), l.kernel) == ks.end()) ks.push_back(l.kernel);
        }
        for (const MicroKernel &k : ks) {
            nlohmann::json kj;
            kj["micro_kernel"] = k.to_string();
            try {
                Candidate c{kernels};
                for (KernelChoice &other : c.kernels) {
                    other.dispatch = {};
                    other.only_for_extents = matmul_extents(other.pattern, family, {at}).host_extents.at(0);
                }
                for (KernelChoice &other : c.kernels) {
                    if (other.pattern.acc == kc.pattern.acc) other.kernel = k;
                }
                FeatureOptions fo;
                fo.shape_generic = true;
                ProgramFeatures f = extract_features(lower_at_shape(instantiate(outputs, c, target, cpu, at), target, binding), fo);
                for (const FeatureRow &r : f.rows) kj["rows"].push_back({{"buffer", r.buffer}, {"ansor", r.ansor}, {"halide", r.halide}});
            } catch (const Halide::Error &e) {
                kj["error"] = e.what();
            }
            st["micro_kernels"].push_back(kj);
        }
        j["stages"].push_back(st);
    }
    return j.dump(1) + "\n";
}

// Candidates are measured by running them on this CPU. A target with a feature the CPU lacks (Halide
// 14's `host` on an AVX-512 CPU without AVX512-FP16 says avx512_sapphirerapids) would die with
// SIGILL there: with trials, a user error naming the feature and the target to use; without (the
// library may be meant for another machine), one warning.
void check_target_runs_here(const Target &target, const Options &opts) {
    const CpuFeatureSet cpu = read_host_cpu_features();
    const std::vector<MissingFeature> missing = features_missing_on(target, cpu);
    if (missing.empty()) return;
    const std::string runnable = runnable_on(target, cpu).to_string();
    user_assert(opts.trials == 0)
        << "Diet: the target " << target.to_string() << " has features this CPU lacks: " << describe(missing)
        << ". Diet measures candidates on this CPU (HL_DIET_TRIALS=" << opts.trials
        << "), and their code would die with an illegal instruction. Use target=" << runnable
        << " (Halide 14's `host` wrongly includes avx512_sapphirerapids on AVX-512 CPUs without AVX512-FP16; "
           "`diet_target` prints the runnable target).\n";
    std::cerr << "[diet] warning: the target has features this CPU lacks (" << describe(missing)
              << "); the library will not run here (nothing is measured: HL_DIET_TRIALS=0). To run it here use target="
              << runnable << "\n";
}

}  // namespace

DietResult autoschedule(const Pipeline &pipeline, const Target &target, int parallelism,
                        int64_t last_level_cache_bytes, const Options &opts) {
    const auto started = std::chrono::steady_clock::now();
    check_supported_target(target);
    check_target_runs_here(target, opts);
    std::vector<Function> outputs;
    for (const Func &f : pipeline.outputs()) outputs.push_back(f.function());
    user_assert(!outputs.empty()) << "Diet: the pipeline has no outputs.\n";

    ShapeFamily family = read_shape_family(outputs, opts);
    std::vector<Shape> training = family.training_shapes(opts);
    const CpuLimits cpu = CpuLimits::for_target(target, parallelism, last_level_cache_bytes);
    GpuLimits gpu = GpuLimits::for_target(target);
    gpu.jit_registers = opts.cuda_registers;
    const bool on_gpu = target.has_gpu_feature();
    // Analyzed once as written, then again with the vectors of outputs stored with a short
    // dimension innermost moved to a long one (CPU kernels; analysis/VectorChoice.h).
    const FunctionDAG dag = [&] {
        FunctionDAG as_written(outputs);
        const VectorMoves moves =
            on_gpu ? VectorMoves{} : choose_vector_moves(as_written, family, training, [&](const Type &t) { return cpu.lanes(t); });
        return moves.empty() ? as_written : FunctionDAG(outputs, moves);
    }();
    std::cerr << "[diet] target " << target.to_string() << ", " << (on_gpu ? describe(gpu) : describe(cpu)) << "\n";
    std::cerr << "[diet] shape family of " << family.size() << " shape(s); " << training.size()
              << " training shape(s)\n";

    std::vector<KernelChoice> kernels;
    for (MatmulPattern p : dag.matmuls()) {
        p.family_reduction_max = family_reduction_max(p, family, training);
        if (!on_gpu) p.estimated_reduction_extent = reduction_estimate_for_dot_kernels(p, cpu.lanes(p.type));
        std::cerr << "[diet] " << p.acc << ": " << p.description << "\n";
        MatmulExtents ext = matmul_extents(p, family, training);
        ext.gpu_jit_registers = gpu.jit_registers;
        std::vector<MicroKernel> space =
            on_gpu ? enumerate_gpu_kernels(p, ext, gpu) : enumerate_cpu_kernels(p, ext, cpu);
        MicroKernel best = choose_by_heuristic(space, ext, on_gpu ? gpu.sm_count : cpu.cores);
        std::cerr << "[diet] " << p.acc << ": " << space.size() << " candidate micro-kernels, heuristic picks "
                  << best.to_string() << "\n";
        kernels.push_back({p, best});
        kernels.back().reduction = fit_reduction_model(p, ext);
    }

    // Tuning, or (no trials) the decisions a tuning run left in the log, or a saved model's choice.
    nlohmann::json report;
    // (tune() also ranks the kernels with the shipped cost model when one is found: src/cost/BaseModel.h.)
    if (!kernels.empty()) {
        TuneResult tuned = tune(outputs, dag, family, training, kernels, target, cpu, gpu, opts);
        kernels = tuned.kernels;
        report = tuned.report;
    }

    // Tile variants are pruned to those the family's shapes take, where the shapes can be listed.
    if (!on_gpu && family.size() <= kShapesToList) {
        const std::vector<Shape> all_shapes = family.training_shapes((int)family.size(), 0);
        for (KernelChoice &k : kernels) k.family_extents = matmul_extents(k.pattern, family, all_shapes).host_extents;
    } else if (!on_gpu) {
        // Too many to list: the box of the extents over every corner of the family (each variable
        // at its smallest or largest value) and a spread of shapes (extents are monotone in the
        // variables in every family seen; the spread guards the others).
        const std::vector<Shape> shapes = box_shapes(family);
        for (KernelChoice &k : kernels) {
            for (const std::vector<int64_t> &e : matmul_extents(k.pattern, family, shapes).host_extents) {
                if (k.family_box.empty()) k.family_box.assign(e.size(), {INT64_MAX, INT64_MIN});
                for (size_t d = 0; d < e.size() && d < k.family_box.size(); d++) {
                    k.family_box[d] = {std::min(k.family_box[d].first, e[d]), std::max(k.family_box[d].second, e[d])};
                }
            }
        }
    }

    // Every other stage: the rule table's groups, by each rule's heuristic.
    PipelinePlan plan;
    if (!on_gpu) {
        const auto t0 = std::chrono::steady_clock::now();
        std::set<std::string> contraction_funcs;
        for (const KernelChoice &k : kernels) {
            for (const std::string &f : k.pattern.funcs()) contraction_funcs.insert(f);
        }
        const PlanInputs pin = plan_inputs(dag, family, cpu, contraction_funcs);
        plan = plan_pipeline(pin);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cerr << "[diet] stage rules: " << plan.groups.size() << " group(s), " << plan.inlined.size()
                  << " inlined Func(s), planned in " << secs << " s\n";
        if (opts.trials > 0 && !plan.groups.empty()) {
            nlohmann::json sr;
            plan = search_plan(outputs, kernels, plan, training, target, cpu, opts, pin, &sr);
            if (!sr.is_null()) report["stage_rule_search"] = sr;
        }
    }
    if (!opts.report_path.empty() && !report.is_null()) write_file_atomically(opts.report_path, report.dump(2) + "\n");

    const std::string featurization = featurize_choices(outputs, kernels, target, cpu, family, family.representative());

    ScheduleWriter writer(opts.debug);
    std::vector<Function> funcs;
    for (const FuncNode &n : dag.nodes()) funcs.push_back(n.func);
    const ScheduleSnapshot unscheduled(funcs);
    std::vector<std::string> notes;
    try {
        notes = apply_schedule(dag, kernels, target, cpu, writer, on_gpu ? nullptr : &plan);
    } catch (const Halide::Error &e) {
        // A directive Halide refuses is Diet's bug, not the user's: the pipeline as written (correct,
        // untuned) rather than a failed build. The source says so (its directives were not applied).
        unscheduled.restore();
        std::string what = e.what();
        what = what.substr(0, what.find('\n'));
        std::cerr << "[diet] warning: Halide refused the schedule Diet built (" << what
                  << "); the pipeline is left as written: correct, not scheduled. Please report it.\n";
        notes = {"Schedule not applied: Halide refused it (" + what + "); the pipeline runs as written."};
        writer = ScheduleWriter(opts.debug);
    }
    for (const std::string &n : notes) std::cerr << "[diet] " << n << "\n";

    // Before concretize_estimates: the generator keeps the estimates as written (16*T).
    if (!opts.emit_generator_path.empty()) {
        write_file_atomically(opts.emit_generator_path, generator_source(pipeline, dag, family, writer.source()));
        std::cerr << "[diet] wrote generator source " << opts.emit_generator_path << "\n";
    }

    // Last: Halide 14's AOT codegen needs constant estimates.
    concretize_estimates(outputs, family.representative());
    std::cerr << "[diet] scheduled in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s\n";
    return {schedule_source(family, training, kernels, notes, writer), featurization};
}

namespace {

// Halide 15+ passes AutoschedulerParams{name, extra}; Halide 14 passes MachineParams.
template<typename P, typename = void>
struct has_extra : std::false_type {};
template<typename P>
struct has_extra<P, std::void_t<decltype(std::declval<P>().extra)>> : std::true_type {};
template<typename R, typename = void>
struct has_scheduler_name : std::false_type {};
template<typename R>
struct has_scheduler_name<R, std::void_t<decltype(std::declval<R>().scheduler_name)>> : std::true_type {};

struct DietAutoscheduler {
    template<typename P, typename R>
    void operator()(const Pipeline &pipeline, const Target &target, const P &params, R *results) const {
        int parallelism;
        int64_t llc = 0;
        Options opts;
        if constexpr (has_extra<P>::value) {
            // Halide 15+: autoscheduler.<key>=value; "parallelism" is Diet's own key there.
            auto extra = params.extra;
            auto it = extra.find("parallelism");
            parallelism = (int)std::max(1u, std::thread::hardware_concurrency());
            if (it != extra.end()) {
                parallelism = std::stoi(it->second);
                extra.erase(it);
            }
            opts = Options::from_map({extra.begin(), extra.end()});
        } else {
            parallelism = params.parallelism;
            llc = (int64_t)params.last_level_cache_size;
            opts = Options::from_map(Options::environment_map());
        }
        DietResult r = autoschedule(pipeline, target, parallelism, llc, opts);
        if (results) {
            if constexpr (has_scheduler_name<R>::value) results->scheduler_name = "Diet";
            results->schedule_source = r.schedule_source;
            results->featurization.assign(r.featurization.begin(), r.featurization.end());
        }
    }
};

}  // namespace

void register_autoscheduler() {
    Pipeline::add_autoscheduler("Diet", DietAutoscheduler());
}

}  // namespace diet
