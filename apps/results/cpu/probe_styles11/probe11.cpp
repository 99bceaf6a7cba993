// Probe 11: more image pipelines in other people's styles (a bilateral filter with exp() weights
// over a 5x5 window, a separable Gaussian with a kernel Func, a convolution whose kernel is an
// input of run-time size, RGBA downsampling, an argmin with a Tuple, an unsharp mask in uint8 with
// saturation, normalization by a global sum, a Bayer demosaic with select() on parities, RGB to HSV
// with select chains, histogram equalization). Same harness as probe 10. Image side S is a run-time Param in [8, 2048]. Each is scheduled by Diet
// (defaults, estimates in terms of S), by Adams2019 (constant estimates at S = 1024: what a user
// would pick instead) and with every Func at root ("plain", the reference), checked against the
// reference and timed (min of 10 calls after one warm-up).
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
    else if (t == UInt(16)) b.as<uint16_t>().for_each_value([&](uint16_t &v) { v = g() % 65536; });
    else b.as<float>().for_each_value([&](float &v) { v = (g() % 2001) / 1000.0f; });
    return b;
}
static double value(const Buffer<> &b, const int *pos) {
    if (b.type() == UInt(8)) return b.as<uint8_t>()(pos);
    if (b.type() == UInt(16)) return b.as<uint16_t>()(pos);
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
static void probe(const char *name, Builder f, std::vector<int> sides) {
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
        pa.auto_schedule("Adams2019", tgt, MachineParams(2, 1 << 20, 40));
        double t2 = now();
        if (getenv("STMT")) pd.compile_to_lowered_stmt(std::string(getenv("STMT")) + "_" + name + ".stmt", pd.infer_arguments(), Halide::Text, tgt);
        pd.compile_jit(tgt);
        pa.compile_jit(tgt);
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
            // Adams2019's tiles assume the estimate's extents: run only there (elsewhere its reads
            // go out of bounds). Its pyramid3 segfaulted at S = 1536 and at 1024 (in its own
            // pyramid_out$1 loop, gdb), so it is not run there.
            if (side == 1024 && std::string(name) != "pyramid3") try { ta = time_at(a, pa, side, oa, in); } catch (std::exception &e) { ea = e.what(); }
            double err = 0, erra = 0, mag = 0;
            orf.for_each_element([&](const int *pos) {
                if (td > 0) err = std::max(err, std::abs(value(od, pos) - value(orf, pos)));
                if (ta > 0) erra = std::max(erra, std::abs(value(oa, pos) - value(orf, pos)));
                mag = std::max(mag, std::abs(value(orf, pos)));
            });
            // Integer outputs may differ by one where float rounding differs between schedules.
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
    load_plugin("/work/main/build/libautoschedule_diet.so");
    load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so");
    tgt = Target(getenv("TGT"));
    std::string only = argc > 1 ? argv[1] : "";
    auto want = [&](const char *n) { return only.empty() || only.find(n) != std::string::npos; };
    Var x("x"), y("y"), c("c");
    std::vector<int> sides = {8, 61, 509, 1024, 1536};
    // E(s, sym, num, den): S * num / den, symbolic or at the estimate S = 1024.
    auto E = [](Inst &s, bool sym, int num = 1, int den = 1) { return sym ? Expr(s.S) * num / den : Expr(1024 * num / den); };
    auto range = [](Inst &s) { s.S.set_range(8, 2048); s.S.set_estimate(1024); };
    auto est2 = [&](Inst &s, bool sym, ImageParam &p, int lead = 0) {
        int d = 0;
        if (lead) p.dim(d++).set_estimate(0, lead);
        p.dim(d).set_estimate(0, E(s, sym)).dim(d + 1).set_estimate(0, E(s, sym));
    };


    // 1. Bilateral filter over a 5x5 window: weights exp(-d^2) of the intensity difference.
    if (want("bilateral5")) probe("bilateral5", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(Float(32), 2, "in"); Func e("edge"), num("num"), den("den"), o("bilateral");
        e = BoundaryConditions::repeat_edge(in);
        RDom r(-2, 5, -2, 5, "r");
        Expr d = e(x + r.x, y + r.y) - e(x, y);
        Expr w = exp(-(d * d) * 8.0f - (r.x * r.x + r.y * r.y) * 0.125f);
        num(x, y) = sum(w * e(x + r.x, y + r.y));
        den(x, y) = sum(w);
        o(x, y) = num(x, y) / den(x, y);
        est2(s, sym, in);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 2. Separable 7-tap Gaussian with a kernel Func and RDom sums, mirrored edges, float.
    if (want("sep_gauss7")) probe("sep_gauss7", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(Float(32), 2, "in"); Func k("kernel"), m("mirror"), bx("blur_x"), by("blur_y");
        Var i("i");
        k(i) = exp(-(i * i) / 4.5f) / 3.7603f;
        m = BoundaryConditions::mirror_image(in);
        RDom r(-3, 7, "r");
        bx(x, y) = sum(m(x + r, y) * k(r));
        by(x, y) = sum(bx(x, y + r) * k(r));
        est2(s, sym, in);
        by.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = by; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 3. A convolution whose kernel is an input (5x5 here), its RDom from the kernel's extents.
    if (want("conv_kernel_input")) probe("conv_kernel_input", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(Float(32), 2, "in"), kern(Float(32), 2, "kern"); Func z("zero_pad"), o("convolved");
        z = BoundaryConditions::constant_exterior(in, 0.0f);
        RDom r(0, kern.width(), 0, kern.height(), "r");
        o(x, y) = sum(z(x + r.x - kern.width() / 2, y + r.y - kern.height() / 2) * kern(r.x, r.y));
        est2(s, sym, in);
        kern.dim(0).set_estimate(0, 5).dim(1).set_estimate(0, 5);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in, kern};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}, {5, 5}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 4. RGBA uint8 interleaved, 2x2 box downsampling with rounding (output half size).
    if (want("rgba_down2")) probe("rgba_down2", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(UInt(8), 3, "rgba"); Func o("down2");
        Expr v = cast<uint16_t>(in(c, 2 * x, 2 * y)) + in(c, 2 * x + 1, 2 * y) + in(c, 2 * x, 2 * y + 1) + in(c, 2 * x + 1, 2 * y + 1);
        o(c, x, y) = cast<uint8_t>((v + 2) / 4);
        est2(s, sym, in, 4);
        o.set_estimate(c, 0, 4).set_estimate(x, 0, E(s, sym, 1, 2)).set_estimate(y, 0, E(s, sym, 1, 2));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{4, n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{4, n / 2, n / 2}; };
        return s; }, sides);
    // 5. The index of the smallest of 8 channel values per pixel (argmin, a Tuple reduction).
    if (want("argmin_channels")) probe("argmin_channels", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(Float(32), 3, "in"); Func o("nearest");
        RDom r(0, 8, "r");
        o(x, y) = argmin(in(x, y, r))[0];
        in.dim(0).set_estimate(0, E(s, sym)).dim(1).set_estimate(0, E(s, sym)).dim(2).set_estimate(0, 8);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n, 8}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 6. Unsharp mask in uint8: a 3x3 box blur in uint16, the detail amplified, saturated.
    if (want("unsharp_u8")) probe("unsharp_u8", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(UInt(8), 2, "in"); Func e("edge"), bx("box_x"), bl("box"), o("sharpened");
        e = BoundaryConditions::repeat_edge(in);
        bx(x, y) = cast<uint16_t>(e(x - 1, y)) + e(x, y) + e(x + 1, y);
        bl(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1) + 4) / 9;
        Expr detail = cast<int16_t>(e(x, y)) - cast<int16_t>(bl(x, y));
        o(x, y) = saturating_cast<uint8_t>(cast<int16_t>(e(x, y)) + detail * 3 / 2);
        est2(s, sym, in);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 7. Normalization by a global sum: out = in / sum(in), the sum a 0-D Func.
    if (want("normalize_global")) probe("normalize_global", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(Float(32), 2, "in"); Func total("total"), o("normalized");
        RDom r(0, in.width(), 0, in.height(), "r");
        total() = 0.0f;
        total() += in(r.x, r.y);
        o(x, y) = in(x, y) / total();
        est2(s, sym, in);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 8. Bayer (RGGB) demosaic to interleaved RGB by bilinear averages chosen with select().
    if (want("demosaic")) probe("demosaic", [&](bool sym) {
        Inst s; range(s);
        ImageParam raw(UInt(16), 2, "raw"); Func e("edge"), o("rgb_out");
        e = BoundaryConditions::mirror_interior(raw);
        auto f = [&](Expr xx, Expr yy) { return cast<float>(e(xx, yy)); };
        Expr even_x = x % 2 == 0, even_y = y % 2 == 0;
        Expr cross = (f(x - 1, y) + f(x + 1, y) + f(x, y - 1) + f(x, y + 1)) / 4;
        Expr diag = (f(x - 1, y - 1) + f(x + 1, y - 1) + f(x - 1, y + 1) + f(x + 1, y + 1)) / 4;
        Expr horiz = (f(x - 1, y) + f(x + 1, y)) / 2, vert = (f(x, y - 1) + f(x, y + 1)) / 2;
        Expr red = select(even_x && even_y, f(x, y), !even_x && !even_y, diag, even_y, horiz, vert);
        Expr green = select(even_x == even_y, cross, f(x, y));
        Expr blue = select(!even_x && !even_y, f(x, y), even_x && even_y, diag, even_y, vert, horiz);
        o(c, x, y) = select(c == 0, red, c == 1, green, blue);
        est2(s, sym, raw);
        o.set_estimate(c, 0, 3).set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {raw};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{3, n, n}; };
        return s; }, sides);
    // 9. RGB (planar float) to HSV's hue by select chains on which channel is largest.
    if (want("rgb_to_hue")) probe("rgb_to_hue", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(Float(32), 3, "rgb"); Func o("hue");
        Expr r = in(x, y, 0), g = in(x, y, 1), b = in(x, y, 2);
        Expr mx = max(r, g, b), mn = min(r, g, b), d = mx - mn + 1e-6f;
        Expr h = select(mx == r, (g - b) / d, mx == g, 2.0f + (b - r) / d, 4.0f + (r - g) / d);
        o(x, y) = select(h < 0, h + 6.0f, h) / 6.0f;
        in.dim(0).set_estimate(0, E(s, sym)).dim(1).set_estimate(0, E(s, sym)).dim(2).set_estimate(0, 3);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n, 3}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    // 10. Histogram equalization of a uint8 image: a histogram (scatter), its running sum, a LUT.
    if (want("hist_eq")) probe("hist_eq", [&](bool sym) {
        Inst s; range(s);
        ImageParam in(UInt(8), 2, "in"); Func hist("hist"), cdf("cdf"), o("equalized");
        Var i("i");
        RDom r(0, in.width(), 0, in.height(), "r");
        hist(i) = 0;
        hist(cast<int>(in(r.x, r.y))) += 1;
        RDom k(1, 255, "k");
        cdf(i) = hist(i);
        cdf(k) = cdf(k - 1) + hist(k);
        Expr n = in.width() * in.height();
        o(x, y) = cast<uint8_t>(clamp(cdf(cast<int>(in(x, y))) * 255.0f / n, 0.0f, 255.0f));
        est2(s, sym, in);
        o.set_estimate(x, 0, E(s, sym)).set_estimate(y, 0, E(s, sym));
        s.out = o; s.ins = {in};
        s.in_sizes = [](int n) { return std::vector<std::vector<int>>{{n, n}}; };
        s.out_size = [](int n) { return std::vector<int>{n, n}; };
        return s; }, sides);
    return 0;
}
