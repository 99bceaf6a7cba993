// Used by test/emit_generator.sh: runs the library Diet built (ORIG) and the one built from the
// generator Diet emitted (HL_DIET_EMIT_GENERATOR, no plugin; EMIT) on the same random inputs at several
// T and requires bit-identical outputs (and agreement with a plain C++ reference).
// Arguments are passed by name through each library's metadata (`_argv` entry points), so the check
// does not depend on the two signatures' argument order; it prints both orders.
// Compile with -DDIET_PIPE_DENSE -DDIET_K=.. -DDIET_N=.., or -DDIET_PIPE_BMM_NN (or
// -DDIET_PIPE_BMM_NT_LHS_T: scores with transposed queries) -DDIET_B=.. -DDIET_D=..,
// and -DORIG=<function name> -DEMIT=<function name>.
#include "HalideBuffer.h"
#include "HalideRuntime.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#define DIET_CAT2(a, b) a##b
#define DIET_CAT(a, b) DIET_CAT2(a, b)
extern "C" int DIET_CAT(ORIG, _argv)(void **args);
extern "C" const struct halide_filter_metadata_t *DIET_CAT(ORIG, _metadata)();
extern "C" int DIET_CAT(EMIT, _argv)(void **args);
extern "C" const struct halide_filter_metadata_t *DIET_CAT(EMIT, _metadata)();

using Buf = Halide::Runtime::Buffer<float>;

namespace {

std::string order(const halide_filter_metadata_t *md) {
    std::string s;
    for (int i = 0; i < md->num_arguments; i++) s += std::string(i ? ", " : "") + md->arguments[i].name;
    return s;
}

int call(int (*fn)(void **), const halide_filter_metadata_t *md, std::map<std::string, Buf *> &bufs, int32_t T) {
    std::vector<void *> args;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) {
            if (std::string(a.name) != "T") {
                std::printf("unexpected scalar argument %s\n", a.name);
                return -1;
            }
            args.push_back(&T);
        } else {
            auto it = bufs.find(a.name);
            if (it == bufs.end()) {
                std::printf("unexpected buffer argument %s\n", a.name);
                return -1;
            }
            args.push_back(it->second->raw_buffer());
        }
    }
    return fn(args.data());
}

void fill(Buf &b, std::mt19937 &rng) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    b.for_each_value([&](float &v) { v = u(rng); });
}

}  // namespace

int main() {
    const halide_filter_metadata_t *mo = DIET_CAT(ORIG, _metadata)();
    const halide_filter_metadata_t *me = DIET_CAT(EMIT, _metadata)();
    std::printf("original arguments: %s\nemitted arguments:  %s\n", order(mo).c_str(), order(me).c_str());
    std::printf("argument order %s\n", order(mo) == order(me) ? "identical" : "DIFFERS");
    int failures = 0;
    std::mt19937 rng(1234);
    for (int T : {1, 7, 64, 128, 200}) {
        std::map<std::string, Buf *> in;
#if defined(DIET_PIPE_DENSE)
        const int K = DIET_K, N = DIET_N, M = 16 * T;
        Buf x(K, M), w(K, N), y0(N, M), y1(N, M);
        fill(x, rng);
        fill(w, rng);
        in = {{"x", &x}, {"w", &w}};
        const char *out_name = "y";
        auto reference = [&](int n, int m, int) {
            double s = 0;
            for (int k = 0; k < K; k++) s += (double)x(k, m) * w(k, n);
            return s;
        };
#elif defined(DIET_PIPE_BMM_NN)
        const int B = DIET_B, D = DIET_D;
        Buf a(T, T, B), bn(D, T, B), y0(D, T, B), y1(D, T, B);
        fill(a, rng);
        fill(bn, rng);
        in = {{"a", &a}, {"bn", &bn}};
        const char *out_name = "out";
        auto reference = [&](int j, int i, int b) {
            double s = 0;
            for (int k = 0; k < T; k++) s += (double)a(k, i, b) * bn(j, k, b);
            return s;
        };
#elif defined(DIET_PIPE_BMM_NT_LHS_T)
        const int B = DIET_B, D = DIET_D;
        Buf a(T, D, B), bt(D, T, B), y0(T, T, B), y1(T, T, B);
        fill(a, rng);
        fill(bt, rng);
        in = {{"a", &a}, {"bt", &bt}};
        const char *out_name = "out";
        auto reference = [&](int j, int i, int b) {
            double s = 0;
            for (int k = 0; k < D; k++) s += (double)a(i, k, b) * bt(k, j, b);
            return s;
        };
#else
#error "define DIET_PIPE_DENSE, DIET_PIPE_BMM_NN or DIET_PIPE_BMM_NT_LHS_T"
#endif
        y0.fill(std::nanf(""));
        y1.fill(-std::nanf(""));
        std::map<std::string, Buf *> b0 = in, b1 = in;
        b0[out_name] = &y0;
        b1[out_name] = &y1;
        int r0 = call(DIET_CAT(ORIG, _argv), mo, b0, T);
        int r1 = call(DIET_CAT(EMIT, _argv), me, b1, T);
        if (r0 != 0 || r1 != 0) {
            std::printf("T=%d: error codes %d (original) %d (emitted)\n", T, r0, r1);
            failures++;
            continue;
        }
        long differ = 0, wrong = 0;
        y0.for_each_element([&](const int *p) {
            const int c2 = y0.dimensions() > 2 ? p[2] : 0;
            float v0 = y0(p), v1 = y1(p);
            if (std::memcmp(&v0, &v1, sizeof v0) != 0) differ++;
            double ref = reference(p[0], p[1], c2);
            if (!(std::fabs(v0 - ref) <= 1e-3 * (1 + std::fabs(ref)))) wrong++;
        });
        std::printf("T=%d: %zu outputs, %ld differ bitwise, %ld off the reference\n", T, y0.number_of_elements(),
                    differ, wrong);
        failures += (differ != 0) + (wrong != 0);
    }
    std::printf(failures ? "FAIL\n" : "PASS\n");
    return failures ? 1 : 0;
}
