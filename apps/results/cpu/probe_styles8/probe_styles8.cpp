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
    // 1. strided 3x3 convolution over channels, stride 2 (NHWC-like: c innermost)
    run("strided conv s2", [] {
        Built b; ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w");
        Param<int> W = shape_var("W", 8, 128, 64);
        Var k("k"), x("x"), y("y"); RDom r(0, 32, 0, 3, 0, 3, "r");
        b.out = Func("conv_s2");
        b.out(k, x, y) = sum(in(r.x, 2 * x + r.y, 2 * y + r.z) * w(k, r.x, r.y, r.z));
        in.set_estimates({{0, 32}, {0, 2 * W + 2}, {0, 34}}); w.set_estimates({{0, 64}, {0, 32}, {0, 3}, {0, 3}});
        b.out.set_estimates({{0, 64}, {0, W}, {0, 16}});
        b.inputs = {in, w}; b.vars = {W};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{32, 2 * s[0] + 2, 34}, {64, 32, 3, 3}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{64, s[0], 16}; };
        return b; }, {{8}, {13}, {128}});
    // 2. dilated 1-D FIR over a dynamic length
    run("dilated fir", [] {
        Built b; ImageParam in(Float(32), 1, "in"), w(Float(32), 1, "w");
        Param<int> N = shape_var("N", 16, 100000, 4096);
        Var x("x"); RDom r(0, 15, "r");
        b.out = Func("fir"); b.out(x) = sum(in(x + 4 * r) * w(r));
        in.set_estimates({{0, N + 56}}); w.set_estimates({{0, 15}});
        b.out.set_estimates({{0, N}});
        b.inputs = {in, w}; b.vars = {N};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{s[0] + 56}, {15}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{s[0]}; };
        return b; }, {{16}, {999}, {100000}});
    // 3. uint8 GEMM with zero points (quantized dense): (a - za) * (w - zw) widened to int32
    run("u8 gemm zero points", [] {
        Built b; ImageParam a(UInt(8), 2, "a"), w(UInt(8), 2, "w");
        Param<int> T = shape_var("T", 1, 128, 64);
        Var n("n"), m("m"); RDom k(0, 256, "k");
        b.out = Func("qgemm");
        b.out(n, m) = sum((i32(a(k, m)) - 3) * (i32(w(k, n)) - 5));
        a.set_estimates({{0, 256}, {0, T}}); w.set_estimates({{0, 256}, {0, 128}});
        b.out.set_estimates({{0, 128}, {0, T}});
        b.inputs = {a, w}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{256, s[0]}, {256, 128}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{128, s[0]}; };
        return b; }, {{1}, {7}, {128}});
    // 4. bias added as a second update after the reduction
    run("bias as a second update", [] {
        Built b; ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        Param<int> T = shape_var("T", 1, 128, 64);
        Var n("n"), m("m"); RDom k(0, 256, "k");
        b.out = Func("dense_bias2"); b.out(n, m) = 0.f; b.out(n, m) += x(k, m) * w(k, n); b.out(n, m) += bias(n);
        x.set_estimates({{0, 256}, {0, T}}); w.set_estimates({{0, 256}, {0, 256}}); bias.set_estimates({{0, 256}});
        b.out.set_estimates({{0, 256}, {0, T}});
        b.inputs = {x, w, bias}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{256, s[0]}, {256, 256}, {256}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{256, s[0]}; };
        return b; }, {{1}, {7}, {128}});
    // 5. max pool 2x2 stride 2, planar, dynamic image
    run("max pool 2x2", [] {
        Built b; ImageParam in(Float(32), 3, "in");
        Param<int> W = shape_var("W", 16, 2048, 512);
        Var x("x"), y("y"), c("c"); RDom r(0, 2, 0, 2, "r");
        b.out = Func("pool"); b.out(x, y, c) = maximum(in(2 * x + r.x, 2 * y + r.y, c));
        in.set_estimates({{0, 2 * W}, {0, 2 * W}, {0, 16}});
        b.out.set_estimates({{0, W}, {0, W}, {0, 16}});
        b.inputs = {in}; b.vars = {W};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{2 * s[0], 2 * s[0], 16}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{s[0], s[0], 16}; };
        return b; }, {{16}, {101}, {1024}});
    // 6. bilinear 2x upsample then a 3x3 box blur
    run("upsample then blur", [] {
        Built b; ImageParam in(Float(32), 2, "in");
        Param<int> W = shape_var("W", 16, 2048, 512);
        Var x("x"), y("y");
        Func cl = BoundaryConditions::repeat_edge(in);
        Func up("up");
        Expr fx = (x + 0.5f) / 2 - 0.5f, fy = (y + 0.5f) / 2 - 0.5f;
        Expr ix = cast<int>(floor(fx)), iy = cast<int>(floor(fy)); Expr ax = fx - ix, ay = fy - iy;
        up(x, y) = lerp(lerp(cl(ix, iy), cl(ix + 1, iy), ax), lerp(cl(ix, iy + 1), cl(ix + 1, iy + 1), ax), ay);
        RDom r(-1, 3, -1, 3, "r");
        b.out = Func("blurred"); b.out(x, y) = sum(up(x + r.x, y + r.y)) / 9.f;
        in.set_estimates({{0, W}, {0, W}});
        b.out.set_estimates({{0, 2 * W}, {0, 2 * W}});
        b.inputs = {in}; b.vars = {W};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{s[0], s[0]}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{2 * s[0], 2 * s[0]}; };
        return b; }, {{16}, {101}, {1024}});
    // 7. einsum bhqd,bhkd->bhqk with batch and heads as separate dims, T dynamic
    run("einsum 4-D scores", [] {
        Built b; ImageParam q(Float(32), 4, "q"), k(Float(32), 4, "k");
        Param<int> T = shape_var("T", 1, 128, 64);
        Var i("i"), j("j"), h("h"), bb("bb"); RDom d(0, 64, "d");
        b.out = Func("scores4"); b.out(j, i, h, bb) = sum(q(d, i, h, bb) * k(d, j, h, bb)) * 0.125f;
        q.set_estimates({{0, 64}, {0, T}, {0, 12}, {0, 2}}); k.set_estimates({{0, 64}, {0, T}, {0, 12}, {0, 2}});
        b.out.set_estimates({{0, T}, {0, T}, {0, 12}, {0, 2}});
        b.inputs = {q, k}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{64, s[0], 12, 2}, {64, s[0], 12, 2}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{s[0], s[0], 12, 2}; };
        return b; }, {{1}, {9}, {128}});
    // 8. prefix sum along a dynamic row, many rows
    run("prefix sum rows", [] {
        Built b; ImageParam in(Float(32), 2, "in");
        Param<int> N = shape_var("N", 1, 4096, 1024);
        Var x("x"), y("y"); RDom r(1, N - 1, "r");
        Func s("scan"); s(x, y) = in(x, y); s(r, y) = s(r - 1, y) + in(r, y);
        b.out = Func("prefix"); b.out(x, y) = s(x, y);
        in.set_estimates({{0, N}, {0, 512}});
        b.out.set_estimates({{0, N}, {0, 512}});
        b.inputs = {in}; b.vars = {N};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{s[0], 512}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{s[0], 512}; };
        return b; }, {{1}, {37}, {4096}});
}
