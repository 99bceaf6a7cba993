// Pipelines of the kinds in Halide's own apps/ (issue 7, "any pipeline"), scheduled by Diet loaded as
// GenGen loads it (dlopen), JIT-compiled and compared with an unscheduled copy of the same algorithm
// (every stage compute_root, Halide's defaults otherwise) at 2-3 shapes of the family:
//
//   separable blur (uint16), a camera-pipe-like pipeline (uint8 in and out, float64 color matrix,
//   a LUT), Harris corners, a bilateral grid (scatter into a grid with an update RDom, then
//   trilinear slicing), interpolate (a 3-level pyramid down and up), two outputs of different
//   sizes, Tuple-valued stages (argmin, a Tuple output), an extern stage (define_extern calling a C
//   function of this file, bounds query handled), prefix sums over a symbolic RDom, and a matmul
//   inside a larger pipeline (prologue, pointwise epilogue, a reduction of the epilogue).
//
// Every shape is symbolic in one ranged Param<int> W in [16, 300] through estimates (and, where the
// algorithm needs a length, through W itself). Integer outputs must match bit for bit, float
// outputs within 1e-4 relative to the output's largest magnitude (both JIT-compiled with
// strict_float, so inlining or vectorizing cannot change rounding). Diet's stderr is captured: each
// note about a stage ("[diet] Func ...", the fallback messages included) must appear exactly once.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"
#include "test_support.h"

#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace Halide;
using namespace diet_test;

// ---- the extern stage's C function (looked up by the JIT in this executable: ENABLE_EXPORTS) ----

// out(x, y) = 0.25 * in(x - 1, y) + 0.75 * in(x + 1, y) + x: it needs its input on [min-1, max+1] in x,
// which it answers in the bounds query.
extern "C" __attribute__((visibility("default"))) int diet_apps_extern_stencil(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        for (int d = 0; d < 2; d++) {
            in->dim[d].min = out->dim[d].min;
            in->dim[d].extent = out->dim[d].extent;
        }
        in->dim[0].min -= 1;
        in->dim[0].extent += 2;
        return 0;
    }
    Halide::Runtime::Buffer<float> i(*in), o(*out);
    o.for_each_element([&](int x, int y) { o(x, y) = 0.25f * i(x - 1, y) + 0.75f * i(x + 1, y) + (float)x; });
    return 0;
}

namespace {


int count_of(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) n++;
    return n;
}

// Whether Diet's log has the note "[diet] Func <func>: <text>..." (Halide may have made the Func's
// name unique with a "$n" suffix, since every test builds its algorithm twice).
bool has_note(const std::string &log, const std::string &func, const std::string &text) {
    std::istringstream in(log);
    const std::string head = "[diet] Func " + func;
    for (std::string l; std::getline(in, l);) {
        if (l.rfind(head, 0) != 0) continue;
        size_t at = head.size();
        if (at < l.size() && l[at] == '$') {
            at++;
            while (at < l.size() && std::isdigit((unsigned char)l[at])) at++;
        }
        if (l.compare(at, 2 + text.size(), ": " + text) == 0) return true;
    }
    return false;
}

// How many lines of the log have the note (as has_note).
int note_count(const std::string &log, const std::string &func, const std::string &text) {
    std::istringstream in(log);
    int n = 0;
    for (std::string l; std::getline(in, l);) n += has_note(l, func, text);
    return n;
}

std::vector<std::string> lines_starting(const std::string &text, const std::string &prefix) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind(prefix, 0) == 0) out.push_back(l);
    }
    return out;
}

// One copy of an algorithm: its inputs (in the order the size functions list them) and outputs.
struct App {
    std::vector<ImageParam> inputs;
    std::vector<Func> outputs;
};

// Builds a fresh copy; `for_diet`: with the (symbolic) estimates, for Diet. The reference copy has
// none (Halide 14 refuses non-constant estimates when no autoscheduler runs).
using Build = std::function<App(bool for_diet)>;
using Sizes = std::function<std::vector<std::vector<int>>(int w)>;

struct AppRun {
    std::string log;       // Diet's stderr while scheduling
    std::string schedule;  // the schedule source Diet returned
};

