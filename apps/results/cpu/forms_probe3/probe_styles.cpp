// A one-off probe of contraction spellings not in the forms table (issue 13): each is scheduled by
// Diet with default options (JIT, the plugin loaded), checked against the same algorithm
// unscheduled, and timed against the canonical dense form of the same arithmetic.
// Build: g++ -O2 -std=c++17 probe_styles.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o probe
// Run:   TGT=$(build/diet_target) ./probe canonical two_sums ...
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <map>
using namespace Halide;
const int K = 768, N = 768, R = 16;
struct P {
    Pipeline p;
    std::vector<ImageParam> in;
    Param<int> T{"T", 16};
    std::vector<std::vector<int>> sizes(int t) const { return sz(t); }
    std::function<std::vector<std::vector<int>>(int)> sz;
    std::function<std::vector<int>(int)> osz;
    double flops_scale = 1;  // the form's multiply-adds relative to the canonical form's
};
P make(const std::string &s, bool est) {
    P P_;
    P_.T.set_range(1, 128);
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    Expr T = P_.T;
    P_.sz = [](int t) { return std::vector<std::vector<int>>{{K, R * t}, {K, N}}; };
    P_.osz = [](int t) { return std::vector<int>{N, R * t}; };
    auto std_est = [&]() {
        if (!est) return;
        x.set_estimates({{0, K}, {0, R * T}});
        w.set_estimates({{0, K}, {0, N}});
        y.set_estimates({{0, N}, {0, R * T}});
    };
    if (s == "canonical") {
        Func acc("acc");
        acc(n, m) = 0.f;
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);
    } else if (s == "two_sums") {
        // An LSTM/GRU gate: x·wxᵀ + h·whᵀ + b, two inline sums added in one output.
        ImageParam h(Float(32), 2, "h"), wh(Float(32), 2, "wh"), b(Float(32), 1, "b");
        y(n, m) = sum(x(k, m) * w(k, n)) + sum(h(k, m) * wh(k, n)) + b(n);
        P_.in = {x, w, h, wh, b};
        P_.sz = [](int t) { return std::vector<std::vector<int>>{{K, R * t}, {K, N}, {K, R * t}, {K, N}, {N}}; };
        P_.flops_scale = 2;
        if (est) { h.set_estimates({{0, K}, {0, R * T}}); wh.set_estimates({{0, K}, {0, N}}); b.set_estimates({{0, N}}); }
        std_est();
        P_.p = Pipeline(y);
        return P_;
    } else if (s == "two_updates") {
        // The same gate as two updates of one accumulator.
        ImageParam h(Float(32), 2, "h"), wh(Float(32), 2, "wh");
        RDom j(0, K, "j");
        Func acc("acc");
        acc(n, m) = 0.f;
        acc(n, m) += x(k, m) * w(k, n);
        acc(n, m) += h(j, m) * wh(j, n);
        y(n, m) = acc(n, m);
        P_.in = {x, w, h, wh};
        P_.sz = [](int t) { return std::vector<std::vector<int>>{{K, R * t}, {K, N}, {K, R * t}, {K, N}}; };
        P_.flops_scale = 2;
        if (est) { h.set_estimates({{0, K}, {0, R * T}}); wh.set_estimates({{0, K}, {0, N}}); }
        std_est();
        P_.p = Pipeline(y);
        return P_;
    } else if (s == "rows_inner") {
        // The output stored rows-innermost: yt(m, n).
        Func yt("yt");
        yt(m, n) = sum(x(k, m) * w(k, n));
        P_.in = {x, w};
        P_.osz = [](int t) { return std::vector<int>{R * t, N}; };
        if (est) { x.set_estimates({{0, K}, {0, R * T}}); w.set_estimates({{0, K}, {0, N}}); yt.set_estimates({{0, R * T}, {0, N}}); }
        P_.p = Pipeline(yt);
        return P_;
    } else if (s == "numpy_style") {
        // C[i, j] = sum_k A[i, k] B[k, j] written with numpy's index order: i innermost in Halide.
        ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
        Var i("i"), j("j");
        Func C("C");
        C(i, j) = sum(A(i, k) * B(k, j));
        P_.in = {A, B};
        P_.sz = [](int t) { return std::vector<std::vector<int>>{{R * t, K}, {K, N}}; };
        P_.osz = [](int t) { return std::vector<int>{R * t, N}; };
        if (est) { A.set_estimates({{0, R * T}, {0, K}}); B.set_estimates({{0, K}, {0, N}}); C.set_estimates({{0, R * T}, {0, N}}); }
        P_.p = Pipeline(C);
        return P_;
    } else if (s == "einsum_heads") {
        // Attention's output projection over heads and head dimension: out(n, m) = sum_{d,h} ctx(d, h, m) wo(d, h, n).
        ImageParam ctx(Float(32), 3, "ctx"), wo(Float(32), 3, "wo");
        RDom r(0, 64, 0, 12, "r");
        y(n, m) = sum(ctx(r.x, r.y, m) * wo(r.x, r.y, n));
        P_.in = {ctx, wo};
        P_.sz = [](int t) { return std::vector<std::vector<int>>{{64, 12, R * t}, {64, 12, N}}; };
        if (est) { ctx.set_estimates({{0, 64}, {0, 12}, {0, R * T}}); wo.set_estimates({{0, 64}, {0, 12}, {0, N}}); y.set_estimates({{0, N}, {0, R * T}}); }
        P_.p = Pipeline(y);
        return P_;
    } else if (s == "split_reduction") {
        RDom r(0, 8, 0, K / 8, "r");
        Expr kk = r.x + 8 * r.y;
        y(n, m) = sum(x(kk, m) * w(kk, n));
    } else if (s == "bias_on_output") {
        ImageParam b(Float(32), 1, "b");
        y(n, m) = b(n);
        y(n, m) += x(k, m) * w(k, n);
        P_.in = {x, w, b};
        P_.sz = [](int t) { return std::vector<std::vector<int>>{{K, R * t}, {K, N}, {N}}; };
        if (est) b.set_estimates({{0, N}});
        std_est();
        P_.p = Pipeline(y);
        return P_;
    } else if (s == "halves") {
        // The reduction over two halves of K, as two updates.
        RDom k1(0, K / 2, "k1"), k2(K / 2, K / 2, "k2");
        Func acc("acc");
        acc(n, m) = 0.f;
        acc(n, m) += x(k1, m) * w(k1, n);
        acc(n, m) += x(k2, m) * w(k2, n);
        y(n, m) = acc(n, m);
    } else if (s == "residual_sum") {
        // A residual added to a contraction of a second input: y = x·wᵀ + r.
        ImageParam res(Float(32), 2, "res");
        y(n, m) = sum(x(k, m) * w(k, n)) + res(n, m);
        P_.in = {x, w, res};
        P_.sz = [](int t) { return std::vector<std::vector<int>>{{K, R * t}, {K, N}, {N, R * t}}; };
        if (est) res.set_estimates({{0, N}, {0, R * T}});
        std_est();
        P_.p = Pipeline(y);
        return P_;
    } else {
        fprintf(stderr, "no form %s\n", s.c_str());
        exit(1);
    }
    P_.in = {x, w};
    std_est();
    P_.p = Pipeline(y);
    return P_;
}
template <typename F>
double timeit(F f) {
    f();
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        int reps = 0;
        auto t0 = std::chrono::steady_clock::now();
        double el;
        do {
            f();
            reps++;
            el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        } while (el < 0.03);
        best = std::min(best, el / reps);
    }
    return best;
}
int main(int argc, char **argv) {
    load_plugin(getenv("DIET_PLUGIN") ? getenv("DIET_PLUGIN") : "/work/main/build/libautoschedule_diet.so");
    Target tgt(getenv("TGT"));
    std::vector<std::string> forms(argv + 1, argv + argc);
    std::map<int, double> canon;
    const std::vector<int> ts = {1, 2, 8, 64, 128};
    for (auto &s : forms) {
        P d = make(s, true), r = make(s, false);
        auto t0 = std::chrono::steady_clock::now();
        d.p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
        d.p.compile_jit(tgt);
        r.p.compile_jit(tgt);
        double ct = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("%-16s sched+jit %.1fs:", s.c_str(), ct);
        for (int t : ts) {
            auto in = d.sizes(t);
            for (size_t i = 0; i < d.in.size(); i++) {
                Buffer<float> b(in[i]);
                b.for_each_element([&](const int *c) {
                    b(c) = ((c[0] * 7 + (b.dimensions() > 1 ? c[1] : 0) * 3 + (b.dimensions() > 2 ? c[2] : 0)) % 11) * 0.1f - 0.5f;
                });
                d.in[i].set(b);
                r.in[i].set(b);
            }
            d.T.set(t);
            r.T.set(t);
            Buffer<float> o1(d.osz(t)), o2(d.osz(t));
            d.p.realize(o1, tgt);
            r.p.realize(o2, tgt);
            double err = 0;
            o1.for_each_element([&](const int *c) { err = std::max(err, (double)std::abs(o1(c) - o2(c))); });
            double tm = timeit([&] { d.p.realize(o1, tgt); });
            if (s == "canonical") canon[t] = tm;
            char ratio[32] = "";
            if (canon.count(t)) snprintf(ratio, sizeof ratio, " (%.2fx)", canon[t] * d.flops_scale / tm);
            printf("  T=%d %.0fus%s%s", t, tm * 1e6, ratio, err > 1e-2 ? " WRONG" : "");
            fflush(stdout);
        }
        printf("\n");
    }
}
