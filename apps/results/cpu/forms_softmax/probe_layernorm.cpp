// LayerNorm over the hidden dim (768) of 16T tokens, then GELU-free affine; Diet vs a hand schedule.
#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
struct LN {
    ImageParam x{Float(32), 2, "x"}, g{Float(32), 1, "g"}, b{Float(32), 1, "b"};
    Param<int> T{"T", 16};
    Func out{"out"}, mean{"mean"}, var{"var"};
    Var c{"c"}, t{"t"};
    LN() {
        const int C = 768;
        RDom r(0, C, "r");
        mean(t) = sum(x(r, t)) / C;
        var(t) = sum((x(r, t) - mean(t)) * (x(r, t) - mean(t))) / C;
        out(c, t) = (x(c, t) - mean(t)) * (1.f / sqrt(var(t) + 1e-5f)) * g(c) + b(c);
    }
};
double bench(Pipeline &p, Target tgt, ImageParam &x, Param<int> &T, int t, Buffer<float> &o) {
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        int reps = std::max(3, 2000 / t);
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; i++) p.realize(o, tgt);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
    }
    return best;
}
int main(int argc, char **argv) {
    const char *plugin = argc > 1 ? argv[1] : "/work/main/build/libautoschedule_diet.so";
    load_plugin(plugin);
    Target tgt(getenv("TGT"));
    LN d, h;
    d.T.set_range(1, 128);
    d.x.set_estimates({{0, 768}, {0, 16 * d.T}}); d.g.set_estimates({{0, 768}}); d.b.set_estimates({{0, 768}});
    d.out.set_estimates({{0, 768}, {0, 16 * d.T}});
    Pipeline pd(d.out);
    pd.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    // hand: per 8 tokens, reductions per token vectorized via rfactor-free approach: compute mean/var at out's t, vectorize c.
    Var to("to"), ti("ti");
    h.out.split(h.t, to, ti, 8, TailStrategy::GuardWithIf).parallel(to).vectorize(h.c, 16);
    h.mean.compute_at(h.out, ti); h.var.compute_at(h.out, ti);
    Pipeline ph(h.out);
    pd.compile_jit(tgt); ph.compile_jit(tgt);
    for (int t : {1, 2, 8, 32, 128}) {
        Buffer<float> bx(768, 16 * t), bg(768), bb(768), od(768, 16 * t), oh(768, 16 * t);
        for (int y = 0; y < 16 * t; y++) for (int c = 0; c < 768; c++) bx(c, y) = ((c * 7 + y * 13) % 101) * 0.01f;
        for (int c = 0; c < 768; c++) { bg(c) = 1 + c * 1e-3f; bb(c) = c * 1e-4f; }
        d.x.set(bx); d.g.set(bg); d.b.set(bb); d.T.set(t); h.x.set(bx); h.g.set(bg); h.b.set(bb); h.T.set(t);
        pd.realize(od, tgt); ph.realize(oh, tgt);
        double err = 0;
        for (int y = 0; y < 16 * t; y++) for (int c = 0; c < 768; c++) err = std::max(err, (double)std::abs(od(c, y) - oh(c, y)));
        double td = bench(pd, tgt, d.x, d.T, t, od), th = bench(ph, tgt, h.x, h.T, t, oh);
        printf("layernorm T=%d diet %.1f us hand %.1f us  hand/diet %.2f  err %.2g\n", t, td * 1e6, th * 1e6, th / td, err);
    }
}
