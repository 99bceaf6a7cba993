#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    load_plugin(getenv("PLUGIN"));
    Target tgt(getenv("TGT"));
    const int CI = 32, CO = 64;
    Var co("co"), x("x"), y("y");
    Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
    ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w"); RDom r(0, CI, 0, 3, 0, 3, "r"); Func o("conv_hwc");
    Func inb = BoundaryConditions::repeat_edge(in);
    o(co, x, y) = sum(inb(r.x, x + r.y - 1, y + r.z - 1) * w(co, r.x, r.y, r.z));
    in.dim(0).set_estimate(0, CI).dim(1).set_estimate(0, T).dim(2).set_estimate(0, T);
    w.dim(0).set_estimate(0, CO).dim(1).set_estimate(0, CI).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, 3);
    o.set_estimate(co, 0, CO).set_estimate(x, 0, T).set_estimate(y, 0, T);
    Pipeline p(o);
    p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    p.compile_jit(tgt);
    for (int t : {8, 12, 16, 20, 32, 64}) {
        Buffer<float> I(CI, t, t), W(CO, CI, 3, 3), out(CO, t, t);
        I.fill(0.5f); W.fill(1.f); T.set(t); in.set(I); w.set(W);
        p.realize(out, tgt);
        double best = 1e9;
        for (int k = 0; k < 20; k++) { auto s = std::chrono::steady_clock::now(); p.realize(out, tgt); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count()); }
        printf("T=%d %.4f ms %.1f GFLOP/s\n", t, best * 1e3, 2.0 * CO * CI * 9 * t * t / best / 1e9);
    }
}
