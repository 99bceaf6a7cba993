// Probe 5 (lhs_transposed_small): scores with transposed queries at small T. Derived from probe4.
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
    std::string only = argc > 1 ? argv[1] : "";
    auto want = [&](const std::string &n) { return only.empty() || only == n; };
    const int D = 64;
    std::vector<int> ts = {1, 2, 3, 5, 8, 16, 32, 64, 128};
    if (getenv("TS")) { ts.clear(); std::string s = getenv("TS"); size_t p = 0; while (p < s.size()) { size_t q = s.find(',', p); if (q == std::string::npos) q = s.size(); ts.push_back(std::stoi(s.substr(p, q - p))); p = q + 1; } }
    Var i("i"), j("j"), h("h");
    for (int H : {192, 12}) {
        Builder canon = [&, H] {
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
        // Transposed queries: q(i, r, h).
        Builder lhs_t = [&, H] {
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
        std::string name = "lhs_transposed_" + std::to_string(H);
        if (want(name)) compare(name.c_str(), lhs_t, canon, ts);
    }
    return 0;
}
