// Round 22: 20 generators written in Halide's own apps style.  Every size is a ranged scalar
// Input<int> used in the estimates (the shape family Diet reads).  Halide 14 needs constant
// estimates when no autoscheduler runs, and Mullapudi2016 / Adams2019 need constant ones too:
// the GeneratorParam `sym` (default true) selects the ranged estimates; the builds for
// Mullapudi2016, Adams2019 and the unscheduled reference use sym=false, which puts every size
// at the top of its range (the large shape), through E(param, hi); est_small=true puts them at hi/8+1
// (the small timing shape: the Adams2019@small build).
#include "Halide.h"
#include <map>
#include <set>

using namespace Halide;

namespace {

// root_all=true (the reference build): every Func the outputs reach is compute_root (serial, not
// vectorized), except the names in `skip`; fully unscheduled builds were impractically slow
// (exponential inlining in the stencil chain and pyramids, O(r^4) in the guided filter).
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

Var x{"x"}, y{"y"}, c{"c"}, n{"n"}, k{"k"}, t{"t"}, i{"i"}, j{"j"}, d{"d"}, o{"o"};

// ---------------------------------------------------------------- 1. camera pipe
class CameraPipe : public Generator<CameraPipe> {
public:
    RT22_COMMON
    Input<Buffer<uint16_t>> raw{"raw", 2};
    Input<Buffer<float>> ccm{"ccm", 2};  // [4, 3]: 3x3 matrix + offset column
    Input<float> gamma{"gamma", 2.2f, 1.0f, 3.0f};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 768};
    Output<Buffer<uint8_t>> out{"out", 3};

    Func hot_pixel_suppression(Func in) {
        Func f("hot_pix");
        Expr a = max(in(x - 2, y), in(x + 2, y), in(x, y - 2), in(x, y + 2));
        Expr b = min(in(x - 2, y), in(x + 2, y), in(x, y - 2), in(x, y + 2));
        f(x, y) = clamp(in(x, y), b, a);
        return f;
    }
    Expr avg(Expr a, Expr b) { return (a + b) / 2; }

    void generate() {
        Func rc = BoundaryConditions::repeat_edge(raw);
        Func in16("in16");
        in16(x, y) = cast<int32_t>(rc(x, y));
        Func den = hot_pixel_suppression(in16);
        // RGGB bilinear demosaic by parity
        Expr ex = (x % 2) == 0, ey = (y % 2) == 0;
        Expr g_hv = (den(x - 1, y) + den(x + 1, y) + den(x, y - 1) + den(x, y + 1)) / 4;
        Expr diag = (den(x - 1, y - 1) + den(x + 1, y - 1) + den(x - 1, y + 1) + den(x + 1, y + 1)) / 4;
        Expr horiz = avg(den(x - 1, y), den(x + 1, y));
        Expr vert = avg(den(x, y - 1), den(x, y + 1));
        Func r("r"), g("g"), b("b");
        r(x, y) = select(ex && ey, den(x, y), !ex && ey, horiz, ex && !ey, vert, diag);
        g(x, y) = select(ex == ey, g_hv, den(x, y));
        b(x, y) = select(!ex && !ey, den(x, y), ex && !ey, horiz, !ex && ey, vert, diag);
        Func corrected("corrected");
        corrected(x, y, c) = ccm(0, c) * cast<float>(r(x, y)) + ccm(1, c) * cast<float>(g(x, y)) +
                             ccm(2, c) * cast<float>(b(x, y)) + ccm(3, c);
        Func curve("curve");
        Expr v = cast<float>(i) / 1023.0f;
        curve(i) = cast<uint8_t>(clamp(255.0f * pow(v, 1.0f / gamma) + 0.5f, 0.0f, 255.0f));
        out(x, y, c) = curve(clamp(cast<int>(corrected(x, y, c)), 0, 1023));

        raw.dim(0).set_estimate(0, E(W, 1024));
        raw.dim(1).set_estimate(0, E(H, 768));
        ccm.set_estimates({{0, 4}, {0, 3}});
        gamma.set_estimate(2.2f);
        W.set_estimate(1024);
        H.set_estimate(768);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 768)}, {0, 3}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 2. Lucas-Kanade step
