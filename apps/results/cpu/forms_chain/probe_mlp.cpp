#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
// style: 0 inline sum + relu; 1 explicit acc + epilogue Func; 2 no epilogue (h = sum)
Pipeline build(int style, ImageParam x, ImageParam w1, ImageParam w2, Param<int> T, int D, int H) {
    Var n("n"), m("m");
    RDom k(0, D, "k"), j(0, H, "j");
    Func h("h"), y("y");
    if (style == 0) {
        h(n, m) = max(sum(x(k, m) * w1(k, n)), 0.f);
    } else if (style == 1) {
        Func acc("acc");
        acc(n, m) = 0.f;
        acc(n, m) += x(k, m) * w1(k, n);
        h(n, m) = max(acc(n, m), 0.f);
    } else if (style == 2) {
        h(n, m) = sum(x(k, m) * w1(k, n));
    } else {
        h(n, m) = 0.f;
        h(n, m) += x(k, m) * w1(k, n);
    }
    y(n, m) = sum(h(j, m) * w2(j, n));
    x.set_estimates({{0, D}, {0, T}});
    w1.set_estimates({{0, D}, {0, H}});
    w2.set_estimates({{0, H}, {0, D}});
    y.set_estimates({{0, D}, {0, T}});
    return Pipeline(y);
}
int main(int argc, char **argv) {
    int style = atoi(argv[1]);
    const int D = 256, H = 1024;
    load_plugin("/work/main/build/libautoschedule_diet.so");
    ImageParam x(Float(32), 2, "x"), w1(Float(32), 2, "w1"), w2(Float(32), 2, "w2");
    Param<int> T("T", 16); T.set_range(1, 128);
    Pipeline p = build(style, x, w1, w2, T, D, H);
    Target tgt(getenv("TGT"));
    p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    p.compile_jit(tgt);
    Buffer<float> bx(D, 128), bw1(D, H), bw2(H, D);
    for (int i = 0; i < D; i++) for (int t = 0; t < 128; t++) bx(i, t) = (i * 7 + t * 3) % 11 * 0.1f - 0.5f;
    for (int i = 0; i < D; i++) for (int t = 0; t < H; t++) { bw1(i, t) = (i * 5 + t) % 13 * 0.05f - 0.3f; bw2(t, i) = (i * 3 + t * 2) % 7 * 0.05f - 0.15f; }
    x.set(bx); w1.set(bw1); w2.set(bw2);
    for (int t : {1, 2, 4, 16, 64, 128}) {
        T.set(t);
        Buffer<float> out(D, t);
        Buffer<float> xs(D, t); for (int i = 0; i < D; i++) for (int q = 0; q < t; q++) xs(i, q) = bx(i, q);
        x.set(xs);
        p.realize(out, tgt);
        // check
        double err = 0;
        for (int mm = 0; mm < t; mm += std::max(1, t / 4)) for (int nn = 0; nn < D; nn += 37) {
            double s = 0;
            for (int jj = 0; jj < H; jj++) { double a = 0; for (int kk = 0; kk < D; kk++) a += bx(kk, mm) * bw1(kk, jj); if (style < 2) a = std::max(a, 0.0); s += a * bw2(jj, nn); }
            err = std::max(err, std::abs(s - out(nn, mm)) / (1 + std::abs(s)));
        }
        int reps = std::max(5, 2000 / t);
        double best = 1e9;
        for (int r = 0; r < 5; r++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < reps; i++) p.realize(out, tgt);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
        }
        printf("style %d T=%d  %.1f us  (%.2f GFLOP/s) err %.2g\n", style, t, best * 1e6, 4.0 * D * H * t / best * 1e-9, err);
    }
}