// Schedules one copy with Diet (for the host, `parallelism` cores), compute_roots every stage of a
// second copy, and compares both at each W. Returns Diet's log for the caller's own checks.
AppRun check_app(const std::string &name, Param<int> &W, const Build &build, const std::vector<int> &ws,
                 const Sizes &input_sizes, const Sizes &output_sizes, int parallelism = 2) {
    load_diet();
    App diet = build(true), ref = build(false);
    Pipeline p(diet.outputs), rp(ref.outputs);
    AppRun run;
    {
        StderrCapture cap(false);
        try {
            run.schedule = p.auto_schedule("Diet", diet::runnable_host_target(), MachineParams(parallelism, 1 << 20, 40)).schedule_source;
        } catch (const std::exception &e) {
            std::string log = cap.finish();
            FAIL(name << ": Diet threw: " << e.what() << "\nDiet's log:\n" << log);
        }
        run.log = cap.finish();
    }
    INFO(name << "\nDiet's log:\n" << run.log << "Diet's schedule:\n" << run.schedule);

    // Each note about a Func is said once, the fallback messages included.
    std::map<std::string, int> seen;
    for (const std::string &l : lines_starting(run.log, "[diet] Func ")) seen[l]++;
    for (const auto &[line, n] : seen) {
        INFO(line);
        CHECK(n == 1);
    }
    CHECK(!seen.empty());

    // The reference: every Func of the copy computed at root (a Func with updates would otherwise
    // be recomputed per use), Halide's default schedule for everything else.
    std::map<std::string, Internal::Function> env;
    for (const Func &f : ref.outputs) {
        auto more = Internal::find_transitive_calls(f.function());
        env.insert(more.begin(), more.end());
    }
    for (auto &kv : env) {
        bool is_output = false;
        for (const Func &f : ref.outputs) is_output |= f.name() == kv.first;
        if (!is_output) Func(kv.second).compute_root();
    }

    const Target jit = get_jit_target_from_environment().with_feature(Target::StrictFloat);
    p.compile_jit(jit);
    rp.compile_jit(jit);
    for (int w : ws) {
        INFO(name << " at W=" << w);
        W.set(w);
        const auto in_sizes = input_sizes(w);
        REQUIRE(in_sizes.size() == diet.inputs.size());
        for (size_t i = 0; i < diet.inputs.size(); i++) {
            Buffer<> b = random_input(diet.inputs[i].type(), in_sizes[i], 1000u * (uint32_t)w + (uint32_t)i);
            diet.inputs[i].set(b);
            ref.inputs[i].set(b);
        }
        const auto out_sizes = output_sizes(w);
        REQUIRE(out_sizes.size() == diet.outputs.size());
        std::vector<Buffer<>> got, want;
        for (size_t k = 0; k < diet.outputs.size(); k++) {
            for (const Type &t : diet.outputs[k].output_types()) {
                got.emplace_back(t, out_sizes[k]);
                want.emplace_back(t, out_sizes[k]);
            }
        }
        Realization rg(got), rw(want);
        p.realize(rg, jit);
        rp.realize(rw, jit);
        for (size_t k = 0; k < got.size(); k++) {
            INFO("output buffer " << k);
            CHECK(compare(got[k], want[k]) == "");
        }
    }
    return run;
}

const std::vector<int> kWs = {16, 117, 300};

// A float64 constant (Halide has no Expr(double)).
Expr f64(double v) { return Internal::make_const(Float(64), v); }

// H in terms of W: images are not square, and H takes its own values.
Expr height_of(Expr w) { return w / 2 + 8; }
int height_of(int w) { return w / 2 + 8; }

}  // namespace

TEST_CASE("separable blur of a uint16 image (apps/blur)", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam in(UInt(16), 2, "blur_in");
        Var x("x"), y("y");
        Func c = BoundaryConditions::repeat_edge(in);
        Func blur_x("blur_x"), blur_y("blur_y");
        blur_x(x, y) = (c(x - 1, y) + c(x, y) + c(x + 1, y)) / 3;  // uint16 arithmetic, wrapping as written
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
        if (for_diet) {
            in.dim(0).set_estimate(0, W);
            in.dim(1).set_estimate(0, height_of(W));
            blur_y.set_estimates({{0, W}, {0, height_of(W)}});
        }
        return App{{in}, {blur_y}};
    };
    auto sizes = [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; };
    AppRun r = check_app("blur", W, build, kWs, sizes, sizes);
    CHECK(has_note(r.log, "blur_x", "computed per tile of blur_y"));
}

TEST_CASE("a camera-pipe-like pipeline: uint8 raw in, float64 color matrix, LUT, uint8 out", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam raw_in(UInt(8), 2, "raw");
        Var x("x"), y("y"), c("c"), i("i");
        Func raw = BoundaryConditions::repeat_edge(raw_in);
        // Hot pixels: clamp to the range of the four same-colour neighbours (Bayer: distance 2).
        Func denoised("denoised");
        Expr lo = min(min(raw(x - 2, y), raw(x + 2, y)), min(raw(x, y - 2), raw(x, y + 2)));
        Expr hi = max(max(raw(x - 2, y), raw(x + 2, y)), max(raw(x, y - 2), raw(x, y + 2)));
        denoised(x, y) = cast<uint16_t>(clamp(raw(x, y), lo, hi));
        // Demosaic (RGGB): nearest red / blue site, green averaged where the site is not green.
        Func demosaic("demosaic");
        Expr is_green = (x % 2 + y % 2) % 2 == 1;
        Expr g = select(is_green, denoised(x, y) * 4,
                        denoised(x - 1, y) + denoised(x + 1, y) + denoised(x, y - 1) + denoised(x, y + 1));
        Expr r = denoised(x - x % 2, y - y % 2) * 4;
        Expr b = denoised(x - x % 2 + 1, y - y % 2 + 1) * 4;
        demosaic(x, y, c) = select(c == 0, r, c == 1, g, b);  // 10 bits
        // Colour correction in float64.
        Func corrected("corrected");
        auto dm = [&](int ch) { return cast<double>(demosaic(x, y, ch)); };
        Expr cr = f64(1.6) * dm(0) - f64(0.4) * dm(1) - f64(0.2) * dm(2);
        Expr cg = f64(-0.3) * dm(0) + f64(1.5) * dm(1) - f64(0.2) * dm(2);
        Expr cb = f64(-0.1) * dm(0) - f64(0.5) * dm(1) + f64(1.6) * dm(2);
        corrected(x, y, c) = cast<int16_t>(clamp(select(c == 0, cr, c == 1, cg, cb), f64(0), f64(1023)));
        // Gamma curve as a 1024-entry LUT (sqrt: correctly rounded, the same scalar or vector).
        Func curve("curve");
        curve(i) = cast<uint8_t>(clamp(sqrt(cast<double>(i) / f64(1023)) * f64(255) + f64(0.5), f64(0), f64(255)));
        Func curved("curved");
        curved(x, y, c) = curve(cast<int>(corrected(x, y, c)));
        // Sharpen in int16.
        Func sharpened("sharpened");
        Expr blur = (cast<int16_t>(curved(x - 1, y, c)) + curved(x + 1, y, c) + curved(x, y - 1, c) +
                     curved(x, y + 1, c)) / 4;
        sharpened(x, y, c) = cast<uint8_t>(clamp(2 * cast<int16_t>(curved(x, y, c)) - blur, 0, 255));
        if (for_diet) {
            raw_in.dim(0).set_estimate(0, W);
            raw_in.dim(1).set_estimate(0, height_of(W));
            sharpened.set_estimates({{0, W}, {0, height_of(W)}, {0, 3}});
        }
        return App{{raw_in}, {sharpened}};
    };
    AppRun r = check_app(
        "camera_pipe", W, build, kWs, [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; },
        [](int w) { return std::vector<std::vector<int>>{{w, height_of(w), 3}}; });
    CHECK(has_note(r.log, "sharpened", "output"));
}

