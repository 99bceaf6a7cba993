// Measurement (src/measure): the runner's timing on a known workload, isolation of candidates that
// crash, hang, run out of memory or fail in the Halide runtime, wrong results, the tuning log's
// tolerance of corrupt lines, and batch mode's round trip through the standalone runner.
#include <catch2/catch.hpp>

#include "test_support.h"

#include "Halide.h"
#include "space/HostCpu.h"
#include "dense_fixture.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "measure/Batch.h"
#include "measure/Fingerprint.h"
#include "measure/Inputs.h"
#include "measure/Measure.h"
#include "measure/TuningLog.h"
#include "schedule/Instantiate.h"
#include "space/MicroKernel.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace Halide;
using namespace diet;

// Extern stages of the misbehaving candidates. The test executable exports its symbols
// (ENABLE_EXPORTS), so a candidate library loaded in a child resolves them here.
extern "C" HALIDE_EXPORT int diet_test_crash(halide_buffer_t *, halide_buffer_t *) {
    std::raise(SIGSEGV);
    return 0;
}

extern "C" HALIDE_EXPORT int diet_test_hang(halide_buffer_t *, halide_buffer_t *) {
    for (;;) pause();
    return 0;
}

namespace {

using diet_test::TempDir;  // (test_support.h)

MeasureSetup quick_setup() {
    MeasureSetup s;
    s.target = diet::runnable_host_target();
    s.runner.timing.min_seconds = 0.02;
    s.runner.timing.min_repeats = 3;
    return s;
}

// out(x) = 2 * in(x), 1024 floats: the reference every misbehaving candidate is compared with.
struct Doubler {
    ImageParam in{Float(32), 1, "in"};
    Func out{"out"};
    Var x{"x"};
    Doubler() {
        out(x) = in(x)*2.f;
        in.set_estimates({{0, 1024}});
        out.set_estimates({{0, 1024}});
    }
    Pipeline reference() const { return unscheduled_copy({out.function()}, {}); }
    Pipeline variant(const std::function<Expr(Expr)> &value) {
        Func f("out");
        f(x) = value(in(x));
        f.set_estimates({{0, 1024}});
        f.vectorize(x, 8);
        return Pipeline(f);
    }
    Pipeline extern_variant(const std::string &fn) {
        Func f("out");
        f.define_extern(fn, {in}, Float(32), 1);
        f.set_estimates({{0, 1024}});
        return Pipeline(f);
    }
};

// The shared small dense pipeline (dense_fixture.h), with the candidates these tests measure.
struct SmallDense : DenseFixture {

    // Two candidates from the CPU space (its first two: small kernels, quick to compile), at T=3 and T=8.
    std::vector<MeasureJob> jobs(const CpuLimits &lim) const {
        FunctionDAG dag(outputs());
        ShapeFamily fam = read_shape_family(outputs(), Options{});
        MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(4, 0));
        auto space = enumerate_cpu_kernels(dag.matmuls()[0], ext, lim);
        REQUIRE(space.size() >= 2);
        return {{Candidate{{{dag.matmuls()[0], space.front()}}}, Shape{{"T", 3}}, ""},
                {Candidate{{{dag.matmuls()[0], space[1]}}}, Shape{{"T", 8}}, ""}};
    }
};

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("median and the repeat policy", "[measure]") {
    CHECK(median({3.0}) == 3.0);
    CHECK(median({5.0, 1.0, 3.0}) == 3.0);
    CHECK(median({4.0, 1.0, 3.0, 2.0}) == 2.5);
    // Fast runs: repeat until the minimum time; slow runs: stop at the minimum count.
    TimingPolicy p;
    p.warmup_runs = 2;
    p.min_repeats = 3;
    p.min_seconds = 0.05;
    int calls = 0;
    TimingResult fast = time_runs(p, [&](double *s) {
        calls++;
        *s = 0.001;
        return 0;
    });
    CHECK(fast.repeats == 50);
    CHECK(calls == 52);
    TimingResult slow = time_runs(p, [&](double *s) {
        *s = 1.0;
        return 0;
    });
    CHECK(slow.repeats == 3);
    CHECK(slow.median_seconds == 1.0);
    TimingResult failing = time_runs(p, [&](double *s) {
        *s = 1.0;
        return -7;
    });
    CHECK(failing.error == -7);
}

