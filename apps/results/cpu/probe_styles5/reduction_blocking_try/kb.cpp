// Probe: blocking a long reduction for the caches in plain Halide 14 (weight gradient).
#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    Target tgt(getenv("TGT"));
    const int K = 256, N = 512;
    const int KC = argc > 1 ? atoi(argv[1]) : 256;   // reduction block
    const int PANEL = argc > 2 ? atoi(argv[2]) : 4;  // tiles of 24 per task
    const int ROWB = argc > 3 ? atoi(argv[3]) : 16;  // rows (n) per task
    Var k("k"), n("n"), ko, ki, no, ni, kt, kv, kvo, kvi, nt, nr, t;
    RVar ro("ro"), ri("ri");
    Param<int> T("T");
    ImageParam X(Float(32), 2, "x"), dy(Float(32), 2, "dy");
    RDom r(0, T * 16, "r");
    Func s("s"), o("o");
    s(k, n) = 0.f;
    s(k, n) += X(k, r) * dy(n, r);
    o(k, n) = s(k, n);
    o.bound(k, 0, K).bound(n, 0, N);
    if (KC > 0) {
        o.split(k, ko, ki, 24 * PANEL, TailStrategy::ShiftInwards).split(n, no, ni, ROWB, TailStrategy::ShiftInwards)
            .reorder(ki, ni, ko, no).fuse(ko, no, t).parallel(t);
        o.vectorize(ki, 8);
        s.compute_at(o, t);
        s.vectorize(k, 8);
        s.update().split(r.x, ro, ri, KC, TailStrategy::GuardWithIf)
            .split(k, kt, kv, 24).split(n, nt, nr, 4)
            .split(kv, kvo, kvi, 8)
            .reorder(kvi, kvo, nr, ri, kt, nt, ro)
            .vectorize(kvi).unroll(kvo).unroll(nr);
    } else {
        // Unblocked: the accumulator per register tile (Diet's shape today).
        o.split(k, ko, ki, 24 * PANEL, TailStrategy::ShiftInwards).split(n, no, ni, ROWB, TailStrategy::ShiftInwards)
            .reorder(ki, ni, ko, no).fuse(ko, no, t).parallel(t);
        o.split(ki, kt, kv, 24).split(ni, nt, nr, 4).reorder(kv, nr, kt, nt, t).vectorize(kv, 8);
        s.compute_at(o, kt).vectorize(k, 8).unroll(k).unroll(n);
        s.update().split(k, kvo, kvi, 8).reorder(kvi, kvo, n, r.x).vectorize(kvi).unroll(kvo).unroll(n);
    }
    if (getenv("STMT")) o.compile_to_lowered_stmt("/tmp/kb/kb.stmt", {X, dy, T}, Text, tgt);
    o.compile_jit(tgt);
    Func ref("ref");
    RDom r2(0, T * 16);
    ref(k, n) = 0.f;
    ref(k, n) += X(k, r2) * dy(n, r2);
    ref.compile_jit(tgt);
    for (int tt : {1, 5, 16, 64, 128}) {
        Buffer<float> A(K, 16 * tt), B(N, 16 * tt), out(K, N), want(K, N);
        A.for_each_element([&](int a, int b) { A(a, b) = ((a * 7 + b * 3) % 13) / 13.f - 0.5f; });
        B.for_each_element([&](int a, int b) { B(a, b) = ((a * 5 + b * 11) % 17) / 17.f - 0.5f; });
        T.set(tt); X.set(A); dy.set(B);
        o.realize(out, tgt);
        ref.realize(want, tgt);
        double err = 0;
        out.for_each_element([&](int a, int b) { err = std::max(err, (double)std::abs(out(a, b) - want(a, b))); });
        double best = 1e9;
        for (int q = 0; q < 10; q++) { auto st = std::chrono::steady_clock::now(); o.realize(out, tgt); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - st).count()); }
        printf("KC=%d panel=%d rows=%d T=%d %.4f ms %.1f GFLOP/s err %.2g\n", KC, PANEL, ROWB, tt, best * 1e3, 2.0 * K * N * 16 * tt / best / 1e9, err);
    }
}
