#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    const int D = 64, B = 12;
    load_plugin("/work/main/build/libautoschedule_diet.so");
    ImageParam q(Float(32), 3, "q"), kk(Float(32), 3, "k"), v(Float(32), 3, "v");
    Param<int> T("T", 16); T.set_range(1, 128);
    Var d("d"), i("i"), j("j"), b("b");
    RDom rd(0, D, "rd"), rj(0, T, "rj");
    Func s("scores"), mx("mx"), e("e"), den("den"), p("p"), out("out");
    s(j, i, b) = sum(q(rd, i, b) * kk(rd, j, b)) * (1.f / 8.f);
    mx(i, b) = maximum(s(rj, i, b));
    e(j, i, b) = exp(s(j, i, b) - mx(i, b));
    den(i, b) = sum(e(rj, i, b));
    p(j, i, b) = e(j, i, b) / den(i, b);
    out(d, i, b) = sum(p(rj, i, b) * v(d, rj, b));
    for (ImageParam *ip : {&q, &kk, &v}) ip->set_estimates({{0, D}, {0, T}, {0, B}});
    out.set_estimates({{0, D}, {0, T}, {0, B}});
    Pipeline pl(out);
    Target tgt(getenv("TGT"));
    pl.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    pl.compile_jit(tgt);
    for (int t : {1, 2, 8, 32, 128}) {
        Buffer<float> bq(D, t, B), bk(D, t, B), bv(D, t, B), o(D, t, B);
        for (int z = 0; z < B; z++) for (int y = 0; y < t; y++) for (int x = 0; x < D; x++) {
            bq(x, y, z) = ((x * 7 + y * 3 + z) % 11) * 0.1f - 0.5f; bk(x, y, z) = ((x * 5 + y + 2 * z) % 13) * 0.1f - 0.6f; bv(x, y, z) = ((x + y * 2 + z) % 7) * 0.2f - 0.6f; }
        q.set(bq); kk.set(bk); v.set(bv); T.set(t);
        pl.realize(o, tgt);
        double err = 0;
        for (int z = 0; z < B; z += 5) for (int y = 0; y < t; y += std::max(1, t / 3)) {
            std::vector<double> sc(t); double m = -1e30;
            for (int jj = 0; jj < t; jj++) { double a = 0; for (int x = 0; x < D; x++) a += bq(x, y, z) * bk(x, jj, z); sc[jj] = a / 8; m = std::max(m, sc[jj]); }
            double den = 0; for (int jj = 0; jj < t; jj++) { sc[jj] = std::exp(sc[jj] - m); den += sc[jj]; }
            for (int x = 0; x < D; x += 9) { double a = 0; for (int jj = 0; jj < t; jj++) a += sc[jj] / den * bv(x, jj, z); err = std::max(err, std::abs(a - o(x, y, z))); }
        }
        int reps = std::max(5, 4000 / t);
        double best = 1e9;
        for (int r = 0; r < 5; r++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int it = 0; it < reps; it++) pl.realize(o, tgt);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
        }
        printf("attn T=%d  %.1f us err %.2g\n", t, best * 1e6, err);
    }
}