TEST_CASE("argument specs follow the estimates at the shape", "[measure]") {
    SmallDense d;
    std::vector<ArgSpec> specs = argument_specs(unscheduled_copy(d.outputs(), {{"T", 5}}), {{"T", 5}});
    std::map<std::string, ArgSpec> by_name;
    for (const ArgSpec &s : specs) by_name[s.kind == ArgKind::Output ? "output" : s.name] = s;
    REQUIRE(by_name.count("x"));
    CHECK(by_name["x"].extent == std::vector<int64_t>{64, 80});
    CHECK(by_name["w"].extent == std::vector<int64_t>{64, 96});
    CHECK(by_name["T"].kind == ArgKind::Scalar);
    CHECK(by_name["T"].value == 5);
    CHECK(by_name["output"].extent == std::vector<int64_t>{96, 80});
    // The JSON form round-trips (the batch manifest holds it).
    nlohmann::json j = specs;
    CHECK(j.get<std::vector<ArgSpec>>()[0].extent == specs[0].extent);
}

TEST_CASE("measurement options come from HL_DIET_TIMEOUT, HL_DIET_LOG and HL_DIET_SEED", "[measure]") {
    Options o = Options::from_map({{"timeout", "2.5"}, {"log", "/tmp/diet.log"}, {"seed", "7"}});
    MeasureSetup s = MeasureSetup::from_options(o, diet::runnable_host_target());
    CHECK(s.runner.limits.timeout_seconds == 2.5);
    CHECK(s.log_path == "/tmp/diet.log");
    CHECK(s.runner.seed == 7);
}

TEST_CASE("the pipeline fingerprint names the algorithm, not the copy", "[measure]") {
    SmallDense a;
    Target host = diet::runnable_host_target();
    std::string f = pipeline_fingerprint(a.outputs(), host);
    CHECK(f.size() == 16);
    // A second construction gets uniquified Func names (acc$1): same algorithm, same fingerprint.
    SmallDense b;
    CHECK(pipeline_fingerprint(b.outputs(), host) == f);
    CHECK(pipeline_fingerprint(unscheduled_copy(a.outputs(), {{"T", 3}}), host) == f);
    CHECK(pipeline_fingerprint(a.outputs(), Target("x86-64-linux")) != f);
    Doubler other;
    CHECK(pipeline_fingerprint({other.out.function()}, host) != f);
}

TEST_CASE("the runner times a 64 MiB copy at a plausible bandwidth", "[measure]") {
    ImageParam in(Float(32), 2, "in");
    Func out("copy");
    Var x("x"), y("y"), yo("yo"), yi("yi");
    out(x, y) = in(x, y);
    in.set_estimates({{0, 4096}, {0, 4096}});
    out.set_estimates({{0, 4096}, {0, 4096}});
    Pipeline reference = unscheduled_copy({out.function()}, {});
    out.split(y, yo, yi, 64).parallel(yo).vectorize(x, 16);

    TempDir log_dir("diet-test-measure");
    MeasureSetup setup = quick_setup();
    setup.runner.timing.min_seconds = 0.1;
    setup.log_path = log_dir.path + "/log.jsonl";
    Measurer measurer(setup);
    auto records = measurer.measure_variants(reference, {{"copy", Pipeline(out), ""}}, {},
                                             pipeline_fingerprint(reference, setup.target));
    REQUIRE(records.size() == 1);
    const TuningRecord &r = records[0];
    INFO(r.error);
    REQUIRE(r.ok());
    double bytes = 2.0 * 4096 * 4096 * sizeof(float);  // read once, written once
    double gbps = bytes / r.median_seconds / 1e9;
    std::printf("64 MiB copy: median %.3f ms over %d runs, %.1f GB/s\n", r.median_seconds * 1e3, r.repeats, gbps);
    CHECK(gbps > 0.5);
    CHECK(gbps < 200);
    CHECK(r.repeats >= setup.runner.timing.min_repeats);
    CHECK(r.mode == "cpu");
    CHECK(r.max_rel_error == 0);
    // Appended to the log.
    LogContents log = read_log(setup.log_path);
    REQUIRE(log.records.size() == 1);
    CHECK(log.records[0].micro_kernel == "copy");
    CHECK(log.records[0].median_seconds == r.median_seconds);
    CHECK(log.records[0].tool_version == kToolVersion);
}