TEST_CASE("Harris corner response (apps/harris)", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam in(Float(32), 3, "harris_in");
        Var x("x"), y("y"), c("c");
        Func in_b = BoundaryConditions::repeat_edge(in);
        Func gray("gray"), Iy("Iy"), Ix("Ix"), Ixx("Ixx"), Iyy("Iyy"), Ixy("Ixy");
        Func Sxx("Sxx"), Syy("Syy"), Sxy("Sxy"), det("det"), trace("trace"), harris("harris");
        gray(x, y) = 0.299f * in_b(x, y, 0) + 0.587f * in_b(x, y, 1) + 0.114f * in_b(x, y, 2);
        Iy(x, y) = gray(x - 1, y - 1) * (-1.f / 12) + gray(x - 1, y + 1) * (1.f / 12) + gray(x, y - 1) * (-2.f / 12) +
                   gray(x, y + 1) * (2.f / 12) + gray(x + 1, y - 1) * (-1.f / 12) + gray(x + 1, y + 1) * (1.f / 12);
        Ix(x, y) = gray(x - 1, y - 1) * (-1.f / 12) + gray(x + 1, y - 1) * (1.f / 12) + gray(x - 1, y) * (-2.f / 12) +
                   gray(x + 1, y) * (2.f / 12) + gray(x - 1, y + 1) * (-1.f / 12) + gray(x + 1, y + 1) * (1.f / 12);
        Ixx(x, y) = Ix(x, y) * Ix(x, y);
        Iyy(x, y) = Iy(x, y) * Iy(x, y);
        Ixy(x, y) = Ix(x, y) * Iy(x, y);
        RDom b(-1, 3, -1, 3, "box");
        Sxx(x, y) = sum(Ixx(x + b.x, y + b.y));
        Syy(x, y) = sum(Iyy(x + b.x, y + b.y));
        Sxy(x, y) = sum(Ixy(x + b.x, y + b.y));
        det(x, y) = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
        trace(x, y) = Sxx(x, y) + Syy(x, y);
        harris(x, y) = det(x, y) - 0.04f * trace(x, y) * trace(x, y);
        if (for_diet) {
            in.dim(0).set_estimate(0, W);
            in.dim(1).set_estimate(0, height_of(W));
            in.dim(2).set_estimate(0, 3);
            harris.set_estimates({{0, W}, {0, height_of(W)}});
        }
        return App{{in}, {harris}};
    };
    check_app(
        "harris", W, build, kWs, [](int w) { return std::vector<std::vector<int>>{{w, height_of(w), 3}}; },
        [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; });
}

