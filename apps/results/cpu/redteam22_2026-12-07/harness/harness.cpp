// Table-driven harness for round 22: links the four AOT libraries of one generator
// (GEN_ref, GEN_diet, GEN_mull, GEN_adams, GEN_adamss = Adams2019 at the small constant shape; built with -f GEN_<sys>) and drives them
// through their generated <fn>_argv / <fn>_metadata entry points.
//
// usage: harness check|time ARG=SPEC ...
//   scalar:  W=100   (int or float, by the metadata type)
//   buffer:  x=[100,50,3]            random contents, default range by type
//            x=[100,50,3]@lo:hi      random contents in [lo, hi]
//            x=[100,50,3]i           interleaved (channels innermost in memory)
//   outputs: out=[100,50]            output extents
// check: runs every library once, compares each output with ref's, prints one JSON line per library.
// time:  env ROUNDS (default 15) interleaved samples per library; each sample runs the library
//        K times (K calibrated so a sample is >= 2 ms, at most 1000) and records the per-run time;
//        prints the median per library.  ONLY=diet,ref limits the libraries.
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define DECL(sys)                                                      \
    extern "C" int CAT(CAT(GEN, _), CAT(sys, _argv))(void **args);     \
    extern "C" const halide_filter_metadata_t *CAT(CAT(GEN, _), CAT(sys, _metadata))();
DECL(ref)
DECL(diet)
DECL(mull)
DECL(adams)
DECL(adamss)

struct Lib {
    const char *name;
    int (*argv)(void **);
    const halide_filter_metadata_t *(*meta)();
};
#define LIB(sys) {#sys, CAT(CAT(GEN, _), CAT(sys, _argv)), CAT(CAT(GEN, _), CAT(sys, _metadata))}
static Lib libs[] = {LIB(ref), LIB(diet), LIB(mull), LIB(adams), LIB(adamss)};
static const int NL = 5;

static std::string last_error;
extern "C" void my_error(void *, const char *msg) { last_error = msg; }

using Halide::Runtime::Buffer;

struct Spec {
    bool is_buffer = false;
    std::vector<int> extents;
    bool has_range = false;
    bool interleaved = false;  // x=[w,h,c]i : channels innermost in memory (stride 1 on dim 2)
    double lo = 0, hi = 0;
    double scalar = 0;
};

static std::map<std::string, Spec> parse(int argc, char **argv) {
    std::map<std::string, Spec> m;
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        auto eq = a.find('=');
        if (eq == std::string::npos) { fprintf(stderr, "bad arg %s\n", a.c_str()); exit(2); }
        std::string k = a.substr(0, eq), v = a.substr(eq + 1);
        Spec s;
        if (!v.empty() && v[0] == '[') {
            s.is_buffer = true;
            auto close = v.find(']');
            std::string inner = v.substr(1, close - 1);
            size_t p = 0;
            while (p < inner.size()) {
                size_t c = inner.find(',', p);
                if (c == std::string::npos) c = inner.size();
                s.extents.push_back(atoi(inner.substr(p, c - p).c_str()));
                p = c + 1;
            }
            if (close + 1 < v.size() && v[close + 1] == 'i') s.interleaved = true;
            auto at = v.find('@', close);
            if (at != std::string::npos) {
                s.has_range = true;
                std::string r = v.substr(at + 1);
                auto col = r.find(':');
                s.lo = atof(r.substr(0, col).c_str());
                s.hi = atof(r.substr(col + 1).c_str());
            }
        } else {
            s.scalar = atof(v.c_str());
        }
        m[k] = s;
    }
    return m;
}

template<typename T>
static void fill_t(Buffer<> &b, uint64_t seed, double lo, double hi) {
    std::mt19937_64 rng(seed);
    Buffer<T> t = b.as<T>();
    t.for_each_value([&](T &v) {
        double u = (rng() >> 11) * (1.0 / 9007199254740992.0);
        if (std::is_floating_point<T>::value) v = (T)(lo + u * (hi - lo));
        else v = (T)std::floor(lo + u * (hi - lo + 1));
    });
}

