// Probe 12: neural-network layers in other people's styles (layer norm with separate mean and
// variance Funcs, RMS norm with an inline sum, a row softmax with inline maximum()/sum(), a causal
// attention mask by select() around an inline sum, a 3x3 depthwise convolution over NHWC with the
// window as an RDom, a planar NCHW convolution with bias and ReLU, a GEMM whose three extents are
// run-time (one shape variable drives all three), an LSTM cell (four gates from two inline sums,
// sigmoid/tanh), an embedding lookup plus positions, global average pooling over a run-time
// spatial domain, mean over the sequence, batch-norm inference + residual + ReLU). The shape
// variable S is a run-time Param with a per-layer range. Each is scheduled by Diet (defaults,
// estimates in terms of S), by Adams2019 (constant estimates at S's estimate: what a user would
// pick instead; run only there) and with every Func at root ("plain", the reference), checked
// against the reference and timed (min of 10 calls after one warm-up).
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
    Param<int> S{"S"};
    std::function<std::vector<std::vector<int>>(int)> in_sizes;
    std::function<std::vector<int>(int)> out_size;
};
using Builder = std::function<Inst(bool sym)>;
static Buffer<> rnd(Type t, std::vector<int> sz, int seed) {
    Buffer<> b(t, sz);
    std::mt19937 g(seed);
    if (t == UInt(8)) b.as<uint8_t>().for_each_value([&](uint8_t &v) { v = g() % 256; });
    else if (t == Int(32)) b.as<int32_t>().for_each_value([&](int32_t &v) { v = g() % 1000; });
    else b.as<float>().for_each_value([&](float &v) { v = (int(g() % 2001) - 1000) / 1000.0f; });
    return b;
}
static double value(const Buffer<> &b, const int *pos) {
    if (b.type() == UInt(8)) return b.as<uint8_t>()(pos);
    if (b.type() == Int(32)) return b.as<int32_t>()(pos);
    return b.as<float>()(pos);
}
static double time_at(Inst &s, Pipeline &p, int side, Buffer<> &o, std::vector<Buffer<>> &in) {
    s.S.set(side);
    for (size_t i = 0; i < s.ins.size(); i++) s.ins[i].set(in[i]);
    o = Buffer<>(s.out.output_types()[0], s.out_size(side));
    p.realize(o, tgt);
    double best = 1e9;
    for (int k = 0; k < 10; k++) {
        double a = now();
        p.realize(o, tgt);
        best = std::min(best, now() - a);
    }
    return best;
}
static void probe(const char *name, Builder f, std::vector<int> sides, int est) {
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
        for (int side : sides) {
            std::vector<Buffer<>> in;
            auto isz = d.in_sizes(side);
            for (size_t i = 0; i < isz.size(); i++) in.push_back(rnd(d.ins[i].type(), isz[i], 17 + i));
            Buffer<> od, oa, orf;
            double tr = time_at(r, pr, side, orf, in), td = -1, ta = -1;
            std::string ed, ea;
            try { td = time_at(d, pd, side, od, in); } catch (std::exception &e) { ed = e.what(); }
            // Adams2019's tiles assume the estimate's extents: run only there.
            if (adams && side == est) try { ta = time_at(a, pa, side, oa, in); } catch (std::exception &e) { ea = e.what(); }
            double err = 0, erra = 0, mag = 0;
            orf.for_each_element([&](const int *pos) {
                if (td > 0) err = std::max(err, std::abs(value(od, pos) - value(orf, pos)));
                if (ta > 0) erra = std::max(erra, std::abs(value(oa, pos) - value(orf, pos)));
                mag = std::max(mag, std::abs(value(orf, pos)));
            });
            double tol = orf.type().is_float() ? 1e-3 * std::max(1.0, mag) : 1.0;
            printf("  S=%4d diet %9.4f ms%s  adams %9.4f ms%s  plain %9.4f ms  adams/diet %5.2f  plain/diet %5.2f\n", side,
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
    auto want = [&](const char *n) { return only.empty() || only.find(n) != std::string::npos; };
    Var x("x"), y("y"), c("c"), t("t"), i("i"), j("j"), b("b"), n("n");
    // Sequence layers: S = T in [1, 512], estimate 128. Image layers: S = side in [4, 256], estimate 64.
    std::vector<int> seq = {1, 7, 128, 333, 512}, img = {4, 17, 64, 131, 256};
    auto range = [](Inst &s, int lo, int hi, int est) { s.S.set_range(lo, hi); s.S.set_estimate(est); };
    // E(s, sym, est): S symbolic or the estimate.
    auto E = [](Inst &s, bool sym, int est) { return sym ? Expr(s.S) : Expr(est); };
    const int H = 768;

    // 1. Layer norm over the hidden dimension, mean and variance as Funcs of their own.
    if (want("layernorm")) probe("layernorm", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam xin(Float(32), 2, "x"), g(Float(32), 1, "gamma"), be(Float(32), 1, "beta");
        Func mean("mean"), var("var"), o("layernorm");
        RDom r(0, H, "r");
        mean(t) = 0.0f;
        mean(t) += xin(r, t);
        mean(t) = mean(t) / H;
        var(t) = 0.0f;
        Expr dlt = xin(r, t) - mean(t);
        var(t) += dlt * dlt;
        o(c, t) = (xin(c, t) - mean(t)) / sqrt(var(t) / H + 1e-5f) * g(c) + be(c);
        xin.dim(0).set_estimate(0, H).dim(1).set_estimate(0, E(s, sym, 128));
        g.dim(0).set_estimate(0, H); be.dim(0).set_estimate(0, H);
        o.set_estimate(c, 0, H).set_estimate(t, 0, E(s, sym, 128));
        s.out = o; s.ins = {xin, g, be};
        s.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{H, T}, {H}, {H}}; };
        s.out_size = [=](int T) { return std::vector<int>{H, T}; };
        return s; }, seq, 128);
    // 2. RMS norm written in one line with an inline sum.
    if (want("rmsnorm")) probe("rmsnorm", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam xin(Float(32), 2, "x"), w(Float(32), 1, "w");
        Func o("rmsnorm");
        RDom r(0, H, "r");
        o(c, t) = xin(c, t) / sqrt(sum(xin(r, t) * xin(r, t)) / H + 1e-6f) * w(c);
        xin.dim(0).set_estimate(0, H).dim(1).set_estimate(0, E(s, sym, 128));
        w.dim(0).set_estimate(0, H);
        o.set_estimate(c, 0, H).set_estimate(t, 0, E(s, sym, 128));
        s.out = o; s.ins = {xin, w};
        s.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{H, T}, {H}}; };
        s.out_size = [=](int T) { return std::vector<int>{H, T}; };
        return s; }, seq, 128);
    // 3. Row softmax over a T x T score matrix, inline maximum() and sum().
    if (want("softmax_rows")) probe("softmax_rows", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam sc(Float(32), 2, "scores");
        Func mx("row_max"), ex("e"), o("softmax");
        RDom r(0, sc.dim(0).extent(), "r");
        mx(i) = maximum(sc(r, i));
        ex(j, i) = exp(sc(j, i) - mx(i));
        o(j, i) = ex(j, i) / sum(ex(r, i));
        sc.dim(0).set_estimate(0, E(s, sym, 128)).dim(1).set_estimate(0, E(s, sym, 128));
        o.set_estimate(j, 0, E(s, sym, 128)).set_estimate(i, 0, E(s, sym, 128));
        s.out = o; s.ins = {sc};
        s.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{T, T}}; };
        s.out_size = [=](int T) { return std::vector<int>{T, T}; };
        return s; }, seq, 128);
    // 4. Causal attention scores: select() around an inline sum over d, 12 heads.
    if (want("causal_scores")) probe("causal_scores", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k");
        Func o("masked_scores");
        RDom r(0, 64, "d");
        Var h("h");
        o(j, i, h) = select(j <= i, sum(q(r, i, h) * k(r, j, h)) * 0.125f, -1e30f);
        for (auto *p : {&q, &k}) p->dim(0).set_estimate(0, 64).dim(1).set_estimate(0, E(s, sym, 128)).dim(2).set_estimate(0, 12);
        o.set_estimate(j, 0, E(s, sym, 128)).set_estimate(i, 0, E(s, sym, 128)).set_estimate(h, 0, 12);
        s.out = o; s.ins = {q, k};
        s.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{64, T, 12}, {64, T, 12}}; };
        s.out_size = [=](int T) { return std::vector<int>{T, T, 12}; };
        return s; }, seq, 128);
    // 5. 3x3 depthwise convolution over NHWC (channels innermost), zero padding, window RDom.
    if (want("depthwise_nhwc")) probe("depthwise_nhwc", [&](bool sym) {
        Inst s; range(s, 4, 256, 64);
        ImageParam in(Float(32), 3, "in"), w(Float(32), 3, "w");
        Func z("padded"), o("depthwise");
        z = BoundaryConditions::constant_exterior(in, 0.0f);
        RDom r(-1, 3, -1, 3, "r");
        o(c, x, y) = sum(z(c, x + r.x, y + r.y) * w(c, r.x + 1, r.y + 1));
        in.dim(0).set_estimate(0, 32).dim(1).set_estimate(0, E(s, sym, 64)).dim(2).set_estimate(0, E(s, sym, 64));
        w.dim(0).set_estimate(0, 32).dim(1).set_estimate(0, 3).dim(2).set_estimate(0, 3);
        o.set_estimate(c, 0, 32).set_estimate(x, 0, E(s, sym, 64)).set_estimate(y, 0, E(s, sym, 64));
        s.out = o; s.ins = {in, w};
        s.in_sizes = [=](int N) { return std::vector<std::vector<int>>{{32, N, N}, {32, 3, 3}}; };
        s.out_size = [=](int N) { return std::vector<int>{32, N, N}; };
        return s; }, img, 64);
    // 6. Planar (NCHW-style: x innermost) 3x3 convolution, 16 -> 32 channels, valid, bias + ReLU.
    if (want("conv_planar")) probe("conv_planar", [&](bool sym) {
        Inst s; range(s, 4, 256, 64);
        ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w"), bias(Float(32), 1, "bias");
        Func o("conv_relu");
        RDom r(0, 3, 0, 3, 0, 16, "r");
        o(x, y, c) = max(0.0f, bias(c) + sum(in(x + r.x, y + r.y, r.z) * w(r.x, r.y, r.z, c)));
        in.dim(0).set_estimate(0, E(s, sym, 64) + 2).dim(1).set_estimate(0, E(s, sym, 64) + 2).dim(2).set_estimate(0, 16);
        w.dim(0).set_estimate(0, 3).dim(1).set_estimate(0, 3).dim(2).set_estimate(0, 16).dim(3).set_estimate(0, 32);
        bias.dim(0).set_estimate(0, 32);
        o.set_estimate(x, 0, E(s, sym, 64)).set_estimate(y, 0, E(s, sym, 64)).set_estimate(c, 0, 32);
        s.out = o; s.ins = {in, w, bias};
        s.in_sizes = [=](int N) { return std::vector<std::vector<int>>{{N + 2, N + 2, 16}, {3, 3, 16, 32}, {32}}; };
        s.out_size = [=](int N) { return std::vector<int>{N, N, 32}; };
        return s; }, img, 64);
    // 7. A GEMM with all three extents run-time: C(n, m) = sum_k A(k, m) B(n, k), K from A's extent.
    if (want("gemm_dynamic")) probe("gemm_dynamic", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
        Func o("gemm");
        RDom r(0, A.dim(0).extent(), "k");
        o(n, i) = sum(A(r, i) * B(n, r));
        A.dim(0).set_estimate(0, E(s, sym, 128)).dim(1).set_estimate(0, E(s, sym, 128));
        B.dim(0).set_estimate(0, E(s, sym, 128)).dim(1).set_estimate(0, E(s, sym, 128));
        o.set_estimate(n, 0, E(s, sym, 128)).set_estimate(i, 0, E(s, sym, 128));
        s.out = o; s.ins = {A, B};
        s.in_sizes = [=](int N) { return std::vector<std::vector<int>>{{N, N}, {N, N}}; };
        s.out_size = [=](int N) { return std::vector<int>{N, N}; };
        return s; }, seq, 128);
    // 8. LSTM cell over a batch: four gates from W x + U h + b, sigmoid/tanh, new cell and hidden.
    if (want("lstm_cell")) probe("lstm_cell", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        const int I = 128, Hd = 128;
        ImageParam xin(Float(32), 2, "x"), h(Float(32), 2, "h"), cst(Float(32), 2, "c"), W(Float(32), 2, "W"), U(Float(32), 2, "U"), bias(Float(32), 1, "b");
        Func gates("gates"), o("cell_out");
        RDom ri(0, I, "ri"), rh(0, Hd, "rh");
        Var g("g");
        gates(g, b) = bias(g) + sum(W(ri, g) * xin(ri, b)) + sum(U(rh, g) * h(rh, b));
        auto sig = [](Expr v) { return 1.0f / (1.0f + exp(-v)); };
        Expr ig = sig(gates(n, b)), fg = sig(gates(n + Hd, b)), gg = tanh(gates(n + 2 * Hd, b)), og = sig(gates(n + 3 * Hd, b));
        Expr cn = fg * cst(n, b) + ig * gg;
        o(n, b) = og * tanh(cn);
        xin.dim(0).set_estimate(0, I).dim(1).set_estimate(0, E(s, sym, 128));
        h.dim(0).set_estimate(0, Hd).dim(1).set_estimate(0, E(s, sym, 128));
        cst.dim(0).set_estimate(0, Hd).dim(1).set_estimate(0, E(s, sym, 128));
        W.dim(0).set_estimate(0, I).dim(1).set_estimate(0, 4 * Hd);
        U.dim(0).set_estimate(0, Hd).dim(1).set_estimate(0, 4 * Hd);
        bias.dim(0).set_estimate(0, 4 * Hd);
        o.set_estimate(n, 0, Hd).set_estimate(b, 0, E(s, sym, 128));
        s.out = o; s.ins = {xin, h, cst, W, U, bias};
        s.in_sizes = [=](int N) { return std::vector<std::vector<int>>{{I, N}, {Hd, N}, {Hd, N}, {I, 4 * Hd}, {Hd, 4 * Hd}, {4 * Hd}}; };
        s.out_size = [=](int N) { return std::vector<int>{Hd, N}; };
        return s; }, seq, 128);
    // 9. Embedding lookup (ids clamped into the table) plus learned positions.
    if (want("embedding")) probe("embedding", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam ids(Int(32), 1, "ids"), table(Float(32), 2, "table"), pos(Float(32), 2, "pos");
        Func o("embedded");
        o(c, t) = table(c, clamp(ids(t), 0, 999)) + pos(c, t);
        ids.dim(0).set_estimate(0, E(s, sym, 128));
        table.dim(0).set_estimate(0, H).dim(1).set_estimate(0, 1000);
        pos.dim(0).set_estimate(0, H).dim(1).set_estimate(0, 512);
        o.set_estimate(c, 0, H).set_estimate(t, 0, E(s, sym, 128));
        s.out = o; s.ins = {ids, table, pos};
        s.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{T}, {H, 1000}, {H, 512}}; };
        s.out_size = [=](int T) { return std::vector<int>{H, T}; };
        return s; }, seq, 128);
    // 10. Global average pooling over a run-time spatial domain, channels innermost (NHWC).
    if (want("global_avgpool")) probe("global_avgpool", [&](bool sym) {
        Inst s; range(s, 4, 256, 64);
        ImageParam in(Float(32), 3, "in");
        Func o("pooled");
        RDom r(0, in.dim(1).extent(), 0, in.dim(2).extent(), "r");
        o(c) = sum(in(c, r.x, r.y)) / cast<float>(in.dim(1).extent() * in.dim(2).extent());
        in.dim(0).set_estimate(0, 256).dim(1).set_estimate(0, E(s, sym, 64)).dim(2).set_estimate(0, E(s, sym, 64));
        o.set_estimate(c, 0, 256);
        s.out = o; s.ins = {in};
        s.in_sizes = [=](int N) { return std::vector<std::vector<int>>{{256, N, N}}; };
        s.out_size = [=](int) { return std::vector<int>{256}; };
        return s; }, img, 64);
    // 11. Mean over the sequence per channel (pooling a T x H activation to H).
    if (want("seq_mean")) probe("seq_mean", [&](bool sym) {
        Inst s; range(s, 1, 512, 128);
        ImageParam xin(Float(32), 2, "x");
        Func o("seq_mean");
        RDom r(0, xin.dim(1).extent(), "r");
        o(c) = sum(xin(c, r)) / cast<float>(xin.dim(1).extent());
        xin.dim(0).set_estimate(0, H).dim(1).set_estimate(0, E(s, sym, 128));
        o.set_estimate(c, 0, H);
        s.out = o; s.ins = {xin};
        s.in_sizes = [=](int T) { return std::vector<std::vector<int>>{{H, T}}; };
        s.out_size = [=](int) { return std::vector<int>{H}; };
        return s; }, seq, 128);
    // 12. Batch norm (inference) + residual + ReLU over NCHW-style planes, per-channel parameters.
    if (want("bn_residual")) probe("bn_residual", [&](bool sym) {
        Inst s; range(s, 4, 256, 64);
        ImageParam in(Float(32), 3, "in"), res(Float(32), 3, "res"), mu(Float(32), 1, "mu"), sd(Float(32), 1, "sd");
        Func scale("scale"), o("bn_relu");
        scale(c) = 1.0f / sqrt(sd(c) * sd(c) + 1e-5f);
        o(x, y, c) = max(0.0f, (in(x, y, c) - mu(c)) * scale(c) + res(x, y, c));
        for (auto *p : {&in, &res}) p->dim(0).set_estimate(0, E(s, sym, 64)).dim(1).set_estimate(0, E(s, sym, 64)).dim(2).set_estimate(0, 64);
        mu.dim(0).set_estimate(0, 64); sd.dim(0).set_estimate(0, 64);
        o.set_estimate(x, 0, E(s, sym, 64)).set_estimate(y, 0, E(s, sym, 64)).set_estimate(c, 0, 64);
        s.out = o; s.ins = {in, res, mu, sd};
        s.in_sizes = [=](int N) { return std::vector<std::vector<int>>{{N, N, 64}, {N, N, 64}, {64}, {64}}; };
        s.out_size = [=](int N) { return std::vector<int>{N, N, 64}; };
        return s; }, img, 64);
    return 0;
}
