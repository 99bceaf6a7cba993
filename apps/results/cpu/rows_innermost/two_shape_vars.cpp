// Rows-innermost dense with two shape variables (T rows, N features), checked against the unscheduled algorithm.
#include "Halide.h"
#include <cstdio>
#include <random>
using namespace Halide;
struct P { Func o; ImageParam x{Float(32), 2, "x"}, w{Float(32), 2, "w"}; Param<int> T{"T"}, N{"N"}; };
P make(bool est) {
    P p; Var t("t"), n("n"); RDom k(0, 96, "k");
    p.o(t, n) = sum(p.x(k, t) * p.w(k, n)) + 0.5f;
    p.T.set_range(1, 64); p.T.set_estimate(16); p.N.set_range(64, 256); p.N.set_estimate(128);
    if (est) {
        p.o.set_estimates({{0, p.T}, {0, p.N}});
        p.x.set_estimates({{0, 96}, {0, p.T}}); p.w.set_estimates({{0, 96}, {0, p.N}});
        p.o.output_buffer().dim(0).set_bounds(0, p.T).dim(1).set_bounds(0, p.N);
    }
    return p;
}
int main() {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    Target tgt(getenv("TGT"));
    P d = make(true), r = make(false);
    Pipeline(d.o).auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    d.o.compile_jit(tgt); r.o.compile_jit(tgt);
    int bad = 0;
    for (auto s : std::vector<std::pair<int,int>>{{1,64},{2,80},{5,256},{16,128},{17,100},{64,256}}) {
        Buffer<float> x(96, s.first), w(96, s.second); std::mt19937 g(1);
        x.for_each_value([&](float &v){ v = (g()%2001)/1000.f-1; }); w.for_each_value([&](float &v){ v = (g()%2001)/1000.f-1; });
        for (P *p : {&d, &r}) { p->x.set(x); p->w.set(w); p->T.set(s.first); p->N.set(s.second); }
        Buffer<float> a = d.o.realize({s.first, s.second}, tgt), b = r.o.realize({s.first, s.second}, tgt);
        double err = 0; a.for_each_element([&](int i, int j){ err = std::max(err, (double)std::abs(a(i,j)-b(i,j))); });
        printf("T=%d N=%d max err %.2g%s\n", s.first, s.second, err, err > 1e-3 ? " WRONG" : ""); bad += err > 1e-3;
    }
    return bad;
}
