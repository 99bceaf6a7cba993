#define CATCH_CONFIG_MAIN_X
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
// New styles probe: correctness against the unscheduled algorithm and time against it.
#include "Halide.h"
#include "plugin/Diet.h"
#include "options/Options.h"
#include "space/HostCpu.h"
#include "test_support.h"
#include <chrono>
#include <functional>
using namespace Halide;
using Sizes = std::vector<std::vector<int>>;
struct Built {
    Func out;
    std::vector<ImageParam> inputs;
    std::vector<Param<int>> vars;
    std::function<Sizes(const std::vector<int> &)> in_sizes;
    std::function<std::vector<int>(const std::vector<int> &)> out_sizes;
};
Param<int> shape_var(const char *name, int lo, int hi, int est) { Param<int> p(name); p.set_range(lo, hi); p.set_estimate(est); return p; }
double timeit(Pipeline &p, Buffer<> &out) {
    p.realize(out);
    double best = 1e9;
    for (int k = 0; k < 5; k++) {
        int reps = 0; auto t0 = std::chrono::steady_clock::now(); double el = 0;
        do { p.realize(out); reps++; el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); } while (el < 0.05);
        best = std::min(best, el / reps);
    }
    return best;
}
void run(const char *name, const std::function<Built()> &build, const std::vector<std::vector<int>> &shapes) {
    Built d = build(), r = build();
    Region one_out(r.out.dimensions(), Range(0, 1));
    r.out.set_estimates(one_out);
    for (ImageParam &p : r.inputs) p.set_estimates(Region(p.dimensions(), Range(0, 1)));
    const Target target = diet::runnable_host_target();
    try {
        diet::autoschedule(Pipeline(d.out), target, 2, 0, diet::Options{});
    } catch (const Halide::Error &e) { printf("%s: DIET THREW %s\n", name, e.what()); return; }
    Pipeline dp(d.out), rp(r.out);
    dp.compile_jit(target); rp.compile_jit(target);
    for (const auto &s : shapes) {
        for (size_t i = 0; i < s.size(); i++) { d.vars[i].set(s[i]); r.vars[i].set(s[i]); }
        const Sizes in = d.in_sizes(s);
        for (size_t i = 0; i < d.inputs.size(); i++) {
            Buffer<> b = diet_test::random_input(d.inputs[i].type(), in[i], 11 + i, -1, 1);
            d.inputs[i].set(b); r.inputs[i].set(b);
        }
        Buffer<> od(d.out.output_types()[0], d.out_sizes(s)), orr(r.out.output_types()[0], r.out_sizes(s));
        dp.realize(od); rp.realize(orr);
        std::string c = diet_test::compare(od, orr);
        double td = timeit(dp, od), tr = timeit(rp, orr);
        printf("%-28s shape %-10s %s  diet %.4f ms  unscheduled %.4f ms  (%.1fx)\n", name, std::to_string(s[0]).c_str(), c.empty() ? "ok" : ("WRONG " + c).c_str(), td * 1e3, tr * 1e3, tr / td);
        fflush(stdout);
    }
}
int main() {
    // 1. embedding lookup then dense
    run("embedding+dense", [] {
        Built b; ImageParam ids(Int(32), 1, "ids"), emb(Float(32), 2, "emb"), w(Float(32), 2, "w");
        Param<int> T = shape_var("T", 1, 128, 64);
        Var c("c"), t("t"), n("n"); RDom k(0, 256, "k");
        Func h("h"); h(c, t) = emb(c, clamp(ids(t), 0, 999));
        b.out = Func("y"); b.out(n, t) = sum(h(k, t) * w(k, n));
        ids.set_estimates({{0, T}}); emb.set_estimates({{0, 256}, {0, 1000}}); w.set_estimates({{0, 256}, {0, 512}});
        b.out.set_estimates({{0, 512}, {0, T}});
        b.inputs = {ids, emb, w}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{s[0]}, {256, 1000}, {256, 512}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{512, s[0]}; };
        return b; }, {{1}, {7}, {128}});
    // 2. GEMM with alpha/beta and a C input
    run("gemm alpha beta", [] {
        Built b; ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B"), C(Float(32), 2, "C");
        Param<int> T = shape_var("T", 1, 256, 128);
        Var i("i"), j("j"); RDom k(0, 512, "k");
        b.out = Func("out"); b.out(j, i) = 0.5f * sum(A(k, i) * B(j, k)) + 2.f * C(j, i);
        A.set_estimates({{0, 512}, {0, T}}); B.set_estimates({{0, 384}, {0, 512}}); C.set_estimates({{0, 384}, {0, T}});
        b.out.set_estimates({{0, 384}, {0, T}});
        b.inputs = {A, B, C}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{512, s[0]}, {384, 512}, {384, s[0]}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{384, s[0]}; };
        return b; }, {{1}, {13}, {256}});
    // 3. depthwise 3x3 conv, channels innermost
    run("depthwise 3x3 (c innermost)", [] {
        Built b; ImageParam in(Float(32), 3, "in"), wt(Float(32), 3, "wt");
        Param<int> W = shape_var("W", 8, 256, 64);
        Var c("c"), x("x"), y("y"); RDom r(0, 3, 0, 3, "r");
        b.out = Func("dw"); b.out(c, x, y) = sum(in(c, x + r.x, y + r.y) * wt(c, r.x, r.y));
        in.set_estimates({{0, 64}, {0, W + 2}, {0, 34}}); wt.set_estimates({{0, 64}, {0, 3}, {0, 3}});
        b.out.set_estimates({{0, 64}, {0, W}, {0, 32}});
        b.inputs = {in, wt}; b.vars = {W};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{64, s[0] + 2, 34}, {64, 3, 3}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{64, s[0], 32}; };
        return b; }, {{8}, {37}, {256}});
    // 4. 1x1 conv NCHW-like: out(x, y, co) = sum_ci in(x, y, ci) * w(ci, co)
    run("1x1 conv planar", [] {
        Built b; ImageParam in(Float(32), 3, "in"), wt(Float(32), 2, "wt");
        Param<int> W = shape_var("W", 1, 128, 64);
        Var x("x"), y("y"), co("co"); RDom ci(0, 64, "ci");
        b.out = Func("pw"); b.out(x, y, co) = sum(in(x, y, ci) * wt(ci, co));
        in.set_estimates({{0, W}, {0, 32}, {0, 64}}); wt.set_estimates({{0, 64}, {0, 96}});
        b.out.set_estimates({{0, W}, {0, 32}, {0, 96}});
        b.inputs = {in, wt}; b.vars = {W};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{s[0], 32, 64}, {64, 96}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{s[0], 32, 96}; };
        return b; }, {{1}, {5}, {128}});
    // 5. weight gradient: dw(k, n) = sum_t x(k, t) * dy(n, t), reduction over the shape variable
    run("weight gradient", [] {
        Built b; ImageParam x(Float(32), 2, "x"), dy(Float(32), 2, "dy");
        Param<int> T = shape_var("T", 1, 512, 256);
        Var k("k"), n("n"); RDom t(0, T, "t");
        b.out = Func("dw"); b.out(k, n) = sum(x(k, t) * dy(n, t));
        x.set_estimates({{0, 256}, {0, T}}); dy.set_estimates({{0, 256}, {0, T}});
        b.out.set_estimates({{0, 256}, {0, 256}});
        b.inputs = {x, dy}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{256, s[0]}, {256, s[0]}}; };
        b.out_sizes = [](const std::vector<int> &) { return std::vector<int>{256, 256}; };
        return b; }, {{1}, {9}, {512}});
    // 6. nested inline sums (two RDoms written as sum of sum)
    run("nested sums", [] {
        Built b; ImageParam A(Float(32), 3, "A"), B(Float(32), 3, "B");
        Param<int> T = shape_var("T", 1, 64, 32);
        Var i("i"), j("j"); RDom r1(0, 8, "r1"), r2(0, 16, "r2");
        b.out = Func("o"); b.out(j, i) = sum(r1, sum(r2, A(r2, r1, i) * B(r2, r1, j)));
        A.set_estimates({{0, 16}, {0, 8}, {0, T}}); B.set_estimates({{0, 16}, {0, 8}, {0, 200}});
        b.out.set_estimates({{0, 200}, {0, T}});
        b.inputs = {A, B}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{16, 8, s[0]}, {16, 8, 200}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{200, s[0]}; };
        return b; }, {{1}, {3}, {64}});
    // 7. f64 accumulation
    run("float64 dense", [] {
        Built b; ImageParam x(Float(64), 2, "x"), w(Float(64), 2, "w");
        Param<int> T = shape_var("T", 1, 64, 32);
        Var n("n"), m("m"); RDom k(0, 128, "k");
        b.out = Func("y"); b.out(n, m) = sum(x(k, m) * w(k, n));
        x.set_estimates({{0, 128}, {0, T}}); w.set_estimates({{0, 128}, {0, 256}});
        b.out.set_estimates({{0, 256}, {0, T}});
        b.inputs = {x, w}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{128, s[0]}, {128, 256}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{256, s[0]}; };
        return b; }, {{1}, {6}, {64}});
}
