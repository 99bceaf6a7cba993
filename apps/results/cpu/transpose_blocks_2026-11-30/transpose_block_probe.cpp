#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    int lanes = atoi(argv[1]), unr = atoi(argv[2]); int W = atoi(argv[3]);
    ImageParam in(UInt(8), 2, "in");
    Var x("x"), y("y"), xo, xi, yo, yi;
    Func tr("tr");
    tr(x, y) = in(y, x) * cast<uint8_t>(3) + cast<uint8_t>(1);
    tr.split(x, xo, xi, lanes, TailStrategy::GuardWithIf).vectorize(xi).split(y, yo, yi, unr, TailStrategy::GuardWithIf).unroll(yi).reorder(xi, yi, xo, yo).parallel(yo);
    Target t("x86-64-linux-avx-avx2-f16c-fma-sse41");
    auto t0 = std::chrono::steady_clock::now();
    tr.compile_jit(t);
    double ct = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Buffer<uint8_t> b(W, W), o(W, W); b.fill(7); in.set(b);
    double best = 1e9;
    for (int r = 0; r < 20; r++) { auto s = std::chrono::steady_clock::now(); tr.realize(o, t); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count()); }
    printf("lanes %d rows %d W %d: compile %.2f s, run %.3f ms\n", lanes, unr, W, ct, best * 1e3);
}