TEST_CASE("a candidate that crashes, hangs or exhausts memory is recorded and tuning goes on", "[measure]") {
    Doubler d;
    TempDir log_dir("diet-test-measure");
    MeasureSetup setup = quick_setup();
    setup.runner.limits.timeout_seconds = 1.0;
    setup.runner.limits.memory_bytes = 256ull << 20;
    setup.log_path = log_dir.path + "/log.jsonl";

    // Out of memory: a 400 MB intermediate under a 256 MiB limit.
    Func big("big"), oom("out");
    Var x("x"), y("y");
    big(x, y) = d.in(x) + y;
    oom(x) = big(x, 0) + big(x, 100000) - (d.in(x) + 100000.f) + d.in(x);
    oom.set_estimates({{0, 1024}});
    big.compute_root();

    std::vector<Variant> variants{{"crash", d.extern_variant("diet_test_crash"), ""},
                                  {"hang", d.extern_variant("diet_test_hang"), ""},
                                  {"oom", Pipeline(oom), ""},
                                  {"good", d.variant([](Expr v) { return v * 2.f; }), ""}};
    Measurer measurer(setup);
    double t0 = now_seconds();
    auto records = measurer.measure_variants(d.reference(), variants, {}, "test");
    double took = now_seconds() - t0;
    REQUIRE(records.size() == 4);
    for (const auto &r : records) std::printf("%-6s %s\n", r.micro_kernel.c_str(), r.ok() ? "ok" : r.error.c_str());
    CHECK_THAT(records[0].error, Catch::Contains("crashed") && Catch::Contains("signal 11"));
    CHECK_THAT(records[1].error, Catch::Contains("timed out"));
    CHECK_THAT(records[2].error, Catch::Contains("memory"));
    CHECK(records[3].ok());
    CHECK(records[3].median_seconds > 0);
    CHECK(took < 30);  // the hang cost its timeout, not more
    // Every measurement is in the log, errors included.
    LogContents log = read_log(setup.log_path);
    REQUIRE(log.records.size() == 4);
    CHECK(!log.records[0].ok());
    CHECK(!log.records[1].ok());
    CHECK(log.records[3].ok());
}

TEST_CASE("wrong results and Halide runtime errors are recorded as errors", "[measure]") {
    Doubler d;
    MeasureSetup setup = quick_setup();
    // Reads past its input: the pipeline's bounds check fails in the Halide runtime.
    Func past("out");
    Var x("x");
    past(x) = d.in(x * 2) * 2.f;
    past.set_estimates({{0, 1024}});
    std::vector<Variant> variants{{"wrong", d.variant([](Expr v) { return v * 2.f + 0.5f; }), ""},
                                  {"bounds", Pipeline(past), ""},
                                  {"right", d.variant([](Expr v) { return v + v; }), ""}};
    Measurer measurer(setup);
    auto records = measurer.measure_variants(d.reference(), variants, {}, "test");
    REQUIRE(records.size() == 3);
    for (const auto &r : records) std::printf("%-6s %s\n", r.micro_kernel.c_str(), r.ok() ? "ok" : r.error.c_str());
    CHECK_THAT(records[0].error, Catch::Contains("wrong result"));
    CHECK(records[0].max_rel_error > 1e-3);
    CHECK_THAT(records[1].error, Catch::Contains("Halide runtime error") && Catch::Contains("in"));
    CHECK(records[2].ok());
    CHECK(records[2].max_rel_error == 0);
}