TEST_CASE("a bilateral grid: scatter into a grid with an update RDom, blur, trilinear slicing", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam input(Float(32), 2, "bg_in");
        const int s = 8;
        const float r_sigma = 0.1f;
        Var x("x"), y("y"), z("z"), c("c");
        Func clamped = BoundaryConditions::repeat_edge(input);
        RDom r(0, s, 0, s, "grid_r");
        Expr val = clamp(clamped(x * s + r.x - s / 2, y * s + r.y - s / 2), 0.f, 1.f);
        Expr zi = cast<int>(val * (1.f / r_sigma) + 0.5f);
        Func histogram("histogram");
        histogram(x, y, z, c) = 0.f;
        histogram(x, y, zi, c) += select(c == 0, val, 1.f);
        Func blurz("blurz"), blurx("blurx"), blury("blury");
        blurz(x, y, z, c) = histogram(x, y, z - 2, c) + histogram(x, y, z - 1, c) * 4 + histogram(x, y, z, c) * 6 +
                            histogram(x, y, z + 1, c) * 4 + histogram(x, y, z + 2, c);
        blurx(x, y, z, c) = blurz(x - 2, y, z, c) + blurz(x - 1, y, z, c) * 4 + blurz(x, y, z, c) * 6 +
                            blurz(x + 1, y, z, c) * 4 + blurz(x + 2, y, z, c);
        blury(x, y, z, c) = blurx(x, y - 2, z, c) + blurx(x, y - 1, z, c) * 4 + blurx(x, y, z, c) * 6 +
                            blurx(x, y + 1, z, c) * 4 + blurx(x, y + 2, z, c);
        Expr v = clamp(clamped(x, y), 0.f, 1.f);
        Expr zv = v * (1.f / r_sigma);
        Expr zs = cast<int>(zv);
        Expr zf = zv - zs;
        Expr xf = cast<float>(x % s) / s, yf = cast<float>(y % s) / s;
        Expr xi = x / s, yi = y / s;
        Func interpolated("interpolated");
        interpolated(x, y, c) =
            lerp(lerp(lerp(blury(xi, yi, zs, c), blury(xi + 1, yi, zs, c), xf),
                      lerp(blury(xi, yi + 1, zs, c), blury(xi + 1, yi + 1, zs, c), xf), yf),
                 lerp(lerp(blury(xi, yi, zs + 1, c), blury(xi + 1, yi, zs + 1, c), xf),
                      lerp(blury(xi, yi + 1, zs + 1, c), blury(xi + 1, yi + 1, zs + 1, c), xf), yf),
                 zf);
        Func bilateral_grid("bilateral_grid");
        bilateral_grid(x, y) = interpolated(x, y, 0) / interpolated(x, y, 1);
        if (for_diet) {
            input.dim(0).set_estimate(0, W);
            input.dim(1).set_estimate(0, height_of(W));
            bilateral_grid.set_estimates({{0, W}, {0, height_of(W)}});
        }
        return App{{input}, {bilateral_grid}};
    };
    auto sizes = [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; };
    AppRun r = check_app("bilateral_grid", W, build, kWs, sizes, sizes);
    CHECK(has_note(r.log, "histogram", "computed at root"));
}

TEST_CASE("interpolate: a three-level pyramid down and back up (apps/interpolate)", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam input(Float(32), 3, "interp_in");
        const int levels = 3;
        Var x("x"), y("y"), c("c");
        Func clamped = BoundaryConditions::repeat_edge(input);
        std::vector<Func> down(levels), interp(levels);
        down[0] = Func("down0");
        Expr alpha = 0.5f + 0.5f * clamped(x, y, 3);
        down[0](x, y, c) = select(c < 3, clamped(x, y, c) * alpha, alpha);
        for (int l = 1; l < levels; l++) {
            Func dx("downx" + std::to_string(l));
            down[l] = Func("down" + std::to_string(l));
            dx(x, y, c) = (down[l - 1](2 * x - 1, y, c) + 2.f * down[l - 1](2 * x, y, c) + down[l - 1](2 * x + 1, y, c)) * 0.25f;
            down[l](x, y, c) = (dx(x, 2 * y - 1, c) + 2.f * dx(x, 2 * y, c) + dx(x, 2 * y + 1, c)) * 0.25f;
        }
        interp[levels - 1] = down[levels - 1];
        for (int l = levels - 2; l >= 0; l--) {
            Func ux("upx" + std::to_string(l)), up("up" + std::to_string(l));
            interp[l] = Func("interp" + std::to_string(l));
            ux(x, y, c) = (interp[l + 1](x / 2, y, c) + interp[l + 1]((x + 1) / 2, y, c)) / 2;
            up(x, y, c) = (ux(x, y / 2, c) + ux(x, (y + 1) / 2, c)) / 2;
            interp[l](x, y, c) = down[l](x, y, c) + (1.f - down[l](x, y, 3)) * up(x, y, c);
        }
        Func normalized("normalized");
        normalized(x, y, c) = interp[0](x, y, c) / interp[0](x, y, 3);
        if (for_diet) {
            input.dim(0).set_estimate(0, W);
            input.dim(1).set_estimate(0, height_of(W));
            input.dim(2).set_estimate(0, 4);
            normalized.set_estimates({{0, W}, {0, height_of(W)}, {0, 3}});
        }
        return App{{input}, {normalized}};
    };
    check_app(
        "interpolate", W, build, kWs, [](int w) { return std::vector<std::vector<int>>{{w, height_of(w), 4}}; },
        [](int w) { return std::vector<std::vector<int>>{{w, height_of(w), 3}}; });
}

TEST_CASE("two outputs of different sizes and types sharing a producer", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam in(UInt(8), 2, "two_in");
        Var x("x"), y("y");
        Func c = BoundaryConditions::repeat_edge(in);
        Func shared("shared"), full("full"), half("half");
        shared(x, y) = cast<int16_t>(c(x, y)) * 3 - c(x + 1, y);
        full(x, y) = shared(x, y) + shared(x, y + 1);
        half(x, y) = cast<int32_t>(shared(2 * x, 2 * y)) * 1000 + shared(2 * x + 1, 2 * y + 1);
        if (for_diet) {
            in.dim(0).set_estimate(0, W);
            in.dim(1).set_estimate(0, height_of(W));
            full.set_estimates({{0, W}, {0, height_of(W)}});
            half.set_estimates({{0, W / 2}, {0, height_of(W) / 2}});
        }
        return App{{in}, {full, half}};
    };
    AppRun r = check_app(
        "two_outputs", W, build, kWs, [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; },
        [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}, {w / 2, height_of(w) / 2}}; });
    CHECK(has_note(r.log, "full", "output"));
    CHECK(has_note(r.log, "half", "output"));
    CHECK(has_note(r.log, "shared", "computed at root"));
}

