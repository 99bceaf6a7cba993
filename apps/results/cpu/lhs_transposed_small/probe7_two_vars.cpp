// Probe 7 (lhs_transposed_small): another style than the scores: a dense layer whose activations
// are stored with the rows innermost, x(m, k) (a transposed A over K = 64 steps, read in place),
// with two shape variables, rows M in [1, 32] and features N in [64, 256]. Diet with default
// options; checked against the unscheduled algorithm at six shapes, and timed (min of 40 calls)
// against the same math with x(k, m), also scheduled by Diet.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <random>
using namespace Halide;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
struct P { ImageParam x{Float(32), 2, "x"}, w{Float(32), 2, "w"}; Param<int> M{"M"}, N{"N"}; Func y{"y"}; };
static void define(P &p, bool transposed, bool estimates) {
    Var n("n"), m("m"); RDom k(0, 64, "k");
    p.y(n, m) = sum((transposed ? p.x(m, k) : p.x(k, m)) * p.w(k, n));
    p.M.set_range(1, 32); p.N.set_range(64, 256); p.M.set_estimate(8); p.N.set_estimate(128);
    Expr M = estimates ? Expr(p.M) : Expr(8), N = estimates ? Expr(p.N) : Expr(128);
    if (transposed) p.x.dim(0).set_estimate(0, M).dim(1).set_estimate(0, 64);
    else p.x.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, M);
    p.w.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, N);
    p.y.set_estimate(n, 0, N).set_estimate(m, 0, M);
    p.y.output_buffer().dim(0).set_bounds(0, p.N).dim(1).set_bounds(0, p.M);
}
int main() {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    Target t(getenv("TGT"));
    P d, r, c;
    define(d, true, true); define(r, true, false); define(c, false, true);
    Pipeline pd(d.y), pr(r.y), pc(c.y);
    pd.auto_schedule("Diet", t, MachineParams(2, 1 << 20, 40));
    pc.auto_schedule("Diet", t, MachineParams(2, 1 << 20, 40));
    pd.compile_jit(t); pr.compile_jit(t); pc.compile_jit(t);
    std::mt19937 g(5);
    for (auto [M, N] : std::vector<std::pair<int, int>>{{1, 64}, {1, 100}, {2, 80}, {3, 256}, {17, 200}, {32, 256}}) {
        Buffer<float> xt(M, 64), xc(64, M), w(64, N);
        xt.for_each_element([&](int m, int k) { xt(m, k) = xc(k, m) = (g() % 2001) / 1000.0f - 1; });
        w.for_each_value([&](float &v) { v = (g() % 2001) / 1000.0f - 1; });
        for (P *p : {&d, &r}) { p->x.set(xt); p->w.set(w); p->M.set(M); p->N.set(N); }
        c.x.set(xc); c.w.set(w); c.M.set(M); c.N.set(N);
        Buffer<float> yd(N, M), yr(N, M), yc(N, M);
        pd.realize(yd, t); pr.realize(yr, t);
        double err = 0;
        yd.for_each_element([&](int n, int m) { err = std::max(err, (double)std::abs(yd(n, m) - yr(n, m))); });
        auto time = [&](Pipeline &p, Buffer<float> &o) { double b = 1e9; for (int i = 0; i < 40; i++) { double a = now(); p.realize(o, t); b = std::min(b, now() - a); } return b; };
        double td = time(pd, yd), tc = time(pc, yc);
        printf("M=%2d N=%3d err %.1e%s  transposed %.4f ms  x(k, m) %.4f ms  ratio %.2f\n", M, N, err, err > 1e-3 ? " WRONG" : "", td * 1e3, tc * 1e3, tc / td);
    }
    return 0;
}
