#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    Target tgt(getenv("TGT"));
    const int B = 192, D = 64;
    bool nt = argc > 1 && std::string(argv[1]) == "nt";
    Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
    ImageParam p(Float(32), 3, "p"), v(Float(32), 3, "v");
    Var b("b"), i("i"), j("j");
    Func o("o");
    if (nt) { RDom r(0, D, "r"); o(b, i, j) = sum(p(b, i, r) * v(b, j, r)); }
    else { RDom r(0, T, "r"); o(b, i, j) = sum(p(b, i, r) * v(b, r, j)); }
    p.dim(0).set_estimate(0, B).dim(1).set_estimate(0, 64).dim(2).set_estimate(0, nt ? D : 64);
    v.dim(0).set_estimate(0, B).dim(1).set_estimate(0, 64).dim(2).set_estimate(0, nt ? D : D);
    o.set_estimate(b, 0, B).set_estimate(i, 0, 64).set_estimate(j, 0, nt ? 64 : D);
    o.output_buffer().dim(1).set_bounds(0, T); if (nt) o.output_buffer().dim(2).set_bounds(0, T);
    Pipeline pl(o);
    pl.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    if (getenv("STMT")) pl.compile_to_lowered_stmt("/tmp/bip/o.stmt", {p, v, T}, Text, tgt);
    if (getenv("ASM")) pl.compile_to_assembly("/tmp/bip/o.s", {p, v, T}, "o", tgt);
    pl.compile_jit(tgt);
    for (int t : {16, 64, 128}) {
        Buffer<float> P(B, t, nt ? D : t), V(B, nt ? t : t, nt ? D : D), O(B, t, nt ? t : D);
        P.fill(1.f); V.fill(0.5f); T.set(t); p.set(P); v.set(V);
        pl.realize(O, tgt);
        double best = 1e9;
        for (int r = 0; r < 20; r++) {
            auto t0 = std::chrono::steady_clock::now(); pl.realize(O, tgt);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        printf("T=%d %.3f ms  o=%g\n", t, best * 1e3, O(0, 0, 0));
    }
}
