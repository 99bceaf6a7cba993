#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <map>
using namespace Halide;
const int K = 768, N = 768, R = 16;
struct P { Pipeline p; std::vector<ImageParam> in; Param<int> T{"T", 16}; std::vector<std::vector<int>> (*sizes)(int); std::vector<int> (*osz)(int); };
std::vector<std::vector<int>> dense_in(int t) { return {{K, R * t}, {K, N}}; }
std::vector<int> dense_out(int t) { return {N, R * t}; }
P make(const std::string &s, bool est) {
    P P_;
    P_.T.set_range(1, 128);
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    Expr T = P_.T;
    P_.sizes = dense_in; P_.osz = dense_out;
    if (s == "canonical") {
        Func acc("acc"); acc(n, m) = 0.f; acc(n, m) += x(k, m) * w(k, n); y(n, m) = acc(n, m);
    } else if (s == "flat1d") {
        ImageParam xf(Float(32), 1, "x"), wf(Float(32), 1, "w");
        y(n, m) = sum(xf(k + K * m) * wf(k + K * n));
        P_.in = {xf, wf};
        P_.sizes = [](int t) { return std::vector<std::vector<int>>{{K * R * t}, {K * N}}; };
        if (est) { xf.set_estimates({{0, K * R * T}}); wf.set_estimates({{0, K * N}}); y.set_estimates({{0, N}, {0, R * T}}); }
        P_.p = Pipeline(y); return P_;
    } else if (s == "scaled") {
        y(n, m) = sum(x(k, m) * w(k, n) * 0.5f);
    } else if (s == "alpha_first") {
        y(n, m) = sum(0.5f * x(k, m) * w(k, n));
    } else if (s == "double") {
        ImageParam xd(Float(64), 2, "x"), wd(Float(64), 2, "w");
        y(n, m) = sum(xd(k, m) * wd(k, n));
        P_.in = {xd, wd};
        if (est) { xd.set_estimates({{0, K}, {0, R * T}}); wd.set_estimates({{0, K}, {0, N}}); y.set_estimates({{0, N}, {0, R * T}}); }
        P_.p = Pipeline(y); return P_;
    } else if (s == "repeat_edge") {
        Func xc = BoundaryConditions::repeat_edge(x);
        y(n, m) = sum(xc(k, m) * w(k, n));
    } else if (s == "product_func") {
        Func prod("prod"); Var kk("kk");
        prod(kk, n, m) = x(kk, m) * w(kk, n);
        y(n, m) = sum(prod(k, n, m));
    } else if (s == "transpose_func") {
        Func wt("wt"); Var kk("kk");
        wt(n, kk) = w(kk, n);
        y(n, m) = sum(x(k, m) * wt(n, k));
    } else if (s == "scaled_operand") {
        Func xs("xs");
        xs(n, m) = x(n, m) * 0.125f;
        y(n, m) = sum(xs(k, m) * w(k, n));
    } else if (s == "product_scaled") {
        Func prod("prod"); Var kk("kk");
        prod(kk, n, m) = x(kk, m) * w(kk, n) * 0.125f;
        y(n, m) = sum(prod(k, n, m));
    } else if (s == "copy_funcs") {
        Func a("a"), b("b");
        a(n, m) = x(n, m); b(n, m) = w(n, m);
        y(n, m) = sum(a(k, m) * b(k, n));
    } else if (s == "symbolic_k") {
        RDom ks(0, x.dim(0).extent(), "ks");
        y(n, m) = sum(x(ks, m) * w(ks, n));
    } else if (s == "rdom_where") {
        RDom kw(0, K, "kw"); kw.where(kw % 2 == 0 || kw % 2 == 1);
        y(n, m) = sum(x(kw, m) * w(kw, n));
    } else if (s == "two_updates") {
        RDom k1(0, K / 2, "k1"), k2(K / 2, K / 2, "k2");
        Func acc("acc"); acc(n, m) = 0.f; acc(n, m) += x(k1, m) * w(k1, n); acc(n, m) += x(k2, m) * w(k2, n); y(n, m) = acc(n, m);
    } else if (s == "reversed_rdom") {
        y(n, m) = sum(x(K - 1 - k, m) * w(K - 1 - k, n));
    } else if (s == "sum_of_two") {
        // a residual-style: y = x·w + x·w2 in one sum (two products)
        y(n, m) = sum(x(k, m) * w(k, n)) + x(n, m);
    } else {
        fprintf(stderr, "no form %s\n", s.c_str()); exit(1);
    }
    P_.in = {x, w};
    if (est) { x.set_estimates({{0, K}, {0, R * T}}); w.set_estimates({{0, K}, {0, N}}); y.set_estimates({{0, N}, {0, R * T}}); }
    P_.p = Pipeline(y);
    return P_;
}
template <typename F> double timeit(F f) {
    f();
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        int reps = 0; auto t0 = std::chrono::steady_clock::now(); double el;
        do { f(); reps++; el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); } while (el < 0.03);
        best = std::min(best, el / reps);
    }
    return best;
}
int main(int argc, char **argv) {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    Target tgt(getenv("TGT"));
    std::vector<std::string> forms(argv + 1, argv + argc);
    std::map<int, double> canon;
    for (auto &s : forms) {
        P d = make(s, true), r = make(s, false);
        auto t0 = std::chrono::steady_clock::now();
        d.p.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
        d.p.compile_jit(tgt);
        r.p.compile_jit(tgt);
        double ct = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("%-14s sched+jit %.1fs:", s.c_str(), ct);
        for (int t : {1, 2, 8, 64, 128}) {
            auto in = d.sizes(t);
            std::vector<Buffer<>> bufs;
            for (size_t i = 0; i < d.in.size(); i++) {
                Buffer<> b(d.in[i].type(), in[i]);
                if (b.type() == Float(64)) b.as<double>().for_each_element([&](const int *c) { b.as<double>()(c) = ((c[0] * 7 + (b.dimensions() > 1 ? c[1] : 0) * 3) % 11) * 0.1 - 0.5; });
                else b.as<float>().for_each_element([&](const int *c) { b.as<float>()(c) = ((c[0] * 7 + (b.dimensions() > 1 ? c[1] : 0) * 3) % 11) * 0.1f - 0.5f; });
                bufs.push_back(b);
                d.in[i].set(b); r.in[i].set(b);
            }
            d.T.set(t); r.T.set(t);
            Buffer<> o1(d.p.outputs()[0].output_types()[0], d.osz(t)), o2(o1.type(), d.osz(t));
            d.p.realize(o1, tgt); r.p.realize(o2, tgt);
            double err = 0;
            if (o1.type() == Float(64)) o1.as<double>().for_each_element([&](const int *c) { err = std::max(err, std::abs(o1.as<double>()(c) - o2.as<double>()(c))); });
            else o1.as<float>().for_each_element([&](const int *c) { err = std::max(err, (double)std::abs(o1.as<float>()(c) - o2.as<float>()(c))); });
            double tm = timeit([&] { d.p.realize(o1, tgt); });
            if (s == "canonical") canon[t] = tm;
            printf("  T=%d %.0fus%s%s", t, tm * 1e6, canon.count(t) ? (" (" + std::to_string(canon[t] / tm).substr(0, 4) + "x)").c_str() : "", err > 1e-2 ? " WRONG" : "");
            fflush(stdout);
        }
        printf("\n");
    }
}