TEST_CASE("Tuple-valued stages: an argmin per row and a Tuple-valued output", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam in(Float(32), 2, "tuple_in");
        Var x("x"), y("y");
        RDom r(0, in.dim(0).extent(), "row");
        Func am("am"), centered("centered"), colstats("colstats");
        am(y) = argmin(r, in(r, y));
        centered(x, y) = in(x, y) - am(y)[1] + cast<float>(am(y)[0]) * 0.001f;
        RDom rc(0, in.dim(1).extent(), "col");
        colstats(x) = Tuple(maximum(in(x, rc)), cast<int32_t>(sum(cast<int32_t>(in(x, rc) * 100.f))));
        if (for_diet) {
            in.dim(0).set_estimate(0, W);
            in.dim(1).set_estimate(0, height_of(W));
            centered.set_estimates({{0, W}, {0, height_of(W)}});
            colstats.set_estimates({{0, W}});
        }
        return App{{in}, {centered, colstats}};
    };
    check_app(
        "tuples", W, build, kWs, [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; },
        [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}, {w}}; });
}

// Read by a Tuple-valued output (no single output buffer to tile): a wrapper of the accumulator,
// computed at root and sized by the Tuple's buffers, hosts the micro-kernel.
TEST_CASE("a matmul read by a Tuple-valued output is tiled through a wrapper", "[apps]") {
    Param<int> W("W", 64, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam a(Float(32), 2, "tm_a"), b(Float(32), 2, "tm_b");
        Var n("n"), m("m");
        RDom k(0, 32, "k");
        Func acc("tm_acc"), out("tm_out");
        acc(n, m) = 0.f;
        acc(n, m) += a(k, m) * b(k, n);
        out(n, m) = Tuple(acc(n, m), acc(n, m) * 2.f + 1.f);
        if (for_diet) {
            a.dim(0).set_estimate(0, 32);
            a.dim(1).set_estimate(0, W);
            b.dim(0).set_estimate(0, 32);
            b.dim(1).set_estimate(0, 48);
            out.set_estimates({{0, 48}, {0, W}});
        }
        return App{{a, b}, {out}};
    };
    AppRun r = check_app(
        "tuple_matmul", W, build, {16, 77, 300}, [](int w) { return std::vector<std::vector<int>>{{32, w}, {32, 48}}; },
        [](int w) { return std::vector<std::vector<int>>{{48, w}}; });
    CHECK(count_of(r.log, "matmul-like, but") == 0);
    CHECK_THAT(r.log, Catch::Contains("tm_acc: contraction tm_acc(n, m) += product of tm_a_im, tm_b_im over k$x; read by other "
                                      "stages, tiled through a wrapper computed at root"));
    CHECK(count_of(r.log, "heuristic picks") == 1);
}

TEST_CASE("an extern stage (define_extern with a bounds query) between two Halide stages", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam in(Float(32), 2, "ext_in");
        Var x("x"), y("y");
        Func c = BoundaryConditions::repeat_edge(in);
        Func pre("pre"), ext("ext"), post("post");
        pre(x, y) = c(x, y) * 2.f + 1.f;
        ext.define_extern("diet_apps_extern_stencil", {pre}, Float(32), {x, y});
        post(x, y) = ext(x, y - 1) + ext(x, y + 1) - ext(x + 1, y);
        if (for_diet) {
            in.dim(0).set_estimate(0, W);
            in.dim(1).set_estimate(0, height_of(W));
            post.set_estimates({{0, W}, {0, height_of(W)}});
        }
        return App{{in}, {post}};
    };
    auto sizes = [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; };
    AppRun r = check_app("extern", W, build, kWs, sizes, sizes);
    CHECK(note_count(r.log, "ext", "extern stage, computed at root.") == 1);
    CHECK(has_note(r.log, "pre", "computed at root"));
}

TEST_CASE("prefix sums over an RDom of symbolic extent (the shape parameter itself), int32 and float64", "[apps]") {
    Param<int> W("W", 128, 16, 300);
    auto build = [&](bool for_diet) {
        ImageParam in(Int(32), 2, "ps_in");
        Var x("x"), y("y");
        Func ps("ps"), dps("dps"), colsum("colsum"), out("ps_out"), dout("dps_out");
        RDom r(1, W - 1, "scan");
        ps(x, y) = in(x, y);
        ps(r, y) = ps(r - 1, y) + ps(r, y);
        dps(x, y) = cast<double>(in(x, y)) * f64(0.125);
        dps(r, y) += dps(r - 1, y) * f64(0.5);
        RDom rh(0, in.dim(1).extent(), "rows");
        colsum(x) = 0;
        colsum(x) += ps(x, rh);
        out(x, y) = ps(x, y) * 2 - colsum(x);
        dout(x, y) = dps(x, y) + cast<double>(colsum(x));
        if (for_diet) {
            in.dim(0).set_estimate(0, W);
            in.dim(1).set_estimate(0, height_of(W));
            out.set_estimates({{0, W}, {0, height_of(W)}});
            dout.set_estimates({{0, W}, {0, height_of(W)}});
        }
        return App{{in}, {out, dout}};
    };
    auto sizes = [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}, {w, height_of(w)}}; };
    AppRun r = check_app("prefix_sum", W, build, kWs, [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; },
                         sizes);
    CHECK(has_note(r.log, "ps", "computed at root"));
    CHECK(has_note(r.log, "colsum", "computed at root"));
}

