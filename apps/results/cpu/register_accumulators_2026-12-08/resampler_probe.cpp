// Times the resampler of test_styles (float, both passes inline sums) scheduled by a Diet plugin.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin(argv[1]);
    const int OW = atoi(argv[2]), OH = atoi(argv[3]);
    Target target(argc > 4 ? argv[4] : "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    Param<int> W("W"), H("H");
    W.set_range(1, 1024); W.set_estimate(1024); H.set_range(1, 1024); H.set_estimate(1024);
    ImageParam in(Float(32), 3, "rv_in");
    Var x("x"), y("y"), c("c"), k("k");
    const float scale = 0.5f;
    Expr support = 1.0f / scale, sx = (x + 0.5f) / scale - 0.5f, sy = (y + 0.5f) / scale - 0.5f;
    Expr taps = cast<int>(ceil(2.0f * support)) + 1;
    RDom rx(0, taps, "rx"), ry(0, taps, "ry");
    Func as_float("rv_f"), bx("rv_bx"), by("rv_by"), kx("rv_kx"), ky("rv_ky"), nx("rv_nx"), ny("rv_ny"), hp("rv_hp"), out("rv_out");
    as_float(x, y, c) = in(clamp(x, 0, in.dim(0).max()), clamp(y, 0, in.dim(1).max()), c);
    bx(x) = cast<int>(floor(sx - support)) + 1;
    by(y) = cast<int>(floor(sy - support)) + 1;
    kx(x, k) = max(0.0f, 1.0f - abs(cast<float>(bx(x) + k) - sx) / support);
    ky(y, k) = max(0.0f, 1.0f - abs(cast<float>(by(y) + k) - sy) / support);
    nx(x) = sum(kx(x, rx));
    ny(y) = sum(ky(y, ry));
    hp(x, y, c) = sum(kx(x, rx) * as_float(bx(x) + rx, y, c)) / nx(x);
    out(x, y, c) = sum(ky(y, ry) * hp(x, clamp(by(y) + ry, 0, in.dim(1).max()), c)) / ny(y);
    in.set_estimates({{0, 2 * W}, {0, 2 * H}, {0, 3}});
    out.set_estimates({{0, W}, {0, H}, {0, 3}});
    Pipeline p(out);
    p.auto_schedule("Diet", target, MachineParams(2, 1 << 20, 40));
    p.compile_jit(target);
    Buffer<float> ib(2 * OW, 2 * OH, 3), ob(OW, OH, 3);
    for (int i = 0; i < (int)ib.number_of_elements(); i++) ib.data()[i] = (i * 7919 % 1000) / 1000.0f;
    in.set(ib); W.set(OW); H.set(OH);
    std::vector<double> ts;
    for (int i = 0; i < 21; i++) {
        auto t0 = std::chrono::steady_clock::now();
        p.realize(ob);
        auto t1 = std::chrono::steady_clock::now();
        ts.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("%s %dx%d: median %.3f ms min %.3f check %f\n", argv[1], OW, OH, ts[10], ts[0], ob(5, 7, 1) + ob(OW - 1, OH - 1, 2));
}
