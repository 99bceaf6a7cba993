#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    const char *plugin = argv[1];
    int Wv = atoi(argv[2]), Hv = atoi(argv[3]), patch_r = atoi(argv[4]), search_r = atoi(argv[5]);
    Target tgt(getenv("TGT"));
    load_plugin(plugin);
    ImageParam input(Float(32), 3, "in");
    Param<int> W("W", 1536, 64, 4096), H("H", 1024, 64, 4096);
    Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");
    Func I = BoundaryConditions::repeat_edge(input);
    Func dist("dist"), patch_x("patch_x"), weight("weight"), accum("accum"), out("out");
    Expr d = 0.f;
    for (int ch = 0; ch < 3; ch++) { Expr e = I(x, y, ch) - I(x + dx, y + dy, ch); d += e * e; }
    dist(x, y, dx, dy) = d;
    Expr sx = 0.f, sy = 0.f;
    for (int i = -patch_r; i <= patch_r; i++) sx += dist(x + i, y, dx, dy);
    patch_x(x, y, dx, dy) = sx;
    for (int i = -patch_r; i <= patch_r; i++) sy += patch_x(x, y + i, dx, dy);
    weight(x, y, dx, dy) = exp(sy * -0.05f);
    RDom r(-search_r, 2 * search_r + 1, -search_r, 2 * search_r + 1, "r");
    accum(x, y, c) = 0.f;
    accum(x, y, c) += weight(x, y, r.x, r.y) * select(c < 3, I(x + r.x, y + r.y, min(c, 2)), 1.f);
    out(x, y, c) = accum(x, y, c) / accum(x, y, 3);
    input.dim(0).set_estimate(0, W); input.dim(1).set_estimate(0, H); input.dim(2).set_estimate(0, 3);
    out.set_estimates({{0, W}, {0, H}, {0, 3}});
    Pipeline p(out);
    p.auto_schedule("Diet", tgt, MachineParams(2, 1048576, 40));
    p.compile_jit(tgt);
    Buffer<float> In(Wv, Hv, 3);
    In.for_each_element([&](int a, int b, int ch) { In(a, b, ch) = ((a * 7 + b * 3 + ch) % 17) / 17.f; });
    input.set(In); W.set(Wv); H.set(Hv);
    Buffer<float> O(Wv, Hv, 3);
    p.realize(O);
    std::vector<double> ts;
    for (int rep = 0; rep < 7; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        p.realize(O);
        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("%dx%d patch %d search %d: %.3f ms  out(3,5,1)=%.6f\n", Wv, Hv, patch_r, search_r, ts[3] * 1e3, O(3, 5, 1));
}
