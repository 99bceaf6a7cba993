// Transposed queries read directly vs through a plain copy qf(_) = q(_): same schedule expected.
#include "Halide.h"
#include "plugin/Diet.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
struct P { ImageParam q{Float(32), 3}, k{Float(32), 3}; Param<int> T; Func s; };
static void build(P &p, bool via) {
    p.T.set_range(1, 128); p.T.set_estimate(32);
    Var i("i"), j("j"), b("b");
    RDom d(0, 64, "d");
    Func qf("qf"), acc("acc");
    qf(_) = p.q(_);
    acc(j, i, b) = 0.f;
    acc(j, i, b) += (via ? qf(i, d, b) : p.q(i, d, b)) * p.k(d, j, b);
    p.s(j, i, b) = acc(j, i, b);
    p.q.set_estimates({{0, p.T}, {0, 64}, {0, 192}});
    p.k.set_estimates({{0, 64}, {0, p.T}, {0, 192}});
    p.s.set_estimates({{0, p.T}, {0, p.T}, {0, 192}});
}
int main() {
    Target tgt(getenv("TGT"));
    P a, b;
    build(a, false); build(b, true);
    diet::autoschedule(Pipeline(a.s), tgt, 2, 0, diet::Options{});
    diet::autoschedule(Pipeline(b.s), tgt, 2, 0, diet::Options{});
    a.s.compile_jit(tgt); b.s.compile_jit(tgt);
    printf("T, direct us, through qf us, direct/qf\n");
    for (int T : {2, 4, 8, 16, 22, 30}) {
        Buffer<float> qb(T, 64, 192), kb(64, T, 192), oa(T, T, 192), ob(T, T, 192);
        qb.fill(0.5f); kb.fill(0.25f);
        for (P *p : {&a, &b}) { p->q.set(qb); p->k.set(kb); p->T.set(T); }
        std::vector<double> ta, tb;
        for (int rep = 0; rep < 9; rep++) {
            for (int w = 0; w < 2; w++) {
                double best = 1e9;
                for (int r = 0; r < 5; r++) {
                    auto t0 = std::chrono::steady_clock::now();
                    (w ? b : a).s.realize(w ? ob : oa);
                    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                }
                (w ? tb : ta).push_back(best);
            }
        }
        std::sort(ta.begin(), ta.end()); std::sort(tb.begin(), tb.end());
        printf("%d %.1f %.1f %.3f\n", T, ta[4] * 1e6, tb[4] * 1e6, ta[4] / tb[4]);
    }
}
