// Bad input gets a clear user error that names what is wrong; nothing crashes.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "test_support.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <unistd.h>
#include <limits>
#include <map>

using namespace Halide;

namespace {

std::string error_of(const Pipeline &p, const Target &t = diet::runnable_host_target(), diet::Options o = {}) {
    try {
        diet::autoschedule(p, t, 2, 0, o);
    } catch (const CompileError &e) {
        return e.what();
    } catch (const Halide::Error &e) {
        return std::string("non-user error: ") + e.what();
    }
    return "no error";
}

struct Matmul {
    ImageParam a{Float(32), 2, "a"}, b{Float(32), 2, "b"};
    Var i{"i"}, j{"j"};
    Func acc{"acc"}, y{"y"};
    Matmul() {
        RDom r(0, 16, "r");
        acc(j, i) = 0.f;
        acc(j, i) += a(r, i) * b(r, j);
        y(j, i) = acc(j, i);
    }
};

}  // namespace

TEST_CASE("a symbolic estimate over a parameter without a range", "[errors]") {
    Matmul m;
    Param<int> T("T");
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    std::string e = error_of(m.y);
    CHECK_THAT(e, Catch::Contains("uses the scalar parameter T") && Catch::Contains("has no range") &&
                      Catch::Contains("HL_DIET_SHAPES"));
}

TEST_CASE("a parameter with only a lower bound is unbounded", "[errors]") {
    Matmul m;
    Param<int> T("T");
    T.set_min_value(1);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    CHECK_THAT(error_of(m.y), Catch::Contains("has no range"));
}

TEST_CASE("an output without estimates", "[errors]") {
    Matmul m;
    std::string e = error_of(m.y);
    CHECK_THAT(e, Catch::Contains("output Func " + m.y.name() + " has no estimate for dimension j") &&
                      Catch::Contains("set_estimates"));
}

TEST_CASE("HL_DIET_SHAPES naming a parameter no estimate uses", "[errors]") {
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    diet::Options o;
    o.shapes = diet::parse_shape_specs("U=1:4");
    CHECK_THAT(error_of(m.y, diet::runnable_host_target(), o), Catch::Contains("names U") && Catch::Contains("use: T"));
}

TEST_CASE("an estimate that is not positive somewhere in the family", "[errors]") {
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    m.y.set_estimates({{0, 64}, {0, 16 * T - 32}});
    CHECK_THAT(error_of(m.y), Catch::Contains("estimated extent of " + m.y.name() + ".i is -16 at T=1"));
}

TEST_CASE("absurd sizes: an empty extent and a range too large to tune", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 0}});
    CHECK_THAT(error_of(m.y), Catch::Contains("is 0") && Catch::Contains("must lie in [1, 2^31)"));
    Matmul m2;
    Param<int> T("T", 4, 1, 1 << 30);
    m2.y.set_estimates({{0, 64}, {0, T}});
    CHECK_THAT(error_of(m2.y), Catch::Contains("too large to tune"));
}

TEST_CASE("a target Diet does not support is named", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 64}});
    std::string e = error_of(m.y, Target("host-opencl"));
    CHECK_THAT(e, Catch::Contains("opencl") && Catch::Contains("Diet does not support"));
}

TEST_CASE("a float parameter in an estimate", "[errors]") {
    Matmul m;
    Param<float> s("s", 1.f, 0.f, 2.f);
    m.y.set_estimates({{0, 64}, {0, cast<int>(16 * s)}});
    CHECK_THAT(error_of(m.y), Catch::Contains("shape parameters must be integers"));
}

TEST_CASE("constant estimates are a one-shape family and schedule fine", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 48}});
    CHECK(error_of(m.y) == "no error");
}

TEST_CASE("constant estimates over a pipeline that reads ranged Params say once what they schedule for", "[errors]") {
    // The sizes vary at run time (the boundary condition reads W), but every estimate is a
    // constant: a one-shape family, whose tiles may not fit smaller outputs. Said once, naming W.
    // With the output's estimate over W the family is a range, and nothing is said.
    Param<int> W("W", 512, 1, 1024);
    auto scheduled_stderr = [&](bool ranged) {
        ImageParam in(Float(32), 1, "in");
        Var x("x");
        Func clamped = BoundaryConditions::repeat_edge(in, {{0, W}});
        Func out("out");
        out(x) = clamped(x - 1) + clamped(x + 1);
        out.set_estimates({{0, ranged ? Expr(W) : Expr(1024)}});
        in.set_estimates({{0, 1024}});
        diet_test::StderrCapture cap(false);
        CHECK(error_of(out) == "no error");
        return cap.finish();
    };
    const std::string text = scheduled_stderr(false);
    const std::string note = "[diet] note: every estimate is a constant, so the family is one shape (out 1024)";
    const size_t first = text.find(note);
    CHECK(first != std::string::npos);
    CHECK(text.find(note, first + 1) == std::string::npos);
    CHECK_THAT(text, Catch::Contains("the ranged Params W appear in no estimate"));
    CHECK_THAT(scheduled_stderr(true), !Catch::Contains("every estimate is a constant"));
}