namespace {

// A dense layer inside a larger pipeline: a pointwise prologue on the activations, the matmul, a
// bias + ReLU epilogue, and a row reduction of the epilogue. `epilogue_is_output`: the epilogue is
// an output (Diet tiles it with its micro-kernel); otherwise only the reduction is (the fallback).
Build dense_in_pipeline(Param<int> &W, bool epilogue_is_output) {
    return [&W, epilogue_is_output](bool for_diet) {
        ImageParam act(Float(32), 2, "mm_act"), wt(Float(32), 2, "mm_w"), bias(Float(32), 1, "mm_bias");
        Var n("n"), m("m"), k("k");
        Func pre("mm_pre"), acc("mm_acc"), epi("mm_epi"), stats("mm_stats");
        pre(k, m) = act(k, m) * 0.5f - 0.25f;
        RDom r(0, 32, "r");
        acc(n, m) = 0.f;
        acc(n, m) += pre(r, m) * wt(r, n);
        epi(n, m) = max(acc(n, m) + bias(n), 0.f);
        RDom rn(0, 48, "rn");
        stats(m) = sum(epi(rn, m)) / 48.f;
        if (for_diet) {
            act.dim(0).set_estimate(0, 32);
            act.dim(1).set_estimate(0, W);
            wt.dim(0).set_estimate(0, 32);
            wt.dim(1).set_estimate(0, 48);
            bias.dim(0).set_estimate(0, 48);
            epi.set_estimates({{0, 48}, {0, W}});
            stats.set_estimates({{0, W}});
        }
        App app{{act, wt, bias}, {}};
        if (epilogue_is_output) app.outputs.push_back(epi);
        app.outputs.push_back(stats);
        return app;
    };
}

std::vector<std::vector<int>> dense_inputs(int w) { return {{32, w}, {32, 48}, {48}}; }

}  // namespace

TEST_CASE("a matmul inside a larger pipeline: prologue, micro-kernel, epilogue output, reduction", "[apps]") {
    Param<int> W("W", 64, 16, 300);
    AppRun r = check_app("dense_epilogue", W, dense_in_pipeline(W, true), {16, 77, 300}, dense_inputs,
                         [](int w) { return std::vector<std::vector<int>>{{48, w}, {w}}; });
    CHECK(count_of(r.log, "candidate micro-kernels, heuristic picks") == 1);
    CHECK_THAT(r.log, Catch::Contains("heuristic picks"));
    // One host, mm_epi: a note per dispatch leaf, every one of them there.
    CHECK(count_of(r.log, "(computed per tile of output mm_epi") >= 1);
    CHECK(count_of(r.log, "(computed per tile of output ") == count_of(r.log, "(computed per tile of output mm_epi"));
}

// The epilogue is read by a reduction, not by an output: it hosts the micro-kernel itself,
// computed at root, sized at run time by the region the reduction reads.
TEST_CASE("a matmul whose epilogue is not an output is tiled where the epilogue is computed", "[apps]") {
    Param<int> W("W", 64, 16, 300);
    AppRun r = check_app("dense_fallback", W, dense_in_pipeline(W, false), {16, 77, 300}, dense_inputs,
                         [](int w) { return std::vector<std::vector<int>>{{w}}; });
    CHECK(count_of(r.log, "heuristic picks") == 1);
    CHECK(count_of(r.log, "matmul-like, but") == 0);
    CHECK_THAT(r.log, Catch::Contains("result mm_epi (computed at root, read by sum)"));
    CHECK(count_of(r.log, "(computed per tile of output mm_epi") >= 1);
}

