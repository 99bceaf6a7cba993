#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin(getenv("PLUGIN"));
    Target tgt(getenv("TGT"));
    const int K = 256, N = 256;
    Var n("n"), m("m");
    Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
    ImageParam a(Float(32), 3, "a"), bb(Float(32), 3, "b"); RDom r(0, K, "r"); Func o("complex_re");
    o(n, m) = sum(a(r, m, 0) * bb(r, n, 0) - a(r, m, 1) * bb(r, n, 1));
    a.dim(0).set_estimate(0, K).dim(1).set_estimate(0, T * 4).dim(2).set_estimate(0, 2);
    bb.dim(0).set_estimate(0, K).dim(1).set_estimate(0, N).dim(2).set_estimate(0, 2);
    o.set_estimate(n, 0, N).set_estimate(m, 0, T * 4);
    Pipeline p(o);
    p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40)); fprintf(stderr, "%s\n", getenv("PLUGIN"));
    if (getenv("STMT")) p.compile_to_lowered_stmt("/tmp/bg/cx.stmt", {a, bb, T}, Text, tgt);
    p.compile_jit(tgt);
    for (int t : {1, 16, 64, 128}) {
        Buffer<float> A(K, 4 * t, 2), B(K, N, 2), out(N, 4 * t);
        A.fill(0.5f); B.fill(1.f); T.set(t); a.set(A); bb.set(B);
        p.realize(out, tgt);
        double best = 1e9;
        for (int k = 0; k < 10; k++) { auto s = std::chrono::steady_clock::now(); p.realize(out, tgt); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count()); }
        printf("T=%d %.4f ms\n", t, best * 1e3);
    }
}