// ---- issue 7, bad input through the real entry point and the sizes the cases above miss --------

namespace {

// The autoscheduler as Halide calls it (registered once per process, as the plugin does when
// loaded); options come from HL_DIET_* environment variables exactly as under GenGen.
std::string error_through_plugin(const Pipeline &p, const std::map<std::string, std::string> &env,
                                 const Target &t = diet::runnable_host_target()) {
    static bool registered = [] {
        diet::register_autoscheduler();
        return true;
    }();
    (void)registered;
    for (const auto &[k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::string result = "no error";
    try {
        Pipeline(p).auto_schedule("Diet", t, MachineParams(2, 1 << 20, 40));
    } catch (const CompileError &e) {
        result = e.what();
    } catch (const Halide::Error &e) {
        result = std::string("non-user error: ") + e.what();
    } catch (const std::exception &e) {
        result = std::string("other exception: ") + e.what();
    }
    for (const auto &kv : env) unsetenv(kv.first.c_str());
    return result;
}

}  // namespace

TEST_CASE("malformed HL_DIET_* values through the registered autoscheduler", "[errors]") {
    struct Case {
        std::string var, value, expect;
    };
    const std::vector<Case> cases = {
        {"HL_DIET_SAMPLES", "eight", "option samples: 'eight' is not an integer"},
        {"HL_DIET_SAMPLES", "99999999999999999999", "is not an integer"},
        {"HL_DIET_SAMPLES", "0", "samples must be in [1, 4096]"},
        {"HL_DIET_DEBUG", "maybe", "is not a boolean"},
        {"HL_DIET_TRIALS", "-3", "trials must be in [0, 100000]"},
        {"HL_DIET_TIMEOUT", "nan", "timeout must be a number of seconds"},
        {"HL_DIET_TIMEOUT", "inf", "timeout must be a number of seconds"},
        {"HL_DIET_MODE", "fast", "mode must be joint, per_shape, max_shape or random, got 'fast'"},
        {"HL_DIET_MODEL_FEATURES", "tvm", "model_features must be kernel or ansor, got 'tvm'"},
        {"HL_DIET_MODEL_OBJECTIVE", "rank", "model_objective must be pairwise or regression, got 'rank'"},
        {"HL_DIET_DATASET", "", "option dataset must be a file path"},
        {"HL_DIET_MAX_KERNELS", "65", "max_kernels must be in [1, 64]"},
        {"HL_DIET_SEED", "-1", "seed must be non-negative"},
        {"HL_DIET_LOG", "", "option log must be a file path"},
        {"HL_DIET_SHAPES", "", "HL_DIET_SHAPES is empty"},
        {"HL_DIET_SHAPES", "T=1:x", "not an integer"},
        {"HL_DIET_SHAPES", "T=1:8:", "not an integer"},
        {"HL_DIET_SHAPES", "T=8:1", "the range 8:1 is empty"},
        {"HL_DIET_SHAPES", "1T=1:8", "is not a parameter name"},
        {"HL_DIET_SHAPES", "T=1:8,,", "has an empty entry"},
        {"HL_DIET_SHAPES", "T=1:4:2:1", "must be MIN:MAX or MIN:MAX:STEP"},
        // The full int64 range: (hi - lo) overflows; must be refused, not enumerated.
        {"HL_DIET_SHAPES", "T=-9223372036854775808:9223372036854775807", "too many values"},
        {"HL_DIET_SHAPES", "T=0:9223372036854775807:4611686018427387904", "does not fit"},
        {"HL_DIET_SHAPES", "T=1,3000000000", "does not fit"},
        {"HL_DIET_TRAINING", "T=1,x", "HL_DIET_TRAINING entry for T: 'x' is not an integer"},
        {"HL_DIET_TRAINING", "T=200", "T=200 is not in the shape family"},
        {"HL_DIET_TILE", "8", "unknown option 'tile' (HL_DIET_tile"},
        {"HL_DIET_", "1", "unknown option ''"},
    };
    for (const Case &c : cases) {
        INFO(c.var << "=" << c.value);
        Matmul m;
        Param<int> T("T", 4, 1, 8);
        m.y.set_estimates({{0, 64}, {0, 16 * T}});
        std::string e = error_through_plugin(m.y, {{c.var, c.value}});
        CHECK_THAT(e, Catch::Contains(c.expect));
        CHECK_THAT(e, !Catch::Contains("non-user error") && !Catch::Contains("other exception"));
    }
    // Sanity: the same pipeline with well-formed options schedules.
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    CHECK(error_through_plugin(m.y, {{"HL_DIET_SAMPLES", "3"}, {"HL_DIET_SHAPES", "T=2:6:2"}}) == "no error");
}

TEST_CASE("a parameter whose range excludes its own estimate", "[errors]") {
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    T.set_estimate(500);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    std::string e = error_of(m.y);
    CHECK_THAT(e, Catch::Contains("estimate of T (500)") && Catch::Contains("outside its range [1, 8]"));
}

TEST_CASE("HL_DIET_SHAPES whose values exclude the parameter's estimate is not an error", "[errors]") {
    // The override defines the family; the representative shape moves inside it.
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    T.set_estimate(6);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    diet::Options o;
    o.shapes = diet::parse_shape_specs("T=1:3");
    CHECK(error_of(m.y, diet::runnable_host_target(), o) == "no error");
    // The estimates Halide sees afterwards are those of the representative shape, inside the family.
    const auto &est = m.y.function().schedule().estimates();
    REQUIRE(est.size() == 2);
    CHECK(Internal::is_const(est[1].extent, 48));
}

TEST_CASE("extents of 2^31 and beyond are refused, not overflowed", "[errors]") {
    {
        // 32768 * T is 2^31 at T = 65536: it overflows int32 arithmetic.
        Matmul m;
        Param<int> T("T", 4, 1, 65536);
        m.y.set_estimates({{0, 64}, {0, 32768 * T}});
        std::string e = error_of(m.y);
        CHECK_THAT(e, Catch::Contains("estimated extent of " + m.y.name() + ".i") &&
                          Catch::Contains("must lie in [1, 2^31)"));
    }
    {
        // Exactly 2^31 at the top of the range (Halide itself refuses 64-bit estimates).
        Matmul m;
        Param<int> T("T", 1, 1, 2);
        m.y.set_estimates({{0, (1 << 30) * T}, {0, 64}});
        std::string e = error_of(m.y);
        CHECK_THAT(e, Catch::Contains("estimated extent of " + m.y.name() + ".j") && Catch::Contains("overflows its int32 arithmetic") &&
                          Catch::Contains("T=2"));
        CHECK_THAT(e, Catch::Contains("must lie in [1, 2^31)"));
        CHECK_THAT(e, !Catch::Contains("non-user error"));
    }
    {
        // The largest allowed extent is scheduled (nothing is allocated while scheduling).
        Matmul m;
        m.y.set_estimates({{0, 64}, {0, std::numeric_limits<int32_t>::max()}});
        CHECK(error_of(m.y) == "no error");
    }
    {
        // An extent of 0 reached inside a symbolic family (T - 1 at T = 1): an empty output, so
        // the family is scheduled from T = 2 with a warning (test_styles runs it at T = 1).
        Matmul m;
        Param<int> T("T", 4, 1, 8);
        m.y.set_estimates({{0, T - 1}, {0, 64}});
        CHECK(error_of(m.y) == "no error");
        // Empty at T = 1 but negative below it: no buffer has that shape, an error.
        Matmul m2;
        Param<int> U("U", 4, 0, 8);
        m2.y.set_estimates({{0, U - 1}, {0, 64}});
        CHECK_THAT(error_of(m2.y), Catch::Contains("estimated extent of " + m2.y.name() + ".j is -1 at U=0"));
    }
}

TEST_CASE("a 64-bit shape parameter with a range too large to enumerate", "[errors]") {
    Matmul m;
    Param<int64_t> T("T", 4, Internal::make_const(Int(64), std::numeric_limits<int64_t>::min()),
                     Internal::make_const(Int(64), std::numeric_limits<int64_t>::max()));
    m.y.set_estimates({{0, 64}, {0, cast<int>(T)}});
    std::string e = error_of(m.y);
    CHECK_THAT(e, Catch::Contains("the range of T") && Catch::Contains("too large to tune"));
}

TEST_CASE("an estimate that is not a constant expression of scalar parameters", "[errors]") {
    {
        Matmul m;
        m.y.set_estimates({{0, 64}, {0, m.a.dim(1).extent()}});
        std::string e = error_of(m.y);
        CHECK_THAT(e, Catch::Contains("the estimate extent of " + m.y.name() + ".i") &&
                          Catch::Contains("estimates may only use constants and scalar parameters"));
    }
    {
        // An input's estimate over an unranged parameter.
        Matmul m;
        Param<int> U("U");
        m.y.set_estimates({{0, 64}, {0, 64}});
        m.a.dim(1).set_estimate(0, 4 * U);
        CHECK_THAT(error_of(m.y), Catch::Contains("uses the scalar parameter U") && Catch::Contains("has no range"));
    }
}

TEST_CASE("an architecture Diet does not schedule for is named", "[errors]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 64}});
    for (const char *t : {"wasm-32-wasmrt", "powerpc-64-linux", "riscv-64-linux"}) {
        INFO(t);
        std::string e = error_of(m.y, Target(t));
        CHECK_THAT(e, Catch::Contains(Target(t).to_string()) &&
                          Catch::Contains("has an architecture Diet does not schedule for"));
    }
    for (const char *t : {"host-metal", "host-d3d12compute", "x86-64-linux-openglcompute"}) {
        INFO(t);
        CHECK_THAT(error_of(m.y, Target(t)), Catch::Contains("Diet does not support"));
    }
    // The same through the registered autoscheduler.
    CHECK_THAT(error_through_plugin(m.y, {}, Target("host-opencl")), Catch::Contains("opencl") && Catch::Contains("Diet does not support"));
}

TEST_CASE("tuning a pipeline whose inputs have no estimates says which input", "[errors]") {
    // Scheduling alone does not need input estimates (constant-estimate sizes come from the
    // outputs); measuring does: it must allocate inputs.
    Matmul m;
    Param<int> T("T", 4, 1, 8);
    m.y.set_estimates({{0, 64}, {0, 16 * T}});
    CHECK(error_of(m.y) == "no error");
    Matmul m2;
    Param<int> T2("T", 4, 1, 8);
    m2.y.set_estimates({{0, 64}, {0, 16 * T2}});
    diet::Options o;
    o.trials = 2;
    std::string e = error_of(m2.y, diet::runnable_host_target(), o);
    CHECK_THAT(e, Catch::Contains("input buffer " + m2.a.name() + ", dimension 0 has no estimate"));
    CHECK_THAT(e, !Catch::Contains("non-user error"));
}

// ---- issue 12: a target with a feature this CPU lacks is never measured here -----------------

namespace {
// A target this CPU certainly cannot run: Xeon Phi's AVX-512 (PF/ER), which no later CPU has; on
// top of it, whatever Halide's host target claims wrongly here (avx512_sapphirerapids on Zen 4).
Target target_this_cpu_lacks() {
    Target t = get_host_target().with_feature(Target::AVX512_KNL);
    REQUIRE(!diet::features_missing_on(t, diet::read_host_cpu_features()).empty());
    return t;
}
}  // namespace

TEST_CASE("tuning for a target with features this CPU lacks is a user error naming them", "[errors][host_cpu]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 64}});
    const Target t = target_this_cpu_lacks();
    const std::string e = error_through_plugin(m.y, {{"HL_DIET_TRIALS", "4"}}, t);
    // "(needs avx512pf, avx512er)" on an AVX-512 CPU; an AVX2-only CPU lacks avx512f and avx512cd too.
    CHECK_THAT(e, Catch::Contains("has features this CPU lacks") && Catch::Contains("avx512_knl (needs ") &&
                      Catch::Contains("avx512pf") &&
                      Catch::Contains("Use target=" + diet::runnable_on(t, diet::read_host_cpu_features()).to_string()));
    CHECK_THAT(e, !Catch::Contains("non-user error"));
    // Halide 14's own host target, where it claims what this CPU lacks (Zen 4): the same error,
    // naming avx512_fp16 and the runnable target.
    const auto wrong = diet::features_missing_on(get_host_target(), diet::read_host_cpu_features());
    if (!wrong.empty()) {
        const std::string h = error_through_plugin(m.y, {{"HL_DIET_TRIALS", "4"}}, get_host_target());
        CHECK_THAT(h, Catch::Contains(wrong[0].feature) &&
                          Catch::Contains("Use target=" + diet::runnable_host_target().to_string()));
    } else {
        std::cout << "(Halide's host target runs on this CPU; its own case is checked on CPUs where it does not)\n";
    }
}

TEST_CASE("without trials, a target with features this CPU lacks schedules with one warning", "[errors][host_cpu]") {
    Matmul m;
    m.y.set_estimates({{0, 64}, {0, 64}});
    const Target t = target_this_cpu_lacks();
    // Capture stderr: the warning is one line, and scheduling succeeds (the library may be meant
    // for another machine).
    fflush(stderr);
    char path[] = "/tmp/diet-warn-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    int saved = dup(2);
    dup2(fd, 2);
    const std::string e = error_through_plugin(m.y, {}, t);
    std::cerr.flush();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    close(fd);
    unlink(path);
    CHECK(e == "no error");
    size_t warnings = 0;
    for (size_t at = text.find("[diet] warning: the target has features this CPU lacks"); at != std::string::npos;
         at = text.find("[diet] warning: the target has features this CPU lacks", at + 1)) {
        warnings++;
    }
    CHECK(warnings == 1);
    CHECK_THAT(text, Catch::Contains("avx512_knl"));
}
