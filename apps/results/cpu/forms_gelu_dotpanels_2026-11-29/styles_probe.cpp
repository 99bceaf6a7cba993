// Probe: contraction styles not in the forms table, default options, correctness + GFLOP/s.
#include "Halide.h"
#include "plugin/Diet.h"
#include <chrono>
#include <cstdio>
#include <functional>
using namespace Halide;
struct P { std::string name; Func out; std::vector<ImageParam> in; std::function<std::vector<std::vector<int>>(int)> in_sizes; std::function<std::vector<int>(int)> out_size; std::function<double(int)> flops; Param<int> T{"T", 16, 1, 128}; };
template <typename F> P make(const std::string &name, bool sched, F build) { P p; p.name = name; build(p, sched); return p; }
const int K = 768, N = 2304, R = 16;
void dense_like(P &p, bool sched, Type t, std::function<Expr(ImageParam&, ImageParam&, RDom&, Var&, Var&)> body, Type acc) {
    ImageParam x(t, 2, "x"), w(t, 2, "w"); Var n("n"), m("m"); RDom k(0, K, "k");
    p.out = Func("y"); p.out(n, m) = body(x, w, k, n, m);
    p.in = {x, w}; p.in_sizes = [](int T) { return std::vector<std::vector<int>>{{K, R * T}, {K, N}}; };
    p.out_size = [](int T) { return std::vector<int>{N, R * T}; }; p.flops = [](int T) { return 2.0 * K * N * R * T; };
    if (sched) { x.set_estimates({{0, K}, {0, R * p.T}}); w.set_estimates({{0, K}, {0, N}}); p.out.set_estimates({{0, N}, {0, R * p.T}}); }
}
int main(int argc, char **argv) {
    Target tgt(getenv("TGT"));
    std::vector<std::function<P(bool)>> makers = {
        [](bool s) { return make("float32 dense, inline sum (reference)", s, [](P &p, bool s) { dense_like(p, s, Float(32), [](ImageParam &x, ImageParam &w, RDom &k, Var &n, Var &m) { return sum(x(k, m) * w(k, n)); }, Float(32)); }); },
        [](bool s) { return make("float64 dense", s, [](P &p, bool s) { dense_like(p, s, Float(64), [](ImageParam &x, ImageParam &w, RDom &k, Var &n, Var &m) { return sum(x(k, m) * w(k, n)); }, Float(64)); }); },
        [](bool s) { return make("uint16 x uint16 -> uint32", s, [](P &p, bool s) { dense_like(p, s, UInt(16), [](ImageParam &x, ImageParam &w, RDom &k, Var &n, Var &m) { return sum(cast<uint32_t>(x(k, m)) * cast<uint32_t>(w(k, n))); }, UInt(32)); }); },
        [](bool s) { return make("int8 weights dequantized in the sum", s, [](P &p, bool s) {
            ImageParam x(Float(32), 2, "x"), w(Int(8), 2, "w8"), sc(Float(32), 1, "scale"); Var n("n"), m("m"); RDom k(0, K, "k");
            p.out = Func("y"); p.out(n, m) = sum(x(k, m) * (cast<float>(w(k, n)) * sc(n)));
            p.in = {x, w, sc}; p.in_sizes = [](int T) { return std::vector<std::vector<int>>{{K, R * T}, {K, N}, {N}}; };
            p.out_size = [](int T) { return std::vector<int>{N, R * T}; }; p.flops = [](int T) { return 2.0 * K * N * R * T; };
            if (s) { x.set_estimates({{0, K}, {0, R * p.T}}); w.set_estimates({{0, K}, {0, N}}); sc.set_estimates({{0, N}}); p.out.set_estimates({{0, N}, {0, R * p.T}}); } }); },
        [](bool s) { return make("masked summand (select on a 0/1 mask)", s, [](P &p, bool s) {
            ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"), mk(UInt(8), 2, "mask"); Var n("n"), m("m"); RDom k(0, K, "k");
            p.out = Func("y"); p.out(n, m) = sum(select(mk(k, m) != 0, x(k, m), 0.f) * w(k, n));
            p.in = {x, w, mk}; p.in_sizes = [](int T) { return std::vector<std::vector<int>>{{K, R * T}, {K, N}, {K, R * T}}; };
            p.out_size = [](int T) { return std::vector<int>{N, R * T}; }; p.flops = [](int T) { return 2.0 * K * N * R * T; };
            if (s) { x.set_estimates({{0, K}, {0, R * p.T}}); w.set_estimates({{0, K}, {0, N}}); mk.set_estimates({{0, K}, {0, R * p.T}}); p.out.set_estimates({{0, N}, {0, R * p.T}}); } }); },
        [](bool s) { return make("causal scores (RDom-free, select epilogue)", s, [](P &p, bool s) {
            const int D = 64, H = 12; ImageParam q(Float(32), 3, "q"), kk(Float(32), 3, "k"); Var j("j"), i("i"), b("b"); RDom d(0, D, "d");
            Func sc("sc"); sc(j, i, b) = sum(q(d, i, b) * kk(d, j, b));
            p.out = Func("masked"); p.out(j, i, b) = select(j <= i, sc(j, i, b) * 0.125f, -1e30f);
            p.in = {q, kk}; p.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{D, T, H}, {D, T, H}}; };
            p.out_size = [=](int T) { return std::vector<int>{T, T, H}; }; p.flops = [=](int T) { return 2.0 * D * T * T * H; };
            if (s) { q.set_estimates({{0, D}, {0, p.T}, {0, H}}); kk.set_estimates({{0, D}, {0, p.T}, {0, H}}); p.out.set_estimates({{0, p.T}, {0, p.T}, {0, H}}); } }); },
        [](bool s) { return make("triangular: RDom.where(k <= m)", s, [](P &p, bool s) {
            ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); Var n("n"), m("m"); RDom k(0, K, "k"); k.where(k <= m);
            p.out = Func("y"); p.out(n, m) = 0.f; p.out(n, m) += x(k, m) * w(k, n);
            p.in = {x, w}; p.in_sizes = [](int T) { return std::vector<std::vector<int>>{{K, R * T}, {K, N}}; };
            p.out_size = [](int T) { return std::vector<int>{N, R * T}; }; p.flops = [](int T) { return 2.0 * K * N * R * T; };
            if (s) { x.set_estimates({{0, K}, {0, R * p.T}}); w.set_estimates({{0, K}, {0, N}}); p.out.set_estimates({{0, N}, {0, R * p.T}}); } }); },
        [](bool s) { return make("tensor contraction over two non-adjacent RVars", s, [](P &p, bool s) {
            const int C = 48, H = 16; ImageParam a(Float(32), 3, "a"), bb(Float(32), 3, "b"); Var n("n"), m("m"); RDom r(0, C, 0, H, "r");
            p.out = Func("y"); p.out(n, m) = sum(a(r.x, m, r.y) * bb(r.x, r.y, n));
            p.in = {a, bb}; p.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{C, R * T, H}, {C, H, N}}; };
            p.out_size = [](int T) { return std::vector<int>{N, R * T}; }; p.flops = [=](int T) { return 2.0 * C * H * N * R * T; };
            if (s) { a.set_estimates({{0, C}, {0, R * p.T}, {0, H}}); bb.set_estimates({{0, C}, {0, H}, {0, N}}); p.out.set_estimates({{0, N}, {0, R * p.T}}); } }); },
        [](bool s) { return make("batch in the middle: out(j, b, i)", s, [](P &p, bool s) {
            const int D = 64, H = 12; ImageParam q(Float(32), 3, "q"), kk(Float(32), 3, "k"); Var j("j"), i("i"), b("b"); RDom d(0, D, "d");
            p.out = Func("s"); p.out(j, b, i) = sum(q(d, b, i) * kk(d, b, j));
            p.in = {q, kk}; p.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{D, H, T}, {D, H, T}}; };
            p.out_size = [=](int T) { return std::vector<int>{T, H, T}; }; p.flops = [=](int T) { return 2.0 * D * T * T * H; };
            if (s) { q.set_estimates({{0, D}, {0, H}, {0, p.T}}); kk.set_estimates({{0, D}, {0, H}, {0, p.T}}); p.out.set_estimates({{0, p.T}, {0, H}, {0, p.T}}); } }); },
    };
    int only = argc > 1 ? atoi(argv[1]) : -1;
    for (size_t idx = 0; idx < makers.size(); idx++) {
        if (only >= 0 && (int)idx != only) continue;
        P d = makers[idx](true), r = makers[idx](false);
        fprintf(stderr, "=== %s\n", d.name.c_str());
        diet::autoschedule(Pipeline(d.out), tgt, 2, 0, diet::Options{});
        d.out.compile_jit(tgt);
        printf("%s\n", d.name.c_str());
        for (int T : {1, 7, 16, 128}) {
            std::vector<Buffer<>> bufs;
            auto sz = d.in_sizes(T);
            for (size_t i = 0; i < d.in.size(); i++) {
                Buffer<> b(d.in[i].type(), sz[i]); uint32_t st = 17 + i;
                auto nx = [&] { st = st * 1103515245u + 12345u; return (st >> 9) % 1000; };
                Type ty = d.in[i].type();
                if (ty == Float(32)) b.as<float>().for_each_value([&](float &v) { v = nx() / 500.f - 1; });
                else if (ty == Float(64)) b.as<double>().for_each_value([&](double &v) { v = nx() / 500.0 - 1; });
                else if (ty == UInt(16)) b.as<uint16_t>().for_each_value([&](uint16_t &v) { v = (uint16_t)(nx() * 65 + 7); });
                else if (ty == UInt(8)) b.as<uint8_t>().for_each_value([&](uint8_t &v) { v = nx() % 2; });
                else if (ty == Int(8)) b.as<int8_t>().for_each_value([&](int8_t &v) { v = (int)(nx() % 255) - 127; });
                d.in[i].set(b); r.in[i].set(b);
            }
            d.T.set(T); r.T.set(T);
            Buffer<> got = d.out.realize(d.out_size(T), tgt);
            Buffer<> want = r.out.realize(d.out_size(T), tgt);
            double err = 0, peak = 0;
            Type ot = got.type();
            want.for_each_element([&](const int *pos) {
                double a = ot == Float(32) ? got.as<float>()(pos) : ot == Float(64) ? got.as<double>()(pos) : (double)got.as<uint32_t>()(pos);
                double e = ot == Float(32) ? want.as<float>()(pos) : ot == Float(64) ? want.as<double>()(pos) : (double)want.as<uint32_t>()(pos);
                if (e > -1e29) { peak = std::max(peak, std::abs(e)); err = std::max(err, std::abs(a - e)); }
            });
            double best = 1e9;
            for (int rep = 0; rep < 5; rep++) {
                auto t0 = std::chrono::steady_clock::now(); int n = 0; double el = 0;
                do { d.out.realize(got); n++; el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); } while (el < 0.05);
                best = std::min(best, el / n);
            }
            printf("  T=%3d %9.3f ms %7.1f GFLOP/s  rel.err %.1e %s\n", T, best * 1e3, d.flops(T) / best * 1e-9, err / std::max(1.0, peak), err <= 1e-4 * std::max(1.0, peak) ? "ok" : "WRONG");
        }
        fflush(stdout);
    }
}
