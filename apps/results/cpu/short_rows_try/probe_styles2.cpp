// Probe: pipelines in styles not in the forms table, several shape variables. Each scheduled by
// Diet (defaults), checked against the same algorithm unscheduled, at shapes in and outside range.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
using namespace Halide;
struct Inst {
    std::vector<Func> outs;
    std::vector<ImageParam> ins;
    std::vector<Param<int>> ps;
    std::function<std::vector<std::vector<int>>(std::vector<int>)> in_sizes, out_sizes;
};
using Builder = std::function<Inst()>;
static Target tgt;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

Buffer<> make_in(Type t, std::vector<int> sz, int seed) {
    Buffer<> b(t, sz);
    std::mt19937 g(seed);
    if (t == Float(32)) { Buffer<float> f(b); f.for_each_value([&](float &v) { v = (g() % 2001) / 1000.0f - 1.0f; }); }
    else if (t == UInt(8)) { Buffer<uint8_t> f(b); f.for_each_value([&](uint8_t &v) { v = g() % 256; }); }
    else if (t == Int(8)) { Buffer<int8_t> f(b); f.for_each_value([&](int8_t &v) { v = (int)(g() % 256) - 128; }); }
    return b;
}
void run(const char *name, Builder build, std::vector<std::vector<int>> shapes, int time_idx = -1) {
    printf("== %s\n", name); fflush(stdout);
    if (getenv("ONLY_T")) shapes = {{atoi(getenv("ONLY_T"))}};
    if (getenv("TS")) { shapes.clear(); std::string t = getenv("TS"); size_t p = 0; while (p < t.size()) { size_t q = t.find(',', p); if (q == std::string::npos) q = t.size(); shapes.push_back({atoi(t.substr(p, q - p).c_str())}); p = q + 1; } }
    try {
        Inst s = build(), r = build();
        // The reference runs unscheduled; codegen embeds constant estimates only.
        for (auto &f : r.outs) { Region rg(f.dimensions(), Range(0, 1)); f.set_estimates(rg); }
        for (auto &p : r.ins) { Region rg(p.dimensions(), Range(0, 1)); p.set_estimates(rg); }
        Pipeline ps(s.outs), pr(r.outs);
        double t0 = now();
        ps.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
        if (getenv("STMT")) {
            std::vector<Argument> args;
            for (auto &i : s.ins) args.push_back(i); for (auto &p : s.ps) args.push_back(p);
            ps.compile_to_lowered_stmt(std::string("/tmp/p2/") + name + ".stmt", args, Text, tgt);
            if (getenv("AOT")) ps.compile_to_static_library(std::string("/tmp/p2/") + name, args, name, tgt);
        }
        Target ptgt = getenv("PROFILE") ? tgt.with_feature(Target::Profile) : tgt;
        ps.compile_jit(ptgt);
        double t1 = now();
        pr.compile_jit(tgt);
        printf("  scheduled+jit %.1fs\n", t1 - t0);
        for (auto &vals : shapes) {
            for (size_t i = 0; i < vals.size(); i++) { s.ps[i].set(vals[i]); r.ps[i].set(vals[i]); }
            auto isz = s.in_sizes(vals);
            for (size_t i = 0; i < s.ins.size(); i++) { auto b = make_in(s.ins[i].type(), isz[i], 17 + i); s.ins[i].set(b); r.ins[i].set(b); }
            auto osz = s.out_sizes(vals);
            std::vector<Buffer<>> os, orf;
            for (size_t i = 0; i < s.outs.size(); i++) { os.emplace_back(s.outs[i].output_types()[0], osz[i]); orf.emplace_back(s.outs[i].output_types()[0], osz[i]); }
            std::string sh; for (int v : vals) sh += std::to_string(v) + " ";
            try {
                Realization ros(os), ror(orf);
                ps.realize(ros, ptgt); pr.realize(ror, tgt);
                double err = 0, mag = 0;
                for (size_t i = 0; i < os.size(); i++) {
                    Buffer<float> a(os[i]), b(orf[i]);
                    a.for_each_element([&](const int *pos) { err = std::max(err, (double)std::abs(a(pos) - b(pos))); mag = std::max(mag, (double)std::abs(b(pos))); });
                }
                double ts = 0, tr = 0;
                if (time_idx >= 0) {
                    auto tm = [&](Pipeline &p, Realization &rr) { double best = 1e9; int reps = getenv("REPS") ? atoi(getenv("REPS")) : 5; for (int k = 0; k < reps; k++) { double a = now(); p.realize(rr, &p == &ps ? ptgt : tgt); best = std::min(best, now() - a); } return best; };
                    if (getenv("PROFILE")) { for (int k = 0; k < 300; k++) ps.realize(ros, ptgt); } ts = tm(ps, ros); tr = getenv("NOREF") ? 0.0 : tm(pr, ror);
                }
                printf("  [%s] max err %.3g (max |ref| %.3g)%s", sh.c_str(), err, mag, err > 1e-3 * std::max(1.0, mag) ? "  WRONG" : "");
                if (time_idx >= 0) printf("  diet %.3f ms, unscheduled %.3f ms", ts * 1e3, tr * 1e3);
                printf("\n");
            } catch (std::exception &e) { printf("  [%s] ERROR %s\n", sh.c_str(), e.what()); }
            fflush(stdout);
        }
    } catch (std::exception &e) { printf("  FAILED %s\n", e.what()); }
}
int main(int argc, char **argv) {
    load_plugin(getenv("DIET_PLUGIN") ? getenv("DIET_PLUGIN") : "/work/main/build/libautoschedule_diet.so");
    tgt = Target(getenv("TGT"));
    std::string only = argc > 1 ? argv[1] : "";
    auto want = [&](const char *n) { return only.empty() || only == n; };
    Var x("x"), y("y"), z("z"), w("w"), n("n"), m("m"), i("i"), j("j"), b("b"), d("d"), h("h"), c("c");

    if (want("tt_two_vars")) run("tt_two_vars", [&] {
        Param<int> T("T"), S("S"); T.set_range(1, 64); T.set_estimate(16); S.set_range(16, 256); S.set_estimate(128);
        ImageParam a(Float(32), 2, "a"), bb(Float(32), 2, "b");
        RDom k(0, 64, "k"); Func yy("yy");
        yy(n, m) = sum(a(m, k) * bb(k, n));
        yy.set_estimates({{0, S}, {0, T * 4}}); a.set_estimates({{0, T * 4}, {0, 64}}); bb.set_estimates({{0, 64}, {0, S}});
        return Inst{{yy}, {a, bb}, {T, S}, [](auto v) { return std::vector<std::vector<int>>{{v[0] * 4, 64}, {64, v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[1], v[0] * 4}}; }};
    }, {{1, 16}, {3, 100}, {16, 128}, {64, 256}, {70, 300}, {2, 17}}, 0);

    if (want("bmm_transposed_q")) run("bmm_transposed_q", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
        ImageParam q(Float(32), 3, "q"), kk(Float(32), 3, "k");
        RDom r(0, 64, "r"); Func s("s");
        s(j, i, b) = sum(q(i, r, b) * kk(r, j, b));
        s.set_estimates({{0, T}, {0, T}, {0, 12}}); q.set_estimates({{0, T}, {0, 64}, {0, 12}}); kk.set_estimates({{0, 64}, {0, T}, {0, 12}});
        return Inst{{s}, {q, kk}, {T}, [](auto v) { return std::vector<std::vector<int>>{{v[0], 64, 12}, {64, v[0], 12}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[0], 12}}; }};
    }, {{1}, {2}, {7}, {64}, {128}, {130}}, 0);

    if (want("softmax_two_vars")) run("softmax_two_vars", [&] {
        Param<int> C("C"), R("R"); C.set_range(1, 512); C.set_estimate(128); R.set_range(1, 64); R.set_estimate(16);
        ImageParam xin(Float(32), 2, "x");
        RDom rc(0, C, "rc"); Func mx("mx"), e("e"), sm("sm"), out("out");
        mx(y) = maximum(xin(rc, y)); e(x, y) = exp(xin(x, y) - mx(y)); sm(y) = sum(e(rc, y)); out(x, y) = e(x, y) / sm(y);
        out.set_estimates({{0, C}, {0, R}}); xin.set_estimates({{0, C}, {0, R}});
        return Inst{{out}, {xin}, {C, R}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }};
    }, {{1, 1}, {3, 5}, {128, 16}, {512, 64}, {600, 3}, {17, 63}}, 2);

    if (want("gemv")) run("gemv", [&] {
        Param<int> K("K"), M("M"); K.set_range(1, 1024); K.set_estimate(512); M.set_range(1, 1024); M.set_estimate(512);
        ImageParam A(Float(32), 2, "A"), v(Float(32), 1, "v");
        RDom k(0, K, "k"); Func out("out");
        out(m) = sum(A(k, m) * v(k));
        out.set_estimates({{0, M}}); A.set_estimates({{0, K}, {0, M}}); v.set_estimates({{0, K}});
        return Inst{{out}, {A, v}, {K, M}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}, {v[0]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[1]}}; }};
    }, {{1, 1}, {3, 1000}, {512, 512}, {1024, 1024}, {1100, 7}}, 3);

    if (want("dense_dynamic_k")) run("dense_dynamic_k", [&] {
        Param<int> T("T"), S("S"); T.set_range(1, 128); T.set_estimate(32); S.set_range(1, 64); S.set_estimate(32);
        ImageParam xx(Float(32), 2, "x"), ww(Float(32), 2, "w");
        RDom k(0, S * 8, "k"); Func out("out");
        out(n, m) = sum(xx(k, m) * ww(k, n));
        out.set_estimates({{0, 256}, {0, T}}); xx.set_estimates({{0, S * 8}, {0, T}}); ww.set_estimates({{0, S * 8}, {0, 256}});
        return Inst{{out}, {xx, ww}, {T, S}, [](auto v) { return std::vector<std::vector<int>>{{v[1] * 8, v[0]}, {v[1] * 8, 256}}; }, [](auto v) { return std::vector<std::vector<int>>{{256, v[0]}}; }};
    }, {{1, 1}, {5, 3}, {32, 32}, {128, 64}, {130, 65}}, 3);

    if (want("conv1d")) run("conv1d", [&] {
        Param<int> T("T"); T.set_range(1, 256); T.set_estimate(128);
        ImageParam in(Float(32), 2, "in"), wt(Float(32), 3, "wt");
        RDom r(0, 3, 0, 32, "r"); Func out("out");
        out(x, c) = sum(in(x + r.x, r.y) * wt(r.x, r.y, c));
        out.set_estimates({{0, T}, {0, 64}}); in.set_estimates({{0, T + 2}, {0, 32}}); wt.set_estimates({{0, 3}, {0, 32}, {0, 64}});
        return Inst{{out}, {in, wt}, {T}, [](auto v) { return std::vector<std::vector<int>>{{v[0] + 2, 32}, {3, 32, 64}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], 64}}; }};
    }, {{1}, {2}, {100}, {256}, {300}}, 3);

    if (want("bmm_two_batch")) run("bmm_two_batch", [&] {
        Param<int> T("T"), B("B"); T.set_range(1, 128); T.set_estimate(32); B.set_range(1, 8); B.set_estimate(4);
        ImageParam q(Float(32), 4, "q"), kk(Float(32), 4, "k");
        RDom r(0, 32, "r"); Func s("s");
        s(j, i, h, b) = sum(q(r, i, h, b) * kk(r, j, h, b));
        s.set_estimates({{0, T}, {0, T}, {0, 4}, {0, B}}); q.set_estimates({{0, 32}, {0, T}, {0, 4}, {0, B}}); kk.set_estimates({{0, 32}, {0, T}, {0, 4}, {0, B}});
        return Inst{{s}, {q, kk}, {T, B}, [](auto v) { return std::vector<std::vector<int>>{{32, v[0], 4, v[1]}, {32, v[0], 4, v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[0], 4, v[1]}}; }};
    }, {{1, 1}, {3, 2}, {32, 4}, {128, 8}, {129, 9}}, 3);

    if (want("causal_context")) run("causal_context", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
        ImageParam p(Float(32), 3, "p"), v(Float(32), 3, "v");
        RDom r(0, T, "r"); r.where(r.x <= i); Func o("o");
        o(d, i, h) = sum(p(r, i, h) * v(d, r, h));
        o.set_estimates({{0, 64}, {0, T}, {0, 12}}); p.set_estimates({{0, T}, {0, T}, {0, 12}}); v.set_estimates({{0, 64}, {0, T}, {0, 12}});
        return Inst{{o}, {p, v}, {T}, [](auto vv) { return std::vector<std::vector<int>>{{vv[0], vv[0], 12}, {64, vv[0], 12}}; }, [](auto vv) { return std::vector<std::vector<int>>{{64, vv[0], 12}}; }};
    }, {{1}, {2}, {33}, {128}, {140}}, 3);

    if (want("layernorm_two_vars")) run("layernorm_two_vars", [&] {
        Param<int> C("C"), R("R"); C.set_range(1, 1024); C.set_estimate(768); R.set_range(1, 256); R.set_estimate(64);
        ImageParam xin(Float(32), 2, "x");
        RDom rc(0, C, "rc"); Func mean("mean"), var("var"), out("out");
        mean(y) = sum(xin(rc, y)) / cast<float>(C);
        var(y) = sum(pow(xin(rc, y) - mean(y), 2)) / cast<float>(C);
        out(x, y) = (xin(x, y) - mean(y)) / sqrt(var(y) + 1e-5f);
        out.set_estimates({{0, C}, {0, R}}); xin.set_estimates({{0, C}, {0, R}});
        return Inst{{out}, {xin}, {C, R}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }};
    }, {{1, 1}, {768, 64}, {1024, 256}, {5, 300}}, 2);

    if (want("histogram")) run("histogram", [&] {
        Param<int> W("W"), H("H"); W.set_range(1, 1024); W.set_estimate(512); H.set_range(1, 1024); H.set_estimate(512);
        ImageParam in(Float(32), 2, "in");
        RDom r(0, W, 0, H, "r"); Func hist("hist"), out("out");
        hist(x) = 0;
        hist(clamp(cast<int>((in(r.x, r.y) + 1.0f) * 8.0f), 0, 15)) += 1;
        out(x) = cast<float>(hist(x));
        out.set_estimates({{0, 16}}); in.set_estimates({{0, W}, {0, H}});
        return Inst{{out}, {in}, {W, H}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{16}}; }};
    }, {{1, 1}, {512, 512}, {1024, 3}, {1100, 1100}}, 0);

    if (want("prefix_sum")) run("prefix_sum", [&] {
        Param<int> W("W"), R("R"); W.set_range(2, 2048); W.set_estimate(1024); R.set_range(1, 256); R.set_estimate(64);
        ImageParam in(Float(32), 2, "in");
        RDom r(1, W - 1, "r"); Func cs("cs");
        cs(x, y) = in(x, y);
        cs(r, y) = cs(r - 1, y) + in(r, y);
        cs.set_estimates({{0, W}, {0, R}}); in.set_estimates({{0, W}, {0, R}});
        return Inst{{cs}, {in}, {W, R}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }};
    }, {{2, 1}, {1024, 64}, {2048, 256}, {3000, 2}}, 0);

    if (want("outer_product")) run("outer_product", [&] {
        Param<int> M("M"), N("N"); M.set_range(1, 1024); M.set_estimate(256); N.set_range(1, 1024); N.set_estimate(256);
        ImageParam a(Float(32), 1, "a"), bb(Float(32), 1, "b");
        Func out("out"); out(i, j) = a(i) * bb(j) + 1.0f;
        out.set_estimates({{0, M}, {0, N}}); a.set_estimates({{0, M}}); bb.set_estimates({{0, N}});
        return Inst{{out}, {a, bb}, {M, N}, [](auto v) { return std::vector<std::vector<int>>{{v[0]}, {v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }};
    }, {{1, 1}, {256, 256}, {1024, 3}, {1100, 1100}}, 2);

    if (want("argmax_rows")) run("argmax_rows", [&] {
        Param<int> C("C"), R("R"); C.set_range(1, 1024); C.set_estimate(512); R.set_range(1, 256); R.set_estimate(64);
        ImageParam xin(Float(32), 2, "x");
        RDom rc(0, C, "rc"); Func out("out");
        out(y) = cast<float>(argmax(xin(rc, y))[0]);
        out.set_estimates({{0, R}}); xin.set_estimates({{0, C}, {0, R}});
        return Inst{{out}, {xin}, {C, R}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[1]}}; }};
    }, {{1, 1}, {512, 64}, {1024, 256}, {7, 300}}, 0);

    if (want("maxpool")) run("maxpool", [&] {
        Param<int> W("W"), H("H"); W.set_range(1, 512); W.set_estimate(256); H.set_range(1, 512); H.set_estimate(256);
        ImageParam in(Float(32), 3, "in");
        RDom r(0, 2, 0, 2, "r"); Func out("out");
        out(x, y, c) = maximum(in(2 * x + r.x, 2 * y + r.y, c));
        out.set_estimates({{0, W}, {0, H}, {0, 32}}); in.set_estimates({{0, 2 * W}, {0, 2 * H}, {0, 32}});
        return Inst{{out}, {in}, {W, H}, [](auto v) { return std::vector<std::vector<int>>{{2 * v[0], 2 * v[1], 32}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1], 32}}; }};
    }, {{1, 1}, {256, 256}, {512, 3}, {600, 600}}, 2);

    if (want("dequant_dense")) run("dequant_dense", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(32);
        ImageParam xx(Float(32), 2, "x"), wq(Int(8), 2, "wq"), sc(Float(32), 1, "scale");
        RDom k(0, 768, "k"); Func out("out");
        out(n, m) = sum(xx(k, m) * cast<float>(wq(k, n))) * sc(n);
        out.set_estimates({{0, 768}, {0, T}}); xx.set_estimates({{0, 768}, {0, T}}); wq.set_estimates({{0, 768}, {0, 768}}); sc.set_estimates({{0, 768}});
        return Inst{{out}, {xx, wq, sc}, {T}, [](auto v) { return std::vector<std::vector<int>>{{768, v[0]}, {768, 768}, {768}}; }, [](auto v) { return std::vector<std::vector<int>>{{768, v[0]}}; }};
    }, {{1}, {2}, {32}, {128}, {140}}, 3);

    if (want("bmm_numpy_order")) run("bmm_numpy_order", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
        ImageParam a(Float(32), 3, "a"), bb(Float(32), 3, "b");
        RDom k(0, 64, "k"); Func cc("c");
        cc(b, i, j) = sum(a(b, i, k) * bb(b, k, j));
        cc.set_estimates({{0, 12}, {0, T}, {0, 64}}); a.set_estimates({{0, 12}, {0, T}, {0, 64}}); bb.set_estimates({{0, 12}, {0, 64}, {0, 64}});
        return Inst{{cc}, {a, bb}, {T}, [](auto v) { return std::vector<std::vector<int>>{{12, v[0], 64}, {12, 64, 64}}; }, [](auto v) { return std::vector<std::vector<int>>{{12, v[0], 64}}; }};
    }, {{1}, {2}, {64}, {128}, {140}}, 3);

    if (want("bmm_nn_canonical")) run("bmm_nn_canonical", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
        ImageParam a(Float(32), 3, "a"), bb(Float(32), 3, "b");
        RDom k(0, 64, "k"); Func cc("c");
        cc(j, i, b) = sum(a(k, i, b) * bb(j, k, b));
        cc.set_estimates({{0, 64}, {0, T}, {0, 12}}); a.set_estimates({{0, 64}, {0, T}, {0, 12}}); bb.set_estimates({{0, 64}, {0, 64}, {0, 12}});
        return Inst{{cc}, {a, bb}, {T}, [](auto v) { return std::vector<std::vector<int>>{{64, v[0], 12}, {64, 64, 12}}; }, [](auto v) { return std::vector<std::vector<int>>{{64, v[0], 12}}; }};
    }, {{1}, {2}, {8}, {64}, {128}}, 3);

    if (want("bmm_numpy_order2")) run("bmm_numpy_order2", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
        ImageParam a(Float(32), 3, "a"), bb(Float(32), 3, "b");
        RDom k(0, 64, "k"); Func cc("c");
        cc(b, i, j) = sum(a(b, i, k) * bb(b, k, j));
        cc.set_estimates({{0, 12}, {0, T}, {0, 64}}); a.set_estimates({{0, 12}, {0, T}, {0, 64}}); bb.set_estimates({{0, 12}, {0, 64}, {0, 64}});
        return Inst{{cc}, {a, bb}, {T}, [](auto v) { return std::vector<std::vector<int>>{{12, v[0], 64}, {12, 64, 64}}; }, [](auto v) { return std::vector<std::vector<int>>{{12, v[0], 64}}; }};
    }, {{1}, {2}, {8}, {64}, {128}}, 3);

    if (want("bmm_nt_canonical")) run("bmm_nt_canonical", [&] {
        Param<int> T("T"); T.set_range(1, 128); T.set_estimate(64);
        ImageParam q(Float(32), 3, "q"), kk(Float(32), 3, "k");
        RDom r(0, 64, "r"); Func s("s");
        s(j, i, b) = sum(q(r, i, b) * kk(r, j, b));
        s.set_estimates({{0, T}, {0, T}, {0, 12}}); q.set_estimates({{0, 64}, {0, T}, {0, 12}}); kk.set_estimates({{0, 64}, {0, T}, {0, 12}});
        return Inst{{s}, {q, kk}, {T}, [](auto v) { return std::vector<std::vector<int>>{{64, v[0], 12}, {64, v[0], 12}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[0], 12}}; }};
    }, {{1}, {2}, {7}, {64}, {128}}, 3);

    if (want("gemv_small")) run("gemv_small", [&] {
        Param<int> K("K"), M("M"); K.set_range(1, 1024); K.set_estimate(512); M.set_range(1, 1024); M.set_estimate(512);
        ImageParam A(Float(32), 2, "A"), v(Float(32), 1, "v");
        RDom k(0, K, "k"); Func out("out");
        out(m) = sum(A(k, m) * v(k));
        out.set_estimates({{0, M}}); A.set_estimates({{0, K}, {0, M}}); v.set_estimates({{0, K}});
        return Inst{{out}, {A, v}, {K, M}, [](auto v) { return std::vector<std::vector<int>>{{v[0], v[1]}, {v[0]}}; }, [](auto v) { return std::vector<std::vector<int>>{{v[1]}}; }};
    }, {{3, 1000}, {16, 1000}, {64, 64}, {1000, 3}, {256, 1024}, {1024, 256}}, 3);
}
