// Probe 6 (lhs_transposed_small): the same scores scheduled with column kernels only, dot-product
// kernels only (temporary DIET_NODOT / DIET_ONLYDOT switches in a local build), and by default;
// timed interleaved (min of 20 calls per round, median of 7 rounds). Derived from probe5.
// Probe: more ways users write attention and dense layers (heads as a view of the hidden
// dimension, the (T, H, D) layout, an explicit batch). Each scheduled by Diet (defaults), checked
// against the same algorithm unscheduled, and timed against the canonical form of the same math.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
using namespace Halide;
static Target tgt;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
struct Inst { Func out; std::vector<ImageParam> ins; Param<int> T{"T"}; std::function<std::vector<std::vector<int>>(int)> in_sizes; std::function<std::vector<int>(int)> out_size; };
using Builder = std::function<Inst()>;
Buffer<float> rnd(std::vector<int> sz, int seed) { Buffer<float> b(sz); std::mt19937 g(seed); b.for_each_value([&](float &v) { v = (g() % 2001) / 1000.0f - 1.0f; }); return b; }
struct Built { Inst s, r; Pipeline ps, pr; };
Built build(Builder f) {
    Built b{f(), f(), {}, {}};
    Region rg(b.r.out.dimensions(), Range(0, 1)); b.r.out.set_estimates(rg);
    for (auto &p : b.r.ins) { Region q(p.dimensions(), Range(0, 1)); p.set_estimates(q); }
    b.ps = Pipeline(b.s.out); b.pr = Pipeline(b.r.out);
    b.ps.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    if (getenv("STMT")) { std::vector<Argument> a; for (auto &i : b.s.ins) a.push_back(i); a.push_back(b.s.T); b.ps.compile_to_lowered_stmt(std::string("/tmp/p4/") + b.s.out.name() + ".stmt", a, Text, tgt); }
    b.ps.compile_jit(tgt); b.pr.compile_jit(tgt);
    return b;
}
double time_at(Inst &s, Pipeline &p, int t, Buffer<float> &o, bool setin = true) {
    s.T.set(t);
    auto isz = s.in_sizes(t);
    if (setin) for (size_t i = 0; i < s.ins.size(); i++) s.ins[i].set(rnd(isz[i], 17 + i));
    o = Buffer<float>(s.out_size(t));
    p.realize(o, tgt);
    double best = 1e9;
    for (int k = 0; k < 40; k++) { double a = now(); p.realize(o, tgt); best = std::min(best, now() - a); }
    return best;
}
void compare(const char *name, Builder style, Builder canon, std::vector<int> ts) {
    printf("== %s\n", name); fflush(stdout);
    try {
        Built a = build(style), c = build(canon);
        for (int t : ts) {
            Buffer<float> o, oref, oc;
            double ta = time_at(a.s, a.ps, t, o);
            for (size_t i = 0; i < a.s.ins.size(); i++) a.r.ins[i].set(a.s.ins[i].get());
            a.r.T.set(t); oref = Buffer<float>(a.s.out_size(t)); a.pr.realize(oref, tgt);
            double err = 0, mag = 0;
            o.for_each_element([&](const int *pos) { err = std::max(err, (double)std::abs(o(pos) - oref(pos))); mag = std::max(mag, (double)std::abs(oref(pos))); });
            double tc = time_at(c.s, c.ps, t, oc);
            printf("  T=%3d err %.2g%s  style %.4f ms  canonical %.4f ms  ratio(canon/style) %.2f\n", t, err, err > 1e-3 * std::max(1.0, mag) ? " WRONG" : "", ta * 1e3, tc * 1e3, tc / ta);
            fflush(stdout);
        }
    } catch (std::exception &e) { printf("  FAILED %s\n", e.what()); }
}
int main(int argc, char **argv) {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    tgt = Target(getenv("TGT"));
    const int D = 64, H = argc > 1 ? atoi(argv[1]) : 192;
    std::vector<int> ts = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 40, 48, 64};
    Var i("i"), j("j"), h("h");
    Builder lhs_t = [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k"); RDom r(0, D, "r"); Func o("s_lhs_t");
        o(j, i, h) = sum(q(i, r, h) * k(r, j, h));
        q.dim(0).set_estimate(0, s.T).dim(1).set_estimate(0, D).dim(2).set_estimate(0, H);
        k.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T).set_estimate(h, 0, H);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {q, k};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{t, D, H}, {D, t, H}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t, H}; };
        return s;
    };
    Builder canon = [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k"); RDom r(0, D, "r"); Func o("s_canon");
        o(j, i, h) = sum(q(r, i, h) * k(r, j, h));
        q.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        k.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T).set_estimate(h, 0, H);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {q, k};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{D, t, H}, {D, t, H}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t, H}; };
        return s;
    };
    setenv("DIET_NODOT", "1", 1); Built col = build(lhs_t); unsetenv("DIET_NODOT");
    setenv("DIET_ONLYDOT", "1", 1); Built dot = build(lhs_t); unsetenv("DIET_ONLYDOT");
    Built def = build(lhs_t), can = build(canon);
    std::vector<std::pair<const char *, Built *>> sys = {{"column", &col}, {"dot", &dot}, {"default", &def}, {"canonical", &can}};
    printf("H=%d; ms, median over 7 rounds of min of 20 calls; systems interleaved\nT", H);
    for (auto &s : sys) printf(" %10s", s.first);
    printf("  default/canonical\n");
    for (int t : ts) {
        std::vector<std::vector<double>> times(sys.size());
        std::vector<Buffer<float>> outs(sys.size());
        for (size_t si = 0; si < sys.size(); si++) {
            Built &b = *sys[si].second; b.s.T.set(t);
            auto isz = b.s.in_sizes(t);
            for (size_t a = 0; a < b.s.ins.size(); a++) b.s.ins[a].set(rnd(isz[a], 17 + a));
            outs[si] = Buffer<float>(b.s.out_size(t));
            b.ps.realize(outs[si], tgt);
        }
        for (int round = 0; round < 7; round++) {
            for (size_t si = 0; si < sys.size(); si++) {
                Built &b = *sys[si].second; b.s.T.set(t);
                double best = 1e9;
                for (int c = 0; c < 20; c++) { double a0 = now(); b.ps.realize(outs[si], tgt); best = std::min(best, now() - a0); }
                times[si].push_back(best);
            }
        }
        printf("%3d", t);
        std::vector<double> med;
        for (auto &v : times) { std::sort(v.begin(), v.end()); med.push_back(v[3]); printf(" %10.4f", v[3] * 1e3); }
        printf("  %.2f\n", med[3] / med[2]);
        fflush(stdout);
    }
    return 0;
}
