#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin(getenv("PLUGIN"));
    Target tgt(getenv("TGT"));
    const int K = 256, N = 256;
    Var n("n"), b("b");
    Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
    ImageParam W(Float(32), 3, "W"), X(Float(32), 2, "x"); RDom r(0, K, "r"); Func o("bgemv");
    o(n, b) = sum(W(r, n, b) * X(r, b));
    W.dim(0).set_estimate(0, K).dim(1).set_estimate(0, N).dim(2).set_estimate(0, T);
    X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, T);
    o.set_estimate(n, 0, N).set_estimate(b, 0, T);
    Pipeline p(o);
    p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40)); fprintf(stderr, "%s\n", getenv("PLUGIN"));
    if (getenv("STMT")) p.compile_to_lowered_stmt("/tmp/bg/bg.stmt", {W, X, T}, Text, tgt);
    p.compile_jit(tgt);
    for (int t : {1, 5, 16, 64, 100, 128}) {
        Buffer<float> w(K, N, t), x(K, t), out(N, t);
        w.fill(0.5f); x.fill(1.f); T.set(t); W.set(w); X.set(x);
        p.realize(out, tgt);
        double best = 1e9;
        for (int k = 0; k < 10; k++) { auto a = std::chrono::steady_clock::now(); p.realize(out, tgt); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count()); }
        printf("T=%d %.4f ms\n", t, best * 1e3);
    }
}