TEST_CASE("a corrupt or truncated log line is skipped and the other records kept", "[measure]") {
    TempDir dir("diet-test-measure");
    std::string path = dir.path + "/log.jsonl";
    TuningRecord r;
    r.pipeline = "0123456789abcdef";
    r.target = "x86-64-linux";
    r.shape = {{"T", 4}};
    r.micro_kernel = "acc:cpu{...}";
    r.median_seconds = 0.001;
    r.repeats = 7;
    for (int i = 0; i < 3; i++) {
        r.shape["T"] = i;
        REQUIRE(append_record(path, r));
    }
    // A writer that died mid-record (no newline), then garbage and a JSON line that is no record.
    std::string full = record_to_json(r).dump();
    {
        std::ofstream out(path, std::ios::app | std::ios::binary);
        out << full.substr(0, full.size() / 2);
    }
    std::string before = read_file(path);
    r.shape["T"] = 3;
    REQUIRE(append_record(path, r));  // starts a fresh line after the truncated one
    {
        std::ofstream out(path, std::ios::app | std::ios::binary);
        out << "}{ not json\n"
            << "{\"pipeline\": 3}\n\n";
    }
    r.shape["T"] = 4;
    REQUIRE(append_record(path, r));
    // Appends never rewrite what is there.
    CHECK(read_file(path).compare(0, before.size(), before) == 0);

    LogContents log = read_log(path);
    CHECK(log.skipped == 3);
    REQUIRE(log.records.size() == 5);
    for (int i = 0; i < 5; i++) CHECK(log.records[i].shape.at("T") == i);
    CHECK(log.records[4].repeats == 7);
    CHECK(log.records[4].micro_kernel == "acc:cpu{...}");
    // A missing log is an empty one.
    CHECK(read_log(dir.path + "/none.jsonl").records.empty());
}

TEST_CASE("candidates of a pipeline are measured in process", "[measure]") {
    SmallDense d;
    CpuLimits lim = CpuLimits::for_target(diet::runnable_host_target(), 2, 0);
    MeasureSetup setup = quick_setup();
    Measurer measurer(setup);
    auto jobs = d.jobs(lim);
    auto records = measurer.measure_candidates(d.outputs(), jobs, lim);
    REQUIRE(records.size() == 2);
    for (size_t i = 0; i < records.size(); i++) {
        INFO(records[i].error);
        CHECK(records[i].ok());
        CHECK(records[i].median_seconds > 0);
        CHECK(records[i].micro_kernel == jobs[i].candidate.describe());
        CHECK(records[i].shape == jobs[i].shape);
        CHECK(records[i].pipeline == pipeline_fingerprint(d.outputs(), setup.target));
    }
    // The caller's pipeline keeps its symbolic estimates (instantiating made them constant).
    CHECK(!Internal::is_const(d.x.parameter().extent_constraint_estimate(1)));
    CHECK(d.acc.function().schedule().compute_level().is_inlined());
}

