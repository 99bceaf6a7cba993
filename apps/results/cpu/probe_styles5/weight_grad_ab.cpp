#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin(getenv("PLUGIN"));
    Target tgt(getenv("TGT"));
    const int K = 256, N = 512;
    Var k("k"), n("n");
    Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
    ImageParam X(Float(32), 2, "x"), dy(Float(32), 2, "dy"); RDom r(0, T * 16, "r"); Func o("wgrad");
    o(k, n) = sum(X(k, r) * dy(n, r));
    X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, T * 16); dy.dim(0).set_estimate(0, N).dim(1).set_estimate(0, T * 16);
    o.set_estimate(k, 0, K).set_estimate(n, 0, N);
    Pipeline p(o);
    p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    p.compile_jit(tgt);
    for (int t : {1, 5, 16, 64, 128}) {
        Buffer<float> A(K, 16 * t), B(N, 16 * t), out(K, N);
        A.fill(0.5f); B.fill(1.f); T.set(t); X.set(A); dy.set(B);
        p.realize(out, tgt);
        double best = 1e9;
        for (int q = 0; q < 10; q++) { auto s = std::chrono::steady_clock::now(); p.realize(out, tgt); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count()); }
        printf("T=%d %.4f ms %.1f GFLOP/s\n", t, best * 1e3, 2.0 * K * N * 16 * t / best / 1e9);
    }
}
