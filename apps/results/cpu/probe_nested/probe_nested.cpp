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
        printf("%-28s shape %-10s %s  diet %.4f ms  unscheduled %.4f ms  (%.1fx)\n", name, std::to_string(s[0]).c_str(), c.empty() ? "ok" : ("WRONG " + c).c_str(), td * 1e3, tr * 1e3, tr / td);
        fflush(stdout);
    }
}
int main(int argc, char **argv) {
    if (argc > 1) only = argv[1];
    // a. the probe's nested sums: the outer reduction variable before the pure ones
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
    // b. pure variables first: inner(j, v0, i, v1)
    run("nested sums, j first", [] {
        Built b; ImageParam A(Float(32), 3, "A"), B(Float(32), 3, "B");
        Param<int> T = shape_var("T", 1, 64, 32);
        Var i("i"), j("j"); RDom r1(0, 8, "r1"), r2(0, 16, "r2");
        b.out = Func("o"); b.out(j, i) = sum(r1, sum(r2, B(j, r2, r1) * A(r2, r1, i)));
        A.set_estimates({{0, 16}, {0, 8}, {0, T}}); B.set_estimates({{0, 200}, {0, 16}, {0, 8}});
        b.out.set_estimates({{0, 200}, {0, T}});
        b.inputs = {A, B}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{16, 8, s[0]}, {200, 16, 8}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{200, s[0]}; };
        return b; }, {{1}, {3}, {64}});
    // c. three levels: sum over r1 of sum over r2 of sum over r3
    run("nested sums x3", [] {
        Built b; ImageParam A(Float(32), 4, "A"), B(Float(32), 4, "B");
        Param<int> T = shape_var("T", 1, 64, 32);
        Var i("i"), j("j"); RDom r1(0, 4, "r1"), r2(0, 4, "r2"), r3(0, 8, "r3");
        b.out = Func("o"); b.out(j, i) = sum(r1, sum(r2, sum(r3, A(r3, r2, r1, i) * B(r3, r2, r1, j))));
        A.set_estimates({{0, 8}, {0, 4}, {0, 4}, {0, T}}); B.set_estimates({{0, 8}, {0, 4}, {0, 4}, {0, 200}});
        b.out.set_estimates({{0, 200}, {0, T}});
        b.inputs = {A, B}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{8, 4, 4, s[0]}, {8, 4, 4, 200}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{200, s[0]}; };
        return b; }, {{1}, {3}, {64}});
    // d. a nested max of sums (not a contraction at all): per-group maximum of dot products
    run("max of sums", [] {
        Built b; ImageParam A(Float(32), 3, "A"), B(Float(32), 3, "B");
        Param<int> T = shape_var("T", 1, 64, 32);
        Var i("i"), j("j"); RDom r1(0, 8, "r1"), r2(0, 16, "r2");
        b.out = Func("o"); b.out(j, i) = maximum(r1, sum(r2, A(r2, r1, i) * B(r2, r1, j)));
        A.set_estimates({{0, 16}, {0, 8}, {0, T}}); B.set_estimates({{0, 16}, {0, 8}, {0, 200}});
        b.out.set_estimates({{0, 200}, {0, T}});
        b.inputs = {A, B}; b.vars = {T};
        b.in_sizes = [](const std::vector<int> &s) { return Sizes{{16, 8, s[0]}, {16, 8, 200}}; };
        b.out_sizes = [](const std::vector<int> &s) { return std::vector<int>{200, s[0]}; };
        return b; }, {{1}, {3}, {64}});
}
