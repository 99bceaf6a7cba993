// Round 22 repro variants: each isolates one suspected trigger of a slow Diet schedule (see REPORT.md).
#include "Halide.h"
#include <map>
#include <set>
using namespace Halide;
namespace {
#define RT22_COMMON                                                                    \
    GeneratorParam<bool> sym{"sym", true};                                             \
    GeneratorParam<bool> root_all{"root_all", false};                                  \
    GeneratorParam<bool> est_small{"est_small", false};                                \
    Expr E(const Input<int> &p, int hi) {                                              \
        if (sym && auto_schedule) return Expr(p);                                      \
        return est_small ? Expr(hi / 8 + 1) : Expr(hi);                               \
    }                                                                                  \
    void rootify(std::vector<Func> outs, std::set<std::string> skip = {}) {           \
        if (auto_schedule || !root_all) return;                                        \
        std::map<std::string, Internal::Function> env;                                 \
        for (auto &f : outs) {                                                         \
            auto m = Internal::find_transitive_calls(f.function());                    \
            env.insert(m.begin(), m.end());                                            \
        }                                                                              \
        for (auto &kv : env)                                                           \
            if (!skip.count(kv.first)) Func(kv.second).compute_root();                 \
    }
Var x{"x"}, y{"y"}, c{"c"}, n{"n"}, k{"k"}, t{"t"}, i{"i"}, d{"d"};

// lens blur on a pre-padded input (8 pixels each side): no boundary condition, so no clamped index
class LensBlurPadded : public Generator<LensBlurPadded> {
public:
    RT22_COMMON
    Input<Buffer<float>> in{"in", 3};  // [W+16, H+16, 3]
    Input<int> R{"R", 4, 1, 8};
    Input<int> W{"W", 256, 1, 512};
    Input<int> H{"H", 256, 1, 512};
    Output<Buffer<float>> out{"out", 3};
    void generate() {
        Func cl("cl");
        cl(x, y, c) = in(x + 8, y + 8, c);
        Func lum("lum"), wgt("wgt");
        lum(x, y) = 0.25f * cl(x, y, 0) + 0.5f * cl(x, y, 1) + 0.25f * cl(x, y, 2);
        wgt(x, y) = 1.0f + 8.0f * pow(lum(x, y), 4);
        RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "disc");
        r.where(r.x * r.x + r.y * r.y <= R * R);
        Func acc("acc");
        acc(x, y, c) = Tuple(0.0f, 0.0f);
        Expr w = wgt(x + r.x, y + r.y);
        acc(x, y, c) = Tuple(acc(x, y, c)[0] + w * cl(x + r.x, y + r.y, c), acc(x, y, c)[1] + w);
        out(x, y, c) = acc(x, y, c)[0] / acc(x, y, c)[1];
        in.dim(0).set_estimate(0, E(W, 512) + 16);
        in.dim(1).set_estimate(0, E(H, 512) + 16);
        in.dim(2).set_estimate(0, 3);
        R.set_estimate(8); W.set_estimate(512); H.set_estimate(512);
        out.set_estimates({{0, E(W, 512)}, {0, E(H, 512)}, {0, 3}});
        rootify({out});
    }
};

// STFT with GeneratorParam bins (33 in the round's generator; 32 here: no bin past a vector multiple)
class StftBins : public Generator<StftBins> {
public:
    RT22_COMMON
    GeneratorParam<int> win{"win", 64};
    GeneratorParam<int> hop{"hop", 32};
    GeneratorParam<int> bins{"bins", 32};
    Input<Buffer<float>> sig{"sig", 1};
    Input<int> F{"F", 64, 1, 1024};
    Output<Buffer<float>> mag{"mag", 2};
    void generate() {
        const float pi = 3.14159265358979f;
        Func hann("hann");
        hann(n) = 0.5f - 0.5f * cos(2.0f * pi * cast<float>(n) / (float)(int)win);
        Func frame("frame");
        frame(n, t) = sig(t * (int)hop + n) * hann(n);
        Func tw("tw");
        Expr ang = -2.0f * pi * cast<float>((k * n) % (int)win) / (float)(int)win;
        tw(k, n) = Tuple(cos(ang), sin(ang));
        RDom r(0, (int)win, "r");
        Func dft("dft");
        dft(k, t) = Tuple(0.0f, 0.0f);
        dft(k, t) = Tuple(dft(k, t)[0] + frame(r, t) * tw(k, r)[0], dft(k, t)[1] + frame(r, t) * tw(k, r)[1]);
        mag(k, t) = sqrt(dft(k, t)[0] * dft(k, t)[0] + dft(k, t)[1] * dft(k, t)[1]);
        sig.dim(0).set_estimate(0, E(F, 1024) * (int)hop + (int)win - (int)hop);
        F.set_estimate(1024);
        mag.set_estimates({{0, (int)bins}, {0, E(F, 1024)}});
        rootify({mag});
    }
};

