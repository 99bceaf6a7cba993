// Sliding argmin (round 11) schedule variants, timed in one process, interleaved.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
struct P { ImageParam x{Float(32), 2, "x"}; Param<int> N{"N"}, B{"B"}, R{"R"}; Func oi{"sa_idx"}, ov{"sa_val"}; Pipeline p; Var n{"n"}, b{"b"}; };
void define(P &q) {
    Func e = BoundaryConditions::mirror_interior(q.x, {{0, q.N}, {0, q.B}});
    RDom r(-q.R, 2 * q.R + 1, "r");
    Tuple am = argmin(e(q.n + r.x, q.b));
    q.oi(q.n, q.b) = am[0]; q.ov(q.n, q.b) = am[1];
    q.p = Pipeline({q.oi, q.ov});
}
Func find_func(Pipeline &p, const std::string &nm) { for (int k = 0; k < 8; k++) { Func g = p.get_func(k); std::string n = g.name(); if (n.substr(0, n.find('$')) == nm) return g; } abort(); }
int main(int argc, char **argv) {
    Target t("x86-64-linux-avx-avx2-f16c-fma-sse41");
    const int NV = 6; P v[NV];
    for (int i = 0; i < NV; i++) {
        P &q = v[i]; define(q);
        Func e, am; for (int k = 0; k < 5; k++) { Func g = q.p.get_func(k); if (g.name().find("mirror") == 0) e = g; else if (g.name().find("argmin") == 0) am = g; }
        Var n = q.n, b = q.b, nv("nv"), ni("ni"), f("f"), ft("ft"), fi("fi");
        if (i != 1) { e.compute_root(); am.compute_root(); }
        if (i == 0) { // Mullapudi-like
            am.split(n, nv, ni, 8).vectorize(ni).parallel(b);
            am.update().split(n, nv, ni, 8, TailStrategy::GuardWithIf).vectorize(ni).parallel(b);
            e.split(e.args()[1], ft, fi, 8).vectorize(fi).parallel(ft);
            q.oi.split(n, nv, ni, 8).vectorize(ni).parallel(b); q.ov.split(n, nv, ni, 8).vectorize(ni).parallel(b);
        } else if (i == 1) {
            Pipeline &pipeline = q.p;
#define ROWSPLIT (getenv("SYM") ? Expr(min(64, max(q.B, 1))) : Expr(64)), (getenv("SYM") ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf)
#include "diet_sched.h"
        } else if (i == 2) { // Diet-like but 8 wide r inside
            am.split(n, nv, ni, 8, TailStrategy::GuardWithIf).vectorize(ni).parallel(b);
            RVar rx(am.update().get_schedule().rvars()[0].var);
            am.update().split(n, nv, ni, 8, TailStrategy::GuardWithIf).vectorize(ni).reorder(ni, rx, nv, b).parallel(b);
            e.split(e.args()[0], nv, ni, 8, TailStrategy::ShiftInwards).vectorize(ni).split(e.args()[1], ft, fi, 64, TailStrategy::GuardWithIf).parallel(ft);
            q.oi.split(n, nv, ni, 8, TailStrategy::ShiftInwards).vectorize(ni); q.ov.split(n, nv, ni, 8, TailStrategy::ShiftInwards).vectorize(ni);
        } else {
            RVar rx(am.update().get_schedule().rvars()[0].var);
            bool mull_mirror = (i == 3 || i == 5), mull_out = (i == 4 || i == 5);
            am.split(n, nv, ni, 8, TailStrategy::GuardWithIf).vectorize(ni).parallel(b);
            am.update().split(n, nv, ni, 8, TailStrategy::GuardWithIf).vectorize(ni).reorder(ni, rx, nv, b).parallel(b);
            if (mull_mirror) e.split(e.args()[1], ft, fi, 8).vectorize(fi).parallel(ft);
            else e.split(e.args()[0], nv, ni, 8, TailStrategy::ShiftInwards).vectorize(ni).split(e.args()[1], ft, fi, 64, TailStrategy::GuardWithIf).parallel(ft);
            if (mull_out) { q.oi.split(n, nv, ni, 8).vectorize(ni).parallel(b); q.ov.split(n, nv, ni, 8).vectorize(ni).parallel(b); }
            else { q.oi.split(n, nv, ni, 8, TailStrategy::ShiftInwards).vectorize(ni); q.ov.split(n, nv, ni, 8, TailStrategy::ShiftInwards).vectorize(ni); }
        }
        q.p.compile_jit(t);
        if (getenv("STMT")) q.p.compile_to_lowered_stmt("/tmp/sa/v" + std::to_string(i) + ".stmt", {q.x, q.N, q.B, q.R}, Text, t);
    }
    const int N = 2000, B = 16, R = 6;
    Buffer<float> in(N, B); for (int y = 0; y < B; y++) for (int x = 0; x < N; x++) in(x, y) = (float)((x * 7919 + y * 104729) % 1000);
    Buffer<int> oi(N, B); Buffer<float> ov(N, B);
    double best[NV]; std::fill(best, best + NV, 1e9);
    for (int rep = 0; rep < 15; rep++) for (int i = 0; i < NV; i++) {
        v[i].x.set(in); v[i].N.set(N); v[i].B.set(B); v[i].R.set(R);
        std::vector<double> ts;
        for (int k = 0; k < 20; k++) { double t0 = now(); v[i].p.realize({oi, ov}, t); ts.push_back(now() - t0); }
        std::sort(ts.begin(), ts.end()); best[i] = std::min(best[i], ts[10]);
    }
    for (int i = 0; i < NV; i++) printf("variant %d: %.1f us\n", i, best[i] * 1e6);
}
