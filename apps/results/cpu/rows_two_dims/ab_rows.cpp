// Dense over batch x sequence, y(o, t, b), against the same layer with the rows flattened, y(o, r)
// with r = t + T b: both scheduled by the plugin in DIET_LIB (default options), timed interleaved in
// one process: per shape, ROUNDS rounds, each the min over REPS calls of each layer in turn; the
// median of the rounds' mins is printed. Random inputs; outputs compared.
#include "Halide.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
using namespace Halide;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main() {
    load_plugin(getenv("DIET_LIB"));
    Target tgt(getenv("TGT"));
    const int C = 768, O = 768;
    Var o("o"), t("t"), b("b");
    // y(o, t, b), T in [1, 128], B in [1, 16]
    Param<int> S("S"), U("U");
    S.set_range(1, 128); S.set_estimate(64); U.set_range(1, 16); U.set_estimate(4);
    ImageParam x3(Float(32), 3, "x3"), w3(Float(32), 2, "w3"), b3(Float(32), 1, "b3");
    Func f3("dense_bt");
    RDom r3(0, C, "r");
    f3(o, t, b) = b3(o) + sum(x3(r3, t, b) * w3(r3, o));
    x3.dim(0).set_estimate(0, C).dim(1).set_estimate(0, S).dim(2).set_estimate(0, U);
    w3.dim(0).set_estimate(0, C).dim(1).set_estimate(0, O); b3.dim(0).set_estimate(0, O);
    f3.set_estimate(o, 0, O).set_estimate(t, 0, S).set_estimate(b, 0, U);
    Pipeline p3(f3);
    p3.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    p3.compile_jit(tgt);
    // y(o, r), R in [1, 2048]
    Param<int> R("R");
    R.set_range(1, 2048); R.set_estimate(256);
    ImageParam x2(Float(32), 2, "x2"), w2(Float(32), 2, "w2"), b2(Float(32), 1, "b2");
    Func f2("dense_rows");
    RDom r2(0, C, "r");
    f2(o, t) = b2(o) + sum(x2(r2, t) * w2(r2, o));
    x2.dim(0).set_estimate(0, C).dim(1).set_estimate(0, R);
    w2.dim(0).set_estimate(0, C).dim(1).set_estimate(0, O); b2.dim(0).set_estimate(0, O);
    f2.set_estimate(o, 0, O).set_estimate(t, 0, R);
    Pipeline p2(f2);
    p2.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    p2.compile_jit(tgt);
    std::mt19937 g(7);
    auto rnd = [&](Buffer<float> &buf) { buf.for_each_value([&](float &v) { v = (int(g() % 2001) - 1000) / 1000.0f; }); };
    Buffer<float> W(C, O), Bi(O);
    rnd(W); rnd(Bi);
    w3.set(W); b3.set(Bi); w2.set(W); b2.set(Bi);
    const int rounds = 5;
    for (auto [T, Bt] : std::vector<std::pair<int, int>>{{1, 16}, {2, 16}, {1, 4}, {16, 1}, {77, 3}, {128, 16}}) {
        Buffer<float> X(C, T, Bt), Y3(O, T, Bt);
        rnd(X);
        Buffer<float> X2(X.data(), C, T * Bt), Y2(O, T * Bt);
        x3.set(X); S.set(T); U.set(Bt); x2.set(X2); R.set(T * Bt);
        p3.realize(Y3, tgt); p2.realize(Y2, tgt);
        double err = 0;
        Y3.for_each_element([&](int oo, int tt, int bb) { err = std::max(err, (double)std::abs(Y3(oo, tt, bb) - Y2(oo, tt + T * bb))); });
        const int reps = T * Bt >= 512 ? 10 : 100;
        std::vector<double> m3, m2;
        for (int k = 0; k < rounds; k++) {
            double a = 1e9, c = 1e9;
            for (int i = 0; i < reps; i++) { double s0 = now(); p3.realize(Y3, tgt); a = std::min(a, now() - s0); }
            for (int i = 0; i < reps; i++) { double s0 = now(); p2.realize(Y2, tgt); c = std::min(c, now() - s0); }
            m3.push_back(a); m2.push_back(c);
        }
        std::sort(m3.begin(), m3.end()); std::sort(m2.begin(), m2.end());
        printf("T=%3d B=%2d  y(o,t,b) %.4f ms  flattened %.4f ms  flattened/batched %.2f  max diff %.2g\n", T, Bt, m3[rounds / 2] * 1e3,
               m2[rounds / 2] * 1e3, m2[rounds / 2] / m3[rounds / 2], err);
        fflush(stdout);
    }
}
