// Measurement inside the tuning process: build candidates (Builder), run each against the
// reference in a child process (Runner), and append one record per measurement to the tuning
// log. This is what the search calls; Batch.h is the same for measuring on another machine.
#pragma once

#include "Halide.h"
#include "analysis/ShapeFamily.h"
#include "measure/Builder.h"
#include "measure/Runner.h"
#include "measure/TuningLog.h"
#include "options/Options.h"
#include "schedule/Instantiate.h"
#include "space/HostCpu.h"

#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace diet {

struct MeasureSetup {
    Halide::Target target = runnable_host_target();  // space/HostCpu.h: never a feature this CPU lacks
    RunnerOptions runner;
    std::string log_path;                       // the tuning log (HL_DIET_LOG); "": none
    std::string work_dir;                       // where libraries are built; "": a temporary directory
    int build_jobs = 0;                         // builds at a time; 0: hardware threads
    int64_t reference_cache_bytes = 1ll << 30;  // inputs + reference outputs kept across calls

    // timeout (HL_DIET_TIMEOUT), log (HL_DIET_LOG) and seed (HL_DIET_SEED) from the options.
    static MeasureSetup from_options(const Options &o, const Halide::Target &t);
};

// Anything to measure: `label` goes into the record's micro_kernel field.
struct Variant {
    std::string label;
    Halide::Pipeline pipeline;
    std::string features_digest;
};

// One Diet candidate measured at one shape (DietCode measures each candidate on one shape).
struct MeasureJob {
    Candidate candidate;
    Shape shape;
    std::string features_digest;  // from src/features once it exists; "" until then
};

class Measurer {
public:
    explicit Measurer(MeasureSetup setup);
    ~Measurer();  // removes the temporary work directory, if it made one
    Measurer(const Measurer &) = delete;
    Measurer &operator=(const Measurer &) = delete;

    // Pipelines that compute the same outputs as `reference`, with the same arguments, at one
    // shape. Records come back in variant order, each appended to the log as soon as measured.
    // user_error when the target asks for CUDA and no device is usable here.
    std::vector<TuningRecord> measure_variants(const Halide::Pipeline &reference, const std::vector<Variant> &variants,
                                               const Shape &shape, const std::string &fingerprint);

    // Diet candidates of the (unscheduled) pipeline `outputs`: each job's candidate instantiated
    // at its shape and checked against the pipeline's unscheduled copy at that shape.
    std::vector<TuningRecord> measure_candidates(const std::vector<Halide::Internal::Function> &outputs,
                                                 const std::vector<MeasureJob> &jobs, const CpuLimits &cpu);

    const MeasureSetup &setup() const { return setup_; }
    // Wall time spent compiling candidates (and references) so far; the rest of a measurement
    // call's time is running them.
    double seconds_compiling() const { return seconds_compiling_; }

private:
    MeasureSetup setup_;
    std::string dir_;
    bool own_dir_ = false;
    int next_symbol_ = 0;
    double seconds_compiling_ = 0;
    // Inputs and reference outputs per (reference algorithm, shape), least recently used first.
    std::list<std::pair<std::string, std::unique_ptr<ShapeBench>>> benches_;
    // Appends the build requests of `reference` (when given, on the reference target) and of the
    // variants, each under a fresh symbol.
    void add_requests(std::vector<BuildRequest> &requests, const Halide::Pipeline *reference,
                      const std::vector<Variant> &variants);
    // Builds them in parallel, the wall time counted in seconds_compiling().
    std::vector<BuildResult> build(const std::vector<BuildRequest> &requests);
    // `prebuilt`: the reference's build and the variants', in that order, made by the caller (every
    // shape of a call built at once); null: built here.
    std::vector<TuningRecord> measure_with_specs(const Halide::Pipeline &reference, const std::vector<ArgSpec> &specs,
                                                 const std::vector<Variant> &variants, const Shape &shape,
                                                 const std::string &fingerprint,
                                                 const std::vector<BuildResult> *prebuilt = nullptr);
    ShapeBench *find_bench(const std::string &key);
    void keep_bench(const std::string &key, std::unique_ptr<ShapeBench> b);
};

// The pipeline's Functions as a Pipeline (for infer_arguments and argument_specs).
Halide::Pipeline pipeline_of(const std::vector<Halide::Internal::Function> &outputs);

// Groups job indices by shape, in order of first appearance.
std::vector<std::pair<Shape, std::vector<size_t>>> group_by_shape(const std::vector<MeasureJob> &jobs);

}  // namespace diet