class LucasKanade : public Generator<LucasKanade> {
public:
    RT22_COMMON
    GeneratorParam<int> R{"R", 2};
    Input<Buffer<float>> I0{"I0", 2}, I1{"I1", 2};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 768};
    Output<Buffer<float>> flow{"flow", 3};

    void generate() {
        Func a = BoundaryConditions::repeat_edge(I0), bb = BoundaryConditions::repeat_edge(I1);
        Func Ix("Ix"), Iy("Iy"), It("It");
        Ix(x, y) = (a(x + 1, y) - a(x - 1, y)) * 0.5f;
        Iy(x, y) = (a(x, y + 1) - a(x, y - 1)) * 0.5f;
        It(x, y) = bb(x, y) - a(x, y);
        Func prods("prods");
        prods(x, y) = Tuple(Ix(x, y) * Ix(x, y), Ix(x, y) * Iy(x, y), Iy(x, y) * Iy(x, y),
                            Ix(x, y) * It(x, y), Iy(x, y) * It(x, y));
        int rr = R;
        RDom w(-rr, 2 * rr + 1, -rr, 2 * rr + 1, "w");
        Func S("S");
        S(x, y) = Tuple(0.0f, 0.0f, 0.0f, 0.0f, 0.0f);
        Tuple p = prods(x + w.x, y + w.y);
        S(x, y) = Tuple(S(x, y)[0] + p[0], S(x, y)[1] + p[1], S(x, y)[2] + p[2], S(x, y)[3] + p[3],
                        S(x, y)[4] + p[4]);
        Expr sxx = S(x, y)[0], sxy = S(x, y)[1], syy = S(x, y)[2], sxt = S(x, y)[3], syt = S(x, y)[4];
        Expr det = sxx * syy - sxy * sxy;
        Expr ok = det > 1e-2f;
        Expr u = select(ok, (-syy * sxt + sxy * syt) / det, 0.0f);
        Expr v = select(ok, (sxy * sxt - sxx * syt) / det, 0.0f);
        flow(x, y, c) = mux(c, {u, v});

        I0.dim(0).set_estimate(0, E(W, 1024));
        I0.dim(1).set_estimate(0, E(H, 768));
        I1.dim(0).set_estimate(0, E(W, 1024));
        I1.dim(1).set_estimate(0, E(H, 768));
        W.set_estimate(1024);
        H.set_estimate(768);
        flow.set_estimates({{0, E(W, 1024)}, {0, E(H, 768)}, {0, 2}});
        rootify({flow});
    }
};

// ---------------------------------------------------------------- 3. guided filter
class GuidedFilter : public Generator<GuidedFilter> {
public:
    RT22_COMMON
    Input<Buffer<float>> I{"I", 2}, P{"P", 2};
    Input<int> r{"r", 4, 1, 8};
    Input<float> eps{"eps", 0.01f, 0.0001f, 1.0f};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 768};
    Output<Buffer<float>> out{"out", 2};

    Func box(Func f, const std::string &name) {
        RDom rr(-r, 2 * r + 1, name + "_r");
        Func bx(name + "_x"), by(name);
        bx(x, y) = sum(f(x + rr, y));
        by(x, y) = sum(bx(x, y + rr)) / cast<float>((2 * r + 1) * (2 * r + 1));
        return by;
    }
    void generate() {
        Func Ic = BoundaryConditions::mirror_interior(I), Pc = BoundaryConditions::mirror_interior(P);
        Func II("II"), IP("IP");
        II(x, y) = Ic(x, y) * Ic(x, y);
        IP(x, y) = Ic(x, y) * Pc(x, y);
        Func mI = box(Ic, "mI"), mP = box(Pc, "mP"), mII = box(II, "mII"), mIP = box(IP, "mIP");
        Func A("A"), B("B");
        A(x, y) = (mIP(x, y) - mI(x, y) * mP(x, y)) / (mII(x, y) - mI(x, y) * mI(x, y) + eps);
        B(x, y) = mP(x, y) - A(x, y) * mI(x, y);
        Func Ab = BoundaryConditions::repeat_edge(A, {{0, I.dim(0).extent()}, {0, I.dim(1).extent()}});
        Func Bb = BoundaryConditions::repeat_edge(B, {{0, I.dim(0).extent()}, {0, I.dim(1).extent()}});
        Func mA = box(Ab, "mA"), mB = box(Bb, "mB");
        out(x, y) = mA(x, y) * I(x, y) + mB(x, y);

        for (auto *b : {&I, &P}) {
            b->dim(0).set_estimate(0, E(W, 1024));
            b->dim(1).set_estimate(0, E(H, 768));
        }
        r.set_estimate(8);
        eps.set_estimate(0.01f);
        W.set_estimate(1024);
        H.set_estimate(768);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 768)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 4. Canny (no hysteresis loop)
