// Probe 5: styles of contraction-like and stencil-like stages no earlier probe tried (pairwise
// distances, convolutions over a boundary condition with channels innermost, depthwise and strided
// convolutions, complex products, a weight gradient reducing over the run-time dimension, batched
// matrix-vector products, a classifier head with softmax, layer norm feeding a dense layer, a
// residual dense). Each is scheduled by Diet (defaults, symbolic estimates), by Adams2019 (constant
// estimates at the family's estimate: what a user would pick instead) and with every Func at root, checked
// against the unscheduled algorithm, and timed (min of 10 calls, one after the other).
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
using namespace Halide;
static Target tgt;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
struct Inst {
    Func out;
    std::vector<ImageParam> ins;
    Param<int> T{"T"};
    std::function<std::vector<std::vector<int>>(int)> in_sizes;
    std::function<std::vector<int>(int)> out_size;
};
// sym: estimates in terms of T (Diet); otherwise constants at T = est (Adams2019).
using Builder = std::function<Inst(bool sym)>;
static Buffer<float> rnd(std::vector<int> sz, int seed) {
    Buffer<float> b(sz);
    std::mt19937 g(seed);
    b.for_each_value([&](float &v) { v = (g() % 2001) / 1000.0f - 1.0f; });
    return b;
}
static double time_at(Inst &s, Pipeline &p, int t, Buffer<float> &o, std::vector<Buffer<float>> &in) {
    s.T.set(t);
    for (size_t i = 0; i < s.ins.size(); i++) s.ins[i].set(in[i]);
    o = Buffer<float>(s.out_size(t));
    p.realize(o, tgt);
    double best = 1e9;
    for (int k = 0; k < 10; k++) {
        double a = now();
        p.realize(o, tgt);
        best = std::min(best, now() - a);
    }
    return best;
}
static void probe(const char *name, Builder f, std::vector<int> ts) {
    printf("== %s\n", name);
    fflush(stdout);
    try {
        Inst d = f(true), a = f(false), r = f(false);
        // The reference ("plain"): every Func computed at root, none inlined (inlined reductions
        // would be recomputed per point: a classifier's softmax inlined takes minutes).
        for (auto &kv : Internal::find_transitive_calls(r.out.function())) {
            if (kv.first != r.out.name()) Func(kv.second).compute_root();
        }
        Pipeline pd(d.out), pa(a.out), pr(r.out);
        double t0 = now();
        pd.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
        double t1 = now();
        // NOADAMS=1: Adams2019's beam search did not finish on the classifier head in 15 minutes.
        const bool adams = !getenv("NOADAMS");
        if (adams) pa.auto_schedule("Adams2019", tgt, MachineParams(2, 1 << 20, 40));
        double t2 = now();
        pd.compile_jit(tgt);
        pa.compile_jit(tgt);
        pr.compile_jit(tgt);
        printf("  schedule: diet %.2f s, adams2019 %.2f s\n", t1 - t0, t2 - t1);
        for (int t : ts) {
            std::vector<Buffer<float>> in;
            auto isz = d.in_sizes(t);
            for (size_t i = 0; i < isz.size(); i++) in.push_back(rnd(isz[i], 17 + i));
            Buffer<float> od, oa, orf;
            double tr = time_at(r, pr, t, orf, in), td = -1, ta = -1;
            std::string ed, ea;
            // A schedule may be wrong only at some shapes (Adams2019's tiles assume the estimate's
            // extents): each system is run and checked on its own.
            try { td = time_at(d, pd, t, od, in); } catch (std::exception &e) { ed = e.what(); }
            if (adams) try { ta = time_at(a, pa, t, oa, in); } catch (std::exception &e) { ea = e.what(); }
            double err = 0, erra = 0, mag = 0;
            orf.for_each_element([&](const int *pos) {
                if (td > 0) err = std::max(err, (double)std::abs(od(pos) - orf(pos)));
                if (ta > 0) erra = std::max(erra, (double)std::abs(oa(pos) - orf(pos)));
                mag = std::max(mag, (double)std::abs(orf(pos)));
            });
            double tol = 1e-3 * std::max(1.0, mag);
            printf("  T=%3d diet %9.4f ms%s  adams %9.4f ms%s  plain %9.4f ms  adams/diet %.2f  plain/diet %.2f\n", t, td * 1e3,
                   td < 0 ? " FAILED" : err > tol ? " WRONG" : "", ta * 1e3, ta < 0 ? " FAILED" : erra > tol ? " WRONG" : "",
                   tr * 1e3, ta / td, tr / td);
            if (!ed.empty()) printf("    diet: %s\n", ed.c_str());
            if (!ea.empty()) printf("    adams: %s\n", ea.substr(0, 160).c_str());
            fflush(stdout);
        }
    } catch (std::exception &e) { printf("  FAILED %s\n", e.what()); }
}
int main(int argc, char **argv) {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so");
    tgt = Target(getenv("TGT"));
    std::string only = argc > 1 ? argv[1] : "";
    auto want = [&](const char *n) { return only.empty() || only == n; };
    Var i("i"), j("j"), k("k"), n("n"), m("m"), c("c"), x("x"), y("y"), b("b"), co("co");
    std::vector<int> ts = {1, 2, 5, 16, 64, 128};
    // E(s, f): f * T, symbolic or at the estimate T = 64.
    auto E = [](Inst &s, bool sym, int f) { return sym ? Expr(s.T) * f : Expr(64 * f); };
    auto range = [](Inst &s) { s.T.set_range(1, 128); s.T.set_estimate(64); };

    // 1. Pairwise squared distances (k-means, RBF kernels): d(j, i) = sum_r (x(r, i) - y(r, j))^2.
    if (want("sqdist")) probe("sqdist", [&](bool sym) {
        Inst s; range(s); const int K = 64, J = 256;
        ImageParam X(Float(32), 2, "x"), Y(Float(32), 2, "y"); RDom r(0, K, "r"); Func o("sqdist");
        Expr dlt = X(r, i) - Y(r, j);
        o(j, i) = sum(dlt * dlt);
        X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 8)); Y.dim(0).set_estimate(0, K).dim(1).set_estimate(0, J);
        o.set_estimate(j, 0, J).set_estimate(i, 0, E(s, sym, 8));
        s.out = o; s.ins = {X, Y};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, 8 * t}, {K, J}}; };
        s.out_size = [=](int t) { return std::vector<int>{J, 8 * t}; };
        return s; }, ts);
    // 2. 3x3 convolution, channels innermost, over a clamped input: out(co, x, y), image side = T.
    if (want("conv_hwc_clamped")) probe("conv_hwc_clamped", [&](bool sym) {
        Inst s; range(s); const int CI = 32, CO = 64;
        ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w"); RDom r(0, CI, 0, 3, 0, 3, "r"); Func o("conv_hwc");
        Func inb = BoundaryConditions::repeat_edge(in);
        o(co, x, y) = sum(inb(r.x, x + r.y - 1, y + r.z - 1) * w(co, r.x, r.y, r.z));
        in.dim(0).set_estimate(0, CI).dim(1).set_estimate(0, E(s, sym, 1)).dim(2).set_estimate(0, E(s, sym, 1));
        w.dim(0).set_estimate(0, CO).dim(1).set_estimate(0, CI).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, 3);
        o.set_estimate(co, 0, CO).set_estimate(x, 0, E(s, sym, 1)).set_estimate(y, 0, E(s, sym, 1));
        s.out = o; s.ins = {in, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{CI, t, t}, {CO, CI, 3, 3}}; };
        s.out_size = [=](int t) { return std::vector<int>{CO, t, t}; };
        return s; }, ts);
    // 3. Depthwise 3x3 convolution, channels innermost, zero padded: out(c, x, y).
    if (want("depthwise")) probe("depthwise", [&](bool sym) {
        Inst s; range(s); const int C = 64;
        ImageParam in(Float(32), 3, "in"), w(Float(32), 3, "w"); RDom r(0, 3, 0, 3, "r"); Func o("depthwise");
        Func inb = BoundaryConditions::constant_exterior(in, 0.f);
        o(c, x, y) = sum(inb(c, x + r.x - 1, y + r.y - 1) * w(c, r.x, r.y));
        in.dim(0).set_estimate(0, C).dim(1).set_estimate(0, E(s, sym, 2)).dim(2).set_estimate(0, E(s, sym, 2));
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, 3).dim(2).set_estimate(0, 3);
        o.set_estimate(c, 0, C).set_estimate(x, 0, E(s, sym, 2)).set_estimate(y, 0, E(s, sym, 2));
        s.out = o; s.ins = {in, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, 2 * t, 2 * t}, {C, 3, 3}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, 2 * t, 2 * t}; };
        return s; }, ts);
    // 4. Strided 3x3 convolution (stride 2, valid), channels innermost: out(co, x, y).
    if (want("conv_stride2")) probe("conv_stride2", [&](bool sym) {
        Inst s; range(s); const int CI = 32, CO = 64;
        ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w"); RDom r(0, CI, 0, 3, 0, 3, "r"); Func o("conv_s2");
        o(co, x, y) = sum(in(r.x, 2 * x + r.y, 2 * y + r.z) * w(co, r.x, r.y, r.z));
        in.dim(0).set_estimate(0, CI).dim(1).set_estimate(0, E(s, sym, 2) + 1).dim(2).set_estimate(0, E(s, sym, 2) + 1);
        w.dim(0).set_estimate(0, CO).dim(1).set_estimate(0, CI).dim(2).set_estimate(0, 3).dim(3).set_estimate(0, 3);
        o.set_estimate(co, 0, CO).set_estimate(x, 0, E(s, sym, 1)).set_estimate(y, 0, E(s, sym, 1));
        s.out = o; s.ins = {in, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{CI, 2 * t + 1, 2 * t + 1}, {CO, CI, 3, 3}}; };
        s.out_size = [=](int t) { return std::vector<int>{CO, t, t}; };
        return s; }, ts);
    // 5. The real part of a complex product: re(n, m) = sum_k ar br - ai bi.
    if (want("complex_real")) probe("complex_real", [&](bool sym) {
        Inst s; range(s); const int K = 256, N = 256;
        ImageParam a(Float(32), 3, "a"), bb(Float(32), 3, "b"); RDom r(0, K, "r"); Func o("complex_re");
        o(n, m) = sum(a(r, m, 0) * bb(r, n, 0) - a(r, m, 1) * bb(r, n, 1));
        a.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 4)).dim(2).set_estimate(0, 2);
        bb.dim(0).set_estimate(0, K).dim(1).set_estimate(0, N).dim(2).set_estimate(0, 2);
        o.set_estimate(n, 0, N).set_estimate(m, 0, E(s, sym, 4));
        s.out = o; s.ins = {a, bb};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, 4 * t, 2}, {K, N, 2}}; };
        s.out_size = [=](int t) { return std::vector<int>{N, 4 * t}; };
        return s; }, ts);
    // 6. A weight gradient: dw(k, n) = sum_t x(k, t) dy(n, t), the reduction over 16 T rows.
    if (want("weight_grad")) probe("weight_grad", [&](bool sym) {
        Inst s; range(s); const int K = 256, N = 512;
        ImageParam X(Float(32), 2, "x"), dy(Float(32), 2, "dy"); RDom r(0, s.T * 16, "r"); Func o("wgrad");
        o(k, n) = sum(X(k, r) * dy(n, r));
        X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 16)); dy.dim(0).set_estimate(0, N).dim(1).set_estimate(0, E(s, sym, 16));
        o.set_estimate(k, 0, K).set_estimate(n, 0, N);
        s.out = o; s.ins = {X, dy};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, 16 * t}, {N, 16 * t}}; };
        s.out_size = [=](int t) { return std::vector<int>{K, N}; };
        return s; }, ts);
    // 7. Batched matrix-vector products, one matrix per batch: y(n, b) = sum_k W(k, n, b) x(k, b).
    if (want("batched_gemv")) probe("batched_gemv", [&](bool sym) {
        Inst s; range(s); const int K = 256, N = 256;
        ImageParam W(Float(32), 3, "W"), X(Float(32), 2, "x"); RDom r(0, K, "r"); Func o("bgemv");
        o(n, b) = sum(W(r, n, b) * X(r, b));
        W.dim(0).set_estimate(0, K).dim(1).set_estimate(0, N).dim(2).set_estimate(0, E(s, sym, 1));
        X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 1));
        o.set_estimate(n, 0, N).set_estimate(b, 0, E(s, sym, 1));
        s.out = o; s.ins = {W, X};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, N, t}, {K, t}}; };
        s.out_size = [=](int t) { return std::vector<int>{N, t}; };
        return s; }, ts);
    // 8. A classifier head: logits = x w + b, then a softmax over the 1000 classes.
    if (want("classifier_softmax")) probe("classifier_softmax", [&](bool sym) {
        Inst s; range(s); const int K = 512, N = 1000;
        ImageParam X(Float(32), 2, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        RDom r(0, K, "r"), rn(0, N, "rn"); Func logits("logits"), mx("mx"), e("e"), den("den"), o("probs");
        logits(n, m) = sum(X(r, m) * w(r, n)) + bias(n);
        mx(m) = maximum(logits(rn, m));
        e(n, m) = exp(logits(n, m) - mx(m));
        den(m) = sum(e(rn, m));
        o(n, m) = e(n, m) / den(m);
        X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 1)); w.dim(0).set_estimate(0, K).dim(1).set_estimate(0, N);
        bias.dim(0).set_estimate(0, N);
        o.set_estimate(n, 0, N).set_estimate(m, 0, E(s, sym, 1));
        s.out = o; s.ins = {X, w, bias};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, t}, {K, N}, {N}}; };
        s.out_size = [=](int t) { return std::vector<int>{N, t}; };
        return s; }, ts);
    // 9. Layer norm over the features, then a dense layer: y(n, m) = sum_k ln(x)(k, m) w(k, n).
    if (want("layernorm_dense")) probe("layernorm_dense", [&](bool sym) {
        Inst s; range(s); const int K = 768, N = 768;
        ImageParam X(Float(32), 2, "x"), w(Float(32), 2, "w"), g(Float(32), 1, "g"), be(Float(32), 1, "beta");
        RDom r(0, K, "r"); Func mean("mean"), var("var"), xn("xn"), o("ln_dense");
        mean(m) = sum(X(r, m)) / K;
        var(m) = sum((X(r, m) - mean(m)) * (X(r, m) - mean(m))) / K;
        xn(k, m) = (X(k, m) - mean(m)) / sqrt(var(m) + 1e-5f) * g(k) + be(k);
        o(n, m) = sum(xn(r, m) * w(r, n));
        X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 4)); w.dim(0).set_estimate(0, K).dim(1).set_estimate(0, N);
        g.dim(0).set_estimate(0, K); be.dim(0).set_estimate(0, K);
        o.set_estimate(n, 0, N).set_estimate(m, 0, E(s, sym, 4));
        s.out = o; s.ins = {X, w, g, be};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, 4 * t}, {K, N}, {K}, {K}}; };
        s.out_size = [=](int t) { return std::vector<int>{N, 4 * t}; };
        return s; }, ts);
    // 10. A residual dense layer: y(n, m) = sum_k x(k, m) w(k, n) + x(n, m).
    if (want("residual_dense")) probe("residual_dense", [&](bool sym) {
        Inst s; range(s); const int K = 768;
        ImageParam X(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, K, "r"); Func o("residual");
        o(n, m) = sum(X(r, m) * w(r, n)) + X(n, m);
        X.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s, sym, 4)); w.dim(0).set_estimate(0, K).dim(1).set_estimate(0, K);
        o.set_estimate(n, 0, K).set_estimate(m, 0, E(s, sym, 4));
        s.out = o; s.ins = {X, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{K, 4 * t}, {K, K}}; };
        s.out_size = [=](int t) { return std::vector<int>{K, 4 * t}; };
        return s; }, ts);
    return 0;
}
