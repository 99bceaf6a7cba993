// Probe: more ways users write attention and dense layers (heads as a view of the hidden
// dimension, the (T, H, D) layout, an explicit batch). Each scheduled by Diet (defaults), checked
// against the same algorithm unscheduled, and timed against the canonical form of the same math.
#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
using namespace Halide;
static Target tgt;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
struct Inst { Func out; std::vector<ImageParam> ins; Param<int> T{"T"}; std::function<std::vector<std::vector<int>>(int)> in_sizes; std::function<std::vector<int>(int)> out_size; };
using Builder = std::function<Inst()>;
Buffer<float> rnd(std::vector<int> sz, int seed) { Buffer<float> b(sz); std::mt19937 g(seed); b.for_each_value([&](float &v) { v = (g() % 2001) / 1000.0f - 1.0f; }); return b; }
struct Built { Inst s, r; Pipeline ps, pr; };
Built build(Builder f) {
    Built b{f(), f(), {}, {}};
    Region rg(b.r.out.dimensions(), Range(0, 1)); b.r.out.set_estimates(rg);
    for (auto &p : b.r.ins) { Region q(p.dimensions(), Range(0, 1)); p.set_estimates(q); }
    b.ps = Pipeline(b.s.out); b.pr = Pipeline(b.r.out);
    b.ps.auto_schedule("Diet", tgt, MachineParams(2, 1 << 20, 40));
    if (getenv("STMT")) { std::vector<Argument> a; for (auto &i : b.s.ins) a.push_back(i); a.push_back(b.s.T); b.ps.compile_to_lowered_stmt(std::string("/tmp/p4/") + b.s.out.name() + ".stmt", a, Text, tgt); }
    b.ps.compile_jit(tgt); b.pr.compile_jit(tgt);
    return b;
}
double time_at(Inst &s, Pipeline &p, int t, Buffer<float> &o, bool setin = true) {
    s.T.set(t);
    auto isz = s.in_sizes(t);
    if (setin) for (size_t i = 0; i < s.ins.size(); i++) s.ins[i].set(rnd(isz[i], 17 + i));
    o = Buffer<float>(s.out_size(t));
    p.realize(o, tgt);
    double best = 1e9;
    for (int k = 0; k < 10; k++) { double a = now(); p.realize(o, tgt); best = std::min(best, now() - a); }
    return best;
}
void compare(const char *name, Builder style, Builder canon, std::vector<int> ts) {
    printf("== %s\n", name); fflush(stdout);
    try {
        Built a = build(style), c = build(canon);
        for (int t : ts) {
            Buffer<float> o, oref, oc;
            double ta = time_at(a.s, a.ps, t, o);
            for (size_t i = 0; i < a.s.ins.size(); i++) a.r.ins[i].set(a.s.ins[i].get());
            a.r.T.set(t); oref = Buffer<float>(a.s.out_size(t)); a.pr.realize(oref, tgt);
            double err = 0, mag = 0;
            o.for_each_element([&](const int *pos) { err = std::max(err, (double)std::abs(o(pos) - oref(pos))); mag = std::max(mag, (double)std::abs(oref(pos))); });
            double tc = time_at(c.s, c.ps, t, oc);
            printf("  T=%3d err %.2g%s  style %.4f ms  canonical %.4f ms  ratio(canon/style) %.2f\n", t, err, err > 1e-3 * std::max(1.0, mag) ? " WRONG" : "", ta * 1e3, tc * 1e3, tc / ta);
            fflush(stdout);
        }
    } catch (std::exception &e) { printf("  FAILED %s\n", e.what()); }
}
int main(int argc, char **argv) {
    load_plugin("/work/main/build/libautoschedule_diet.so");
    tgt = Target(getenv("TGT"));
    std::string only = argc > 1 ? argv[1] : "";
    auto want = [&](const char *n) { return only.empty() || only == n; };
    const int H = 12, D = 64, C = H * D;
    std::vector<int> ts = {1, 2, 5, 16, 64, 128};
    Var i("i"), j("j"), h("h"), d("d"), c("c"), n("n"), t("t"), b("b");
    // Canonical scores: q(d, i, h), k(d, j, h) -> s(j, i, h).
    Builder canon_scores = [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k"); RDom r(0, D, "r"); Func o("s_canon");
        o(j, i, h) = sum(q(r, i, h) * k(r, j, h));
        q.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        k.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T).set_estimate(h, 0, H);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {q, k};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{D, t, H}, {D, t, H}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t, H}; };
        return s;
    };
    // Heads as a view of the hidden dimension: q(c, i) with c = d + 64 h (a (T, 768) matrix).
    if (want("heads_view_scores")) compare("heads_view_scores", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam q(Float(32), 2, "q"), k(Float(32), 2, "k"); RDom r(0, D, "r"); Func o("s_view");
        o(j, i, h) = sum(q(r + D * h, i) * k(r + D * h, j));
        q.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        k.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T).set_estimate(h, 0, H);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {q, k};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, t}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t, H}; };
        return s;
    }, canon_scores, ts);
    // The (T, H, D) layout: q(d, h, i).
    if (want("thd_scores")) compare("thd_scores", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k"); RDom r(0, D, "r"); Func o("s_thd");
        o(j, i, h) = sum(q(r, h, i) * k(r, h, j));
        q.dim(0).set_estimate(0, D).dim(1).set_estimate(0, H).dim(2).set_estimate(0, s.T);
        k.dim(0).set_estimate(0, D).dim(1).set_estimate(0, H).dim(2).set_estimate(0, s.T);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T).set_estimate(h, 0, H);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {q, k};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{D, H, t}, {D, H, t}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t, H}; };
        return s;
    }, canon_scores, ts);
    // Canonical context: p(j, i, h), v(d, j, h) -> o(d, i, h).
    Builder canon_ctx = [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam p(Float(32), 3, "p"), v(Float(32), 3, "v"); RDom r(0, s.T, "r"); Func o("c_canon");
        o(d, i, h) = sum(p(r, i, h) * v(d, r, h));
        p.dim(0).set_estimate(0, s.T).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        v.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        o.set_estimate(d, 0, D).set_estimate(i, 0, s.T).set_estimate(h, 0, H);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {p, v};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{t, t, H}, {D, t, H}}; };
        s.out_size = [=](int t) { return std::vector<int>{D, t, H}; };
        return s;
    };
    // Context written into the hidden dimension: o(c, i) = sum_j p(j, i, c / 64) * v(c, j).
    if (want("heads_view_context")) compare("heads_view_context", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam p(Float(32), 3, "p"), v(Float(32), 2, "v"); RDom r(0, s.T, "r"); Func o("c_view");
        o(c, i) = sum(p(r, i, c / D) * v(c, r));
        p.dim(0).set_estimate(0, s.T).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        v.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        o.set_estimate(c, 0, C).set_estimate(i, 0, s.T);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {p, v};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{t, t, H}, {C, t}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t}; };
        return s;
    }, canon_ctx, ts);
    // The same written over the canonical 3-D value buffer, reshaped by index: v(c % 64, r, c / 64).
    if (want("reshaped_context")) compare("reshaped_context", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam p(Float(32), 3, "p"), v(Float(32), 3, "v"); RDom r(0, s.T, "r"); Func o("c_reshaped");
        o(c, i) = sum(p(r, i, c / D) * v(c % D, r, c / D));
        p.dim(0).set_estimate(0, s.T).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        v.dim(0).set_estimate(0, D).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, H);
        o.set_estimate(c, 0, C).set_estimate(i, 0, s.T);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {p, v};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{t, t, H}, {D, t, H}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t}; };
        return s;
    }, canon_ctx, ts);
    // Dense over a batch of sequences: y(n, t, b) = sum_k x(k, t, b) * w(k, n), 4 sequences,
    // against the rows flattened (canonical dense over 4T rows).
    const int Bt = 4;
    if (want("batched_dense")) compare("batched_dense", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 3, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func o("y_batched");
        o(n, t, b) = sum(x(r, t, b) * w(r, n));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T).dim(2).set_estimate(0, Bt);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(n, 0, C).set_estimate(t, 0, s.T).set_estimate(b, 0, Bt);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t, Bt}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t, Bt}; };
        return s;
    }, [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func o("y_flat");
        o(n, t) = sum(x(r, t) * w(r, n));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T * Bt);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(n, 0, C).set_estimate(t, 0, s.T * Bt);
        o.output_buffer().dim(1).set_bounds(0, s.T * Bt);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t * Bt}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t * Bt}; };
        return s;
    }, ts);
    // Canonical dense over T rows for the next two: y(n, t) = sum_c x(c, t) * w(c, n).
    Builder canon_dense = [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func o("d_canon");
        o(n, t) = sum(x(r, t) * w(r, n));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(n, 0, C).set_estimate(t, 0, s.T);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t}; };
        return s;
    };
    // The canonical dense with the same GELU (tanh form) epilogue.
    Builder canon_dense_gelu = [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func y("y_cg"), o("d_canon_gelu");
        y(n, t) = sum(x(r, t) * w(r, n));
        Expr v = y(n, t);
        o(n, t) = 0.5f * v * (1.0f + tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(n, 0, C).set_estimate(t, 0, s.T);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t}; };
        return s;
    };
    // The output stored rows innermost through a transposing epilogue with a bias: o(t, n) = y(n, t) + b(n).
    if (want("transposed_output_bias")) compare("transposed_output_bias", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func y("y_tr"), o("o_tr");
        y(n, t) = sum(x(r, t) * w(r, n));
        o(t, n) = y(n, t) + 0.5f;
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(t, 0, s.T).set_estimate(n, 0, C);
        o.output_buffer().dim(0).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, C}; };
        return s;
    }, canon_dense, ts);
    // The same output rows innermost, written without an epilogue Func: o(t, n) = sum(...) directly,
    // with an update on the output, and with a GELU (tanh form) epilogue.
    for (int variant = 0; variant < 3; variant++) {
        const char *names[] = {"transposed_output_sum", "transposed_output_update", "transposed_output_gelu"};
        if (!want(names[variant])) continue;
        compare(names[variant], [&, variant] {
            Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
            ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func o(names[variant]);
            if (variant == 0) {
                o(t, n) = sum(x(r, t) * w(r, n));
            } else if (variant == 1) {
                o(t, n) = 0.0f;
                o(t, n) += x(r, t) * w(r, n);
            } else {
                Func y("y_g");
                y(n, t) = sum(x(r, t) * w(r, n));
                Expr v = y(n, t);
                o(t, n) = 0.5f * v * (1.0f + tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
            }
            x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
            w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
            o.set_estimate(t, 0, s.T).set_estimate(n, 0, C);
            o.output_buffer().dim(0).set_bounds(0, s.T);
            s.out = o; s.ins = {x, w};
            s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, C}}; };
            s.out_size = [=](int t) { return std::vector<int>{t, C}; };
            return s;
        }, variant == 2 ? canon_dense_gelu : canon_dense, ts);
    }
    // Attention scores with the keys as the same buffer as the queries (self-similarity, a Gram matrix).
    if (want("gram")) compare("gram", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"); RDom r(0, C, "r"); Func o("gram");
        o(j, i) = sum(x(r, i) * x(r, j));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {x};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t}; };
        return s;
    }, [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w2"); RDom r(0, C, "r"); Func o("gram_canon");
        o(j, i) = sum(x(r, i) * w(r, j));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        o.set_estimate(j, 0, s.T).set_estimate(i, 0, s.T);
        o.output_buffer().dim(0).set_bounds(0, s.T).dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, t}}; };
        s.out_size = [=](int t) { return std::vector<int>{t, t}; };
        return s;
    }, ts);
    // Q projection written per head: q(d, h, t) = sum_c x(c, t) * w(c, d + 64 h) (the weights a (768, 768) matrix).
    if (want("per_head_projection")) compare("per_head_projection", [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func o("q_heads");
        o(d, h, t) = sum(x(r, t) * w(r, d + D * h));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(d, 0, D).set_estimate(h, 0, H).set_estimate(t, 0, s.T);
        o.output_buffer().dim(2).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{D, H, t}; };
        return s;
    }, [&] {
        Inst s; s.T.set_range(1, 128); s.T.set_estimate(64);
        ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"); RDom r(0, C, "r"); Func o("q_flat");
        o(n, t) = sum(x(r, t) * w(r, n));
        x.dim(0).set_estimate(0, C).dim(1).set_estimate(0, s.T);
        w.dim(0).set_estimate(0, C).dim(1).set_estimate(0, C);
        o.set_estimate(n, 0, C).set_estimate(t, 0, s.T);
        o.output_buffer().dim(1).set_bounds(0, s.T);
        s.out = o; s.ins = {x, w};
        s.in_sizes = [=](int t) { return std::vector<std::vector<int>>{{C, t}, {C, C}}; };
        s.out_size = [=](int t) { return std::vector<int>{C, t}; };
        return s;
    }, ts);
}