class Canny : public Generator<Canny> {
public:
    RT22_COMMON
    Input<Buffer<uint8_t>> in{"in", 2};
    Input<int> lo{"lo", 40, 0, 1000};
    Input<int> hi{"hi", 100, 0, 2000};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 768};
    Output<Buffer<uint8_t>> out{"out", 2};

    void generate() {
        Func cl = BoundaryConditions::repeat_edge(in);
        Func c32("c32"), gx5("gx5"), blur("blur");
        c32(x, y) = cast<int32_t>(cl(x, y));
        gx5(x, y) = c32(x - 2, y) + 4 * c32(x - 1, y) + 6 * c32(x, y) + 4 * c32(x + 1, y) + c32(x + 2, y);
        blur(x, y) = (gx5(x, y - 2) + 4 * gx5(x, y - 1) + 6 * gx5(x, y) + 4 * gx5(x, y + 1) + gx5(x, y + 2) + 128) / 256;
        Func gx("gx"), gy("gy");
        gx(x, y) = (blur(x + 1, y - 1) + 2 * blur(x + 1, y) + blur(x + 1, y + 1)) -
                   (blur(x - 1, y - 1) + 2 * blur(x - 1, y) + blur(x - 1, y + 1));
        gy(x, y) = (blur(x - 1, y + 1) + 2 * blur(x, y + 1) + blur(x + 1, y + 1)) -
                   (blur(x - 1, y - 1) + 2 * blur(x, y - 1) + blur(x + 1, y - 1));
        Func mag("mag"), dir("dir");
        mag(x, y) = abs(gx(x, y)) + abs(gy(x, y));
        Expr ax = abs(gx(x, y)), ay = abs(gy(x, y));
        // 0: horizontal gradient, 1: vertical, 2: diagonal /, 3: diagonal backslash
        dir(x, y) = select(ay * 256 <= 106 * ax, 0, ax * 256 <= 106 * ay, 1,
                           (gx(x, y) > 0) == (gy(x, y) > 0), 2, 3);
        Func nms("nms");
        Expr m = mag(x, y);
        Expr n1 = select(dir(x, y) == 0, mag(x - 1, y), dir(x, y) == 1, mag(x, y - 1),
                         dir(x, y) == 2, mag(x - 1, y - 1), mag(x + 1, y - 1));
        Expr n2 = select(dir(x, y) == 0, mag(x + 1, y), dir(x, y) == 1, mag(x, y + 1),
                         dir(x, y) == 2, mag(x + 1, y + 1), mag(x - 1, y + 1));
        nms(x, y) = select(m >= n1 && m > n2, m, 0);
        Func cls("cls");
        cls(x, y) = select(nms(x, y) >= hi, 2, nms(x, y) >= lo, 1, 0);
        Func clsb = BoundaryConditions::constant_exterior(cls, 0, {{0, in.dim(0).extent()}, {0, in.dim(1).extent()}});
        RDom nb(-1, 3, -1, 3, "nb");
        Func strong_near("strong_near");
        strong_near(x, y) = maximum(clsb(x + nb.x, y + nb.y));
        out(x, y) = cast<uint8_t>(select(cls(x, y) == 2, 255, cls(x, y) == 1 && strong_near(x, y) == 2, 255,
                                          cls(x, y) == 1, 128, 0));

        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 768));
        lo.set_estimate(40);
        hi.set_estimate(100);
        W.set_estimate(1024);
        H.set_estimate(768);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 768)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 5. lens blur / bokeh
class LensBlur : public Generator<LensBlur> {
public:
    RT22_COMMON
    Input<Buffer<float>> in{"in", 3};
    Input<int> R{"R", 4, 1, 8};
    Input<int> W{"W", 256, 1, 512};
    Input<int> H{"H", 256, 1, 512};
    Output<Buffer<float>> out{"out", 3};