static void fill(Buffer<> &b, const std::string &name, const Spec &s) {
    uint64_t seed = std::hash<std::string>()(name);
    halide_type_t t = b.type();
    double lo = 0, hi = 1;
    if (t.code == halide_type_uint) { lo = 0; hi = std::ldexp(1.0, t.bits) - 1; }
    if (t.code == halide_type_int) { lo = -std::ldexp(1.0, t.bits - 1); hi = std::ldexp(1.0, t.bits - 1) - 1; if (t.bits == 32) { lo = -100; hi = 100; } }
    if (s.has_range) { lo = s.lo; hi = s.hi; }
#define F(CODE, BITS, T) if (t.code == CODE && t.bits == BITS) { fill_t<T>(b, seed, lo, hi); return; }
    F(halide_type_float, 32, float)
    F(halide_type_float, 64, double)
    F(halide_type_uint, 8, uint8_t)
    F(halide_type_uint, 16, uint16_t)
    F(halide_type_uint, 32, uint32_t)
    F(halide_type_int, 8, int8_t)
    F(halide_type_int, 16, int16_t)
    F(halide_type_int, 32, int32_t)
#undef F
    fprintf(stderr, "unsupported type\n");
    exit(2);
}

struct Instance {
    std::vector<Buffer<>> bufs;        // per argument (empty for scalars)
    std::vector<int32_t> ints;
    std::vector<float> floats;
    std::vector<void *> argv;
};

static Instance make(const halide_filter_metadata_t *md, std::map<std::string, Spec> &specs, bool fresh_outputs_only = false) {
    Instance in;
    int n = md->num_arguments;
    in.bufs.resize(n);
    in.ints.resize(n);
    in.floats.resize(n);
    in.argv.resize(n);
    for (int i = 0; i < n; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        std::string name = a.name;
        if (!specs.count(name)) { fprintf(stderr, "missing spec for argument %s\n", a.name); exit(2); }
        Spec &s = specs[name];
        if (a.kind == halide_argument_kind_input_scalar) {
            if (a.type.code == halide_type_float) { in.floats[i] = (float)s.scalar; in.argv[i] = &in.floats[i]; }
            else { in.ints[i] = (int32_t)llround(s.scalar); in.argv[i] = &in.ints[i]; }
        } else {
            if ((int)s.extents.size() != a.dimensions) { fprintf(stderr, "arg %s: %d dims given, %d expected\n", a.name, (int)s.extents.size(), a.dimensions); exit(2); }
            if (s.interleaved && s.extents.size() == 3)
                in.bufs[i] = Buffer<>::make_interleaved(a.type, s.extents[0], s.extents[1], s.extents[2]);
            else
                in.bufs[i] = Buffer<>(a.type, s.extents);
            if (a.kind == halide_argument_kind_input_buffer) fill(in.bufs[i], name, s);
            else std::memset(in.bufs[i].data(), 0, in.bufs[i].size_in_bytes());
            in.argv[i] = in.bufs[i].raw_buffer();
        }
    }
    return in;
}

