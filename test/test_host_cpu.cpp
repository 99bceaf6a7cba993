// The one answer to "which Halide target runs on this CPU" (src/space/HostCpu.h), on synthetic CPUs
// and on this one. Halide 14 says avx512_sapphirerapids for any AVX-512 CPU with AVX512-VNNI and
// AVX512-BF16, AMD Zen 4 included, and LLVM's sapphirerapids model emits AVX512-FP16 there.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"

#include <iostream>

using namespace Halide;
using namespace diet;

namespace {

// What Halide 14's get_host_target() says on an AVX-512 CPU with VNNI and BF16.
const char *halide_spr_host = "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_sapphirerapids-avx512_skylake-f16c-fma-sse41";

CpuFeatureSet merged(std::initializer_list<CpuFeatureSet> sets) {
    CpuFeatureSet s;
    for (const CpuFeatureSet &x : sets) s.insert(x.begin(), x.end());
    return s;
}
const CpuFeatureSet sse4 = {"sse2", "pni", "ssse3", "sse4_1", "sse4_2", "popcnt", "pclmulqdq"};
const CpuFeatureSet haswell = merged({sse4, {"avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "abm", "movbe"}});
const CpuFeatureSet icelake = merged({haswell, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl",
                                                "avx512ifma", "avx512vbmi", "avx512_vbmi2", "avx512_vnni",
                                                "avx512_bitalg", "avx512_vpopcntdq", "gfni", "vaes", "vpclmulqdq"}});
// AMD Zen 4 (EPYC 9004): BF16 and VNNI in their AVX-512 forms, no AVX512-FP16, no AVX-VNNI.
const CpuFeatureSet zen4 = merged({icelake, {"avx512_bf16"}});
const CpuFeatureSet sapphire_rapids = merged({zen4, {"avx_vnni", "avx512_fp16"}});

}  // namespace

TEST_CASE("Intel Sapphire Rapids (AVX512-FP16) keeps Halide's host target", "[host_cpu]") {
    const Target host(halide_spr_host);
    CHECK(features_missing_on(host, sapphire_rapids).empty());
    CHECK(runnable_on(host, sapphire_rapids) == host);
}

TEST_CASE("AMD Zen 4 (AVX-512 without AVX512-FP16) loses avx512_sapphirerapids only", "[host_cpu]") {
    const Target host(halide_spr_host);
    const auto missing = features_missing_on(host, zen4);
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].feature == "avx512_sapphirerapids");
    REQUIRE(!missing[0].extensions.empty());
    CHECK(missing[0].extensions[0] == "avx512_fp16");
    const Target r = runnable_on(host, zen4);
    CHECK(!r.has_feature(Target::AVX512_SapphireRapids));
    for (auto f : {Target::AVX512_Cannonlake, Target::AVX512_Skylake, Target::AVX512, Target::AVX2, Target::AVX,
                   Target::FMA, Target::F16C, Target::SSE41}) {
        CHECK(r.has_feature(f));
    }
    CHECK(features_missing_on(r, zen4).empty());
    CHECK_THAT(describe(missing), Catch::Contains("avx512_sapphirerapids (needs avx512_fp16"));
    // Non-ISA features (a GPU API, the runtime flags) are never touched.
    const Target cuda = host.with_feature(Target::CUDA).with_feature(Target::NoRuntime);
    CHECK(runnable_on(cuda, zen4).has_feature(Target::CUDA));
    CHECK(runnable_on(cuda, zen4).has_feature(Target::NoRuntime));
}

TEST_CASE("an AVX2-only CPU keeps AVX2, FMA and F16C and no AVX-512 feature", "[host_cpu]") {
    const Target r = runnable_on(Target(halide_spr_host), haswell);
    for (auto f : {Target::AVX512, Target::AVX512_Skylake, Target::AVX512_Cannonlake, Target::AVX512_SapphireRapids}) {
        CHECK(!r.has_feature(f));
    }
    for (auto f : {Target::AVX2, Target::AVX, Target::FMA, Target::F16C, Target::SSE41}) CHECK(r.has_feature(f));
    CHECK(r.to_string() == "x86-64-linux-avx-avx2-f16c-fma-sse41");
}

TEST_CASE("a CPU without AVX keeps SSE4.1 only; one with SSE2 only keeps nothing", "[host_cpu]") {
    CHECK(runnable_on(Target(halide_spr_host), sse4).to_string() == "x86-64-linux-sse41");
    CHECK(runnable_on(Target(halide_spr_host), CpuFeatureSet{"sse2"}).to_string() == "x86-64-linux");
    // AVX2 claimed without the haswell model's BMI/LZCNT/MOVBE (some virtual CPUs hide them).
    CpuFeatureSet no_bmi = haswell;
    no_bmi.erase("bmi2");
    const Target r = runnable_on(Target("x86-64-linux-avx-avx2-f16c-fma-sse41"), no_bmi);
    CHECK(!r.has_feature(Target::AVX2));
    CHECK(r.has_feature(Target::AVX));
}

TEST_CASE("targets of other architectures are left alone", "[host_cpu]") {
    const Target arm("arm-64-linux-arm_dot_prod");
    CHECK(features_missing_on(arm, CpuFeatureSet{}).empty());
    CHECK(runnable_on(arm, CpuFeatureSet{}) == arm);
}

TEST_CASE("this CPU: the runnable host target has nothing this CPU lacks", "[host_cpu]") {
    const CpuFeatureSet here = read_host_cpu_features();
    const Target host = get_host_target();
    const Target runnable = runnable_host_target();
    std::cout << "Halide's host target: " << host.to_string() << "\nrunnable here:        " << runnable.to_string()
              << "\nremoved:              " << describe(features_missing_on(host, here)) << "\n";
#if defined(__x86_64__)
    CHECK(here.count("sse2"));
    CHECK(features_missing_on(runnable, here).empty());
    // Nothing this CPU has is lost: each removed feature really needs an extension missing here.
    for (const auto &m : features_missing_on(host, here)) {
        for (const std::string &e : m.extensions) CHECK(!here.count(e));
    }
    if (host.has_feature(Target::AVX512_SapphireRapids) && !here.count("avx512_fp16")) {
        CHECK(!runnable.has_feature(Target::AVX512_SapphireRapids));
    }
    // JIT code built for it runs (an AVX-512 float16 conversion would die with SIGILL where
    // Halide's own host target is wrong).
    Func f("f");
    Var x("x");
    f(x) = cast<float>(cast<float16_t>(x * 0.5f)) + 1.0f;
    f.vectorize(x, 32);
    Buffer<float> out = f.realize({64}, runnable);
    CHECK(out(7) == 4.5f);
#endif
    CHECK(runnable_target_from_string("host-cuda").has_feature(Target::CUDA));
    CHECK(features_missing_on(runnable_target_from_string("host-cuda"), here).empty());
}