    void generate() {
        Func cl = BoundaryConditions::repeat_edge(in);
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

        in.dim(0).set_estimate(0, E(W, 512));
        in.dim(1).set_estimate(0, E(H, 512));
        in.dim(2).set_estimate(0, 3);
        R.set_estimate(8);
        W.set_estimate(512);
        H.set_estimate(512);
        out.set_estimates({{0, E(W, 512)}, {0, E(H, 512)}, {0, 3}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 6. non-local means (Halide app form)
class NlMeans : public Generator<NlMeans> {
public:
    RT22_COMMON
    GeneratorParam<int> patch_size{"patch_size", 7};
    GeneratorParam<int> search_area{"search_area", 7};
    Input<Buffer<float>> in{"in", 3};
    Input<float> sigma{"sigma", 0.12f, 0.01f, 1.0f};
    Input<int> W{"W", 128, 1, 512};
    Input<int> H{"H", 128, 1, 512};
    Output<Buffer<float>> out{"out", 3};

    void generate() {
        Func cl = BoundaryConditions::repeat_edge(in);
        Var dx("dx"), dy("dy");
        int ps = patch_size;
        Expr inv_sigma_sq = -1.0f / (sigma * sigma * (float)(ps * ps));
        Func dc("dc");
        dc(x, y, dx, dy, c) = pow(cl(x, y, c) - cl(x + dx, y + dy, c), 2);
        Func dsum("dsum");
        RDom ch(0, 3, "ch");
        dsum(x, y, dx, dy) = sum(dc(x, y, dx, dy, ch));
        int hp = patch_size / 2;
        RDom pr(-hp, patch_size, "pr");
        Func bdx("bdx"), bd("bd");
        bdx(x, y, dx, dy) = sum(dsum(x + pr, y, dx, dy));
        bd(x, y, dx, dy) = sum(bdx(x, y + pr, dx, dy));
        Func wt("wt");
        wt(x, y, dx, dy) = fast_exp(bd(x, y, dx, dy) * inv_sigma_sq);
        Func clw("clw");
        clw(x, y, c) = mux(c, {cl(x, y, 0), cl(x, y, 1), cl(x, y, 2), 1.0f});
        int hs = search_area / 2;
        RDom s(-hs, search_area, -hs, search_area, "s");
        Func nsum("nsum");
        nsum(x, y, c) += wt(x, y, s.x, s.y) * clw(x + s.x, y + s.y, c);
        out(x, y, c) = nsum(x, y, c) / nsum(x, y, 3);

        in.dim(0).set_estimate(0, E(W, 512));
        in.dim(1).set_estimate(0, E(H, 512));
        in.dim(2).set_estimate(0, 3);
        sigma.set_estimate(0.12f);
        W.set_estimate(512);
        H.set_estimate(512);
        out.set_estimates({{0, E(W, 512)}, {0, E(H, 512)}, {0, 3}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 7. resize with a run-time scale
class Resize : public Generator<Resize> {
public:
    RT22_COMMON
    Input<Buffer<uint8_t>> in{"in", 3};
    Input<float> scale{"scale", 0.5f, 0.125f, 4.0f};
    Input<int> IW{"IW", 256, 1, 1024};
    Input<int> IH{"IH", 256, 1, 1024};
    Input<int> OW{"OW", 128, 1, 1024};
    Input<int> OH{"OH", 128, 1, 1024};
    Output<Buffer<uint8_t>> out{"out", 3};

    void generate() {
        Expr support = max(1.0f, 1.0f / scale);
        Expr taps = cast<int>(ceil(2.0f * support)) + 1;
        RDom rx(0, taps, "rx"), ry(0, taps, "ry");
        Func as_float("as_float");
        as_float(x, y, c) = cast<float>(in(clamp(x, 0, in.dim(0).max()), clamp(y, 0, in.dim(1).max()), c));
        Func bx("bx"), by("by");
        Expr sx = (x + 0.5f) / scale - 0.5f;
        Expr sy = (y + 0.5f) / scale - 0.5f;
        bx(x) = cast<int>(floor(sx - support)) + 1;
        by(y) = cast<int>(floor(sy - support)) + 1;
        Func kx("kx"), ky("ky");
        kx(x, k) = max(0.0f, 1.0f - abs(cast<float>(bx(x) + k) - sx) / support);
        ky(y, k) = max(0.0f, 1.0f - abs(cast<float>(by(y) + k) - sy) / support);
        Func nx("nx"), ny("ny");
        nx(x) = sum(kx(x, rx));
        ny(y) = sum(ky(y, ry));
        Func hp("hp");
        hp(x, y, c) = sum(kx(x, rx) * as_float(bx(x) + rx, y, c)) / nx(x);
        Func vp("vp");
        vp(x, y, c) = sum(ky(y, ry) * hp(x, clamp(by(y) + ry, 0, in.dim(1).max()), c)) / ny(y);
        out(x, y, c) = cast<uint8_t>(clamp(vp(x, y, c) + 0.5f, 0.0f, 255.0f));

        in.dim(0).set_estimate(0, E(IW, 1024));
        in.dim(1).set_estimate(0, E(IH, 1024));
        in.dim(2).set_estimate(0, 3);
        scale.set_estimate(0.5f);
        IW.set_estimate(1024);
        IH.set_estimate(1024);
        OW.set_estimate(1024);
        OH.set_estimate(1024);
        out.set_estimates({{0, E(OW, 1024)}, {0, E(OH, 1024)}, {0, 3}});
        rootify({out}, {"as_float"});
    }
};

// ---------------------------------------------------------------- 8. stencil chain
class StencilChain : public Generator<StencilChain> {
public:
    RT22_COMMON
    GeneratorParam<int> stencils{"stencils", 8};
    Input<Buffer<uint16_t>> in{"in", 2};
    Input<int> W{"W", 256, 1, 1536};
    Input<int> H{"H", 256, 1, 1536};
    Output<Buffer<uint16_t>> out{"out", 2};

    void generate() {
        std::vector<Func> st;
        st.push_back(BoundaryConditions::repeat_edge(in));
        for (int s = 0; s < (int)stencils; s++) {
            Func f("stage_" + std::to_string(s));
            Func prev = st.back();
            Expr e = cast<uint32_t>(0);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int w = (dx == 0 ? 2 : 1) * (dy == 0 ? 2 : 1);
                    e += w * cast<uint32_t>(prev(x + dx, y + dy));
                }
            f(x, y) = cast<uint16_t>((e + 8) / 16);
            st.push_back(f);
        }
        out(x, y) = st.back()(x, y);

        in.dim(0).set_estimate(0, E(W, 1536));
        in.dim(1).set_estimate(0, E(H, 1536));
        W.set_estimate(1536);
        H.set_estimate(1536);
        out.set_estimates({{0, E(W, 1536)}, {0, E(H, 1536)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 9. histogram equalization
class HistEq : public Generator<HistEq> {
public:
    RT22_COMMON
    Input<Buffer<uint8_t>> in{"in", 2};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<uint8_t>> out{"out", 2};

    void generate() {
        Func hist("hist");
        RDom r(0, in.dim(0).extent(), 0, in.dim(1).extent(), "r");
        hist(i) = 0;
        hist(cast<int>(in(r.x, r.y))) += 1;
        Func cdf("cdf");
        RDom s(1, 255, "s");
        cdf(i) = 0;
        cdf(0) = hist(0);
        cdf(s) = cdf(s - 1) + hist(s);
        Func lut("lut");
        Expr total = in.dim(0).extent() * in.dim(1).extent();
        Expr denom = max(total - cdf(0), 1);
        lut(i) = cast<uint8_t>(clamp((cast<int64_t>(cdf(i) - cdf(0)) * 255 + denom / 2) / denom, 0, 255));
        out(x, y) = lut(cast<int>(in(x, y)));

        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 1024));
        W.set_estimate(1024);
        H.set_estimate(1024);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 10. IIR blur both directions, both axes
class IirBlur : public Generator<IirBlur> {
public:
    RT22_COMMON
    Input<Buffer<float>> in{"in", 3};
    Input<float> alpha{"alpha", 0.1f, 0.01f, 0.99f};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<float>> out{"out", 3};

    // causal then anti-causal first-order IIR along y
    Func blur_y(Func f, Expr height, const std::string &nm) {
        Func causal(nm + "_causal"), anti(nm + "_anti");
        RDom ry(1, height - 1, nm + "_ry");
        causal(x, y, c) = f(x, y, c);
        causal(x, ry, c) = (1.0f - alpha) * causal(x, ry - 1, c) + alpha * f(x, ry, c);
        anti(x, y, c) = causal(x, y, c);
        Expr yr = height - 1 - ry;
        anti(x, yr, c) = (1.0f - alpha) * anti(x, yr + 1, c) + alpha * causal(x, yr, c);
        return anti;
    }
    Func blur_x(Func f, Expr width, const std::string &nm) {
        Func causal(nm + "_causal"), anti(nm + "_anti");
        RDom rx(1, width - 1, nm + "_rx");
        causal(x, y, c) = f(x, y, c);
        causal(rx, y, c) = (1.0f - alpha) * causal(rx - 1, y, c) + alpha * f(rx, y, c);
        anti(x, y, c) = causal(x, y, c);
        Expr xr = width - 1 - rx;
        anti(xr, y, c) = (1.0f - alpha) * anti(xr + 1, y, c) + alpha * causal(xr, y, c);
        return anti;
    }
    void generate() {
        Func src("src");
        src(x, y, c) = in(x, y, c);
        Func by = blur_y(src, in.dim(1).extent(), "by");
        Func bx = blur_x(by, in.dim(0).extent(), "bx");
        out(x, y, c) = bx(x, y, c);

        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 1024));
        in.dim(2).set_estimate(0, 3);
        alpha.set_estimate(0.1f);
        W.set_estimate(1024);
        H.set_estimate(1024);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}, {0, 3}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 11. STFT magnitude (DFT by RDom)
class Stft : public Generator<Stft> {
public:
    RT22_COMMON
    GeneratorParam<int> win{"win", 64};
    GeneratorParam<int> hop{"hop", 32};
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
        mag.set_estimates({{0, (int)win / 2 + 1}, {0, E(F, 1024)}});
        rootify({mag});
    }
};

// ---------------------------------------------------------------- 12. conv + bias + ReLU, NHWC ([c, x, y, n])
class ConvReluNHWC : public Generator<ConvReluNHWC> {
public:
    RT22_COMMON
    Input<Buffer<float>> input{"input", 4};    // [CI, W+2, H+2, N]
    Input<Buffer<float>> filter{"filter", 4};  // [CO, CI, 3, 3]
    Input<Buffer<float>> bias{"bias", 1};
    Input<int> CI{"CI", 32, 1, 64};
    Input<int> CO{"CO", 32, 1, 64};
    Input<int> W{"W", 32, 1, 64};
    Input<int> H{"H", 32, 1, 64};
    Input<int> N{"N", 1, 1, 4};
    Output<Buffer<float>> out{"out", 4};

    void generate() {
        RDom r(0, input.dim(0).extent(), 0, 3, 0, 3, "r");
        Func conv("conv");
        conv(c, x, y, n) = bias(c);
        conv(c, x, y, n) += filter(c, r.x, r.y, r.z) * input(r.x, x + r.y, y + r.z, n);
        out(c, x, y, n) = max(0.0f, conv(c, x, y, n));

        input.dim(0).set_estimate(0, E(CI, 64));
        input.dim(1).set_estimate(0, E(W, 64) + 2);
        input.dim(2).set_estimate(0, E(H, 64) + 2);
        input.dim(3).set_estimate(0, E(N, 4));
        filter.set_estimates({{0, E(CO, 64)}, {0, E(CI, 64)}, {0, 3}, {0, 3}});
        bias.dim(0).set_estimate(0, E(CO, 64));
        CI.set_estimate(64);
        CO.set_estimate(64);
        W.set_estimate(64);
        H.set_estimate(64);
        N.set_estimate(4);
        out.set_estimates({{0, E(CO, 64)}, {0, E(W, 64)}, {0, E(H, 64)}, {0, E(N, 4)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 13. depthwise-separable, NCHW ([x, y, c, n])
class DwSep : public Generator<DwSep> {
public:
    RT22_COMMON
    Input<Buffer<float>> input{"input", 4};  // [W, H, C, N]
    Input<Buffer<float>> dw{"dw", 3};        // [3, 3, C]
    Input<Buffer<float>> dwb{"dwb", 1};      // [C]
    Input<Buffer<float>> pw{"pw", 2};        // [C, CO]
    Input<Buffer<float>> pwb{"pwb", 1};      // [CO]
    Input<int> W{"W", 56, 1, 112};
    Input<int> H{"H", 56, 1, 112};
    Input<int> C{"C", 32, 1, 64};
    Input<int> CO{"CO", 32, 1, 64};
    Input<int> N{"N", 1, 1, 2};
    Output<Buffer<float>> out{"out", 4};

    void generate() {
        Func inp("inp");
        inp(x, y, c, n) = input(x, y, c, n);
        Func pad = BoundaryConditions::constant_exterior(inp, 0.0f, {{0, input.dim(0).extent()}, {0, input.dim(1).extent()}});
        RDom k3(-1, 3, -1, 3, "k3");
        Func dconv("dconv");
        dconv(x, y, c, n) = dwb(c);
        dconv(x, y, c, n) += dw(k3.x + 1, k3.y + 1, c) * pad(x + k3.x, y + k3.y, c, n);
        Func relu6("relu6");
        relu6(x, y, c, n) = clamp(dconv(x, y, c, n), 0.0f, 6.0f);
        RDom rc(0, input.dim(2).extent(), "rc");
        Func pconv("pconv");
        pconv(x, y, o, n) = pwb(o);
        pconv(x, y, o, n) += pw(rc, o) * relu6(x, y, rc, n);
        out(x, y, o, n) = max(0.0f, pconv(x, y, o, n));

        input.set_estimates({{0, E(W, 112)}, {0, E(H, 112)}, {0, E(C, 64)}, {0, E(N, 2)}});
        dw.set_estimates({{0, 3}, {0, 3}, {0, E(C, 64)}});
        dwb.set_estimates({{0, E(C, 64)}});
        pw.set_estimates({{0, E(C, 64)}, {0, E(CO, 64)}});
        pwb.set_estimates({{0, E(CO, 64)}});
        W.set_estimate(112);
        H.set_estimate(112);
        C.set_estimate(64);
        CO.set_estimate(64);
        N.set_estimate(2);
        out.set_estimates({{0, E(W, 112)}, {0, E(H, 112)}, {0, E(CO, 64)}, {0, E(N, 2)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 14. fully connected, T ranged
class FullyConnected : public Generator<FullyConnected> {
public:
    RT22_COMMON
    GeneratorParam<int> K{"K", 512};
    GeneratorParam<int> O{"O", 512};
    Input<Buffer<float>> xin{"xin", 2};  // [K, T]
    Input<Buffer<float>> w{"w", 2};      // [K, O]
    Input<Buffer<float>> b{"b", 1};      // [O]
    Input<int> T{"T", 32, 1, 256};
    Output<Buffer<float>> out{"out", 2};  // [O, T]

    void generate() {
        RDom r(0, (int)K, "r");
        Func dot("dot");
        dot(o, t) = sum(xin(r, t) * w(r, o));
        out(o, t) = max(0.0f, dot(o, t) + b(o));

        xin.set_estimates({{0, (int)K}, {0, E(T, 256)}});
        w.set_estimates({{0, (int)K}, {0, (int)O}});
        b.set_estimates({{0, (int)O}});
        T.set_estimate(256);
        out.set_estimates({{0, (int)O}, {0, E(T, 256)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 15. attention head (softmax + matmuls)
class Attention : public Generator<Attention> {
public:
    RT22_COMMON
    GeneratorParam<int> D{"D", 64};
    Input<Buffer<float>> q{"q", 2}, kk{"kk", 2}, v{"v", 2};  // [D, T]
    Input<int> T{"T", 64, 1, 256};
    Output<Buffer<float>> out{"out", 2};

    void generate() {
        RDom rd(0, (int)D, "rd");
        Func s("scores");
        float sc = 1.0f / std::sqrt((float)(int)D);
        s(j, i) = sum(q(rd, i) * kk(rd, j)) * sc;
        RDom rj(0, q.dim(1).extent(), "rj");
        Func mx("mx"), e("e"), den("den");
        mx(i) = maximum(s(rj, i));
        e(j, i) = exp(s(j, i) - mx(i));
        den(i) = sum(e(rj, i));
        Func p("p");
        p(j, i) = e(j, i) / den(i);
        Func ov("ov");
        ov(d, i) = 0.0f;
        ov(d, i) += p(rj, i) * v(d, rj);
        out(d, i) = ov(d, i);

        for (auto *b : {&q, &kk, &v}) b->set_estimates({{0, (int)D}, {0, E(T, 256)}});
        T.set_estimate(256);
        out.set_estimates({{0, (int)D}, {0, E(T, 256)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 16. layer norm
class LayerNorm : public Generator<LayerNorm> {
public:
    RT22_COMMON
    Input<Buffer<float>> xin{"xin", 2};  // [C, T]
    Input<Buffer<float>> gamma{"gamma", 1}, beta{"beta", 1};
    Input<int> C{"C", 256, 1, 1024};
    Input<int> T{"T", 64, 1, 512};
    Output<Buffer<float>> out{"out", 2};

    void generate() {
        RDom r(0, xin.dim(0).extent(), "r");
        Func mean("mean"), var("var");
        Expr inv_c = 1.0f / cast<float>(xin.dim(0).extent());
        mean(t) = sum(xin(r, t)) * inv_c;
        Expr dd = xin(r, t) - mean(t);
        var(t) = sum(dd * dd) * inv_c;
        Func rstd("rstd");
        rstd(t) = 1.0f / sqrt(var(t) + 1e-5f);
        out(c, t) = (xin(c, t) - mean(t)) * rstd(t) * gamma(c) + beta(c);

        xin.set_estimates({{0, E(C, 1024)}, {0, E(T, 512)}});
        gamma.set_estimates({{0, E(C, 1024)}});
        beta.set_estimates({{0, E(C, 1024)}});
        C.set_estimate(1024);
        T.set_estimate(512);
        out.set_estimates({{0, E(C, 1024)}, {0, E(T, 512)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 17. int8 quantized matmul + requantization
class QMatmul : public Generator<QMatmul> {
public:
    RT22_COMMON
    GeneratorParam<int> shift{"shift", 16};
    Input<Buffer<uint8_t>> a{"a", 2};  // [K, M]
    Input<Buffer<int8_t>> b{"b", 2};   // [K, N]
    Input<Buffer<int32_t>> bias{"bias", 1};  // [N]
    Input<int> za{"za", 128, 0, 255};
    Input<int> qm{"qm", 1024, 1, 32767};
    Input<int> zo{"zo", 0, 0, 255};
    Input<int> K{"K", 256, 4, 512};
    Input<int> M{"M", 64, 1, 256};
    Input<int> N{"N", 64, 1, 256};
    Output<Buffer<uint8_t>> out{"out", 2};  // [N, M]

    void generate() {
        RDom r(0, a.dim(0).extent(), "r");
        Func acc("acc");
        acc(n, t) = bias(n);
        acc(n, t) += cast<int32_t>(a(r, t)) * cast<int32_t>(b(r, n));
        Func bsum("bsum");
        bsum(n) = sum(cast<int32_t>(b(r, n)));
        Expr centered = acc(n, t) - za * bsum(n);
        Expr scaled = (cast<int64_t>(centered) * qm + cast<int64_t>(1 << ((int)shift - 1))) >> (int)shift;
        out(n, t) = cast<uint8_t>(clamp(scaled + zo, 0, 255));

        a.set_estimates({{0, E(K, 512)}, {0, E(M, 256)}});
        b.set_estimates({{0, E(K, 512)}, {0, E(N, 256)}});
        bias.set_estimates({{0, E(N, 256)}});
        za.set_estimate(128);
        qm.set_estimate(1024);
        zo.set_estimate(0);
        K.set_estimate(512);
        M.set_estimate(256);
        N.set_estimate(256);
        out.set_estimates({{0, E(N, 256)}, {0, E(M, 256)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 18. breaker: argmax (Tuple reduction) + gather
class ArgmaxGather : public Generator<ArgmaxGather> {
public:
    RT22_COMMON
    Input<Buffer<float>> logits{"logits", 2};  // [V, T]
    Input<Buffer<float>> emb{"emb", 2};        // [D, V]
    Input<int> V{"V", 1000, 1, 4096};
    Input<int> T{"T", 32, 1, 128};
    Input<int> D{"D", 64, 1, 128};
    Output<Buffer<float>> out{"out", 2};        // [D, T]
    Output<Buffer<int32_t>> idx{"idx", 1};      // [T]

    void generate() {
        RDom rv(0, logits.dim(0).extent(), "rv");
        Func am("am");
        am(t) = argmax(logits(rv, t));
        idx(t) = cast<int32_t>(am(t)[0]);
        Expr id = clamp(am(t)[0], 0, emb.dim(1).max());
        Func g("g");
        g(d, t) = emb(d, id) * am(t)[1];
        out(d, t) = g(d, t);

        logits.set_estimates({{0, E(V, 4096)}, {0, E(T, 128)}});
        emb.set_estimates({{0, E(D, 128)}, {0, E(V, 4096)}});
        V.set_estimate(4096);
        T.set_estimate(128);
        D.set_estimate(128);
        out.set_estimates({{0, E(D, 128)}, {0, E(T, 128)}});
        idx.set_estimates({{0, E(T, 128)}});
        rootify({out, idx});
    }
};

// ---------------------------------------------------------------- 19. breaker: summed-area table box filter
class SatBox : public Generator<SatBox> {
public:
    RT22_COMMON
    Input<Buffer<uint8_t>> in{"in", 2};
    Input<int> R{"R", 4, 0, 32};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<uint8_t>> out{"out", 2};

    void generate() {
        Expr w = in.dim(0).extent(), h = in.dim(1).extent();
        Func satx("satx"), sat("sat");
        RDom rx(1, w - 1, "rx"), ry(1, h - 1, "ry");
        satx(x, y) = cast<uint32_t>(in(x, y));
        satx(rx, y) += satx(rx - 1, y);
        sat(x, y) = satx(x, y);
        sat(x, ry) += sat(x, ry - 1);
        // inclusive sums; S(x, y) with x or y = -1 is 0
        Func S("S");
        S(x, y) = select(x < 0 || y < 0, cast<uint32_t>(0), sat(clamp(x, 0, w - 1), clamp(y, 0, h - 1)));
        Expr x0 = max(x - R, 0) - 1, x1 = min(x + R, w - 1);
        Expr y0 = max(y - R, 0) - 1, y1 = min(y + R, h - 1);
        Expr total = S(x1, y1) - S(x0, y1) - S(x1, y0) + S(x0, y0);
        Expr area = cast<uint32_t>((x1 - x0) * (y1 - y0));
        out(x, y) = cast<uint8_t>((total + area / 2) / area);

        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 1024));
        R.set_estimate(32);
        W.set_estimate(1024);
        H.set_estimate(1024);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}});
        rootify({out});
    }
};

// ---------------------------------------------------------------- 20. breaker: pyramid with levels unrolled at generator time + 0-d output
class PyramidDetail : public Generator<PyramidDetail> {
public:
    RT22_COMMON
    GeneratorParam<int> levels{"levels", 5};
    Input<Buffer<float>> in{"in", 2};
    Input<Buffer<float>> gains{"gains", 1};  // [levels]
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<float>> out{"out", 2};
    Output<float> energy{"energy"};

    Func down(Func f, const std::string &nm) {
        Func dx(nm + "_dx"), dy(nm);
        dx(x, y) = (f(2 * x - 1, y) + 3.0f * f(2 * x, y) + 3.0f * f(2 * x + 1, y) + f(2 * x + 2, y)) * 0.125f;
        dy(x, y) = (dx(x, 2 * y - 1) + 3.0f * dx(x, 2 * y) + 3.0f * dx(x, 2 * y + 1) + dx(x, 2 * y + 2)) * 0.125f;
        return dy;
    }
    Func up(Func f, const std::string &nm) {
        Func ux(nm + "_ux"), uy(nm);
        ux(x, y) = 0.25f * f((x / 2) - 1 + 2 * (x % 2), y) + 0.75f * f(x / 2, y);
        uy(x, y) = 0.25f * ux(x, (y / 2) - 1 + 2 * (y % 2)) + 0.75f * ux(x, y / 2);
        return uy;
    }
    void generate() {
        int J = levels;
        std::vector<Func> g(J), l(J);
        g[0] = BoundaryConditions::repeat_edge(in);
        for (int j = 1; j < J; j++) g[j] = down(g[j - 1], "g" + std::to_string(j));
        l[J - 1] = g[J - 1];
        for (int j = J - 2; j >= 0; j--) {
            Func u = up(g[j + 1], "u" + std::to_string(j));
            l[j] = Func("l" + std::to_string(j));
            l[j](x, y) = g[j](x, y) - u(x, y);
        }
        std::vector<Func> rec(J);
        rec[J - 1] = Func("rec" + std::to_string(J - 1));
        rec[J - 1](x, y) = gains(J - 1) * l[J - 1](x, y);
        for (int j = J - 2; j >= 0; j--) {
            Func u = up(rec[j + 1], "ru" + std::to_string(j));
            rec[j] = Func("rec" + std::to_string(j));
            rec[j](x, y) = u(x, y) + gains(j) * l[j](x, y);
        }
        out(x, y) = rec[0](x, y);
        RDom r(0, in.dim(0).extent(), 0, in.dim(1).extent(), "re");
        energy() = sum(l[0](r.x, r.y) * l[0](r.x, r.y)) / cast<float>(in.dim(0).extent() * in.dim(1).extent());

        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 1024));
        gains.set_estimates({{0, (int)levels}});
        W.set_estimate(1024);
        H.set_estimate(1024);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}});
        rootify({out, energy});
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
HALIDE_REGISTER_GENERATOR(LucasKanade, lucas_kanade)
HALIDE_REGISTER_GENERATOR(GuidedFilter, guided_filter)
HALIDE_REGISTER_GENERATOR(Canny, canny)
HALIDE_REGISTER_GENERATOR(LensBlur, lens_blur)
HALIDE_REGISTER_GENERATOR(NlMeans, nl_means)
HALIDE_REGISTER_GENERATOR(Resize, resize)
HALIDE_REGISTER_GENERATOR(StencilChain, stencil_chain)
HALIDE_REGISTER_GENERATOR(HistEq, hist_eq)
HALIDE_REGISTER_GENERATOR(IirBlur, iir_blur)
HALIDE_REGISTER_GENERATOR(Stft, stft)
HALIDE_REGISTER_GENERATOR(ConvReluNHWC, conv_relu_nhwc)
HALIDE_REGISTER_GENERATOR(DwSep, dwsep_nchw)
HALIDE_REGISTER_GENERATOR(FullyConnected, fc_relu)
HALIDE_REGISTER_GENERATOR(Attention, attention)
HALIDE_REGISTER_GENERATOR(LayerNorm, layernorm)
HALIDE_REGISTER_GENERATOR(QMatmul, qmatmul_u8i8)
HALIDE_REGISTER_GENERATOR(ArgmaxGather, argmax_gather)
HALIDE_REGISTER_GENERATOR(SatBox, sat_box)
HALIDE_REGISTER_GENERATOR(PyramidDetail, pyramid_detail)