static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int main(int argc, char **argv) {
    halide_set_error_handler(my_error);
    if (argc < 2) { fprintf(stderr, "usage\n"); return 2; }
    std::string mode = argv[1];
    auto specs = parse(argc, argv);
    std::vector<bool> use(NL, true);
    if (const char *only = getenv("ONLY")) {
        std::string o = std::string(",") + only + ",";
        for (int l = 0; l < NL; l++) use[l] = o.find(std::string(",") + libs[l].name + ",") != std::string::npos;
    }
    const halide_filter_metadata_t *md = libs[0].meta();
    if (mode == "check") {
        std::vector<Instance> ins;
        std::vector<int> rc(NL, 0);
        std::vector<std::string> err(NL);
        for (int l = 0; l < NL; l++) {
            ins.push_back(make(libs[l].meta(), specs));
            if (!use[l]) continue;
            last_error.clear();
            rc[l] = libs[l].argv(ins[l].argv.data());
            err[l] = last_error;
        }
        for (int l = 0; l < NL; l++) {
            if (!use[l]) continue;
            std::string status = "ok";
            long long nbad = 0, ntot = 0;
            double maxerr = 0, maxref = 0;
            if (rc[l] != 0) status = "error";
            else if (l > 0 && rc[0] != 0) status = "ref_error";
            else if (l > 0) {
                for (int i = 0; i < md->num_arguments; i++) {
                    if (md->arguments[i].kind != halide_argument_kind_output_buffer) continue;
                    Buffer<> &A = ins[0].bufs[i], &B = ins[l].bufs[i];
                    halide_type_t t = A.type();
                    size_t cnt = A.number_of_elements();
                    ntot += cnt;
                    for (size_t e = 0; e < cnt; e++) {
                        double a, b;
#define G(CODE, BITS, T) if (t.code == CODE && t.bits == BITS) { a = ((T *)A.data())[e]; b = ((T *)B.data())[e]; } else
                        G(halide_type_float, 32, float) G(halide_type_float, 64, double) G(halide_type_uint, 8, uint8_t)
                        G(halide_type_uint, 16, uint16_t) G(halide_type_uint, 32, uint32_t) G(halide_type_int, 8, int8_t)
                        G(halide_type_int, 16, int16_t) G(halide_type_int, 32, int32_t) { a = b = 0; }
#undef G
                        double d = std::fabs(a - b);
                        if (std::isnan(a) != std::isnan(b)) d = INFINITY;
                        if (std::isnan(a) && std::isnan(b)) d = 0;
                        maxref = std::max(maxref, std::fabs(a));
                        bool bad;
                        if (t.code == halide_type_float) bad = !(d <= 1e-4 + 1e-3 * std::fabs(a));
                        else bad = d != 0;
                        if (bad) nbad++;
                        maxerr = std::max(maxerr, d);
                    }
                }
                if (nbad) status = "WRONG";
            }
            std::string e = err[l];
            for (auto &c : e) if (c == '"' || c == '\n' || c == '\\') c = ' ';
            printf("{\"lib\": \"%s\", \"status\": \"%s\", \"rc\": %d, \"bad\": %lld, \"n\": %lld, \"maxerr\": %g, \"maxref\": %g, \"err\": \"%s\"}\n",
                   libs[l].name, status.c_str(), rc[l], nbad, ntot, maxerr, maxref, e.substr(0, 300).c_str());
        }
        return 0;
    }
    // time
    int rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 15;
    std::vector<Instance> ins;
    std::vector<int> K(NL, 1);
    std::vector<bool> failed(NL, false);
    for (int l = 0; l < NL; l++) {
        ins.push_back(make(libs[l].meta(), specs));
        if (!use[l]) continue;
        last_error.clear();
        double t0 = now();
        int r = libs[l].argv(ins[l].argv.data());
        r |= libs[l].argv(ins[l].argv.data());
        double t1 = (now() - t0) / 2;
        if (r) { failed[l] = true; fprintf(stderr, "%s: error %s\n", libs[l].name, last_error.c_str()); continue; }
        K[l] = std::max(1, std::min(1000, (int)(2e-3 / std::max(t1, 1e-7))));
    }
    std::vector<std::vector<double>> samples(NL);
    for (int r = 0; r < rounds; r++) {
        for (int l = 0; l < NL; l++) {
            if (!use[l] || failed[l]) continue;
            double t0 = now();
            for (int k = 0; k < K[l]; k++) libs[l].argv(ins[l].argv.data());
            samples[l].push_back((now() - t0) / K[l] * 1e3);
        }
    }
    printf("{");
    bool first = true;
    for (int l = 0; l < NL; l++) {
        if (!use[l]) continue;
        if (!first) printf(", ");
        first = false;
        if (failed[l]) { printf("\"%s\": null", libs[l].name); continue; }
        auto s = samples[l];
        std::sort(s.begin(), s.end());
        double med = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
        printf("\"%s\": %.6g, \"%s_min\": %.6g, \"%s_max\": %.6g, \"%s_K\": %d", libs[l].name, med, libs[l].name, s.front(), libs[l].name, s.back(), libs[l].name, K[l]);
    }
    printf(", \"rounds\": %d}\n", rounds);
    return 0;
}