// argmax + gather with the logits stored [T, V] (t innermost): the argmax's pure loop is the dense one
class ArgmaxTInner : public Generator<ArgmaxTInner> {
public:
    RT22_COMMON
    Input<Buffer<float>> logits{"logits", 2};  // [T, V]
    Input<Buffer<float>> emb{"emb", 2};        // [D, V]
    Input<int> V{"V", 1000, 1, 4096};
    Input<int> T{"T", 32, 1, 128};
    Input<int> D{"D", 64, 1, 128};
    Output<Buffer<float>> out{"out", 2};
    Output<Buffer<int32_t>> idx{"idx", 1};
    void generate() {
        RDom rv(0, logits.dim(1).extent(), "rv");
        Func am("am");
        am(t) = argmax(logits(t, rv));
        idx(t) = cast<int32_t>(am(t)[0]);
        Expr id = clamp(am(t)[0], 0, emb.dim(1).max());
        Func g("g");
        g(d, t) = emb(d, id) * am(t)[1];
        out(d, t) = g(d, t);
        logits.set_estimates({{0, E(T, 128)}, {0, E(V, 4096)}});
        emb.set_estimates({{0, E(D, 128)}, {0, E(V, 4096)}});
        V.set_estimate(4096); T.set_estimate(128); D.set_estimate(128);
        out.set_estimates({{0, E(D, 128)}, {0, E(T, 128)}});
        idx.set_estimates({{0, E(T, 128)}});
        rootify({out, idx});
    }
};

// the same [V, T] layout as the round's argmax_gather, but a plain maximum (no Tuple, no index, no gather)
class MaxOnly : public Generator<MaxOnly> {
public:
    RT22_COMMON
    Input<Buffer<float>> logits{"logits", 2};  // [V, T]
    Input<int> V{"V", 1000, 1, 4096};
    Input<int> T{"T", 32, 1, 128};
    Output<Buffer<float>> out{"out", 1};
    void generate() {
        RDom rv(0, logits.dim(0).extent(), "rv");
        out(t) = maximum(logits(rv, t));
        logits.set_estimates({{0, E(V, 4096)}, {0, E(T, 128)}});
        V.set_estimate(4096); T.set_estimate(128);
        out.set_estimates({{0, E(T, 128)}});
        rootify({out});
    }
};
// non-local means on a pre-padded input (6 pixels each side: search 3 + patch 3): no boundary condition
class NlMeansPadded : public Generator<NlMeansPadded> {
public:
    RT22_COMMON
    Input<Buffer<float>> in{"in", 3};  // [W+12, H+12, 3]
    Input<float> sigma{"sigma", 0.12f, 0.01f, 1.0f};
    Input<int> W{"W", 128, 1, 512};
    Input<int> H{"H", 128, 1, 512};
    Output<Buffer<float>> out{"out", 3};
    void generate() {
        Func cl("cl");
        cl(x, y, c) = in(x + 6, y + 6, c);
        Var dx("dx"), dy("dy");
        Expr inv_sigma_sq = -1.0f / (sigma * sigma * 49.0f);
        Func dc("dc");
        dc(x, y, dx, dy, c) = pow(cl(x, y, c) - cl(x + dx, y + dy, c), 2);
        Func dsum("dsum");
        RDom ch(0, 3, "ch");
        dsum(x, y, dx, dy) = sum(dc(x, y, dx, dy, ch));
        RDom pr(-3, 7, "pr");
        Func bdx("bdx"), bd("bd");
        bdx(x, y, dx, dy) = sum(dsum(x + pr, y, dx, dy));
        bd(x, y, dx, dy) = sum(bdx(x, y + pr, dx, dy));
        Func wt("wt");
        wt(x, y, dx, dy) = fast_exp(bd(x, y, dx, dy) * inv_sigma_sq);
        Func clw("clw");
        clw(x, y, c) = mux(c, {cl(x, y, 0), cl(x, y, 1), cl(x, y, 2), 1.0f});
        RDom s(-3, 7, -3, 7, "s");
        Func nsum("nsum");
        nsum(x, y, c) += wt(x, y, s.x, s.y) * clw(x + s.x, y + s.y, c);
        out(x, y, c) = nsum(x, y, c) / nsum(x, y, 3);
        in.dim(0).set_estimate(0, E(W, 512) + 12);
        in.dim(1).set_estimate(0, E(H, 512) + 12);
        in.dim(2).set_estimate(0, 3);
        sigma.set_estimate(0.12f); W.set_estimate(512); H.set_estimate(512);
        out.set_estimates({{0, E(W, 512)}, {0, E(H, 512)}, {0, 3}});
        rootify({out});
    }
};
}  // namespace
HALIDE_REGISTER_GENERATOR(LensBlurPadded, lens_blur_padded)
HALIDE_REGISTER_GENERATOR(StftBins, stft_bins32)
HALIDE_REGISTER_GENERATOR(ArgmaxTInner, argmax_t_inner)
HALIDE_REGISTER_GENERATOR(MaxOnly, max_only)
HALIDE_REGISTER_GENERATOR(NlMeansPadded, nl_means_padded)
