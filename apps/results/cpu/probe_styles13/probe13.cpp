// Probe 13: layers with TWO independent shape variables, written in other people's styles. Every
// earlier probe tied all extents to one variable; here S and U are separate run-time Params with
// their own ranges, and the shapes tried include both extremes of each (tall/thin, wide/flat).
// Layers: a dense layer over batch x sequence, cross-attention scores (queries and keys of
// different lengths), a GEMM with M and N free, a separable 3x3 box blur on uint16 (blur_x/blur_y
// Funcs, repeat_edge), a 2x2 average downsample of planar RGB, a 1x1 convolution over NHWC, a
// running sum along each row (a scan RDom), a 2x2 max pool, a transpose with scale, columns
// normalized by their sums, a bilinear 2x upsample, and Sobel magnitude of interleaved RGB.
// Each is scheduled by Diet (defaults, estimates in terms of S and U), by Adams2019 (constant
// estimates: what a user would pick instead; run only at the estimate) and with every Func at
// root ("plain", the reference), checked against the reference and timed (min of 10 calls).
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
using namespace Halide;
static Target tgt;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
using Sizes = std::vector<std::vector<int>>;
struct Inst {
    Func out;
    std::vector<ImageParam> ins;
    Param<int> S{"S"}, U{"U"};
    std::function<Sizes(int, int)> in_sizes;
    std::function<std::vector<int>(int, int)> out_size;
};
using Builder = std::function<Inst(bool sym)>;
static Buffer<> rnd(Type t, std::vector<int> sz, int seed) {
    Buffer<> b(t, sz);
    std::mt19937 g(seed);
    if (t == UInt(8)) b.as<uint8_t>().for_each_value([&](uint8_t &v) { v = g() % 256; });
    else if (t == UInt(16)) b.as<uint16_t>().for_each_value([&](uint16_t &v) { v = g() % 4096; });
    else if (t == Int(32)) b.as<int32_t>().for_each_value([&](int32_t &v) { v = g() % 1000; });
    else b.as<float>().for_each_value([&](float &v) { v = (int(g() % 2001) - 1000) / 1000.0f; });
    return b;
}
static double value(const Buffer<> &b, const int *pos) {
    if (b.type() == UInt(8)) return b.as<uint8_t>()(pos);
    if (b.type() == UInt(16)) return b.as<uint16_t>()(pos);
    if (b.type() == Int(32)) return b.as<int32_t>()(pos);
    return b.as<float>()(pos);
}
static double time_at(Inst &s, Pipeline &p, int sv, int uv, Buffer<> &o, std::vector<Buffer<>> &in) {
    s.S.set(sv);
    s.U.set(uv);
    for (size_t i = 0; i < s.ins.size(); i++) s.ins[i].set(in[i]);
    o = Buffer<>(s.out.output_types()[0], s.out_size(sv, uv));
    p.realize(o, tgt);
    double best = 1e9;
    for (int k = 0; k < 10; k++) {
        double a = now();
        p.realize(o, tgt);
        best = std::min(best, now() - a);
    }
    return best;
}
static void probe(const char *name, Builder f, std::vector<std::pair<int, int>> shapes, std::pair<int, int> est) {
    printf("== %s\n", name);
    fflush(stdout);
    try {
        Inst d = f(true), a = f(false), r = f(false);
        for (auto &kv : Internal::find_transitive_calls(r.out.function())) {
            if (kv.first != r.out.name()) Func(kv.second).compute_root();
        }
        Pipeline pd(d.out), pa(a.out), pr(r.out);
        double t0 = now();
        pd.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
        double t1 = now();
        bool adams = !getenv("NOADAMS");
        if (adams) {
            AutoSchedulerResults ar = pa.auto_schedule("Adams2019", tgt, MachineParams(2, 1 << 20, 40));
            if (getenv("ADAMS_SRC")) fprintf(stderr, "%s\n", ar.schedule_source.c_str());
        }
        double t2 = now();
        if (getenv("STMT")) pd.compile_to_lowered_stmt(std::string(getenv("STMT")) + "_" + name + ".stmt", pd.infer_arguments(), Halide::Text, tgt);
        double t3 = now();
        pd.compile_jit(tgt);
        printf("  compile: diet %.2f s\n", now() - t3);
        if (adams) pa.compile_jit(tgt);
        pr.compile_jit(tgt);
        printf("  schedule: diet %.2f s, adams2019 %.2f s\n", t1 - t0, t2 - t1);
        for (auto [sv, uv] : shapes) {
            std::vector<Buffer<>> in;
            auto isz = d.in_sizes(sv, uv);
            for (size_t i = 0; i < isz.size(); i++) in.push_back(rnd(d.ins[i].type(), isz[i], 17 + i));
            Buffer<> od, oa, orf;
            double tr = time_at(r, pr, sv, uv, orf, in), td = -1, ta = -1;
            std::string ed, ea;
            try { td = time_at(d, pd, sv, uv, od, in); } catch (std::exception &e) { ed = e.what(); }
            if (adams && sv == est.first && uv == est.second) try { ta = time_at(a, pa, sv, uv, oa, in); } catch (std::exception &e) { ea = e.what(); }
            double err = 0, erra = 0, mag = 0;
            orf.for_each_element([&](const int *pos) {
                if (td > 0) err = std::max(err, std::abs(value(od, pos) - value(orf, pos)));
                if (ta > 0) erra = std::max(erra, std::abs(value(oa, pos) - value(orf, pos)));
                mag = std::max(mag, std::abs(value(orf, pos)));
            });
            double tol = orf.type().is_float() ? 1e-3 * std::max(1.0, mag) : 1.0;
            printf("  S=%4d U=%4d diet %9.4f ms%s  adams %9.4f ms%s  plain %9.4f ms  adams/diet %5.2f  plain/diet %5.2f\n", sv, uv,
                   td * 1e3, td < 0 ? " FAILED" : err > tol ? " WRONG" : "", ta * 1e3,
                   ta < 0 ? "" : erra > tol ? " WRONG" : "", tr * 1e3, ta > 0 ? ta / td : -1.0, tr / td);
            if (!ed.empty()) printf("    diet: %s\n", ed.c_str());
            if (!ea.empty()) printf("    adams: %s\n", ea.substr(0, 160).c_str());
            fflush(stdout);
        }
    } catch (std::exception &e) { printf("  FAILED %s\n", e.what()); }
}
int main(int argc, char **argv) {
    load_plugin(getenv("DIET_LIB") ? getenv("DIET_LIB") : "/work/main/build/libautoschedule_diet.so");
    load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so");
    tgt = Target(getenv("TGT"));
    std::string only = argc > 1 ? argv[1] : "";
    auto want = [&](const char *n) { return only.empty() || only == n; };
    Var x("x"), y("y"), c("c"), t("t"), i("i"), j("j"), b("b"), n("n"), m("m"), h("h"), o("o");
    auto range = [](Param<int> &p, int lo, int hi, int est) { p.set_range(lo, hi); p.set_estimate(est); };
    auto E = [](Param<int> &p, bool sym, int est) { return sym ? Expr(p) : Expr(est); };

    // 1. Dense over batch x sequence: y(o, t, b) = bias(o) + sum_c x(c, t, b) w(c, o). S = T, U = B.
    if (want("dense_bt")) probe("dense_bt", [&](bool sym) {
        Inst s; range(s.S, 1, 128, 64); range(s.U, 1, 16, 4);
        const int C = 768, O = 768;
        ImageParam xin(Float(32), 3, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        Func f("dense_bt");
        RDom r(0, C, "r");
        f(o, t, b) = bias(o) + sum(xin(r, t, b) * w(r, o));
        xin.dim(0).set_estimate(0, C).dim(1).set_estimate(0, E(s.S, sym, 64)).dim(2).set_estimate(0, E(s.U, sym, 4));
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, O); bias.dim(0).set_estimate(0, O);
        f.set_estimate(o, 0, O).set_estimate(t, 0, E(s.S, sym, 64)).set_estimate(b, 0, E(s.U, sym, 4));
        s.out = f; s.ins = {xin, w, bias};
        s.in_sizes = [=](int T, int B) { return Sizes{{C, T, B}, {C, O}, {O}}; };
        s.out_size = [=](int T, int B) { return std::vector<int>{O, T, B}; };
        return s; }, {{1, 1}, {128, 1}, {1, 16}, {77, 3}, {64, 4}, {128, 16}}, {64, 4});
    // 1b. The same dense layer with the batch and sequence as one dimension (one shape variable; for comparison).
    if (want("dense_rows")) probe("dense_rows", [&](bool sym) {
        Inst s; range(s.S, 1, 2048, 256); range(s.U, 1, 1, 1);
        const int C = 768, O = 768;
        ImageParam xin(Float(32), 2, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        Func f("dense_rows");
        RDom r(0, C, "r");
        f(o, t) = bias(o) + sum(xin(r, t) * w(r, o));
        xin.dim(0).set_estimate(0, C).dim(1).set_estimate(0, E(s.S, sym, 256));
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, O); bias.dim(0).set_estimate(0, O);
        f.set_estimate(o, 0, O).set_estimate(t, 0, E(s.S, sym, 256));
        s.out = f; s.ins = {xin, w, bias};
        s.in_sizes = [=](int T, int) { return Sizes{{C, T}, {C, O}, {O}}; };
        s.out_size = [=](int T, int) { return std::vector<int>{O, T}; };
        return s; }, {{1, 1}, {16, 1}, {128, 1}, {231, 1}, {256, 1}, {2048, 1}}, {256, 1});
    // 2. Cross-attention scores: queries of length U against keys of length S, 8 heads of 64.
    if (want("cross_scores")) probe("cross_scores", [&](bool sym) {
        Inst s; range(s.S, 1, 512, 256); range(s.U, 1, 64, 16);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k");
        Func f("cross_scores");
        RDom r(0, 64, "d");
        f(j, i, h) = sum(q(r, i, h) * k(r, j, h)) * 0.125f;
        q.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, E(s.U, sym, 16)).dim(2).set_estimate(0, 8);
        k.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, E(s.S, sym, 256)).dim(2).set_estimate(0, 8);
        f.set_estimate(j, 0, E(s.S, sym, 256)).set_estimate(i, 0, E(s.U, sym, 16)).set_estimate(h, 0, 8);
        s.out = f; s.ins = {q, k};
        s.in_sizes = [=](int S, int U) { return Sizes{{64, U, 8}, {64, S, 8}}; };
        s.out_size = [=](int S, int U) { return std::vector<int>{S, U, 8}; };
        return s; }, {{1, 1}, {512, 1}, {1, 64}, {300, 7}, {256, 16}, {512, 64}}, {256, 16});
    // 3. GEMM with M and N free, K = 256: C(n, m) = sum_k A(k, m) B(n, k). S = N, U = M.
    if (want("gemm_mn")) probe("gemm_mn", [&](bool sym) {
        Inst s; range(s.S, 1, 1024, 256); range(s.U, 1, 512, 128);
        const int K = 256;
        ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
        Func f("gemm_mn");
        RDom r(0, K, "k");
        f(n, m) = sum(A(r, m) * B(n, r));
        A.dim(0).set_estimate(0, K).dim(1).set_estimate(0, E(s.U, sym, 128));
        B.dim(0).set_estimate(0, E(s.S, sym, 256)).dim(1).set_estimate(0, K);
        f.set_estimate(n, 0, E(s.S, sym, 256)).set_estimate(m, 0, E(s.U, sym, 128));
        s.out = f; s.ins = {A, B};
        s.in_sizes = [=](int N, int M) { return Sizes{{K, M}, {N, K}}; };
        s.out_size = [=](int N, int M) { return std::vector<int>{N, M}; };
        return s; }, {{1, 1}, {1024, 1}, {1, 512}, {3, 500}, {256, 128}, {1000, 333}}, {256, 128});
    // 4. Separable 3x3 box blur on a uint16 image, blur_x / blur_y Funcs, repeat_edge. S = W, U = H.
    if (want("blur_wh")) probe("blur_wh", [&](bool sym) {
        Inst s; range(s.S, 8, 2048, 640); range(s.U, 8, 2048, 480);
        ImageParam in(UInt(16), 2, "in");
        Func cl("clamped"), bx("blur_x"), by("blur_y");
        cl = BoundaryConditions::repeat_edge(in);
        bx(x, y) = (cl(x - 1, y) + cl(x, y) + cl(x + 1, y)) / 3;
        by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
        in.dim(0).set_estimate(0, E(s.S, sym, 640)).dim(1).set_estimate(0, E(s.U, sym, 480));
        by.set_estimate(x, 0, E(s.S, sym, 640)).set_estimate(y, 0, E(s.U, sym, 480));
        s.out = by; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H}; };
        return s; }, {{8, 8}, {2048, 8}, {8, 2048}, {640, 480}, {1920, 1080}, {37, 1999}}, {640, 480});
    // 5. 2x2 average downsample of planar RGB float: out W x H from an input 2W x 2H.
    if (want("downsample2")) probe("downsample2", [&](bool sym) {
        Inst s; range(s.S, 1, 1024, 320); range(s.U, 1, 1024, 240);
        ImageParam in(Float(32), 3, "in");
        Func f("down2");
        f(x, y, c) = (in(2 * x, 2 * y, c) + in(2 * x + 1, 2 * y, c) + in(2 * x, 2 * y + 1, c) + in(2 * x + 1, 2 * y + 1, c)) * 0.25f;
        in.dim(0).set_estimate(0, 2 * E(s.S, sym, 320)).dim(1).set_estimate(0, 2 * E(s.U, sym, 240)).dim(2).set_estimate(0, 3);
        f.set_estimate(x, 0, E(s.S, sym, 320)).set_estimate(y, 0, E(s.U, sym, 240)).set_estimate(c, 0, 3);
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{2 * W, 2 * H, 3}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H, 3}; };
        return s; }, {{1, 1}, {1024, 1}, {1, 1024}, {320, 240}, {960, 540}, {13, 777}}, {320, 240});
    // 6. 1x1 convolution over NHWC, 64 -> 128 channels, bias: S = W, U = H.
    if (want("conv1x1_nhwc")) probe("conv1x1_nhwc", [&](bool sym) {
        Inst s; range(s.S, 1, 256, 56); range(s.U, 1, 256, 56);
        ImageParam in(Float(32), 3, "in"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        Func f("pointwise_conv");
        RDom r(0, 64, "ci");
        f(c, x, y) = bias(c) + sum(in(r, x, y) * w(r, c));
        in.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, E(s.S, sym, 56)).dim(2).set_estimate(0, E(s.U, sym, 56));
        w.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, 128); bias.dim(0).set_estimate(0, 128);
        f.set_estimate(c, 0, 128).set_estimate(x, 0, E(s.S, sym, 56)).set_estimate(y, 0, E(s.U, sym, 56));
        s.out = f; s.ins = {in, w, bias};
        s.in_sizes = [=](int W, int H) { return Sizes{{64, W, H}, {64, 128}, {128}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{128, W, H}; };
        return s; }, {{1, 1}, {256, 1}, {1, 256}, {56, 56}, {7, 200}, {224, 224}}, {56, 56});
    // 7. Running sum along each row (a scan): out(0, y) = in(0, y); out(r, y) = out(r - 1, y) + in(r, y).
    if (want("row_cumsum")) probe("row_cumsum", [&](bool sym) {
        Inst s; range(s.S, 2, 4096, 1024); range(s.U, 1, 1024, 256);
        ImageParam in(Float(32), 2, "in");
        Func f("cumsum");
        f(x, y) = in(x, y);
        RDom r(1, in.dim(0).extent() - 1, "r");
        f(r, y) = f(r - 1, y) + in(r, y);
        in.dim(0).set_estimate(0, E(s.S, sym, 1024)).dim(1).set_estimate(0, E(s.U, sym, 256));
        f.set_estimate(x, 0, E(s.S, sym, 1024)).set_estimate(y, 0, E(s.U, sym, 256));
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H}; };
        return s; }, {{2, 1}, {4096, 1}, {2, 1024}, {1024, 256}, {100, 900}, {4096, 1024}}, {1024, 256});
    // 8. 2x2 max pool, stride 2, over 32 planar channels: out W x H from 2W x 2H.
    if (want("maxpool2")) probe("maxpool2", [&](bool sym) {
        Inst s; range(s.S, 1, 512, 112); range(s.U, 1, 512, 112);
        ImageParam in(Float(32), 3, "in");
        Func f("maxpool");
        RDom r(0, 2, 0, 2, "r");
        f(x, y, c) = maximum(in(2 * x + r.x, 2 * y + r.y, c));
        in.dim(0).set_estimate(0, 2 * E(s.S, sym, 112)).dim(1).set_estimate(0, 2 * E(s.U, sym, 112)).dim(2).set_estimate(0, 32);
        f.set_estimate(x, 0, E(s.S, sym, 112)).set_estimate(y, 0, E(s.U, sym, 112)).set_estimate(c, 0, 32);
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{2 * W, 2 * H, 32}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H, 32}; };
        return s; }, {{1, 1}, {512, 1}, {1, 512}, {112, 112}, {5, 300}, {512, 512}}, {112, 112});
    // 9. Transpose with a scale: out(y, x) = 2 in(x, y). S = W, U = H.
    if (want("transpose")) probe("transpose", [&](bool sym) {
        Inst s; range(s.S, 1, 4096, 1024); range(s.U, 1, 4096, 1024);
        ImageParam in(Float(32), 2, "in");
        Func f("transposed");
        f(y, x) = in(x, y) * 2.0f;
        in.dim(0).set_estimate(0, E(s.S, sym, 1024)).dim(1).set_estimate(0, E(s.U, sym, 1024));
        f.set_estimate(y, 0, E(s.U, sym, 1024)).set_estimate(x, 0, E(s.S, sym, 1024));
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{H, W}; };
        return s; }, {{1, 1}, {4096, 1}, {1, 4096}, {1024, 1024}, {3, 2000}, {2000, 3}}, {1024, 1024});
    // 10. Columns normalized by their sums over the rows: out(x, y) = in(x, y) / sum_r in(x, r).
    if (want("colnorm")) probe("colnorm", [&](bool sym) {
        Inst s; range(s.S, 1, 2048, 512); range(s.U, 1, 2048, 512);
        ImageParam in(Float(32), 2, "in");
        Func f("colnorm");
        RDom r(0, in.dim(1).extent(), "r");
        f(x, y) = in(x, y) / (sum(abs(in(x, r))) + 1.0f);
        in.dim(0).set_estimate(0, E(s.S, sym, 512)).dim(1).set_estimate(0, E(s.U, sym, 512));
        f.set_estimate(x, 0, E(s.S, sym, 512)).set_estimate(y, 0, E(s.U, sym, 512));
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H}; };
        return s; }, {{1, 1}, {2048, 1}, {1, 2048}, {512, 512}, {3, 1500}, {1500, 3}}, {512, 512});
    // 11. Bilinear 2x upsample of a planar float image (clamped input): out 2W x 2H from W x H.
    if (want("upsample2")) probe("upsample2", [&](bool sym) {
        Inst s; range(s.S, 1, 1024, 320); range(s.U, 1, 1024, 240);
        ImageParam in(Float(32), 3, "in");
        Func cl("clamped"), f("up2");
        cl = BoundaryConditions::repeat_edge(in);
        Expr wx = select(x % 2 == 0, 0.75f, 0.25f), wy = select(y % 2 == 0, 0.75f, 0.25f);
        Expr x0 = select(x % 2 == 0, x / 2 - 1, x / 2), y0 = select(y % 2 == 0, y / 2 - 1, y / 2);
        Expr top = lerp(cl(x0, y0, c), cl(x0 + 1, y0, c), wx), bot = lerp(cl(x0, y0 + 1, c), cl(x0 + 1, y0 + 1, c), wx);
        f(x, y, c) = lerp(top, bot, wy);
        in.dim(0).set_estimate(0, E(s.S, sym, 320)).dim(1).set_estimate(0, E(s.U, sym, 240)).dim(2).set_estimate(0, 3);
        f.set_estimate(x, 0, 2 * E(s.S, sym, 320)).set_estimate(y, 0, 2 * E(s.U, sym, 240)).set_estimate(c, 0, 3);
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H, 3}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{2 * W, 2 * H, 3}; };
        return s; }, {{1, 1}, {1024, 1}, {1, 1024}, {320, 240}, {960, 540}, {11, 700}}, {320, 240});
    // 12. Sobel gradient magnitude of an interleaved RGB uint8 image (c innermost), via gray.
    if (want("sobel_rgb")) probe("sobel_rgb", [&](bool sym) {
        Inst s; range(s.S, 3, 2048, 640); range(s.U, 3, 2048, 480);
        ImageParam in(UInt(8), 3, "in");
        Func gray("gray"), gx("gx"), gy("gy"), f("sobel");
        Func cl = BoundaryConditions::repeat_edge(in);
        gray(x, y) = 0.299f * cl(0, x, y) + 0.587f * cl(1, x, y) + 0.114f * cl(2, x, y);
        gx(x, y) = (gray(x + 1, y - 1) + 2 * gray(x + 1, y) + gray(x + 1, y + 1)) - (gray(x - 1, y - 1) + 2 * gray(x - 1, y) + gray(x - 1, y + 1));
        gy(x, y) = (gray(x - 1, y + 1) + 2 * gray(x, y + 1) + gray(x + 1, y + 1)) - (gray(x - 1, y - 1) + 2 * gray(x, y - 1) + gray(x + 1, y - 1));
        f(x, y) = sqrt(gx(x, y) * gx(x, y) + gy(x, y) * gy(x, y));
        in.dim(0).set_estimate(0, 3).dim(1).set_estimate(0, E(s.S, sym, 640)).dim(2).set_estimate(0, E(s.U, sym, 480));
        f.set_estimate(x, 0, E(s.S, sym, 640)).set_estimate(y, 0, E(s.U, sym, 480));
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{3, W, H}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H}; };
        return s; }, {{3, 3}, {2048, 3}, {3, 2048}, {640, 480}, {1920, 1080}, {17, 1333}}, {640, 480});
    // 13. Histogram of a uint8 image (a scatter update at data-dependent bins), W x H.
    if (want("histogram")) probe("histogram", [&](bool sym) {
        Inst s; range(s.S, 1, 2048, 640); range(s.U, 1, 2048, 480);
        ImageParam in(UInt(8), 2, "in");
        Func f("hist");
        RDom r(0, in.dim(0).extent(), 0, in.dim(1).extent(), "r");
        f(i) = 0;
        f(cast<int>(in(r.x, r.y))) += 1;
        in.dim(0).set_estimate(0, E(s.S, sym, 640)).dim(1).set_estimate(0, E(s.U, sym, 480));
        f.set_estimate(i, 0, 256);
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H}}; };
        s.out_size = [=](int, int) { return std::vector<int>{256}; };
        return s; }, {{1, 1}, {2048, 1}, {1, 2048}, {640, 480}, {1920, 1080}}, {640, 480});
    // 14. Index of each row's maximum (inline argmax(), a Tuple reduction), W x H.
    if (want("row_argmax")) probe("row_argmax", [&](bool sym) {
        Inst s; range(s.S, 1, 4096, 1000); range(s.U, 1, 1024, 256);
        ImageParam in(Float(32), 2, "logits");
        Func f("argmax_rows");
        RDom r(0, in.dim(0).extent(), "r");
        f(y) = argmax(in(r, y))[0];
        in.dim(0).set_estimate(0, E(s.S, sym, 1000)).dim(1).set_estimate(0, E(s.U, sym, 256));
        f.set_estimate(y, 0, E(s.U, sym, 256));
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W, H}}; };
        s.out_size = [=](int, int H) { return std::vector<int>{H}; };
        return s; }, {{1, 1}, {4096, 1}, {1, 1024}, {1000, 256}, {37, 900}}, {1000, 256});
    // 15. A causal prefix mean with RDom::where (an inline sum() cannot name t in its predicate):
    // out(c, t) = mean over s <= t of x(c, s) (T rows, C channels).
    if (want("prefix_mean_where")) probe("prefix_mean_where", [&](bool sym) {
        Inst s; range(s.S, 1, 256, 64); range(s.U, 1, 128, 32);
        ImageParam xin(Float(32), 2, "x");
        Func acc("prefix_sum"), f("prefix_mean");
        RDom r(0, xin.dim(1).extent(), "r");
        r.where(r <= t);
        acc(c, t) = 0.0f;
        acc(c, t) += xin(c, r);
        f(c, t) = acc(c, t) / cast<float>(t + 1);
        xin.dim(0).set_estimate(0, E(s.U, sym, 32)).dim(1).set_estimate(0, E(s.S, sym, 64));
        f.set_estimate(c, 0, E(s.U, sym, 32)).set_estimate(t, 0, E(s.S, sym, 64));
        s.out = f; s.ins = {xin};
        s.in_sizes = [=](int T, int C) { return Sizes{{C, T}}; };
        s.out_size = [=](int T, int C) { return std::vector<int>{C, T}; };
        return s; }, {{1, 1}, {256, 1}, {1, 128}, {64, 32}, {200, 7}}, {64, 32});
    // 16. A crop at a run-time offset with a gain (Params used in the algorithm, not only in extents).
    if (want("crop_gain")) probe("crop_gain", [&](bool sym) {
        Inst s; range(s.S, 1, 2048, 640); range(s.U, 1, 2048, 480);
        ImageParam in(Float(32), 3, "in");
        Param<int> ox("ox"), oy("oy");
        ox.set(3); oy.set(5); ox.set_estimate(3); oy.set_estimate(5);
        Func f("crop");
        f(x, y, c) = in(x + ox, y + oy, c) * 1.5f + 0.25f;
        in.dim(0).set_estimate(0, E(s.S, sym, 640) + 3).dim(1).set_estimate(0, E(s.U, sym, 480) + 5).dim(2).set_estimate(0, 3);
        f.set_estimate(x, 0, E(s.S, sym, 640)).set_estimate(y, 0, E(s.U, sym, 480)).set_estimate(c, 0, 3);
        s.out = f; s.ins = {in};
        s.in_sizes = [=](int W, int H) { return Sizes{{W + 3, H + 5, 3}}; };
        s.out_size = [=](int W, int H) { return std::vector<int>{W, H, 3}; };
        return s; }, {{1, 1}, {2048, 1}, {1, 2048}, {640, 480}, {13, 700}}, {640, 480});
    // 17. A 4-D tensor op: per-channel scale of NCHW activations stored W innermost, N and H free.
    if (want("nchw_scale")) probe("nchw_scale", [&](bool sym) {
        Inst s; range(s.S, 1, 64, 8); range(s.U, 1, 224, 56);
        ImageParam in(Float(32), 4, "in"), g(Float(32), 1, "gamma");
        Func f("scaled");
        f(x, y, c, n) = in(x, y, c, n) * g(c);
        in.dim(0).set_estimate(0, 56).dim(1).set_estimate(0, E(s.U, sym, 56)).dim(2).set_estimate(0, 64).dim(3).set_estimate(0, E(s.S, sym, 8));
        g.dim(0).set_estimate(0, 64);
        f.set_estimate(x, 0, 56).set_estimate(y, 0, E(s.U, sym, 56)).set_estimate(c, 0, 64).set_estimate(n, 0, E(s.S, sym, 8));
        s.out = f; s.ins = {in, g};
        s.in_sizes = [=](int N, int H) { return Sizes{{56, H, 64, N}, {64}}; };
        s.out_size = [=](int N, int H) { return std::vector<int>{56, H, 64, N}; };
        return s; }, {{1, 1}, {64, 1}, {1, 224}, {8, 56}, {3, 100}}, {8, 56});
    return 0;
}