namespace {

// Matmul-like reductions Diet has no micro-kernel placement for, one per reason FunctionDAG names;
// each must be scheduled correctly by the default rules, with the reason said once.
enum class Unfit { OnOutput, TwoConsumers, BatchedOutputRead, SecondReduction };

Build unfit_matmul(Param<int> &W, Unfit kind) {
    return [&W, kind](bool for_diet) {
        const bool batched = kind == Unfit::BatchedOutputRead;
        ImageParam a(Float(32), batched ? 3 : 2, "uf_a"), b(Float(32), batched ? 3 : 2, "uf_b");
        Var n("n"), m("m"), z("z");
        RDom r(0, 32, "r");
        std::vector<Var> v = {n, m};
        if (batched) v.push_back(z);
        auto at = [&](const ImageParam &p, Expr i, Expr j) {
            std::vector<Expr> args = {i, j};
            if (batched) args.push_back(z);
            return p(args);
        };
        std::vector<Expr> vs(v.begin(), v.end());
        Func acc("uf_acc"), acc2("uf_acc2"), out("uf_out"), other("uf_other");
        App app{{a, b}, {}};
        std::vector<Range> est = {{0, 48}, {0, W}};
        if (batched) est.push_back({0, 3});
        if (kind == Unfit::OnOutput) {
            out(vs) = 0.f;
            out(vs) += at(a, r, m) * at(b, r, n);
            app.outputs = {out};
        } else {
            acc(vs) = 0.f;
            acc(vs) += at(a, r, m) * at(b, r, n);
            if (kind == Unfit::TwoConsumers) {
                out(vs) = acc(vs) * 2.f;
                other(vs) = acc(vs) + 1.f;
                app.outputs = {out, other};
            } else if (kind == Unfit::BatchedOutputRead) {
                out(vs) = acc(vs) - 0.5f;
                RDom rn(0, 48, "rn");
                other(m, z) = maximum(out(rn, m, z));
                app.outputs = {out, other};
            } else {
                RDom r2(0, 16, "r2");
                acc2(vs) = 1.f;
                acc2(vs) += at(a, r2 + 16, m) * at(b, r2, n);
                out(vs) = acc(vs) - acc2(vs);
                app.outputs = {out};
            }
        }
        if (for_diet) {
            a.dim(0).set_estimate(0, 32);
            a.dim(1).set_estimate(0, W);
            b.dim(0).set_estimate(0, 32);
            b.dim(1).set_estimate(0, 48);
            if (batched) {
                a.dim(2).set_estimate(0, 3);
                b.dim(2).set_estimate(0, 3);
                other.set_estimates({{0, W}, {0, 3}});
            } else if (kind == Unfit::TwoConsumers) {
                other.set_estimates(est);
            }
            out.set_estimates(est);
        }
        return app;
    };
}

}  // namespace

TEST_CASE("matmul-like reductions without a micro-kernel placement: correct fallback, said once", "[apps]") {
    struct Case {
        Unfit kind;
        std::string name, acc, reason;
        int kernels;  // micro-kernels Diet still applies
    };
    const std::vector<Case> cases = {
        // Since issue 13 an update on the output gets the micro-kernel (through an rfactor
        // intermediate): no fallback note, one kernel.
        {Unfit::OnOutput, "on_output", "", "", 1},
        // Since the chain hosts: read by two outputs, a wrapper of the accumulator hosts it.
        {Unfit::TwoConsumers, "two_consumers", "", "", 1},
        {Unfit::BatchedOutputRead, "batched_output_read", "uf_acc", "its batched output uf_out", 0},
        // A sum of contractions (out = acc - acc2): since issue 13 both get a micro-kernel, the
        // second on a wrapper of its accumulator that the output's tiles read.
        {Unfit::SecondReduction, "second_reduction", "", "", 2},
    };
    for (const Case &c : cases) {
        SECTION(c.name) {
            Param<int> W("W", 64, 16, 300);
            const bool batched = c.kind == Unfit::BatchedOutputRead;
            auto inputs = [batched](int w) {
                return batched ? std::vector<std::vector<int>>{{32, w, 3}, {32, 48, 3}}
                               : std::vector<std::vector<int>>{{32, w}, {32, 48}};
            };
            auto outputs = [c](int w) {
                switch (c.kind) {
                case Unfit::TwoConsumers: return std::vector<std::vector<int>>{{48, w}, {48, w}};
                case Unfit::BatchedOutputRead: return std::vector<std::vector<int>>{{48, w, 3}, {w, 3}};
                default: return std::vector<std::vector<int>>{{48, w}};
                }
            };
            AppRun r = check_app("unfit_" + c.name, W, unfit_matmul(W, c.kind), {16, 300}, inputs, outputs);
            const std::string said = "matmul-like, but " + c.reason;
            if (c.reason.empty()) {
                CHECK(count_of(r.log, "matmul-like, but") == 0);
                CHECK_THAT(r.log, Catch::Contains(c.kind == Unfit::OnOutput       ? "the update is on the output itself"
                                                  : c.kind == Unfit::TwoConsumers ? "tiled through a wrapper computed at root"
                                                                                  : "read pointwise by uf_out"));
                CHECK(count_of(r.log, "candidate micro-kernels, heuristic picks") == c.kernels);
                continue;
            }
            CHECK(note_count(r.log, c.acc, said) == 1);
            CHECK(count_of(r.log, "scheduled with the default stage rules") == 1);
            CHECK(count_of(r.log, "candidate micro-kernels, heuristic picks") == c.kernels);
        }
    }
}

