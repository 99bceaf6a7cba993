#include "space/HostCpu.h"

#include <map>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define DIET_HOST_IS_X86 1
#endif

namespace diet {

using Halide::Target;

namespace {

#ifdef DIET_HOST_IS_X86
struct CpuidRegs {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegs cpuid(unsigned leaf, unsigned subleaf) {
    CpuidRegs r;
    if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx)) return CpuidRegs{};
    return r;
}

// XCR0: which register states the operating system saves (AVX needs the YMM state, AVX-512 the
// opmask and ZMM states); a CPU with AVX-512 under an OS that does not enable it cannot run it.
unsigned long long xcr0() {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

bool bit(unsigned reg, int b) { return (reg >> b) & 1u; }
#endif

}  // namespace

CpuFeatureSet read_host_cpu_features() {
    CpuFeatureSet s;
#ifdef DIET_HOST_IS_X86
    const unsigned max_leaf = cpuid(0, 0).eax;
    const CpuidRegs l1 = cpuid(1, 0);
    const CpuidRegs l7 = max_leaf >= 7 ? cpuid(7, 0) : CpuidRegs{};
    const CpuidRegs l7s1 = (max_leaf >= 7 && l7.eax >= 1) ? cpuid(7, 1) : CpuidRegs{};
    const unsigned max_ext = cpuid(0x80000000u, 0).eax;
    const CpuidRegs e1 = max_ext >= 0x80000001u ? cpuid(0x80000001u, 0) : CpuidRegs{};

    const bool os_saves_avx = bit(l1.ecx, 27) && (xcr0() & 0x6) == 0x6;             // OSXSAVE, SSE+YMM
    const bool os_saves_avx512 = os_saves_avx && (xcr0() & 0xe0) == 0xe0;          // opmask, ZMM_Hi256, Hi16_ZMM
    auto add = [&](bool present, const char *name) {
        if (present) s.insert(name);
    };
    add(bit(l1.edx, 26), "sse2");
    add(bit(l1.ecx, 0), "pni");  // SSE3
    add(bit(l1.ecx, 1), "pclmulqdq");
    add(bit(l1.ecx, 9), "ssse3");
    add(bit(l1.ecx, 19), "sse4_1");
    add(bit(l1.ecx, 20), "sse4_2");
    add(bit(l1.ecx, 22), "movbe");
    add(bit(l1.ecx, 23), "popcnt");
    add(bit(e1.ecx, 5), "abm");  // LZCNT
    add(bit(l7.ebx, 3), "bmi1");
    add(bit(l7.ebx, 8), "bmi2");
    if (os_saves_avx) {
        add(bit(l1.ecx, 28), "avx");
        add(bit(l1.ecx, 12), "fma");
        add(bit(l1.ecx, 29), "f16c");
        add(bit(e1.ecx, 16), "fma4");
        add(bit(l7.ebx, 5), "avx2");
        add(bit(l7.ecx, 8), "gfni");
        add(bit(l7.ecx, 9), "vaes");
        add(bit(l7.ecx, 10), "vpclmulqdq");
        add(bit(l7s1.eax, 4), "avx_vnni");
    }
    if (os_saves_avx512) {
        add(bit(l7.ebx, 16), "avx512f");
        add(bit(l7.ebx, 17), "avx512dq");
        add(bit(l7.ebx, 21), "avx512ifma");
        add(bit(l7.ebx, 26), "avx512pf");
        add(bit(l7.ebx, 27), "avx512er");
        add(bit(l7.ebx, 28), "avx512cd");
        add(bit(l7.ebx, 30), "avx512bw");
        add(bit(l7.ebx, 31), "avx512vl");
        add(bit(l7.ecx, 1), "avx512vbmi");
        add(bit(l7.ecx, 6), "avx512_vbmi2");
        add(bit(l7.ecx, 11), "avx512_vnni");
        add(bit(l7.ecx, 12), "avx512_bitalg");
        add(bit(l7.ecx, 14), "avx512_vpopcntdq");
        add(bit(l7.edx, 23), "avx512_fp16");
        add(bit(l7s1.eax, 5), "avx512_bf16");
    }
#endif
    return s;
}

const std::vector<std::string> &cpu_extensions_required_by(Target::Feature f) {
    // Halide 14's CodeGen_X86 compiles for one LLVM CPU model chosen by the highest feature set
    // (sapphirerapids, cannonlake, skylake-avx512, knl, haswell, corei7-avx, penryn), so each of
    // these features needs every extension of its model that LLVM may emit on its own
    // (auto-vectorized or selected patterns). AMX is left out: LLVM emits it only for Halide's
    // explicit AMX tile operations, which Diet never schedules.
    static const std::vector<std::string> none;
    static const std::map<Target::Feature, std::vector<std::string>> table = {
        {Target::SSE41, {"ssse3", "sse4_1"}},
        {Target::AVX, {"avx", "sse4_2", "popcnt"}},
        {Target::AVX2, {"avx2", "fma", "f16c", "bmi1", "bmi2", "abm", "movbe"}},
        {Target::FMA, {"fma"}},
        {Target::FMA4, {"fma4"}},
        {Target::F16C, {"f16c"}},
        {Target::AVX512, {"avx512f", "avx512cd"}},
        {Target::AVX512_KNL, {"avx512f", "avx512cd", "avx512pf", "avx512er"}},
        {Target::AVX512_Skylake, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}},
        {Target::AVX512_Cannonlake,
         {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi"}},
        // FP16 first: it is what Halide 14's detection (AVX512-VNNI + AVX512-BF16) does not check.
        {Target::AVX512_SapphireRapids,
         {"avx512_fp16", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi",
          "avx512_vnni", "avx512_bf16", "avx_vnni", "avx512_vbmi2", "avx512_bitalg", "avx512_vpopcntdq", "gfni",
          "vaes", "vpclmulqdq"}},
    };
    auto it = table.find(f);
    return it == table.end() ? none : it->second;
}

namespace {
// Every x86 feature cpu_extensions_required_by knows, with its name in target strings.
const std::vector<std::pair<Target::Feature, const char *>> &x86_features() {
    static const std::vector<std::pair<Target::Feature, const char *>> v = {
        {Target::SSE41, "sse41"},
        {Target::AVX, "avx"},
        {Target::AVX2, "avx2"},
        {Target::FMA, "fma"},
        {Target::FMA4, "fma4"},
        {Target::F16C, "f16c"},
        {Target::AVX512, "avx512"},
        {Target::AVX512_KNL, "avx512_knl"},
        {Target::AVX512_Skylake, "avx512_skylake"},
        {Target::AVX512_Cannonlake, "avx512_cannonlake"},
        {Target::AVX512_SapphireRapids, "avx512_sapphirerapids"},
    };
    return v;
}
}  // namespace

std::vector<MissingFeature> features_missing_on(const Target &t, const CpuFeatureSet &cpu) {
    std::vector<MissingFeature> missing;
    if (t.arch != Target::X86) return missing;
    for (const auto &[feature, name] : x86_features()) {
        if (!t.has_feature(feature)) continue;
        MissingFeature m{name, {}};
        for (const std::string &ext : cpu_extensions_required_by(feature)) {
            if (!cpu.count(ext)) m.extensions.push_back(ext);
        }
        if (!m.extensions.empty()) missing.push_back(m);
    }
    return missing;
}

Target runnable_on(const Target &t, const CpuFeatureSet &cpu) {
    Target r = t;
    const std::vector<MissingFeature> missing = features_missing_on(t, cpu);
    for (const auto &[feature, name] : x86_features()) {
        for (const MissingFeature &m : missing) {
            if (m.feature == name) r = r.without_feature(feature);
        }
    }
    return r;
}

Target runnable_host_target() {
    static const Target t = runnable_on(Halide::get_host_target(), read_host_cpu_features());
    return t;
}

Target runnable_target_from_string(const std::string &s) {
    Target t(s);
    if (s.rfind("host", 0) == 0) t = runnable_on(t, read_host_cpu_features());
    return t;
}

std::string describe(const std::vector<MissingFeature> &missing) {
    std::string out;
    for (const MissingFeature &m : missing) {
        if (!out.empty()) out += "; ";
        out += m.feature + " (needs";
        for (size_t i = 0; i < m.extensions.size(); i++) out += (i ? ", " : " ") + m.extensions[i];
        out += ")";
    }
    return out;
}

}  // namespace diet
