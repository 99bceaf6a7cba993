#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    int variant = atoi(argv[1]);
    const int W = 512, H = 512, RR = 8;
    Target t("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    ImageParam in(Float(32), 3, "in");
    Param<int> R("R");
    Var x("x"), y("y"), c("c");
    Func cl = BoundaryConditions::repeat_edge(in);
    Func lum("lum"), wgt("wgt");
    lum(x, y) = 0.25f * cl(x, y, 0) + 0.5f * cl(x, y, 1) + 0.25f * cl(x, y, 2);
    wgt(x, y) = 1.0f + 8.0f * pow(lum(x, y), 4);
    RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "disc");
    if (!getenv("NOWHERE")) r.where(r.x * r.x + r.y * r.y <= R * R);
    Func acc("acc"), out("out");
    acc(x, y, c) = Tuple(0.0f, 0.0f);
    Expr w = wgt(x + r.x, y + r.y);
    acc(x, y, c) = Tuple(acc(x, y, c)[0] + w * cl(x + r.x, y + r.y, c), acc(x, y, c)[1] + w);
    out(x, y, c) = acc(x, y, c)[0] / acc(x, y, c)[1];
    Var xo, xi, yo, yi, xvo, xvi;
    RVar rx = r.x, ry = r.y;
    Var xu("xu"), ax("ax"), axi("axi");
    cl.compute_at(out, yo).vectorize(cl.args()[0], 16, TailStrategy::RoundUp);
    wgt.compute_at(out, yo).vectorize(x, 16, TailStrategy::RoundUp);
    if (variant == 0 || variant == 1) {
        out.split(y, yo, yi, 16, TailStrategy::GuardWithIf).split(x, xo, xi, 16, TailStrategy::ShiftInwards).vectorize(xi)
            .reorder(xi, xo, yi, c, yo).parallel(yo);
        acc.compute_at(out, yo).vectorize(x, 16, TailStrategy::RoundUp);
        acc.update().split(x, xvo, xvi, 64, TailStrategy::RoundUp).vectorize(xvi).reorder(xvi, rx, ry, xvo, y, c);
        if (variant == 1) acc.store_in(MemoryType::Stack);
    } else if (variant == 11) {
        out.split(y, yo, yi, 16, TailStrategy::GuardWithIf).split(x, xo, xi, 16, TailStrategy::ShiftInwards).vectorize(xi)
            .reorder(xi, xo, yi, c, yo).parallel(yo);
        Func accw = acc.in();
        Var g("g"), gi("gi");
        accw.compute_at(out, yi).split(x, g, gi, 64, TailStrategy::RoundUp).vectorize(gi);
        acc.compute_at(accw, g).vectorize(x, 64);
        acc.update().vectorize(x, 64).reorder(x, rx, ry);
    } else if (variant == 10) {
        out.split(y, yo, yi, 16, TailStrategy::GuardWithIf).split(x, xo, xi, 16, TailStrategy::ShiftInwards).vectorize(xi)
            .reorder(xi, xo, yi, c, yo).parallel(yo);
        Func accw = acc.in();
        Var g("g"), gi("gi");
        accw.compute_at(out, yo).split(x, g, gi, 64, TailStrategy::RoundUp).vectorize(gi);
        acc.compute_at(accw, g).split(x, ax, axi, 16).vectorize(axi).unroll(ax);
        acc.update().split(x, ax, axi, 16).vectorize(axi).unroll(ax).reorder(axi, ax, rx, ry);
    } else if (variant == 8 || variant == 9) {
        out.split(y, yo, yi, 16, TailStrategy::GuardWithIf).split(x, xo, xi, 16, TailStrategy::ShiftInwards).vectorize(xi)
            .reorder(xi, xo, yi, c, yo).parallel(yo);
        Func accw = acc.in();
        Var g("g"), gi("gi");
        int G = variant == 8 ? 64 : 128;
        accw.compute_at(out, yo).split(x, g, gi, G, TailStrategy::RoundUp).vectorize(gi);
        acc.compute_at(accw, g).vectorize(x, G);
        acc.update().vectorize(x, G).reorder(x, rx, ry);
    } else {
        int vec = variant == 2 ? 4 : variant == 3 ? 2 : variant == 6 ? 1 : variant == 7 ? 8 : 3;
        out.split(y, yo, yi, 16, TailStrategy::GuardWithIf).split(x, xo, xi, 16 * vec, TailStrategy::ShiftInwards)
            .split(xi, xu, xi, 16).vectorize(xi).unroll(xu).reorder(xi, xu, xo, yi, c, yo).parallel(yo);
        acc.compute_at(out, xo).split(x, ax, axi, 16).vectorize(axi).unroll(ax);
        acc.update().split(x, ax, axi, 16).vectorize(axi).unroll(ax).reorder(axi, ax, rx, ry);
        if (variant == 5) { acc.update().unroll(c); }
    }
    in.dim(0).set_bounds(0, W); in.dim(1).set_bounds(0, H); in.dim(2).set_bounds(0, 3);
    Buffer<float> inb(W, H, 3), ob(W, H, 3);
    for (int k = 0; k < W * H * 3; k++) inb.data()[k] = (k * 7919 % 1000) / 1000.0f;
    in.set(inb); R.set(RR);
    if (getenv("ASM")) { out.compile_to_assembly(getenv("ASM"), {in, R}, t); return 0; }
    out.compile_jit(t);
    std::vector<double> ts;
    for (int i = 0; i < 15; i++) {
        auto t0 = std::chrono::steady_clock::now();
        out.realize(ob);
        auto t1 = std::chrono::steady_clock::now();
        ts.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("variant %d: median %.3f ms  min %.3f  checksum %f\n", variant, ts[7], ts[0], ob(100, 100, 1) + ob(3, 500, 2));
}