TEST_CASE("batch round trip on the CPU: build, standalone runner, import", "[measure][batch]") {
    SmallDense d;
    CpuLimits lim = CpuLimits::for_target(diet::runnable_host_target(), 2, 0);
    TempDir dir("diet-test-measure");
    std::string batch = dir.path + "/batch", log = dir.path + "/log.jsonl";
    MeasureSetup setup = quick_setup();
    setup.build_jobs = 2;
    auto jobs = d.jobs(lim);
    BatchManifest m = write_batch(batch, d.outputs(), jobs, lim, setup);
    REQUIRE(m.entries.size() == 2);
    REQUIRE(m.shapes.size() == 2);
    for (const BatchEntry &e : m.entries) {
        INFO(e.build_error);
        CHECK(e.build_error.empty());
    }

    // The runner is another program, with no libHalide.
    std::string cmd = std::string(DIET_RUNNER_PATH) + " '" + batch + "' 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string output;
    char buf[512];
    while (fgets(buf, sizeof buf, p)) output += buf;
    int status = pclose(p);
    INFO(output);
    std::printf("%s", output.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);

    auto records = import_batch_results(batch, log);
    REQUIRE(records.size() == 2);
    for (size_t i = 0; i < records.size(); i++) {
        INFO(records[i].error);
        CHECK(records[i].ok());
        CHECK(records[i].median_seconds > 0);
        CHECK(records[i].repeats >= setup.runner.timing.min_repeats);
        CHECK(records[i].micro_kernel == jobs[i].candidate.describe());
        CHECK(records[i].shape == jobs[i].shape);
        CHECK(records[i].pipeline == m.pipeline);
        CHECK(records[i].mode == "cpu");
    }
    LogContents contents = read_log(log);
    CHECK(contents.records.size() == 2);
    CHECK(contents.skipped == 0);
}

TEST_CASE("CUDA: measured on a GPU when one is present, a clear message when none is", "[measure][cuda]") {
    SmallDense d;
    Target cuda("host-cuda-cuda_capability_80");
    MeasureSetup setup = quick_setup();
    setup.target = cuda;
    std::string why = cuda_unusable_reason();
    if (!why.empty()) {
        std::printf("SKIP: GPU timing not tested: no usable CUDA device here (%s)\n", why.c_str());
        // In process: a clear error before anything is built.
        Measurer measurer(setup);
        Doubler dbl;
        try {
            measurer.measure_variants(dbl.reference(), {{"v", dbl.variant([](Expr v) { return v * 2.f; }), ""}}, {},
                                      "t");
            FAIL("no error without a CUDA device");
        } catch (const CompileError &e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains("asks for a CUDA GPU") && Catch::Contains(why));
        }
    }

    // Batch mode needs no GPU to build CUDA candidates; the runner needs one to measure them.
    FunctionDAG dag(d.outputs());
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(4, 0));
    auto space = enumerate_gpu_kernels(dag.matmuls()[0], ext, GpuLimits::for_target(cuda));
    REQUIRE(!space.empty());
    CpuLimits lim = CpuLimits::for_target(cuda, 2, 0);
    std::vector<MeasureJob> jobs{{Candidate{{{dag.matmuls()[0], space.front()}}}, Shape{{"T", 8}}, ""}};
    TempDir dir("diet-test-measure");
    std::string batch = dir.path + "/batch";
    BatchManifest m = write_batch(batch, d.outputs(), jobs, lim, setup);
    REQUIRE(m.cuda);
    INFO(m.entries[0].build_error);
    REQUIRE(m.entries[0].build_error.empty());
    for (const char *mode : {"--warm", "--cold-l2"}) {
        std::string cmd = std::string(DIET_RUNNER_PATH) + " '" + batch + "' " + mode + " 2>&1";
        FILE *p = popen(cmd.c_str(), "r");
        REQUIRE(p != nullptr);
        std::string output;
        char buf[512];
        while (fgets(buf, sizeof buf, p)) output += buf;
        int status = pclose(p);
        INFO(output);
        if (!why.empty()) {
            CHECK(WEXITSTATUS(status) == 2);
            CHECK_THAT(output, Catch::Contains("asks for a CUDA GPU"));
            break;
        }
        REQUIRE(WEXITSTATUS(status) == 0);
        auto records = import_batch_results(batch);
        REQUIRE(records.size() == 1);
        CHECK(records[0].ok());
        CHECK(records[0].median_seconds > 0);
        CHECK(records[0].mode == (std::string(mode) == "--warm" ? "cuda-warm" : "cuda-cold"));
    }
}
