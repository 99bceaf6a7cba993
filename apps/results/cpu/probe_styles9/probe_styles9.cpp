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
#include <cstring>
using namespace Halide;
using namespace Halide::ConciseCasts;
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
static const char *only = nullptr;
void run(const char *name, const std::function<Built()> &build, const std::vector<std::vector<int>> &shapes) {
    if (only && strcmp(name, only)) return;
    Built d = build(), r = build();
    Region one_out(r.out.dimensions(), Range(0, 1));
    r.out.set_estimates(one_out);
    for (ImageParam &p : r.inputs) p.set_estimates(Region(p.dimensions(), Range(0, 1)));
    const Target target = diet::runnable_host_target();
    try {
        diet::autoschedule(Pipeline(d.out), target, 2, 0, diet::Options{});
    } catch (const Halide::Error &e) { printf("%s: DIET THREW %s\n", name, e.what()); return; }
    Pipeline dp(d.out), rp(r.out);
    if (getenv("STMT")) dp.compile_to_lowered_stmt(getenv("STMT"), dp.infer_arguments(), Halide::Text, target);
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
        printf("%-28s shape %-10s %s  diet %.4f ms  unscheduled %.4f ms  (%.1fx)\n", name, ([&]{std::string l; for (int v : s) l += std::to_string(v) + "x"; return l;}()).c_str(), c.empty() ? "ok" : ("WRONG " + c).c_str(), td * 1e3, tr * 1e3, tr / td);
        fflush(stdout);
    }
}
int main(int argc, char **argv) {
    if (argc > 1) only = argv[1];
    // 1. Gram matrix: the same operand twice
    run("gram matrix", [] {
        Built b; ImageParam a(Float(32), 2, "a");
        Param<int> T = shape_var("T", 1, 256, 128);
        Var i("i"), j("j"); RDom k(0, T, "k");
        b.out = Func("gram"); b.out(j, i) = sum(a(j, k) * a(i, k));
        a.set_estimates({{0, 192}, {0, T}});
        b.out.set_estimates({{0, 192}, {0, 192}});
        b.inputs = {a}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{192, s[0]}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{192, 192}; };
        return b; }, {{1}, {17}, {256}});
    // 2. a global sum into a scalar
    run("global sum", [] {
        Built b; ImageParam in(Float(32), 2, "in");
        Param<int> W = shape_var("W", 1, 4096, 1024);
        RDom r(0, W, 0, 512, "r");
        b.out = Func("total"); b.out() = sum(in(r.x, r.y));
        in.set_estimates({{0, W}, {0, 512}});
        b.inputs = {in}; b.vars = {W};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{s[0], 512}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{}; };
        return b; }, {{1}, {77}, {4096}});
    // 3. column sums over a run-time number of rows
    run("column sums", [] {
        Built b; ImageParam in(Float(32), 2, "in");
        Param<int> H = shape_var("H", 1, 4096, 1024);
        Var x("x"); RDom r(0, H, "r");
        b.out = Func("colsum"); b.out(x) = sum(in(x, r));
        in.set_estimates({{0, 768}, {0, H}});
        b.out.set_estimates({{0, 768}});
        b.inputs = {in}; b.vars = {H};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{768, s[0]}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{768}; };
        return b; }, {{1}, {77}, {4096}});
    // 4. a scan down the columns
    run("column scan", [] {
        Built b; ImageParam in(Float(32), 2, "in");
        Param<int> H = shape_var("H", 2, 2048, 512);
        Var x("x"), y("y"); RDom r(1, H - 1, "r");
        Func s("cscan"); s(x, y) = in(x, y); s(x, r) = s(x, r - 1) * 0.5f + in(x, r);
        b.out = Func("colscan"); b.out(x, y) = s(x, y);
        in.set_estimates({{0, 1024}, {0, H}});
        b.out.set_estimates({{0, 1024}, {0, H}});
        b.inputs = {in}; b.vars = {H};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{1024, s[0]}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{1024, s[0]}; };
        return b; }, {{2}, {77}, {2048}});
    // 5. a temporal 1-D convolution over channels and taps (T dynamic)
    run("temporal conv", [] {
        Built b; ImageParam in(Float(32), 2, "in"), w(Float(32), 3, "w");
        Param<int> T = shape_var("T", 1, 512, 128);
        Var co("co"), t("t"); RDom r(0, 128, 0, 5, "r");
        b.out = Func("tconv"); b.out(co, t) = sum(in(r.x, t + r.y) * w(co, r.x, r.y));
        in.set_estimates({{0, 128}, {0, T + 4}}); w.set_estimates({{0, 128}, {0, 128}, {0, 5}});
        b.out.set_estimates({{0, 128}, {0, T}});
        b.inputs = {in, w}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{128, s[0] + 4}, {128, 128, 5}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{128, s[0]}; };
        return b; }, {{1}, {13}, {512}});
    // 6. dense plus a residual input in the epilogue
    run("dense + residual", [] {
        Built b; ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"), res(Float(32), 2, "res");
        Param<int> T = shape_var("T", 1, 128, 64);
        Var n("n"), m("m"); RDom k(0, 256, "k");
        b.out = Func("dres"); b.out(n, m) = res(n, m) + sum(x(k, m) * w(k, n));
        x.set_estimates({{0, 256}, {0, T}}); w.set_estimates({{0, 256}, {0, 256}}); res.set_estimates({{0, 256}, {0, T}});
        b.out.set_estimates({{0, 256}, {0, T}});
        b.inputs = {x, w, res}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{256, s[0]}, {256, 256}, {256, s[0]}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{256, s[0]}; };
        return b; }, {{1}, {7}, {128}});
    // 7. NCHW (planar) 3x3 convolution, batch dynamic
    run("planar conv batch", [] {
        Built b; ImageParam in(Float(32), 4, "in"), w(Float(32), 4, "w");
        Param<int> N = shape_var("N", 1, 16, 4);
        Var x("x"), y("y"), k("k"), n("n"); RDom r(0, 3, 0, 3, 0, 16, "r");
        b.out = Func("pconv"); b.out(x, y, k, n) = sum(in(x + r.x, y + r.y, r.z, n) * w(r.x, r.y, r.z, k));
        in.set_estimates({{0, 34}, {0, 34}, {0, 16}, {0, N}}); w.set_estimates({{0, 3}, {0, 3}, {0, 16}, {0, 32}});
        b.out.set_estimates({{0, 32}, {0, 32}, {0, 32}, {0, N}});
        b.inputs = {in, w}; b.vars = {N};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{34, 34, 16, s[0]}, {3, 3, 16, 32}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{32, 32, 32, s[0]}; };
        return b; }, {{1}, {3}, {16}});
}