TEST_CASE("an IIR blur through two transposes: each transpose hosts its scans (re-rooting)", "[apps]") {
    // The greedy merge, consumers first, puts the first transpose into the output's tiles and
    // leaves the first pair of scans as whole-image roots; the re-rooting pass makes each
    // transpose a root that runs its scans per block of columns (Halide's apps/iir_blur).
    Param<int> W("W", 1024, 16, 2048);
    auto build = [&](bool for_diet) {
        ImageParam input(Float(32), 2, "iir_in");
        Var x("x"), y("y");
        Func in = BoundaryConditions::repeat_edge(input);
        auto scans = [&](Func f, Expr rows, const std::string &name) {
            Func down(name + "_down"), up(name + "_up");
            RDom rd(1, rows - 1, name + "_rd"), ru(1, rows - 1, name + "_ru");
            down(x, y) = f(x, y);
            down(x, rd) = 0.75f * down(x, rd - 1) + 0.25f * f(x, rd);
            up(x, y) = down(x, y);
            Expr yy = rows - 1 - ru;
            up(x, yy) = 0.75f * up(x, yy + 1) + 0.25f * down(x, yy);
            return up;
        };
        Func cols = scans(in, input.dim(1).extent(), "cols");
        Func transposed("transposed");
        transposed(x, y) = cols(y, x);
        Func rows = scans(transposed, input.dim(0).extent(), "rows");
        Func out("iir_out");
        out(x, y) = rows(y, x);
        if (for_diet) {
            input.dim(0).set_estimate(0, W);
            input.dim(1).set_estimate(0, height_of(W));
            out.set_estimates({{0, W}, {0, height_of(W)}});
        }
        return App{{input}, {out}};
    };
    auto sizes = [](int w) { return std::vector<std::vector<int>>{{w, height_of(w)}}; };
    AppRun r = check_app("iir_blur", W, build, {16, 117, 300, 1024}, sizes, sizes);
    CHECK(has_note(r.log, "transposed", "computed at root, tiled group"));
    CHECK(has_note(r.log, "cols_down", "computed per tile of transposed"));
    CHECK(has_note(r.log, "cols_up", "computed per tile of transposed"));
    CHECK(has_note(r.log, "rows_up", "computed per tile of iir_out"));
}

namespace {

// Non-local means (apps/pipelines/nl_means): squared RGB differences per search offset, a
// separable box sum over (2 * patch_r + 1)^2 patches, weights, and the weighted sum over the
// (2 * search_r + 1)^2 search window (an update), with a fourth channel accumulating the weights.
// Func names carry `tag` (Halide keeps the names of both copies apart with "$n" suffixes).
Build nl_means_app(Param<int> &W, int patch_r, int search_r, const std::string &tag) {
    return [&W, patch_r, search_r, tag](bool for_diet) {
        ImageParam input(Float(32), 3, tag + "_in");
        Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");
        Func I = BoundaryConditions::repeat_edge(input);
        Func dist(tag + "_dist"), patch_x(tag + "_patch_x"), weight(tag + "_weight"), accum(tag + "_accum"),
            out(tag + "_out");
        Expr d = 0.f;
        for (int ch = 0; ch < 3; ch++) {
            Expr e = I(x, y, ch) - I(x + dx, y + dy, ch);
            d += e * e;
        }
        dist(x, y, dx, dy) = d;
        Expr sx = 0.f, sy = 0.f;
        for (int i = -patch_r; i <= patch_r; i++) sx += dist(x + i, y, dx, dy);
        patch_x(x, y, dx, dy) = sx;
        for (int i = -patch_r; i <= patch_r; i++) sy += patch_x(x, y + i, dx, dy);
        weight(x, y, dx, dy) = exp(sy * -0.05f);
        RDom r(-search_r, 2 * search_r + 1, -search_r, 2 * search_r + 1, tag + "_r");
        accum(x, y, c) = 0.f;
        accum(x, y, c) += weight(x, y, r.x, r.y) * select(c < 3, I(x + r.x, y + r.y, min(c, 2)), 1.f);
        out(x, y, c) = accum(x, y, c) / accum(x, y, 3);
        if (for_diet) {
            input.dim(0).set_estimate(0, W);
            input.dim(1).set_estimate(0, height_of(W));
            input.dim(2).set_estimate(0, 3);
            out.set_estimates({{0, W}, {0, height_of(W)}, {0, 3}});
        }
        return App{{input}, {out}};
    };
}

std::vector<std::vector<int>> rgb_sizes(int w) { return {{w, height_of(w), 3}}; }

}  // namespace

TEST_CASE("non-local means: 4-D intermediates computed per tile, never whole", "[apps]") {
    // dist, patch_x and weight (x, y, dx, dy) are 4-D: at the family's largest image (20000 x
    // 10008) each would exceed Halide's 2^31-byte buffer limit. They are computed per tile (of
    // the weighted sum or of what computes it), never whole: the pipeline runs at every size.
    Param<int> W("W", 2048, 16, 20000);
    AppRun r = check_app("nl_means", W, nl_means_app(W, 1, 2, "nlm"), {16, 117, 300}, rgb_sizes, rgb_sizes);
    CHECK(has_note(r.log, "nlm_weight", "computed per tile of"));
    CHECK(has_note(r.log, "nlm_dist", "computed per tile of"));
    CHECK_THAT(r.log, Catch::Contains("alone would exceed Halide's 2^31-byte buffer limit"));
}

TEST_CASE("non-local means at the app's sizes: the weights per tile and per search offset", "[apps]") {
    // 7x7 patches over a 13x13 search window, as apps/pipelines/nl_means: the weighted sum hosts
    // the 4-D intermediates and computes them per step of its reduction (one search offset of one
    // tile at a time), not for the whole window per tile, which would need 169 slices.
    Param<int> W("W", 1536, 64, 4096);
    AppRun r = check_app("nl_means_app", W, nl_means_app(W, 3, 6, "nlm2"), {64, 117}, rgb_sizes, rgb_sizes);
    CHECK_THAT(r.log, Catch::Contains("computing per tile and reduction step"));
    CHECK(has_note(r.log, "nlm2_weight", "computed per tile of nlm2_accum at nlm2_r$x"));
}
