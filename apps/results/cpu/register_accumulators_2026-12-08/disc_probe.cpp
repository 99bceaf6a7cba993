// A disc blur written as an update on its output (RDom::where), scheduled by a Diet plugin.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin(argv[1]);
    const int OW = atoi(argv[2]), OH = atoi(argv[3]), RR = atoi(argv[4]);
    int form = argc > 5 ? atoi(argv[5]) : 0;
    Target target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    Param<int> W("W"), H("H"), R("R");
    W.set_range(1, 1024); W.set_estimate(1024); H.set_range(1, 1024); H.set_estimate(1024);
    R.set_range(1, 8); R.set_estimate(8);
    ImageParam in(Float(32), 3, "in");
    Var x("x"), y("y"), c("c");
    Func cl = BoundaryConditions::repeat_edge(in);
    RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "disc");
    r.where(r.x * r.x + r.y * r.y <= R * R);
    Func out("out");
    if (form == 0) {
        out(x, y, c) = 0.0f;
        out(x, y, c) += cl(x + r.x, y + r.y, c);
    } else {
        out(x, y, c) = sum(cl(x + r.x, y + r.y, c)) / cast<float>(R * R);
    }
    in.set_estimates({{0, W}, {0, H}, {0, 3}});
    out.set_estimates({{0, W}, {0, H}, {0, 3}});
    Pipeline p(out);
    p.auto_schedule("Diet", target, MachineParams(2, 1 << 20, 40));
    p.compile_jit(target);
    Buffer<float> ib(OW, OH, 3), ob(OW, OH, 3);
    for (int i = 0; i < (int)ib.number_of_elements(); i++) ib.data()[i] = (i * 7919 % 1000) / 1000.0f;
    in.set(ib); W.set(OW); H.set(OH); R.set(RR);
    std::vector<double> ts;
    for (int i = 0; i < 15; i++) {
        auto t0 = std::chrono::steady_clock::now();
        p.realize(ob);
        auto t1 = std::chrono::steady_clock::now();
        ts.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("form %d %dx%d R=%d: median %.3f ms min %.3f check %f\n", form, OW, OH, RR, ts[7], ts[0], ob(5, 7, 1) + ob(OW - 1, OH - 1, 2));
}
