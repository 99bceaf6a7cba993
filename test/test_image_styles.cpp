// Image pipelines in the styles other people write them (probe 10,
// apps/results/cpu/probe_styles10/): a lookup table computed in the pipeline, window reductions
// and stencils over boundary conditions. Each is scheduled by Diet with default options, checked
// against the same algorithm unscheduled at shapes across its family, and checked for the
// placement that made it fast (Diet's log).
#include "style_check.h"

#include <atomic>
#include <regex>

using namespace Halide;
using namespace diet_test;

namespace {

// A 5x5 erosion, minimum() over an RDom, of a W x H uint8 image; `exterior`: over a constant
// exterior (output as large as the input), else valid (output 4 smaller in each dimension).
Built erosion(bool exterior) {
    Param<int> W = shape_var("W", 8, 2048, 1024), H = shape_var("H", 8, 2048, 768);
    ImageParam in(UInt(8), 2, "in");
    Var x("x"), y("y");
    Func src = exterior ? BoundaryConditions::constant_exterior(in, cast<uint8_t>(255)) : Func(in);
    Func out("eroded");
    RDom r(0, 5, 0, 5, "r");
    const int shift = exterior ? -2 : 0, margin = exterior ? 0 : 4;
    out(x, y) = minimum(src(x + r.x + shift, y + r.y + shift));
    in.set_estimates({{0, W + margin}, {0, H + margin}});
    out.set_estimates({{0, W}, {0, H}});
    return Built{out, {in}, {W, H},
                 [=](const std::vector<int> &s) { return Sizes{{s[0] + margin, s[1] + margin}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
}

const std::vector<std::vector<int>> kImageShapes = {{8, 8}, {9, 31}, {61, 17}, {100, 64}, {257, 130}};

}  // namespace

// A gamma table, lut(i) = pow(i / 255, 1 / 2.2), read at the pixels' values: inlined as an input
// wrapper (it reads no Func), it cost one pow per pixel (9x slower than every Func at root).
TEST_CASE("a lookup table that calls the math library is computed once, not per read", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> S = shape_var("S", 8, 2048, 1024);
            ImageParam in(UInt(8), 3, "rgb");
            Var i("i"), x("x"), y("y"), c("c");
            Func lut("gamma_table"), out("gamma");
            lut(i) = cast<uint8_t>(clamp(pow(i / 255.0f, 1.0f / 2.2f) * 255.0f + 0.5f, 0.0f, 255.0f));
            out(c, x, y) = lut(in(c, x, y));
            in.set_estimates({{0, 3}, {0, S}, {0, S}});
            out.set_estimates({{0, 3}, {0, S}, {0, S}});
            return Built{out, {in}, {S}, [](const std::vector<int> &s) { return Sizes{{3, s[0], s[0]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{3, s[0], s[0]}; }};
        },
        {{8}, {13}, {100}});
    CHECK_THAT(log, Catch::Contains("Func gamma_table: computed at root"));
    // Three interleaved channels fill 3 of 32 lanes: the vectors run along x instead.
    CHECK_THAT(log, Catch::Contains("Func gamma: its dimension c fills at most half a vector: vectors along x, c inside them (unrolled where it is 3)"));
}

// Interleaved RGB to gray in uint8: rows 8 wide at the smallest shape, so the row's last vector
// was guarded at every width, its loads predicated (scalarized by Halide 14 for 8-bit lanes).
// Where a row is at least a vector wide it is shifted inwards now: no predicate in that branch.
TEST_CASE("rows at least a vector wide shift their last vector inwards where the family's narrowest do not", "[styles]") {
    std::string stmt;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 8, 2048, 1024), H = shape_var("H", 1, 2048, 768);
            ImageParam in(UInt(8), 3, "rgb");
            Var x("x"), y("y");
            Func gray("gray");
            Expr v = 77 * cast<uint16_t>(in(0, x, y)) + 150 * cast<uint16_t>(in(1, x, y)) + 29 * cast<uint16_t>(in(2, x, y));
            gray(x, y) = cast<uint8_t>((v + 128) >> 8);
            in.set_estimates({{0, 3}, {0, W}, {0, H}});
            gray.set_estimates({{0, W}, {0, H}});
            return Built{gray, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{3, s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{8, 3}, {31, 2}, {32, 5}, {33, 1}, {61, 7}, {509, 3}}, &stmt);
    // Two versions of the row loop: the specialization's, shifted (no predicate), and the guarded one.
    const size_t wide = stmt.find("32 <= gray.extent.0");
    INFO(stmt);
    REQUIRE(wide != std::string::npos);
}

// The boundary condition of a 5x5 window reduction, inlined, put its clamps and select in every
// tap, and the taps near the edges gathered (5x slower at 1024x1024 than computed per tile). Its
// members read the input only through the clamps, so their last vector is rounded up instead of
// predicated (Halide 14 scalarizes predicated 8-bit loads: 7x slower at 61x61).
TEST_CASE("a window reduction over a boundary condition computes the condition per tile, rounded up", "[styles]") {
    const std::string log = check_style([] { return erosion(true); }, kImageShapes);
    CHECK_THAT(log, Catch::Contains("Func constant_exterior: computed per tile of eroded"));
    CHECK_THAT(log, Catch::Contains("Func minimum: computed per tile of eroded at y_o, vectorized, its last vector rounded up"));
}

// The window centred by a run-time radius, RDom(0, 2R + 1) read at x + r.x - R (red-team round
// 10's erosion by a structuring element): the Param in the offset hid the window, so the boundary
// condition's select was inlined into every lane of 4-vector steps: 5-8x slower than computed per
// tile, and 28 s of JIT for the clamps of 22 specializations. (Per tile or at root is the tiled
// group's estimate's choice.)
TEST_CASE("a window centred by a run-time radius computes its boundary condition rather than inlining it", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 640, 640), H = shape_var("H", 1, 480, 480), R = shape_var("R", 1, 3, 3);
            ImageParam in(UInt(8), 2, "in");
            Var x("x"), y("y");
            Func e = BoundaryConditions::constant_exterior(in, cast<uint8_t>(255), {{0, W}, {0, H}});
            RDom r(0, 2 * R + 1, 0, 2 * R + 1, "r");
            Func out("eroded_r");
            out(x, y) = cast<uint8_t>(255);
            out(x, y) = min(out(x, y), e(x + r.x - R, y + r.y - R));
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 1}, {5, 3, 3}, {61, 17, 2}, {130, 64, 3}, {257, 33, 1}});
    CHECK_THAT(log, Catch::Contains("Func constant_exterior: computed"));  // at root or per tile, not inlined
}

// The same erosion by a structuring element buffer, as red-team round 10 wrote it, on AVX2: its
// boundary condition computed per tile, the output's update took the tiled path, which stepped 4
// vectors of u8 with a guarded tail, run lane by lane (no masked 8-bit loads on AVX2): 4.5x
// slower at 81 x 61. Whole steps only where the row holds a multiple of them now, one vector
// per step elsewhere.
TEST_CASE("an 8-bit output's tiled update steps several vectors only over whole rows on AVX2", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 640, 640), H = shape_var("H", 1, 480, 480), R = shape_var("R", 1, 3, 3);
            ImageParam in(UInt(8), 2, "img"), se(UInt(8), 2, "se");
            Var x("x"), y("y");
            Func e = BoundaryConditions::constant_exterior(in, cast<uint8_t>(255), {{0, W}, {0, H}});
            RDom r(0, 2 * R + 1, 0, 2 * R + 1, "r");
            Func out("eroded_se");
            out(x, y) = cast<uint8_t>(255);
            out(x, y) = min(out(x, y), select(se(r.x, r.y) != 0, e(x + r.x - R, y + r.y - R), cast<uint8_t>(255)));
            in.set_estimates({{0, W}, {0, H}});
            se.set_estimates({{0, 2 * R + 1}, {0, 2 * R + 1}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in, se}, {W, H, R},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}, {2 * s[2] + 1, 2 * s[2] + 1}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 1}, {81, 61, 1}, {128, 20, 2}, {256, 17, 3}, {300, 9, 3}}, nullptr, &source,
        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    CHECK_THAT(log, Catch::Contains("Func constant_exterior: computed per tile of eroded_se"));
    CHECK_THAT(log, Catch::Contains("Func eroded_se: its 128-point update steps only where its rows are a multiple of them"));
}

// A bicubic resampler written as a weighted sum over a 4 x 4 RDom whose source coordinates are
// Funcs of the output's (red-team round 11): recognized as a contraction, its boundary condition
// was copied per tile, a region Halide cannot bound ("calls repeat_edge_in_sum in an unbounded
// way": no library). A computed operand read at coordinates computed from values is no
// contraction now; the stage rules schedule it.
TEST_CASE("a resampler's weighted sum at coordinates computed by Funcs compiles and is correct", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 4, 300, 300), H = shape_var("H", 4, 200, 200);
            Param<int> OW = shape_var("OW", 1, 450, 450), OH = shape_var("OH", 1, 300, 300);
            ImageParam in(Float(32), 2, "src");
            Var x("x"), y("y"), k("k");
            Func e = BoundaryConditions::repeat_edge(in, {{0, W}, {0, H}});
            const auto taps = [&](const Var &v, const Expr &n_in, const Expr &n_out, const std::string &name, Func &index) {
                Expr c = (cast<float>(v) + 0.5f) * cast<float>(n_in) / cast<float>(n_out) - 0.5f;
                Expr t = c - floor(c);
                Func w(name + "_w");
                w(v, k) = mux(k, {((-0.5f * t + 1.0f) * t - 0.5f) * t, (1.5f * t - 2.5f) * t * t + 1.0f,
                                  ((-1.5f * t + 2.0f) * t + 0.5f) * t, (0.5f * t - 0.5f) * t * t});
                index = Func(name + "_i");
                index(v) = cast<int>(floor(c));
                return w;
            };
            Func ix, iy;
            Func wx = taps(x, W, OW, "cx", ix), wy = taps(y, H, OH, "cy", iy);
            RDom r(0, 4, 0, 4, "r");
            Func out("resized");
            out(x, y) = sum(wx(x, r.x) * wy(y, r.y) * e(ix(x) + r.x - 1, iy(y) + r.y - 1));
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, OW}, {0, OH}});
            return Built{out, {in}, {W, H, OW, OH}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[2], s[3]}; }};
        },
        {{4, 4, 1, 1}, {300, 200, 450, 300}, {37, 21, 100, 7}, {250, 190, 60, 80}});
    CHECK_THAT(log, Catch::Contains("a computed operand is read at coordinates computed from values"));
}

// A Func calling the math library read pointwise by two Funcs that each stay computed (a Canny
// detector's gradient orientation, atan2, read by the non-maximum suppression of two outputs,
// red-team round 11): inlined, atan2 ran once per reader at every pixel (1.6x Mullapudi2016's
// time). It is computed once now.
TEST_CASE("a Func calling the math library that reaches two computed Funcs is computed once", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 4, 512, 512), H = shape_var("H", 4, 384, 384);
            ImageParam in(Float(32), 2, "gray");
            Var x("x"), y("y");
            Func e = BoundaryConditions::repeat_edge(in, {{0, W}, {0, H}});
            Func angle("angle"), bins("bins"), wrap("wrapped"), out("edge_out");
            angle(x, y) = atan2(e(x, y + 1) - e(x, y - 1), e(x + 1, y) - e(x - 1, y));
            bins(x, y) = cast<int>(angle(x, y) * 1.2732395f);
            wrap(x, y) = sin(angle(x, y)) * 0.5f;
            out(x, y) = cast<float>(bins(x - 1, y) + bins(x + 1, y)) + wrap(x, y - 1) + wrap(x, y + 1);
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{4, 4}, {37, 21}, {200, 130}});
    CHECK_THAT(log, Catch::Contains("Func angle: computed"));
}

// The same window read straight from the input (a valid erosion): rounded up, the minimum's last
// vector would read past the input, so it stays guarded (and the output correct at every shape).
TEST_CASE("a window reduction reading an input unclamped keeps its guarded tail", "[styles]") {
    const std::string log = check_style([] { return erosion(false); }, kImageShapes);
    CHECK_THAT(log, !Catch::Contains("rounded up"));
}

// Sobel's two gradients over an image clamped by hand, each reading it at six points: the clamped
// image is computed per tile (inlined, 0.19x Adams2019 at 509x509 and 1536x1536).
TEST_CASE("a stencil over a hand-written clamp computes the clamped image per tile", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 8, 2048, 1024), H = shape_var("H", 8, 2048, 768);
            ImageParam in(Float(32), 2, "in");
            Var x("x"), y("y");
            Func cl("clamped"), gx("gx"), gy("gy"), mag("magnitude");
            cl(x, y) = in(clamp(x, 0, in.width() - 1), clamp(y, 0, in.height() - 1));
            gx(x, y) = (cl(x + 1, y - 1) + 2 * cl(x + 1, y) + cl(x + 1, y + 1)) - (cl(x - 1, y - 1) + 2 * cl(x - 1, y) + cl(x - 1, y + 1));
            gy(x, y) = (cl(x - 1, y + 1) + 2 * cl(x, y + 1) + cl(x + 1, y + 1)) - (cl(x - 1, y - 1) + 2 * cl(x, y - 1) + cl(x + 1, y - 1));
            mag(x, y) = sqrt(gx(x, y) * gx(x, y) + gy(x, y) * gy(x, y));
            in.set_estimates({{0, W}, {0, H}});
            mag.set_estimates({{0, W}, {0, H}});
            return Built{mag, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        kImageShapes);
    CHECK_THAT(log, Catch::Contains("Func clamped: computed per tile of magnitude"));
}

// Images narrower than a vector (probe 13, apps/results/cpu/probe_styles13/): a 2x2 downsample of
// planar RGB 1 pixel wide ran its rows as one guarded 16-lane vector, every load predicated with
// one lane in use: 6.7x slower than scalar code. Rows narrower than a vector now take narrower
// vectors shifted inwards, or scalar code.
TEST_CASE("rows narrower than a vector take narrower vectors or scalar code", "[styles]") {
    std::string stmt;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1024, 320), H = shape_var("H", 1, 1024, 240);
            ImageParam in(Float(32), 3, "in");
            Var x("x"), y("y"), c("c");
            Func down("down2");
            down(x, y, c) = (in(2 * x, 2 * y, c) + in(2 * x + 1, 2 * y, c) + in(2 * x, 2 * y + 1, c) + in(2 * x + 1, 2 * y + 1, c)) * 0.25f;
            in.set_estimates({{0, 2 * W}, {0, 2 * H}, {0, 3}});
            down.set_estimates({{0, W}, {0, H}, {0, 3}});
            return Built{down, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{2 * s[0], 2 * s[1], 3}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], 3}; }};
        },
        {{1, 1}, {1, 37}, {3, 5}, {4, 2}, {5, 9}, {9, 3}, {15, 4}, {17, 2}, {40, 3}}, &stmt);
    CHECK_THAT(log, Catch::Contains("Func down2: rows narrower than a vector take vectors of"));
    INFO(stmt);
    CHECK(stmt.find("4 <= down2.extent.0") != std::string::npos);
}

// The same with a member computed per tile (a bilinear 2x upsample over repeat_edge): the member
// is computed at the tile loop of every specialization of its root.
TEST_CASE("a root with members narrower than a vector computes its members in every specialization", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1024, 320), H = shape_var("H", 1, 1024, 240);
            ImageParam in(Float(32), 3, "in");
            Var x("x"), y("y"), c("c");
            Func cl = BoundaryConditions::repeat_edge(in), up("up2");
            Expr wx = select(x % 2 == 0, 0.75f, 0.25f), wy = select(y % 2 == 0, 0.75f, 0.25f);
            Expr x0 = select(x % 2 == 0, x / 2 - 1, x / 2), y0 = select(y % 2 == 0, y / 2 - 1, y / 2);
            Expr top = lerp(cl(x0, y0, c), cl(x0 + 1, y0, c), wx), bot = lerp(cl(x0, y0 + 1, c), cl(x0 + 1, y0 + 1, c), wx);
            up(x, y, c) = lerp(top, bot, wy);
            in.set_estimates({{0, W}, {0, H}, {0, 3}});
            up.set_estimates({{0, 2 * W}, {0, 2 * H}, {0, 3}});
            return Built{up, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 3}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{2 * s[0], 2 * s[1], 3}; }};
        },
        {{1, 1}, {1, 20}, {2, 3}, {3, 7}, {5, 2}, {9, 4}, {30, 3}});
    CHECK_THAT(log, Catch::Contains("Func up2: rows narrower than a vector take vectors of"));
    CHECK_THAT(log, Catch::Contains("Func repeat_edge: computed per tile of up2"));
}

// A running sum along each row (a scan RDom) over W x H, both run-time: its update, parallel over
// the rows alone, made one task per row (900 tasks of 100 points: 0.48x unscheduled Halide in
// probe 13), and its init as many. Where there are rows enough, tasks of several rows.
TEST_CASE("a scan along each row runs several rows per parallel task", "[styles]") {
    std::string source;
    check_style(
        [] {
            Param<int> W = shape_var("W", 2, 4096, 1024), H = shape_var("H", 1, 1024, 256);
            ImageParam in(Float(32), 2, "in");
            Var x("x"), y("y");
            Func f("cumsum");
            f(x, y) = in(x, y);
            RDom r(1, in.dim(0).extent() - 1, "r");
            f(r, y) = f(r - 1, y) + in(r, y);
            in.set_estimates({{0, W}, {0, H}});
            f.set_estimates({{0, W}, {0, H}});
            return Built{f, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{2, 1}, {2, 40}, {5, 33}, {100, 90}, {257, 31}, {33, 300}}, nullptr, &source);
    INFO(source);
    // The init's specialization splits the rows into tasks of 8; the update (a float scan) runs
    // 8 rows interleaved per task (schedule/ScanRows.cpp).
    size_t splits = 0;
    for (size_t at = source.find("split(y, y_task, y_in_task, 8,"); at != std::string::npos;
         at = source.find("split(y, y_task, y_in_task, 8,", at + 1)) {
        splits++;
    }
    CHECK(splits == 1);
    CHECK(source.find("cumsum.update(0).split(y, y_rows, y_row, 8, TailStrategy::GuardWithIf)") != std::string::npos);
    CHECK(source.find("cumsum.update(0).parallel(y_rows)") != std::string::npos);
}

// The index of each row's maximum (inline argmax(), which Halide 14 cannot prove associative, so
// no per-lane partial results): its update, vectorized across the rows 4 vectors at a time, ran a
// single row of 4096 as 64 guarded lanes of gathers, 150x slower than scalar code (probe 13).
TEST_CASE("an update across fewer rows than its vectors runs narrower vectors or scalar code", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 4096, 1000), H = shape_var("H", 1, 1024, 256);
            ImageParam in(Float(32), 2, "logits");
            Var y("y");
            RDom r(0, in.dim(0).extent(), "r");
            Func f("argmax_rows");
            f(y) = argmax(in(r, y))[0];
            in.set_estimates({{0, W}, {0, H}});
            f.set_estimates({{0, H}});
            return Built{f, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[1]}; }};
        },
        {{1, 1}, {300, 1}, {7, 3}, {50, 9}, {20, 17}, {9, 70}, {33, 200}});
    // Computed per group of one vector's rows (schedule/GatheredSteps.cpp task_accumulators), a
    // row per group, scalar, where the rows are fewer.
    CHECK_THAT(log, Catch::Contains("Func argmax: an arg-reduction gathering along y: computed per group of"));
}

namespace {

// `d` scheduled by Diet (default options), compiled with count_tasks as its do_par_for.
Pipeline scheduled_counting_tasks(const Built &d) {
    {
        diet_test::StderrCapture cap(false);
        diet::autoschedule(Pipeline(d.out), diet::runnable_host_target(), 2, 0, diet::Options{});
    }
    Pipeline p(d.out);
    p.jit_handlers().custom_do_par_for = count_tasks;
    p.compile_jit(diet::runnable_host_target());
    return p;
}

// A depthwise 3x3 convolution over 32 channels (channels innermost), zero padded, updated on
// its output: out(c, x, y) = 0; out(c, x, y) += in(c, x + r.x - 1, y + r.y - 1) * w(c, r.x, r.y).
Built depthwise_conv() {
    Param<int> W = shape_var("W", 1, 128, 128), H = shape_var("H", 1, 128, 128);
    ImageParam in(Float(32), 3, "dw_in"), w(Float(32), 3, "dw_w");
    Var c("c"), x("x"), y("y");
    Func padded = BoundaryConditions::constant_exterior(in, 0.0f);
    RDom r(0, 3, 0, 3, "r");
    Func out("dwconv");
    out(c, x, y) = 0.0f;
    out(c, x, y) += padded(c, x + r.x - 1, y + r.y - 1) * w(c, r.x, r.y);
    in.set_estimates({{0, 32}, {0, W}, {0, H}});
    w.set_estimates({{0, 32}, {0, 3}, {0, 3}});
    out.set_estimates({{0, 32}, {0, W}, {0, H}});
    return Built{out, {in, w}, {W, H}, [](const std::vector<int> &s) { return Sizes{{32, s[0], s[1]}, {32, 3, 3}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{32, s[0], s[1]}; }};
}

}  // namespace

// The zero pass of a depthwise convolution updated on its output: its x and y loops fused into
// one parallel loop made a task per pixel (16384 tasks of 32 points at 128 x 128), which cost
// 3x the whole layer's time in the pool (apps/results/cpu/window_unroll_2026-11-30/). Small
// iterations now run several per task; the 3x3 window's columns are unrolled.
TEST_CASE("a depthwise convolution's zero pass runs many pixels per parallel task", "[styles]") {
    std::string source;
    check_style(depthwise_conv, {{1, 1}, {2, 7}, {17, 5}, {128, 128}}, nullptr, &source);
    INFO(source);
    Built d = depthwise_conv();
    Pipeline p = scheduled_counting_tasks(d);
    d.vars[0].set(128);
    d.vars[1].set(128);
    Buffer<float> in(32, 128, 128), w(32, 3, 3);
    in.fill(1.0f);
    w.fill(0.5f);
    d.inputs[0].set(in);
    d.inputs[1].set(w);
    g_tasks = 0;
    Buffer<float> out = p.realize({32, 128, 128}, diet::runnable_host_target());
    CHECK(out(5, 64, 64) == 4.5f);
    CHECK(out(5, 0, 0) == 2.0f);
    // The update's rows and the zero pass's groups of pixels: a few hundred tasks, not 16384.
    INFO("tasks " << g_tasks.load());
    CHECK(g_tasks.load() > 0);
    CHECK(g_tasks.load() <= 1024);
    CHECK_THAT(source, Catch::Contains("unroll(r_r_x)"));
}

namespace {

// Causal linear attention's running state (red-team round 14): kv(d, e, t, h) a scan over t of
// 32 x 32 outer products per head, read by out(e, t, h) = sum_d q(d, t, h) kv(d, e, t, h).
Built linear_attention_state() {
    Param<int> T = shape_var("T", 1, 512, 512);
    ImageParam q(Float(32), 3, "la_q"), k(Float(32), 3, "la_k"), v(Float(32), 3, "la_v");
    Var d("d"), e("e"), t("t"), h("h");
    Func kv("la_state");
    kv(d, e, t, h) = k(d, t, h) * v(e, t, h);
    RDom rt(1, T - 1, "rt");
    kv(d, e, rt, h) = kv(d, e, rt - 1, h) + k(d, rt, h) * v(e, rt, h);
    RDom rd(0, 32, "rd");
    Func out("la_read");
    out(e, t, h) = sum(q(rd, t, h) * kv(rd, e, t, h));
    for (ImageParam *ip : {&q, &k, &v}) ip->set_estimates({{0, 32}, {0, T}, {0, 4}});
    out.set_estimates({{0, 32}, {0, 512}, {0, 4}});
    const auto in = [](const std::vector<int> &s) { return Sizes{{32, s[0], 4}, {32, s[0], 4}, {32, s[0], 4}}; };
    return Built{out, {q, k, v}, {T}, in, [](const std::vector<int> &s) { return std::vector<int>{32, s[0], 4}; }};
}

}  // namespace

// Its state's pure loops fused whole made a task per 32-point row of d: 65536 tasks at T = 512,
// 7-10 ms of a 1.2 ms pipeline in the pool (apps/results/cpu/plane_tasks_2026-12-04/). Planes
// of at most kSmallPlanePoints points go 8 to a task.
TEST_CASE("a 4-D state of small planes computes several planes per parallel task", "[styles]") {
    const std::string log = check_style(linear_attention_state, {{1}, {2}, {9}, {100}, {512}});
    CHECK_THAT(log, Catch::Contains("Func la_state: planes of dimensions d, e of at most 4096 points"));
    Built d = linear_attention_state();
    Pipeline p = scheduled_counting_tasks(d);
    d.vars[0].set(512);
    Buffer<float> q(32, 512, 4), k(32, 512, 4), v(32, 512, 4);
    q.fill(0.5f);
    k.fill(1.0f);
    v.fill(2.0f);
    d.inputs[0].set(q);
    d.inputs[1].set(k);
    d.inputs[2].set(v);
    g_tasks = 0;
    Buffer<float> out = p.realize({32, 512, 4}, diet::runnable_host_target());
    CHECK(out(3, 0, 1) == 32.0f);     // 32 x 0.5 x 1 x 2
    CHECK(out(3, 9, 2) == 320.0f);    // ten steps of it
    // The state's init: 64 x 4 tasks of 8 planes, not 65536 of one row.
    INFO("tasks " << g_tasks.load());
    CHECK(g_tasks.load() > 0);
    CHECK(g_tasks.load() <= 4096);
}

namespace {

// A Julia set written as a 3-Tuple update over ITER steps (red-team round 6): z computed at
// root (two outputs read it), its update's vectors of x outermost but the rows.
// `reference`: constant estimates (Halide 14's JIT takes no others; the reference runs unscheduled).
Pipeline julia_set(Param<int> W, Param<int> H, Param<int> iterations, bool reference) {
    Var x("x"), y("y");
    Func z("ju_z");
    z(x, y) = Tuple((cast<float>(x) + 0.5f) * 3.0f / cast<float>(W) - 1.5f, (cast<float>(y) + 0.5f) * 2.0f / cast<float>(H) - 1.0f, 0);
    RDom r(0, iterations, "r");
    const Expr zr = z(x, y)[0], zi = z(x, y)[1], escaped = zr * zr + zi * zi > 4.0f;
    z(x, y) = Tuple(select(escaped, zr, zr * zr - zi * zi - 0.4f), select(escaped, zi, 2.0f * zr * zi + 0.6f),
                    z(x, y)[2] + select(escaped, 0, 1));
    Func count("ju_count"), magnitude("ju_mag");
    count(x, y) = z(x, y)[2];
    magnitude(x, y) = min(sqrt(z(x, y)[0] * z(x, y)[0] + z(x, y)[1] * z(x, y)[1]), 2.5f);
    for (Func f : {count, magnitude}) f.set_estimates(reference ? Region{{0, 1}, {0, 1}} : Region{{0, W}, {0, H}});
    return Pipeline({count, magnitude});
}

}  // namespace

// Its update fused its vectors with the rows into one parallel loop: a task per vector of a
// row, 7500 at 400 x 300 (0.70 ms; whole rows per task 0.14 ms,
// apps/results/cpu/whole_row_tasks_2026-12-05/). Where there are 8 rows or more, each task takes
// whole rows of vectors.
TEST_CASE("an intermediate root's update with rows enough runs whole rows of vectors per task", "[styles]") {
    Param<int> W = shape_var("W", 1, 400, 400), H = shape_var("H", 1, 300, 300), I = shape_var("ITER", 1, 64, 64);
    Pipeline p = julia_set(W, H, I, false);
    std::string log;
    {
        diet_test::StderrCapture cap(false);
        diet::autoschedule(p, diet::runnable_host_target(), 2, 0, diet::Options{});
        log = cap.finish();
    }
    INFO(log);
    CHECK_THAT(log, Catch::Contains("Func ju_z: each parallel task of its update takes whole rows of vectors"));
    p.jit_handlers().custom_do_par_for = count_tasks;
    p.compile_jit(diet::runnable_host_target());
    Param<int> RW("RW"), RH("RH"), RI("RI");
    Pipeline reference = julia_set(RW, RH, RI, true);
    for (const std::vector<int> &s : std::vector<std::vector<int>>{{1, 1, 1}, {7, 3, 5}, {100, 9, 64}, {400, 300, 64}, {33, 300, 2}}) {
        INFO("shape " << s[0] << " x " << s[1] << ", " << s[2] << " iterations");
        W.set(s[0]), H.set(s[1]), I.set(s[2]), RW.set(s[0]), RH.set(s[1]), RI.set(s[2]);
        Buffer<int> count(s[0], s[1]), ref_count(s[0], s[1]);
        Buffer<float> mag(s[0], s[1]), ref_mag(s[0], s[1]);
        g_tasks = 0;
        p.realize({count, mag}, diet::runnable_host_target());
        const int64_t tasks = g_tasks.load();
        reference.realize({ref_count, ref_mag}, diet::runnable_host_target());
        int wrong = 0;
        count.for_each_element([&](int x, int y) {
            wrong += count(x, y) != ref_count(x, y) || std::abs(mag(x, y) - ref_mag(x, y)) > 1e-3f;
        });
        CHECK(wrong == 0);
        // At 400 x 300: about 300 rows' tasks and the outputs' few, not 7500 vectors'.
        if (s[0] == 400) {
            INFO("tasks " << tasks);
            CHECK(tasks > 0);
            CHECK(tasks <= 2000);
        }
    }
}

// A 3x3 max pool of stride 2 (inline maximum() over an RDom): the window's columns unrolled
// inside the vector (the accumulator stays in a register, the overlapping loads are shared),
// correct at shapes across the family, the smallest a single output point.
TEST_CASE("a 3x3 stride-2 max pool unrolls its window's columns", "[styles]") {
    std::string source;
    check_style(
        [] {
            Param<int> W = shape_var("W", 1, 100, 100), H = shape_var("H", 1, 100, 100), C = shape_var("C", 1, 64, 64);
            ImageParam in(Float(32), 3, "pool_in");
            Var x("x"), y("y"), c("c");
            RDom r(0, 3, 0, 3, "r");
            Func out("maxpool");
            out(x, y, c) = maximum(in(2 * x + r.x, 2 * y + r.y, c));
            in.set_estimates({{0, 2 * W + 1}, {0, 2 * H + 1}, {0, C}});
            out.set_estimates({{0, W}, {0, H}, {0, C}});
            return Built{out, {in}, {W, H, C},
                         [](const std::vector<int> &s) { return Sizes{{2 * s[0] + 1, 2 * s[1] + 1, s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], s[2]}; }};
        },
        {{1, 1, 1}, {3, 2, 5}, {13, 13, 9}, {37, 20, 3}, {100, 100, 64}}, nullptr, &source);
    INFO(source);
    CHECK_THAT(source, Catch::Contains("unroll(r_r_x)"));
}

// A Func that divides by a value known only at run time (x % T), read at two points: inlined,
// each read was a scalar divide per vector lane (x86 has no vector integer division), 3x slower
// than computing it once per point (red-team probe, param_extent_and_value). By a constant (a
// multiply and shifts) it stays inlined.
TEST_CASE("a Func dividing by a run-time value is computed once, not inlined at each read", "[styles]") {
    for (const bool run_time_divisor : {true, false}) {
        const std::string log = check_style(
            [run_time_divisor] {
                Param<int> T = shape_var("T", 1, 128, 128);
                ImageParam in(Float(32), 2, "pv_in");
                Var x("x"), y("y");
                Func f("pv_f"), out("pv_out");
                f(x, y) = in(x, y) * cast<float>(T) + cast<float>(x % (run_time_divisor ? Expr(T) : Expr(8)));
                out(x, y) = f(x, y) + f(min(x + 1, 8 * T - 1), y) / cast<float>(T);
                in.set_estimates({{0, 8 * T}, {0, 37}});
                out.set_estimates({{0, 8 * T}, {0, 37}});
                return Built{out, {in}, {T}, [](const std::vector<int> &s) { return Sizes{{8 * s[0], 37}}; },
                             [](const std::vector<int> &s) { return std::vector<int>{8 * s[0], 37}; }};
            },
            {{1}, {3}, {17}, {128}});
        if (run_time_divisor) {
            CHECK_THAT(log, Catch::Contains("Func pv_f: computed"));
        } else {
            CHECK_THAT(log, !Catch::Contains("Func pv_f:"));
        }
    }
}

// 37 rows of 1024 points, a pointwise Func computed at root and the output: in tiles of 32 rows
// the two cores got 32 rows and 5 (1.8x slower than Mullapudi2016's task per row); the tiled
// group's heuristic now counts the rows the cores share, not whole tiles, and takes shorter tiles.
TEST_CASE("rows that do not fill whole tiles are spread over the cores", "[styles]") {
    const auto build = [] {
        Param<int> T = shape_var("T", 1, 128, 128);
        ImageParam in(Float(32), 2, "rows_in");
        Var x("x"), y("y");
        Func f("rows_f"), out("rows_out");
        f(x, y) = in(x, y) * cast<float>(T) + cast<float>(x % (T + 1));
        out(x, y) = f(x, y) + f(min(x + 1, 8 * T - 1), y) / cast<float>(T);
        in.set_estimates({{0, 8 * T}, {0, 37}});
        out.set_estimates({{0, 8 * T}, {0, 37}});
        return Built{out, {in}, {T}, [](const std::vector<int> &s) { return Sizes{{8 * s[0], 37}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{8 * s[0], 37}; }};
    };
    check_style(build, {{1}, {5}, {128}});
    Built d = build();
    Pipeline p = scheduled_counting_tasks(d);
    d.vars[0].set(128);
    Buffer<float> in(1024, 37);
    in.fill(1.0f);
    d.inputs[0].set(in);
    g_tasks = 0;
    p.realize({1024, 37}, diet::runnable_host_target());
    INFO("tasks " << g_tasks.load());
    // Both stages: at least 4 tasks each (2 each in tiles of 32 rows, the second of 5 rows).
    CHECK(g_tasks.load() >= 8);
}

// An interleaved RGB image declared through its buffers' strides (x dimension 0 with stride 3,
// c stride 1), a 3-tap filter over a repeated edge: Diet vectorized x with the channel loop
// outside (strided stores, 0.376 ms at 700 x 500 against 0.213 ms by hand with the channels
// innermost, apps/results/cpu/window_unroll_2026-11-30/interleaved_probe.txt). Now the
// channels run inside the vectors, unrolled; correct at sizes from 1 x 1 (interleaved buffers).
TEST_CASE("an interleaved image declared through its strides keeps its channels inside the vectors", "[styles]") {
    const auto build = [](Param<int> W, Param<int> H) {
        ImageParam in(Float(32), 3, "il_in");
        Var x("x"), y("y"), c("c");
        in.dim(0).set_stride(3);
        in.dim(2).set_stride(1).set_bounds(0, 3);
        Func e = BoundaryConditions::repeat_edge(in);
        Func out("il_out");
        out(x, y, c) = e(x - 1, y, c) + e(x, y, c) * 2 + e(x + 1, y, c) + cast<float>(c);
        out.output_buffer().dim(0).set_stride(3);
        out.output_buffer().dim(2).set_stride(1).set_bounds(0, 3);
        in.set_estimates({{0, W}, {0, H}, {0, 3}});
        out.set_estimates({{0, W}, {0, H}, {0, 3}});
        return std::make_pair(out, in);
    };
    Param<int> W = shape_var("W", 1, 1024, 700), H = shape_var("H", 1, 1024, 500);
    auto [out, in] = build(W, H);
    std::string log;
    {
        diet_test::StderrCapture cap(false);
        const diet::DietResult r = diet::autoschedule(Pipeline(out), diet::runnable_host_target(), 2, 0, diet::Options{});
        log = cap.finish();
    }
    INFO(log);
    CHECK_THAT(log, Catch::Contains("Func il_out: its buffer stores c innermost: c inside the vectors along x (unrolled where it is 3)"));
    Param<int> W2 = shape_var("W", 1, 1024, 700), H2 = shape_var("H", 1, 1024, 500);
    auto [ref, ref_in] = build(W2, H2);
    // The reference runs unscheduled: Halide 14's codegen takes constant estimates only.
    ref.set_estimates({{0, 1}, {0, 1}, {0, 3}});
    ref_in.set_estimates({{0, 1}, {0, 1}, {0, 3}});
    Pipeline dp(out), rp(ref);
    dp.compile_jit(diet::runnable_host_target());
    for (const auto &[w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {7, 5}, {8, 8}, {33, 17}, {700, 50}}) {
        INFO("shape " << w << " x " << h);
        Buffer<float> input = Buffer<float>::make_interleaved(w, h, 3);
        input.for_each_element([&](int x, int y, int c) { input(x, y, c) = (float)((x * 7 + y * 13 + c * 5) % 17) - 8.0f; });
        in.set(input);
        ref_in.set(input);
        Buffer<float> got = Buffer<float>::make_interleaved(w, h, 3), want = Buffer<float>::make_interleaved(w, h, 3);
        dp.realize(got, diet::runnable_host_target());
        rp.realize(want, diet::runnable_host_target());
        int wrong = 0;
        got.for_each_element([&](int x, int y, int c) { wrong += got(x, y, c) != want(x, y, c); });
        CHECK(wrong == 0);
    }
}

// A guided filter (box means of I and P, a = mP / (mI^2 + 1), b = mP - a * mI, then box means of a
// and b): `a` is read by `b` and by a's own box filter. The re-rooting pass moved b's box filter
// into a group of its own with b and a as members, leaving a's box filter in the output's group:
// `a` computed per tile of one group and read by another, which Halide rejects when compiling
// ("Func a is computed at the following invalid location"; red-team probe round 3). A move that
// leaves a member read outside its group is not taken.
TEST_CASE("a Func read by two groups' stages is never computed per tile of one of them", "[styles]") {
    // The move was taken for AVX2's 8 lanes (the host's, AVX-512 or AVX2, runs too).
    std::vector<Target> targets = {diet::runnable_host_target()};
    if (targets[0].has_feature(Target::AVX512)) targets.push_back(Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    if (!targets[0].has_feature(Target::AVX2)) WARN("this CPU has no AVX2: the target the invalid move was found on is not checked");
    for (const Target &target : targets) check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1000, 1000), H = shape_var("H", 1, 800, 800);
            ImageParam I(Float(32), 2, "I"), P(Float(32), 2, "P");
            Var x("x"), y("y");
            Func Ie = BoundaryConditions::repeat_edge(I), Pe = BoundaryConditions::repeat_edge(P);
            RDom rr(-3, 7, "rr");
            const auto box = [&](Func f, const std::string &n) {
                Func bx(n + "_bx"), by(n + "_by");
                bx(x, y) = sum(f(x + rr, y));
                by(x, y) = sum(bx(x, y + rr));
                return by;
            };
            Func iw("g_I"), pw("g_P");
            iw(x, y) = Ie(x, y);
            pw(x, y) = Pe(x, y);
            Func mI = box(iw, "mI"), mP = box(pw, "mP");
            Func a("g_a"), b("g_b"), out("guided");
            a(x, y) = mP(x, y) / (mI(x, y) * mI(x, y) + 1.0f);  // well conditioned at any input
            b(x, y) = mP(x, y) - a(x, y) * mI(x, y);
            Func ma = box(a, "ma"), mb = box(b, "mb");
            out(x, y) = ma(x, y) * I(x, y) + mb(x, y);
            for (ImageParam *p : {&I, &P}) p->set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {I, P}, {W, H},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}, {s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {3, 2}, {61, 17}, {257, 130}}, nullptr, nullptr, target);
}

// A grouped 3x3 convolution over a zero-padded input, written as an update on the output with an
// RDom over the window and a group's 8 channels: its reads span 72 reduction points, more than a
// filter window, so the padding (a select and clamps) was inlined into every multiply-add, the
// clamped taps gathered (11x slower than Adams2019, red-team round 3). The window is the taps'
// 3 x 3 (the channel coordinate is its depth): the padding is computed once.
TEST_CASE("a convolution's window excludes its channel reduction: the padding is not inlined", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 96, 96), H = shape_var("H", 1, 96, 96);
            ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w");
            Var x("x"), y("y"), co("co");
            Func pad = BoundaryConditions::constant_exterior(in, 0.0f, {{0, in.dim(0).extent()}, {0, in.dim(1).extent()}});
            RDom r(0, 3, 0, 3, 0, 8, "r");
            Func out("gconv");
            out(x, y, co) = 0.0f;
            out(x, y, co) += w(r.x, r.y, r.z, co) * pad(x + r.x - 1, y + r.y - 1, (co / 8) * 8 + r.z);
            in.set_estimates({{0, W}, {0, H}, {0, 32}});
            w.set_estimates({{0, 3}, {0, 3}, {0, 8}, {0, 32}});
            out.set_estimates({{0, W}, {0, H}, {0, 32}});
            return Built{out, {in, w}, {W, H},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 32}, {3, 3, 8, 32}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], 32}; }};
        },
        {{1, 1}, {3, 2}, {17, 9}, {96, 96}});
    CHECK_THAT(log, Catch::Contains("Func constant_exterior: computed"));
}

// A 3-tap blur over two inputs concatenated along x, its taps clamped by hand (max(x - 1, 0),
// min(x + 1, W - 1)): read at "one point" (the taps were not seen through the clamps), the
// concatenation was inlined, its select and clamps in each tap, the loads gathered (2.5x slower
// than Mullapudi2016, red-team round 3). Its three taps now count: it is computed.
TEST_CASE("taps clamped by hand count as taps: the Func they read is computed, not inlined", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W1 = shape_var("W1", 1, 600, 600), W2 = shape_var("W2", 1, 400, 400), H = shape_var("H", 1, 500, 500);
            ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
            Var x("x"), y("y");
            Func cat("cat"), out("cat_blur");
            cat(x, y) = select(x < a.width(), a(clamp(x, 0, a.width() - 1), y), b(clamp(x - a.width(), 0, b.width() - 1), y));
            Expr xl = max(x - 1, 0), xr = min(x + 1, a.width() + b.width() - 1);
            out(x, y) = (cat(xl, y) + 2 * cat(x, y) + cat(xr, y)) * 0.25f;
            a.set_estimates({{0, W1}, {0, H}});
            b.set_estimates({{0, W2}, {0, H}});
            out.set_estimates({{0, W1 + W2}, {0, H}});
            return Built{out, {a, b}, {W1, W2, H},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[2]}, {s[1], s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0] + s[1], s[2]}; }};
        },
        {{1, 1, 1}, {3, 2, 5}, {61, 17, 9}, {300, 200, 40}});
    CHECK_THAT(log, Catch::Contains("Func cat: computed"));
}

// RGB -> HSV -> RGB written per channel with selects on c (hsv(x, y, c) = select(c == 0, h, c == 1,
// s, v); the output picks r, g or b the same way), as a user writes a colour conversion: every
// channel evaluated every branch (red-team round 3: 2x behind Adams2019, which unrolls c). Diet
// unrolls c where the family's extent is a constant: the member's, and the output's under a
// specialization on its buffer holding the 3 channels from 0. The other branch (fewer channels
// requested) stays correct.
TEST_CASE("a channel dimension compared with constants runs unrolled, each copy one branch", "[styles]") {
    const auto build = [] {
        Param<int> W = shape_var("W", 1, 1024, 700), H = shape_var("H", 1, 1024, 500);
        Param<int> C = shape_var("C", 1, 3, 3);  // the output's channels requested (not read by the algorithm)
        ImageParam in(Float(32), 3, "hsv_in");
        Var x("x"), y("y"), c("c");
        Func mx("hsv_max"), mn("hsv_min"), hsv("hsv"), out("hsv_rgb");
        Expr R = in(x, y, 0), G = in(x, y, 1), B = in(x, y, 2);
        mx(x, y) = max(R, G, B);
        mn(x, y) = min(R, G, B);
        Expr d = mx(x, y) - mn(x, y) + 1e-6f;
        Expr h = select(mx(x, y) == R, (G - B) / d, mx(x, y) == G, 2.0f + (B - R) / d, 4.0f + (R - G) / d) / 6.0f;
        h = select(h < 0, h + 1.0f, h);
        hsv(x, y, c) = select(c == 0, h, c == 1, d / (abs(mx(x, y)) + 1e-3f), mx(x, y));
        Expr H6 = hsv(x, y, 0) * 6.0f, S = hsv(x, y, 1), V = hsv(x, y, 2);
        Expr i = cast<int>(floor(H6)) % 6, f = H6 - floor(H6);
        Expr p = V * (1 - S), q = V * (1 - S * f), t = V * (1 - S * (1 - f));
        Expr r = select(i == 0, V, i == 1, q, i == 2, p, i == 3, p, i == 4, t, V);
        Expr g = select(i == 0, t, i == 1, V, i == 2, V, i == 3, q, i == 4, p, p);
        Expr b = select(i == 0, p, i == 1, p, i == 2, t, i == 3, V, i == 4, V, q);
        out(x, y, c) = select(c == 0, r, c == 1, g, b);
        in.set_estimates({{0, W}, {0, H}, {0, 3}});
        out.set_estimates({{0, W}, {0, H}, {0, 3}});
        return Built{out, {in}, {W, H, C},
                     [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 3}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], s[2]}; }};
    };
    std::string source;
    const std::string log = check_style(build, {{1, 1, 3}, {3, 2, 3}, {17, 9, 3}, {100, 64, 3}, {33, 5, 2}, {9, 20, 1}}, nullptr, &source);
    CHECK_THAT(log, Catch::Contains("Func hsv: c (3) unrolled (its definition compares them with constants)"));
    CHECK_THAT(log, Catch::Contains("Func hsv_rgb: c (3) unrolled where the buffer holds that many from 0"));
    // The unrolled channels just inside the vector loop (the output's, and the member's unrolled
    // part), so that the three copies share one vector's loads and common arithmetic.
    CHECK(std::regex_search(source, std::regex(R"(reorder\(x_vi, c, x_vo)")));
    CHECK(std::regex_search(source, std::regex(R"(reorder\(x_vi, c_u, x_vo)")));
}

// A uint8 opening written as minimum() then maximum() over a 5x5 RDom on a repeat_edge image (the
// inline reductions are Funcs with an update): the erosion's reduction Func, computed at root,
// took 4 vectors per reduction step split with a guarded tail, which Halide 14 runs as scalar
// code for 8-bit lanes (red-team round 3: 1.5-3.5x behind Adams2019). It reads the input only
// clamped, so its last vectors are rounded up instead.
TEST_CASE("an update computed at root that reads inputs clamped rounds its last vectors up", "[styles]") {
    const auto build = [] {
        Param<int> W = shape_var("W", 1, 1024, 700), H = shape_var("H", 1, 1024, 500);
        ImageParam in(UInt(8), 2, "open_in");
        Var x("x"), y("y");
        Func e = BoundaryConditions::repeat_edge(in);
        RDom r(-2, 5, -2, 5, "r");
        Func ero("open_erode"), dil("open_dilate");
        ero(x, y) = minimum(e(x + r.x, y + r.y));
        dil(x, y) = maximum(ero(x + r.x, y + r.y));
        in.set_estimates({{0, W}, {0, H}});
        dil.set_estimates({{0, W}, {0, H}});
        return Built{dil, {in}, {W, H},
                     [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
    };
    std::string source;
    const std::string log = check_style(build, {{1, 1}, {3, 2}, {31, 7}, {129, 40}, {700, 33}}, nullptr, &source);
    CHECK_THAT(log, Catch::Contains("its update's last vectors rounded up (reads inputs clamped)"));
    CHECK(std::regex_search(source, std::regex(R"(update\(0\)\.split\(x, x_vo, x_vi, [0-9]+, TailStrategy::RoundUp\))")));
}

// A lens undistortion: per-pixel coordinates as a Tuple Func (radial model, from x, y and the
// image's size), then a bilinear gather of the input at those coordinates, clamped. Inlined, the
// coordinates' arithmetic and the four gathers were one dependent chain per vector (red-team
// round 3: 1.2-1.8 ms against Adams2019's 0.9-1.0); computed per tile first: 0.8-0.9 ms.
TEST_CASE("coordinates a consumer gathers an input at are computed per tile, not inlined", "[styles]") {
    const auto build = [] {
        Param<int> W = shape_var("W", 1, 1024, 700), H = shape_var("H", 1, 1024, 500);
        ImageParam in(Float(32), 2, "lens_in");
        Var x("x"), y("y");
        Expr w = in.dim(0).extent(), h = in.dim(1).extent();
        Expr cx = cast<float>(w) * 0.5f, cy = cast<float>(h) * 0.5f, f = cast<float>(max(w, h)) * 0.5f + 1.0f;
        Expr u = (cast<float>(x) - cx) / f, v = (cast<float>(y) - cy) / f;
        Expr r2 = u * u + v * v, s = 1.0f + 0.12f * r2 + 0.03f * r2 * r2;
        Func coords("lens_coords"), out("lens_out");
        coords(x, y) = Tuple(cx + u * s * f, cy + v * s * f);
        Expr sx = coords(x, y)[0], sy = coords(x, y)[1];
        Expr ix = cast<int>(floor(sx)), iy = cast<int>(floor(sy));
        Expr ax = sx - floor(sx), ay = sy - floor(sy);
        const auto at = [&](Expr a, Expr b) { return in(clamp(a, 0, w - 1), clamp(b, 0, h - 1)); };
        out(x, y) = lerp(lerp(at(ix, iy), at(ix + 1, iy), ax), lerp(at(ix, iy + 1), at(ix + 1, iy + 1), ax), ay);
        in.set_estimates({{0, W}, {0, H}});
        out.set_estimates({{0, W}, {0, H}});
        return Built{out, {in}, {W, H},
                     [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
    };
    const std::string log = check_style(build, {{1, 1}, {3, 2}, {17, 9}, {100, 64}, {257, 31}});
    CHECK_THAT(log, Catch::Contains("Func lens_coords: computed per tile of lens_out"));
}

// Local contrast normalization from 1 pixel wide (red-team round 3): three 5x5 box filters, the
// third over the normalized image, every Func per tile of the output. Tiles along x were only
// as wide as the family's narrowest row, so whole rows: the tile's eleven members over 1000-pixel
// rows fitted the L2 only 4 rows at a time, recomputing each box's halo 3x (2.4x Adams2019's
// time). The tile is now min(row, tile_x) at run time, shifted inwards (0.60x the time).
TEST_CASE("a deep stencil chain over images from 1 pixel wide takes tiles of at most the row", "[styles]") {
    std::string stmt;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1000, 1000), H = shape_var("H", 1, 800, 800);
            ImageParam in(Float(32), 2, "in");
            Var x("x"), y("y");
            Func e = BoundaryConditions::repeat_edge(in);
            RDom r(-2, 5, "r");
            const auto box = [&](Func f, const std::string &name) {
                Func bx(name + "_bx"), by(name + "_by");
                bx(x, y) = sum(f(x + r, y));
                by(x, y) = sum(bx(x, y + r)) / 25.0f;
                return by;
            };
            Func src("src"), sq("sq"), norm("norm"), d("d"), out("lcn");
            src(x, y) = e(x, y);
            sq(x, y) = e(x, y) * e(x, y);
            Func m = box(src, "m"), m2 = box(sq, "m2");
            norm(x, y) = (src(x, y) - m(x, y)) / sqrt(max(m2(x, y) - m(x, y) * m(x, y), 0.0f) + 0.01f);
            d(x, y) = norm(x, y) * m(x, y);
            Func s = box(d, "s");
            out(x, y) = s(x, y) + norm(x, y);
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {1, 37}, {3, 5}, {7, 2}, {9, 3}, {17, 40}, {100, 64}, {257, 33}, {301, 70}}, &stmt);
    CHECK_THAT(log, Catch::Contains("Func lcn: output, tiled group min(row, "));
    CHECK_THAT(log, Catch::Contains("computed per tile of lcn at x_o"));
}

// A scatter that assigns, `out(bin(in(r))) = r` (the last writer wins), is no reduction: Halide 14's
// associativity check passes it and rfactor only warns, so its parallel chunks lost every write
// but the last chunk's and unwritten points took the rfactor's identity (red-team round 6:
// an unpooling scatter, an inverse permutation, a last-writer-wins histogram).
TEST_CASE("a scatter that assigns is never split into parallel chunks", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> N = shape_var("N", 1, 200000, 200000);
            ImageParam in(Float(32), 1, "in");
            Var k("k");
            RDom r(0, N, "r");
            Func out("last_writer");
            out(k) = -1.0f;
            out(clamp(cast<int>(abs(in(r)) * 64.0f), 0, 63)) = cast<float>(r);
            in.set_estimates({{0, N}});
            out.set_estimates({{0, 64}});
            return Built{out, {in}, {N}, [](const std::vector<int> &s) { return Sizes{{s[0]}}; },
                         [](const std::vector<int> &) { return std::vector<int>{64}; }};
        },
        {{1}, {5}, {100}, {40000}, {200000}});
    CHECK_THAT(log, !Catch::Contains("rfactor"));
}

// Otsu's threshold: a histogram, its prefix scan, the between-class variance, and an argmax into a
// 0-D output. The argmax's group hosts members, but a 0-D root has no tile loop: they were left
// unscheduled; red-team round 6's Otsu (its scan, a Func with updates, a member) had the scan
// computed at the innermost loop of its reader, once per bin of the argmax (12x Mullapudi2016's
// time at 101 x 76).
TEST_CASE("members of a 0-D root are computed at root and never left unscheduled", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 800, 800), H = shape_var("H", 1, 600, 600);
            ImageParam in(UInt(8), 2, "in");
            Var i("i");
            RDom r(0, W, 0, H, "r");
            Func hist("hist"), cum("cum"), between("between"), thr("threshold");
            hist(i) = 0;
            hist(cast<int>(in(r.x, r.y))) += 1;
            cum(i) = cast<float>(hist(i));
            RDom rb(1, 255, "rb");
            cum(rb) = cum(rb - 1) + cast<float>(hist(rb));
            const Expr n = cast<float>(W * H), w0 = cum(i);
            between(i) = w0 * (n - w0) / max(n * n, 1.0f);
            RDom ra(0, 256, "ra");
            thr() = argmax(between(ra))[0];
            in.set_estimates({{0, W}, {0, H}});
            return Built{thr, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &) { return std::vector<int>{}; }};
        },
        {{1, 1}, {3, 2}, {101, 76}, {800, 600}});
    CHECK_THAT(log, Catch::Contains("Func cum: computed per tile of argmax (no tile loop: at root)"));
}

// Scans down the columns of a 4-channel image stored channels innermost, s(c, x, y) (red-team round
// 6: a suffix maximum and a prefix minimum over y): the update loops vectorized dimension 0, 4 of
// a vector's lanes, 6.6x Mullapudi2016's time. Their vectors now run along x with c inside them.
TEST_CASE("scans over an image stored channels innermost take their vectors along x", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 500, 500), H = shape_var("H", 1, 400, 400);
            ImageParam in(Float(32), 3, "in");
            Var c("c"), x("x"), y("y");
            Func smax("smax"), pmin("pmin"), out("scan_out");
            smax(c, x, y) = in(c, x, y);
            RDom r(0, H - 1, "r");
            const Expr yy = H - 2 - r;
            smax(c, x, yy) = max(smax(c, x, yy), smax(c, x, yy + 1));
            pmin(c, x, y) = in(c, x, y);
            RDom r2(1, H - 1, "r2");
            pmin(c, x, r2) = min(pmin(c, x, r2), pmin(c, x, r2 - 1));
            out(c, x, y) = smax(c, x, y) - pmin(c, x, y);
            in.set_estimates({{0, 4}, {0, W}, {0, H}});
            out.set_estimates({{0, 4}, {0, W}, {0, H}});
            return Built{out, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{4, s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{4, s[0], s[1]}; }};
        },
        {{1, 1}, {1, 9}, {7, 2}, {17, 33}, {100, 3}, {257, 61}});
    CHECK_THAT(log, Catch::Contains("Func smax: its dimension c fills at most half a vector: vectors along x, c inside them (unrolled where it is 4)"));
    CHECK_THAT(log, Catch::Contains("Func pmin: its dimension c fills at most half a vector: vectors along x"));
}

// A 1-NN search: squared distances d(j, i) read by an argmin over j (red-team round 6). Each
// distance is read once, so it is inlined into the argmin: computed at root it was a 16 MB matrix
// filled serially (a 1-D root from M = 1 has no tile loop to compute it per tile) and read back
// with strided gathers (0.72x the time inlined, apps/results/cpu/read_once_inline_2026-11-30/).
TEST_CASE("a Func read once by a reduction is inlined into it", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> M = shape_var("M", 1, 2000, 2000), N = shape_var("N", 1, 2000, 2000);
            ImageParam q(Float(32), 2, "q"), p(Float(32), 2, "p");
            Var j("j"), i("i");
            Func dist("dist"), nearest("nearest");
            Expr e = 0.0f;
            for (int c = 0; c < 3; c++) e += (q(c, i) - p(c, j)) * (q(c, i) - p(c, j));
            dist(j, i) = e;
            RDom r(0, N, "r");
            nearest(i) = argmin(dist(r, i))[0];
            q.set_estimates({{0, 3}, {0, M}});
            p.set_estimates({{0, 3}, {0, N}});
            nearest.set_estimates({{0, M}});
            return Built{nearest, {q, p}, {M, N}, [](const std::vector<int> &s) { return Sizes{{3, s[0]}, {3, s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0]}; }};
        },
        {{1, 1}, {3, 7}, {17, 1}, {100, 300}});
    CHECK_THAT(log, !Catch::Contains("Func dist: computed"));
    CHECK_THAT(log, Catch::Contains("Func argmin: computed at root, update loops"));
}

// A product with the batch in the middle, the weights shared and the update on the output,
// out(n, b, m) += w(n, k) x(k, b, m) (red-team round 7): where b is shorter than a register tile
// and m is not, the rows-along-batch variant tiles m; the output's wrapper was computed per m
// slice (serial tasks over the outermost dimension), so that tile reached m = -3 in x (Halide's
// bounds error at B = 1, M = 4, and at B = 1, M = 48). It fails without the fix.
TEST_CASE("a product with the batch in the middle tiles its rows across the outermost dimension in bounds", "[styles]") {
    check_style(
        [] {
            Param<int> K = shape_var("K", 1, 128, 128), N = shape_var("N", 1, 128, 128), B = shape_var("B", 1, 12, 12),
                       M = shape_var("M", 1, 48, 48);
            ImageParam x(Float(32), 3, "x"), w(Float(32), 2, "w");
            Var n("n"), b("b"), m("m");
            RDom r(0, K, "r");
            Func out("batch_middle");
            out(n, b, m) = 0.0f;
            out(n, b, m) += w(n, r) * x(r, b, m);
            x.set_estimates({{0, K}, {0, B}, {0, M}});
            w.set_estimates({{0, N}, {0, K}});
            out.set_estimates({{0, N}, {0, B}, {0, M}});
            return Built{out, {x, w}, {K, N, B, M},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[2], s[3]}, {s[1], s[0]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[1], s[2], s[3]}; }};
        },
        {{1, 24, 1, 4}, {1, 24, 3, 4}, {61, 61, 3, 21}, {128, 128, 1, 48}, {128, 128, 12, 48}});
}

// A chain of updates on one output (red-team round 7): a bias init, the contraction, ReLU in
// place, a rank-s correction (a reduction inside each point), a scale. The updates after the
// contraction are independent per point, so they are the output's own passes once the
// contraction moves into its rfactor intermediate: it gets a micro-kernel (before, the whole
// Func got the default stage rules: 0.345 ms at 256 x 256 x 64 against 0.142 now, Mullapudi2016
// 0.244), and the correction runs in vectors along i with its reduction inside them.
TEST_CASE("a contraction followed by in-place updates of its output gets a micro-kernel", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> M = shape_var("M", 1, 256, 256), N = shape_var("N", 1, 256, 256), K = shape_var("K", 1, 64, 64),
                       S = shape_var("S", 1, 8, 8);
            ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b"), u(Float(32), 2, "u"), v(Float(32), 2, "v"),
                bias(Float(32), 1, "bias");
            Var i("i"), j("j");
            RDom rk(0, K, "rk"), rs(0, S, "rs");
            Func c("chain");
            c(i, j) = bias(i);
            c(i, j) += a(i, rk) * b(j, rk);
            c(i, j) = max(c(i, j), 0.0f);
            c(i, j) += u(i, rs) * v(j, rs);
            c(i, j) = c(i, j) * 0.5f;
            a.set_estimates({{0, M}, {0, K}});
            b.set_estimates({{0, N}, {0, K}});
            u.set_estimates({{0, M}, {0, S}});
            v.set_estimates({{0, N}, {0, S}});
            bias.set_estimates({{0, M}});
            c.set_estimates({{0, M}, {0, N}});
            return Built{c, {a, b, u, v, bias}, {M, N, K, S},
                         [](const std::vector<int> &s) {
                             return Sizes{{s[0], s[2]}, {s[1], s[2]}, {s[0], s[3]}, {s[1], s[3]}, {s[0]}};
                         },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 1, 1}, {7, 3, 5, 2}, {33, 33, 9, 2}, {100, 17, 64, 8}, {256, 256, 64, 8}});
    CHECK_THAT(log, Catch::Contains("the update is on the output itself"));
    CHECK_THAT(log, !Catch::Contains("matmul-like, but"));
}

// A fold along each row, vectorized across the rows (red-team round 7): a 2 x 2 matrix product
// per row, P(y) = P(y) * m(., r, y), as a 4-value Tuple (int32 here, uint32 in the round). Its lanes read rows 4W elements apart,
// so several vectors per step were as many gathers and memory streams (4 vectors: 3.7 ms at
// W = 2048, H = 256, against 0.32 with one; Adams2019 0.54), and its tasks held a constant
// number of rows whatever W (one task at H = 256: one core).
TEST_CASE("a fold along each row vectorized across the rows takes one vector per step", "[styles]") {
    std::string stmt;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 2048, 2048), H = shape_var("H", 1, 256, 256);
            ImageParam m(Int(32), 3, "m");
            Var y("y");
            RDom r(0, W, "r");
            Func p("fold2x2");
            p(y) = Tuple(1, 0, 0, 1);
            Expr a = m(0, r, y), b = m(1, r, y), c = m(2, r, y), d = m(3, r, y);
            p(y) = Tuple(p(y)[0] * a + p(y)[1] * c, p(y)[0] * b + p(y)[1] * d, p(y)[2] * a + p(y)[3] * c,
                         p(y)[2] * b + p(y)[3] * d);
            m.set_estimates({{0, 4}, {0, W}, {0, H}});
            p.set_estimates({{0, H}});
            return Built{p, {m}, {W, H}, [](const std::vector<int> &s) { return Sizes{{4, s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[1]}; }};
        },
        {{1, 1}, {5, 9}, {257, 33}, {2048, 256}}, &stmt);
    // One vector per step: 8 or 16 points (AVX2 or AVX-512), never 4 vectors (32 or 64).
    CHECK_THAT(log, Catch::Contains("shorter than an update's 8-point steps") || Catch::Contains("shorter than an update's 16-point steps"));
    CHECK_THAT(log, !Catch::Contains("32-point steps") && !Catch::Contains("64-point steps"));
}

// A bit-plane pack (red-team round 8): out(x, y) |= u16(planes(x, y, r)) << (15 - r) over 16
// uint8 planes. The last step of a row, guarded, ran lane by lane (AVX2, 16-bit lanes): in
// 64-point steps 4x slower than in 16-point ones at 800 x 600, alike at 768 x 600; and with 8
// rows inside each step (the planes' runs) a parallel task per vector and band tested the
// vector's guard and counted the band's rows in every iteration, 2x slower than bands as the
// tasks (apps/results/cpu/step_lanes_2026-12-01/).
TEST_CASE("an 8-bit plane stack packed into 16-bit words takes wide steps over whole rows only, a band of rows per task", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 800, 800), H = shape_var("H", 1, 600, 600);
            ImageParam planes(UInt(8), 3, "planes");
            Var x("x"), y("y");
            RDom r(0, 16, "r");
            Func pk("pack");
            pk(x, y) = cast<uint16_t>(0);
            pk(x, y) = pk(x, y) | (cast<uint16_t>(planes(x, y, r)) << cast<uint16_t>(15 - r));
            planes.set_estimates({{0, W}, {0, H}, {0, 16}});
            pk.set_estimates({{0, W}, {0, H}});
            return Built{pk, {planes}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 16}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        // Rows of whole steps (256, 768) and not, bands enough (x 90: 12 bands of 8 rows) and
        // too few (x 30: 4), steps walking too few points for rows inside (101 x 76).
        {{1, 1}, {7, 3}, {101, 76}, {200, 90}, {256, 90}, {800, 30}, {768, 61}, {803, 61}}, nullptr, &source,
        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    CHECK_THAT(log, Catch::Contains("update steps only where its rows are a multiple of them, one vector per step elsewhere"));
    CHECK_THAT(log, Catch::Contains("8 rows of its vectors inside each step"));
    INFO(source);
    CHECK(source.find(".parallel(y_ro)") != std::string::npos);
    CHECK(source.find(" % 64 == 0") != std::string::npos);
}

// The same pack for AVX-512, whose masked 16-bit loads and stores keep the steps wide at every
// row (one vector per step made a disk erosion 1.3-3.2x slower there): no whole-steps condition.
TEST_CASE("with masked 8- and 16-bit lanes the plane pack keeps its wide steps at every row", "[styles]") {
    const Target avx512("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    if (!diet::runnable_host_target().has_feature(Target::AVX512_Skylake)) {
        WARN("skipped: this CPU runs no AVX-512 (Skylake) code");
        return;
    }
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 800, 800), H = shape_var("H", 1, 600, 600);
            ImageParam planes(UInt(8), 3, "planes");
            Var x("x"), y("y");
            RDom r(0, 16, "r");
            Func pk("pack");
            pk(x, y) = cast<uint16_t>(0);
            pk(x, y) = pk(x, y) | (cast<uint16_t>(planes(x, y, r)) << cast<uint16_t>(15 - r));
            planes.set_estimates({{0, W}, {0, H}, {0, 16}});
            pk.set_estimates({{0, W}, {0, H}});
            return Built{pk, {planes}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 16}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {101, 76}, {200, 90}, {803, 61}}, nullptr, nullptr, avx512);
    CHECK_THAT(log, Catch::Contains("shorter than an update's 128-point steps"));
    CHECK_THAT(log, !Catch::Contains("update steps only where its rows are a multiple of them"));
}

// A grey opening by a disk of run-time radius R (red-team round 7): the erosion, an RDom over
// (-R..R)^2 with where(rx^2 + ry^2 <= R^2) on a repeat_edge image, computed at root with update
// loops, then the dilation as the output. On AVX2 the erosion's last 128-point step of each row
// was guarded, its 8-bit loads and stores run lane by lane: rounded up instead (it reads the
// input only clamped), the opening ran 2-3x faster at 65 x 49 to 512 x 384
// (apps/results/cpu/step_lanes_2026-12-01/).
TEST_CASE("an 8-bit root's update loops reading inputs clamped round their last steps up on AVX2", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 512, 512), H = shape_var("H", 1, 384, 384), R = shape_var("R", 0, 5, 5);
            ImageParam in(UInt(8), 2, "disk_in");
            Var x("x"), y("y");
            Func e = BoundaryConditions::repeat_edge(in);
            RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "rd");
            r.where(r.x * r.x + r.y * r.y <= R * R);
            Func ero("disk_erode"), dil("disk_open");
            ero(x, y) = cast<uint8_t>(255);
            ero(x, y) = min(ero(x, y), e(x + r.x, y + r.y));
            RDom r2(-R, 2 * R + 1, -R, 2 * R + 1, "rd2");
            r2.where(r2.x * r2.x + r2.y * r2.y <= R * R);
            dil(x, y) = cast<uint8_t>(0);
            dil(x, y) = max(dil(x, y), ero(x + r2.x, y + r2.y));
            in.set_estimates({{0, W}, {0, H}});
            dil.set_estimates({{0, W}, {0, H}});
            return Built{dil, {in}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 0}, {3, 2, 1}, {65, 49, 1}, {100, 80, 2}, {509, 30, 3}, {512, 41, 5}}, nullptr, &source,
        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    CHECK_THAT(log, Catch::Contains("Func disk_erode: its update's last vectors rounded up (reads inputs clamped)"));
    CHECK(std::regex_search(source, std::regex(R"(disk_erode\.update\(0\)\.split\(x, x_vo, x_vi, [0-9]+, TailStrategy::RoundUp\))")));
}

// A recursive filter along each row (two poles, y(t) = x(t) + a y(t - 1) + b y(t - 2), an IIR
// section written as an update over RDom(0, W) with the first two steps selected): each row's
// steps are one serial chain of float multiply-adds, so 8 rows are interleaved (unrolled) inside
// the scan's steps; correct at every row count, 8 rows or not (red-team round 9's biquad cascade
// ran 3.3x Mullapudi2016's time serial, apps/results/cpu/scan_lanes_2026-12-01/). The same scan
// over int32 (one-cycle steps) stays serial.
TEST_CASE("a floating-point scan along each row interleaves its rows, an integer one does not", "[styles]") {
    for (const bool is_float : {true, false}) {
        std::string source;
        const std::string log = check_style(
            [is_float] {
                const Type t = is_float ? Float(32) : Int(32);
                Param<int> W = shape_var("W", 1, 2000, 2000), H = shape_var("H", 1, 24, 24);
                ImageParam in(t, 2, "iir_in");
                Var x("t"), c("c");
                RDom r(0, W, "r");
                Func y(is_float ? "iir2" : "isum2");
                y(x, c) = in(x, c);
                Expr y1 = select(r.x >= 1, y(max(r.x - 1, 0), c), cast(t, 0));
                Expr y2 = select(r.x >= 2, y(max(r.x - 2, 0), c), cast(t, 0));
                y(r.x, c) = is_float ? y(r.x, c) + 1.2f * y1 - 0.5f * y2 : y(r.x, c) + y1 - y2 / 2;
                in.set_estimates({{0, W}, {0, H}});
                y.set_estimates({{0, W}, {0, H}});
                return Built{y, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                             [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
            },
            {{1, 1}, {2, 3}, {37, 4}, {100, 8}, {999, 13}, {2000, 16}, {517, 24}}, nullptr, &source,
            Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
        INFO(source);
        if (is_float) {
            CHECK_THAT(log, Catch::Contains("Func iir2: its update scans along t: 8 rows of c interleaved inside its steps"));
            CHECK(source.find("iir2.update(0).split(c, c_rows, c_row, 8, TailStrategy::GuardWithIf)") != std::string::npos);
            CHECK(source.find("iir2.update(0).unroll(c_row)") != std::string::npos);
            CHECK(source.find("iir2.update(0).reorder(c_row, r_r_x, c_rows)") != std::string::npos);
        } else {
            CHECK_THAT(log, !Catch::Contains("interleaved inside its steps"));
        }
    }
}

// A nearest upsample by a run-time factor FAC in [1, 4] (x / FAC, y / FAC), then a saturating
// add of a detail layer: each lane divided on its own (x86 has no vector integer division), where
// a constant factor is a multiply and a shift. The group is scheduled once per value of FAC, each
// a specialization in which Halide substitutes it; correct at every factor and size (red-team
// round 8's upsample and round 9's polyphase filter, apps/results/cpu/scan_lanes_2026-12-01/).
TEST_CASE("an upsample by a run-time factor of small range is specialized on each factor", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> SW = shape_var("SW", 1, 200, 200), SH = shape_var("SH", 1, 150, 150), FAC = shape_var("FAC", 1, 4, 4);
            ImageParam small(UInt(8), 2, "up_small"), det(UInt(8), 2, "up_detail");
            Var x("x"), y("y");
            Func up("up_nearest"), out("up_sum");
            up(x, y) = small(x / FAC, y / FAC);
            out(x, y) = cast<uint8_t>(min(cast<uint16_t>(up(x, y)) + cast<uint16_t>(det(x, y)), 255));
            small.set_estimates({{0, SW}, {0, SH}});
            det.set_estimates({{0, SW * FAC}, {0, SH * FAC}});
            out.set_estimates({{0, SW * FAC}, {0, SH * FAC}});
            return Built{out, {small, det}, {SW, SH, FAC},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}, {s[0] * s[2], s[1] * s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0] * s[2], s[1] * s[2]}; }};
        },
        {{1, 1, 1}, {3, 2, 4}, {17, 9, 3}, {64, 33, 2}, {101, 76, 4}, {200, 150, 1}, {199, 7, 3}}, nullptr, &source,
        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    CHECK_THAT(log, Catch::Contains("its group divides by the parameter FAC, scheduled once per value of it (1..4)"));
    INFO(source);
    for (int v = 1; v <= 4; v++) CHECK(source.find("value_FAC == " + std::to_string(v) + ")") != std::string::npos);
}

// A van Herk / Gil-Werman running max of window 2R + 1, R a ranged Param (red-team round 21's max
// filter): its prefix and suffix scans restart where the position is a multiple of 2 R + 1, a
// division per step (x86 has no vector integer division) that a constant R makes a multiply and a
// shift. The divisor is computed from R, not R itself: with R in [0, 5] the group is scheduled
// once per value of R, and is correct at every value and size. (Round 21's R in [0, 8] is past
// kDivisorRangeValues: 9 copies of the group took its compile from 6 to 114 s.)
TEST_CASE("a scan restarting every 2R + 1 steps is specialized on each value of R", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 300, 300), H = shape_var("H", 1, 40, 40);
            Param<int> R("R");
            R.set_range(0, 5);
            ImageParam img(UInt(8), 2, "vh_img");
            Var x("x"), y("y"), p("p");
            Expr K = 2 * R + 1, WP = W + 2 * R;
            Func e = BoundaryConditions::repeat_edge(img, {{0, W}, {0, H}});
            Func pre("vh_prefix"), suf("vh_suffix"), hmax("vh_hmax");
            pre(p, y) = e(p - R, y);
            RDom rp(1, WP - 1, "rpre");
            pre(rp, y) = select(rp % K == 0, e(rp - R, y), max(pre(rp - 1, y), e(rp - R, y)));
            suf(p, y) = e(p - R, y);
            RDom rs(0, WP - 1, "rsuf");
            Expr q = WP - 2 - rs;
            suf(q, y) = select((q + 1) % K == 0, e(q - R, y), max(suf(q + 1, y), e(q - R, y)));
            hmax(x, y) = max(suf(x, y), pre(x + 2 * R, y));
            img.set_estimates({{0, W}, {0, H}});
            hmax.set_estimates({{0, W}, {0, H}});
            return Built{hmax, {img}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 0}, {1, 1, 5}, {7, 3, 4}, {64, 17, 5}, {300, 40, 3}, {129, 9, 1}, {250, 33, 2}}, nullptr, &source,
        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    CHECK_THAT(log, Catch::Contains("its group divides by the parameter R, scheduled once per value of it (0..5)"));
    INFO(source);
    for (int v = 0; v <= 5; v++) CHECK(source.find("value_R == " + std::to_string(v) + ")") != std::string::npos);
}

// A grid of cells of run-time size S in [2, 6] filled by a scatter over the image (red-team round
// 21's bilateral grid): the cells' indices divide by S, so the grid's group is scheduled once per
// value of S; its scatter update keeps its loops as written (unscheduled()), which Halide 14 takes
// once per stage: said once per pass, Halide refused the whole schedule and the pipeline ran
// unscheduled. Now scheduled, and correct at every S.
TEST_CASE("a scatter into cells of a run-time size of small range is scheduled per size", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 200, 200), H = shape_var("H", 1, 100, 100);
            Param<int> S("S");
            S.set_range(2, 6);
            ImageParam img(Float(32), 2, "cg_img");
            Var x("x"), y("y");
            RDom r(0, W, 0, H, "cg_r");
            Expr gw = (W - 1 + S / 2) / S, gh = (H - 1 + S / 2) / S;
            Func grid("cg_grid"), out("cg_out");
            grid(x, y) = Tuple(0.0f, 0.0f);
            Expr gx = clamp((r.x + S / 2) / S, 0, gw), gy = clamp((r.y + S / 2) / S, 0, gh);
            grid(gx, gy) = Tuple(grid(gx, gy)[0] + img(r.x, r.y), grid(gx, gy)[1] + 1.0f);
            out(x, y) = grid(x, y)[0] / max(grid(x, y)[1], 1.0f);
            img.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W / 2}, {0, H / 2}});
            return Built{out, {img}, {W, H, S}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) {
                             return std::vector<int>{(s[0] - 1 + s[2] / 2) / s[2] + 1, (s[1] - 1 + s[2] / 2) / s[2] + 1};
                         }};
        },
        {{1, 1, 2}, {7, 3, 6}, {64, 17, 3}, {200, 100, 4}, {129, 9, 5}});
    CHECK_THAT(log, !Catch::Contains("Halide refused"));
    CHECK_THAT(log, Catch::Contains("its group divides by the parameter S, scheduled once per value of it (2..6)"));
}

// A morphological gradient with a diamond structuring element of run-time radius R in [1, 4]
// (RDom(-R..R)^2 where |r.x| + |r.y| <= R; red-team round 13): the window's loops have run-time
// extents and the predicate is tested per step. Each update, once scheduled, takes a
// specialization per value of R in which its window's constant extents run unrolled, the
// accumulator in registers and the predicate folded per step
// (apps/results/cpu/window_param_values_2026-12-03/).
TEST_CASE("a window sized by a run-time radius of small range is unrolled per radius", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 256, 256), H = shape_var("H", 1, 128, 128), R = shape_var("R", 1, 4, 4);
            ImageParam in(UInt(16), 2, "md_in");
            Var x("x"), y("y");
            Func e = BoundaryConditions::repeat_edge(in);
            RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "r");
            r.where(abs(r.x) + abs(r.y) <= R);
            Func dil("md_dil"), ero("md_ero"), out("md_grad");
            dil(x, y) = maximum(e(x + r.x, y + r.y));
            ero(x, y) = minimum(e(x + r.x, y + r.y));
            out(x, y) = dil(x, y) - ero(x, y);
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 1}, {5, 3, 4}, {17, 9, 2}, {64, 33, 3}, {256, 128, 4}, {129, 97, 1}, {200, 7, 2}}, nullptr, &source,
        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    CHECK_THAT(log, Catch::Contains("its update's window is sized by the parameter R: unrolled under a specialization per value (1..4)"));
    INFO(source);
    for (int v = 1; v <= 4; v++) CHECK(source.find("value_R == " + std::to_string(v) + ")") != std::string::npos);
    // Both window loops unrolled in the branches (the unspecialized update keeps its loops).
    CHECK(source.find(".unroll(r_r_x)") != std::string::npos);
    CHECK(source.find(".unroll(r_r_y)") != std::string::npos);
    CHECK(source.find("maximum.update(0).unroll(r_r_y)") == std::string::npos);
}

// A separable box filter of run-time radius R in [1, 4] (a guided filter's means, red-team round
// 11): R is no shape variable (no estimate is written in it), so the planner's regions had R free,
// the passes' halos per tile unbounded, and every pass stayed a root of its own: two 13.6 MB
// buffers per run at 512 x 512 x 13, 117 ms on a 2-core VM that faults pages in at ~11 us each.
// Ranged Params are bound for the costs (analysis/ParamRanges.h param_cost_values): the passes
// are computed per tile of the output. `terms`: the output's polynomial in the three means, long
// enough to make the group heavy (schedule/ApplyGroups.cpp heavy_group): then the output's
// specializations take no serial copy of the group and the members' windows no unroll per value.
namespace {
Built box_filter_radius_param(int terms) {
    Param<int> W = shape_var("W", 1, 384, 384), H = shape_var("H", 1, 256, 256);
    Param<int> R("R");
    R.set_range(1, 4);
    ImageParam in(Float(32), 3, "bf_in");
    Var x("x"), y("y"), k("k");
    RDom r(-R, 2 * R + 1, "r");
    Func bx("bf_x"), by("bf_y"), out("bf_out");
    bx(x, y, k) = 0.0f;
    bx(x, y, k) += select(x + r.x >= 0 && x + r.x < W, in(clamp(x + r.x, 0, W - 1), y, k), 0.0f);
    by(x, y, k) = 0.0f;
    by(x, y, k) += select(y + r.x >= 0 && y + r.x < H, bx(x, clamp(y + r.x, 0, H - 1), k), 0.0f);
    Expr count = cast<float>((min(x + R, W - 1) - max(x - R, 0) + 1) * (min(y + R, H - 1) - max(y - R, 0) + 1));
    Expr m0 = by(x, y, 0) / count, m1 = by(x, y, 1) / count, m2 = by(x, y, 2) / count;
    Expr value = m0 + m1 + m2;
    for (int i = 0; i < terms; i++) value = value * (m0 - 0.25f * m1) + (m2 - m0 * m1) * (0.5f / (i + 1));
    out(x, y) = value;
    in.set_estimates({{0, W}, {0, H}, {0, 3}});
    out.set_estimates({{0, W}, {0, H}});
    return Built{out, {in}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 3}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
}
}  // namespace

TEST_CASE("a box filter whose radius is a ranged Param fuses its passes into the output's tiles", "[styles]") {
    for (int terms : {0, 64}) {
        std::string source;
        const std::string log =
            check_style([terms] { return box_filter_radius_param(terms); },
                        {{1, 1, 1}, {5, 3, 4}, {17, 9, 2}, {64, 33, 3}, {384, 256, 4}, {129, 97, 1}}, nullptr, &source,
                        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
        INFO("terms " << terms << "\n" << log);
        // (The second build's Funcs are named bf_x$2 and so on.)
        for (const char *pass : {"bf_x", "bf_y"}) {
            CHECK(std::regex_search(log, std::regex(std::string("Func ") + pass + R"((\$\d+)?: computed per tile of bf_out)")));
        }
        INFO(source);
        // The serial copy for small work (kSerialPoints) and the members' unrolls per value of R:
        // in the light group only.
        CHECK((source.find("<= 32768") != std::string::npos) == (terms == 0));
        CHECK((source.find("value_R == ") != std::string::npos) == (terms == 0));
    }
}

// A ring mean between two run-time radii (red-team round 11): a Tuple (sum, count) update over
// RDom(-R2..R2)^2 where R1^2 <= d^2 <= R2^2, over a mirror_image input, fused into its output's
// whole-row tiles (the family starts 1 pixel wide). Each of its up to 225 steps adds into the
// same accumulator vectors: in one vector per step it ran 2.8x slower than in four
// (ApplyMembers.cpp long_member_chain; now RegisterAccumulators.cpp, in registers).
namespace {
Built ring_mean() {
    Param<int> W = shape_var("W", 1, 160, 160), H = shape_var("H", 1, 96, 96);
    Param<int> R1("R1"), R2("R2");
    R1.set_range(0, 3);
    R2.set_range(4, 7);
    ImageParam in(Float(32), 2, "rm_in");
    Var x("x"), y("y");
    Func e = BoundaryConditions::mirror_image(in, {{0, W}, {0, H}});
    RDom r(-R2, 2 * R2 + 1, -R2, 2 * R2 + 1, "r");
    Expr d2 = r.x * r.x + r.y * r.y;
    r.where(d2 >= R1 * R1 && d2 <= R2 * R2);
    Func acc("rm_acc"), out("rm_out");
    acc(x, y) = Tuple(0.0f, 0);
    acc(x, y) = Tuple(acc(x, y)[0] + e(x + r.x, y + r.y), acc(x, y)[1] + 1);
    out(x, y) = acc(x, y)[0] / cast<float>(acc(x, y)[1]);
    in.set_estimates({{0, W}, {0, H}});
    out.set_estimates({{0, W}, {0, H}});
    return Built{out, {in}, {W, H, R1, R2}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
}
}  // namespace

TEST_CASE("a long window reduction fused into whole-row tiles takes several vectors per step where the rows hold them", "[styles]") {
    std::string source;
    const std::string log = check_style(ring_mean, {{1, 1, 0, 4}, {5, 3, 3, 7}, {33, 9, 1, 5}, {160, 96, 3, 7}, {97, 61, 2, 6}}, nullptr,
                                        &source, Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    INFO(log << "\n" << source);
    // (Predicated, it is computed per group of 4 vectors of the output's rows since session 13,
    // schedule/RegisterAccumulators.cpp grouped_root: the same 4 vectors per step.)
    CHECK(std::regex_search(log, std::regex(R"(Func rm_acc(\$\d+)?: its predicated reduction computed per group of 4 vectors of rm_out)")));
    // 8 lanes of AVX2, 4 vectors: a 32-point step, under rows of at least 32.
    CHECK(std::regex_search(source, std::regex(R"(rm_acc\.update\(0\)\.specialize\([^;]*>= 32\)\);\s*\S+\.split\(x, x_vo, x_vi, 32)")));
}

// Squeeze-excitation (red-team round 10): a global average pool, then two small fully connected
// layers as updates over RDoms, fc1 over CR in [1, 12] reduced channels. An update computed at
// root steps up to 4 vectors of dim 0 per reduction point: fc1 stepped 64 lanes on AVX-512 (32 on
// AVX2) though a row holds at most 12, every lane past them guarded (round 10's depthwise block,
// C in [1, 32], 2.9x slower at C = 32: apps/results/cpu/step_cap_2026-12-02/). A step now holds no
// more vectors than dim 0 does at its longest over the Params' declared ranges.
TEST_CASE("an update over a dim bounded by a Param's range steps no wider than that dim", "[styles]") {
    const auto build = [] {
        Param<int> W = shape_var("W", 1, 32, 32), H = shape_var("H", 1, 32, 32), C = shape_var("C", 1, 48, 48),
                   CR = shape_var("CR", 1, 12, 12);
        ImageParam in(Float(32), 3, "se_in"), w1(Float(32), 2, "se_w1"), w2(Float(32), 2, "se_w2");
        Var x("x"), y("y"), c("c"), j("j");
        RDom r(0, W, 0, H, "r");
        Func pool("se_pool"), mean("se_mean"), fc1("se_fc1"), fc2("se_fc2"), out("se_out");
        pool(c) = 0.0f;
        pool(c) += in(r.x, r.y, c);
        mean(c) = pool(c) / cast<float>(W * H);
        RDom rc(0, C, "rc");
        fc1(j) = 0.0f;
        fc1(j) += w1(rc, j) * mean(rc);
        RDom rj(0, CR, "rj");
        fc2(c) = 0.0f;
        fc2(c) += w2(rj, c) * max(fc1(rj), 0.0f);
        out(x, y, c) = in(x, y, c) / (1.0f + exp(-fc2(c)));
        in.set_estimates({{0, W}, {0, H}, {0, C}});
        w1.set_estimates({{0, C}, {0, CR}});
        w2.set_estimates({{0, CR}, {0, C}});
        out.set_estimates({{0, W}, {0, H}, {0, C}});
        return Built{out, {in, w1, w2}, {W, H, C, CR},
                     [](const std::vector<int> &s) { return Sizes{{s[0], s[1], s[2]}, {s[2], s[3]}, {s[3], s[2]}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], s[2]}; }};
    };
    std::string source;
    check_style(build, {{1, 1, 1, 1}, {3, 5, 7, 2}, {32, 32, 48, 12}, {9, 9, 9, 3}}, nullptr, &source);
    INFO(source);
    // Every split of fc1's update along j: at most 16 lanes.
    const std::regex split(R"(se_fc1\.update\(0\)\.split\(j, j_vo, j_vi, (\d+))");
    int splits = 0;
    for (std::sregex_iterator it(source.begin(), source.end(), split), end; it != end; ++it, ++splits) {
        CHECK(std::stoi((*it)[1]) <= 16);
    }
    // Or no steps along j at all: fc1 reads w1(rc, j) along its rows, and since its root hosts no
    // pure member (mean) its reduction runs in per-lane partial results along rc (2026-12-06).
    CHECK((splits > 0 || source.find("se_fc1_lanes") != std::string::npos));
}

// A MobileNet block with channels innermost (red-team round 10): a depthwise 3x3 over a zero-padded
// input with per-channel weights, its activation read by a pointwise contraction. The depthwise
// sum reuses no operand across its result (each product reads a per-channel weight and a pixel),
// which as an intermediate left it to the stage rules: computed at root, the block took 0.315 ms
// at C = 32, CO = 48, 56 x 56, where its depthwise half alone (as an output, a micro-kernel per
// tile) took 0.033 and the pointwise half 0.069. Where every operand is an input or a cheap input
// wrapper it is now a contraction there too: 0.206 ms (apps/results/cpu/depthwise_gap_probe_2026-12-02/).
TEST_CASE("a depthwise sum over inputs read by a contraction gets a micro-kernel per tile", "[styles]") {
    const auto build = [] {
        Param<int> C = shape_var("C", 1, 32, 32), W = shape_var("W", 1, 40, 40), H = shape_var("H", 1, 40, 40);
        ImageParam in(Float(32), 3, "ds_in"), wd(Float(32), 2, "ds_wd"), wp(Float(32), 2, "ds_wp");
        Var c("c"), x("x"), y("y"), o("o");
        Func padded = BoundaryConditions::constant_exterior(in, 0.0f, {{0, C}, {0, W}, {0, H}});
        RDom r(0, 3, 0, 3, "r");
        Func dw("ds_dw"), act("ds_act"), pw("ds_pw"), out("ds_out");
        dw(c, x, y) = 0.0f;
        dw(c, x, y) += wd(r.x + 3 * r.y, c) * padded(c, x + r.x - 1, y + r.y - 1);
        act(c, x, y) = clamp(dw(c, x, y), 0.0f, 6.0f);
        RDom rc(0, C, "rc");
        pw(o, x, y) = 0.0f;
        pw(o, x, y) += wp(rc, o) * act(rc, x, y);
        out(o, x, y) = max(pw(o, x, y), 0.0f);
        in.set_estimates({{0, C}, {0, W}, {0, H}});
        wd.set_estimates({{0, 9}, {0, C}});
        wp.set_estimates({{0, C}, {0, 16}});
        out.set_estimates({{0, 16}, {0, W}, {0, H}});
        return Built{out, {in, wd, wp}, {C, W, H},
                     [](const std::vector<int> &s) { return Sizes{{s[0], s[1], s[2]}, {9, s[0]}, {s[0], 16}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{16, s[1], s[2]}; }};
    };
    const std::string log = check_style(build, {{1, 1, 1}, {3, 5, 2}, {32, 17, 9}, {7, 40, 40}});
    CHECK_THAT(log, Catch::Contains("Func ds_dw (computed per tile of output ds_act): micro-kernel"));
}

// The index of each column's maximum over N rows (argmax over an RDom of a Param's extent, N in
// [1, 1000], B columns vectorized): where the reduction is long its tasks took the vectors
// kVectorPointsPerTask points' worth of 64 steps (the specialization's shortest) would fill, so at
// N = 1000, B = 256 two tasks (AVX-512) of which each point took 1000 steps. Now the vectors per
// task come from N at run time, a gathered step counted as its lanes (red-team round 10's top-3
// by repeated argmax: 1.36x faster at N = 1000, B = 64 on AVX2; apps/results/cpu/long_steps_grain_2026-12-02/).
TEST_CASE("a one-dimensional update over a long run-time reduction spreads its columns over tasks", "[styles]") {
    const auto build = [] {
        Param<int> N = shape_var("N", 1, 1000, 1000), B = shape_var("B", 1, 256, 256);
        ImageParam s(Float(32), 2, "am_scores");
        Var b("b");
        RDom r(0, N, "r");
        Func best("am_best");
        best(b) = argmax(r, s(r, b))[0];
        s.set_estimates({{0, N}, {0, B}});
        best.set_estimates({{0, B}});
        return Built{best, {s}, {N, B}, [](const std::vector<int> &v) { return Sizes{{v[0], v[1]}}; },
                     [](const std::vector<int> &v) { return std::vector<int>{v[1]}; }};
    };
    check_style(build, {{1, 1}, {3, 17}, {64, 64}, {1000, 256}, {999, 33}});
    Built d = build();
    Pipeline p = scheduled_counting_tasks(d);
    d.vars[0].set(1000);
    d.vars[1].set(256);
    Buffer<float> in(1000, 256);
    in.fill(0.0f);
    for (int c = 0; c < 256; c++) in((c * 7) % 1000, c) = 1.0f;
    d.inputs[0].set(in);
    g_tasks = 0;
    Buffer<int> out = p.realize({256}, diet::runnable_host_target());
    CHECK(out(3) == 21);
    CHECK(out(200) == 400);
    INFO("tasks " << g_tasks.load());
    CHECK(g_tasks.load() >= 4);
}

// A sliding argmin over a row of N points with a run-time radius R, B rows (red-team round 11):
// the region its boundary condition is read in depends on R, which is no shape variable, so the
// analysis left it unbounded and planned it as 1024 x 1024: mirror_interior at root in guarded
// tiles of 64 rows, which Halide 14 does not partition further, so with B <= 16 rows every point
// ran the boundary condition's selects and modulos (0.116 ms at N = 2000, B = 16). Its region
// is now bounded by R's declared range: the copy is computed per tile of the argmin (0.035 ms).
TEST_CASE("a window of a run-time radius has a bounded region: its boundary condition is tiled with its reader", "[styles]") {
    std::string lowered;
    const std::string log = check_style(
        [] {
            Param<int> N = shape_var("N", 2, 2000, 2000), B = shape_var("B", 1, 16, 16), R = shape_var("R", 1, 6, 6);
            ImageParam in(Float(32), 2, "sa_in");
            Var n("n"), b("b");
            Func e = BoundaryConditions::mirror_interior(in, {{0, N}, {0, B}});
            RDom r(-R, 2 * R + 1, "r");
            Func out("sa_idx");
            out(n, b) = argmin(e(n + r.x, b))[0];
            in.set_estimates({{0, N}, {0, B}});
            out.set_estimates({{0, N}, {0, B}});
            return Built{out, {in}, {N, B, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{2, 1, 1}, {3, 3, 3}, {999, 5, 1}, {2000, 16, 6}, {517, 11, 4}}, &lowered,
        nullptr, Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    REQUIRE_THAT(lowered, Catch::Contains("produce mirror_interior"));
    CHECK_THAT(lowered, !Catch::Contains("_1_o.prologue"));  // no guarded row tile of 64 over 16 rows
    CHECK_THAT(log, Catch::Contains("Func mirror_interior: computed per tile of"));
}

// An auto exposure's histogram over a log-luminance bin (red-team round 12): the bin, log2 of each
// pixel's luma, was inlined into the histogram's scatter, an update with no pure loop, so it ran
// lane by lane: 3.2x the time of the bin computed at root. A Func calling the math library read
// by such an update is computed, vectorized, on its own (4.5-5.0 ms -> 1.9-2.1 ms at 1024 x 768).
TEST_CASE("a math-library Func read by a histogram's scatter is computed vectorized, not inlined", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1024, 1024), H = shape_var("H", 1, 768, 768);
            ImageParam in(UInt(8), 2, "ae_luma_in");
            Var x("x"), y("y"), b("b");
            Func bin("ae_bin");
            bin(x, y) = clamp(cast<int>(Halide::log(cast<float>(in(x, y)) + 1.0f) * 11.5416f), 0, 63);
            RDom r(0, W, 0, H, "rp");
            Func hist("ae_hist");
            hist(b) = 0;
            hist(bin(r.x, r.y)) += 1;
            in.set_estimates({{0, W}, {0, H}});
            hist.set_estimates({{0, 64}});
            return Built{hist, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &) { return std::vector<int>{64}; }};
        },
        {{1, 1}, {3, 5}, {129, 97}, {1024, 768}});
    CHECK_THAT(log, Catch::Contains("Func ae_bin: computed"));
}

// A structure tensor's three products, each smoothed by the same separable 5-tap binomial written
// as inline sums over weights from a Func, read by one output (Shi-Tomasi's smaller eigenvalue,
// red-team round 12): the first smoothing to reach the output took it as a weighted sum's
// micro-kernel host and its two twins went to root passes (1.8-2.1x Adams2019's time). Now none
// is a contraction: the output's tiles compute all three chains alike.
TEST_CASE("three smoothed products read by one output are tiled alike, none a micro-kernel", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 512, 512), H = shape_var("H", 1, 384, 384);
            ImageParam im(UInt(8), 2, "im");
            Var x("x"), y("y"), i("i");
            Func e = BoundaryConditions::repeat_edge(im, {{0, W}, {0, H}});
            Func gx("gx"), gy("gy"), w5("w5"), lam("lam");
            gx(x, y) = 0.5f * (cast<float>(e(x + 1, y)) - cast<float>(e(x - 1, y)));
            gy(x, y) = 0.5f * (cast<float>(e(x, y + 1)) - cast<float>(e(x, y - 1)));
            w5(i) = select(i == 0, 1.0f, i == 1, 4.0f, i == 2, 6.0f, i == 3, 4.0f, 1.0f) / 16.0f;
            RDom r(0, 5, "r");
            const auto smooth = [&](const std::function<Expr(Expr, Expr)> &prod, const std::string &name) {
                Func sx(name + "_x"), sy(name + "_y");
                sx(x, y) = sum(w5(r) * prod(x + r - 2, y));
                sy(x, y) = sum(w5(r) * sx(x, y + r - 2));
                return sy;
            };
            Func a = smooth([&](Expr u, Expr v) { return gx(u, v) * gx(u, v); }, "xx");
            Func b = smooth([&](Expr u, Expr v) { return gx(u, v) * gy(u, v); }, "xy");
            Func c = smooth([&](Expr u, Expr v) { return gy(u, v) * gy(u, v); }, "yy");
            Expr half_diff = (a(x, y) - c(x, y)) * 0.5f;
            lam(x, y) = (a(x, y) + c(x, y)) * 0.5f - sqrt(half_diff * half_diff + b(x, y) * b(x, y));
            im.set_estimates({{0, W}, {0, H}});
            lam.set_estimates({{0, W}, {0, H}});
            return Built{lam, {im}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {512, 384}, {37, 5}, {200, 130}, {3, 300}});
    CHECK_THAT(log, !Catch::Contains("micro-kernel cpu"));
    CHECK_THAT(log, Catch::Contains("Func lam: output, tiled group"));
    for (const char *f : {"xx_x", "xy_x", "yy_x"}) CHECK_THAT(log, Catch::Contains(std::string("Func ") + f + ": computed per tile of lam"));
}

// An unrolled iteration written as a chain of Funcs, each level reading both Funcs of the level
// before (the arithmetic-geometric mean: a' = (a + b) / 2, b' = sqrt(a b)): inlined whole, each
// level's expression is about twice the one before, which Halide's common-subexpression
// elimination cannot share across the two Funcs (round 13's 14-level bisection, a Tuple (lo, hi)
// per level, took 26 s to JIT). Levels whose expansion passes kMaxInlinedNodes are computed,
// which restarts the count for their readers.
TEST_CASE("an unrolled iteration whose levels read two Funcs of the level before is not inlined whole", "[styles]") {
    constexpr int kLevels = 10;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 256, 256), H = shape_var("H", 1, 192, 192);
            ImageParam in(Float(32), 2, "agm_in");
            Var x("x"), y("y");
            Func a("agm_a0"), b("agm_b0");
            a(x, y) = 1.0f + in(x, y) * in(x, y);
            b(x, y) = 2.0f + in(x, y);
            for (int k = 1; k <= kLevels; k++) {
                Func na("agm_a" + std::to_string(k)), nb("agm_b" + std::to_string(k));
                na(x, y) = 0.5f * (a(x, y) + b(x, y));
                nb(x, y) = sqrt(a(x, y) * b(x, y));
                a = na;
                b = nb;
            }
            Func out("agm_out");
            out(x, y) = a(x, y) - b(x, y);
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {7, 3}, {129, 97}, {256, 192}});
    // As diet::limit_inline_expansion counts: level 8's Funcs expand to 3,962 nodes, level 9's to
    // 7,930, the first computed; level 10 reads them as calls and is inlined again.
    CHECK_THAT(log, Catch::Contains("Func agm_a9: computed"));
    CHECK_THAT(log, Catch::Contains("Func agm_b9: computed"));
    CHECK_THAT(log, !Catch::Contains("Func agm_a8: computed"));
    CHECK_THAT(log, !Catch::Contains("Func agm_a10: computed"));
}

// An interleaved 8-bit output (channels innermost, 3 of them) whose rows may be narrower than a
// vector at the family's smallest shape: vectors along x, guarded there, and shifted inwards under
// a specialization where a row holds a vector (round 13's demosaic at 129 x 97 ran 2.1x slower
// with every row's last vector guarded).
TEST_CASE("an interleaved output whose rows may be narrower than a vector shifts its last vector inwards where they are not", "[styles]") {
    std::string source;
    check_style(
        [] {
            Param<int> W = shape_var("W", 8, 512, 512), H = shape_var("H", 1, 64, 64);
            ImageParam in(UInt(8), 2, "il_in");
            Var c("c"), x("x"), y("y");
            Func rgb("il_rgb");
            Expr v = cast<uint16_t>(in(x, y));
            rgb(c, x, y) = cast<uint8_t>(select(c == 0, v, c == 1, v / 2, (v * 3) / 4));
            in.set_estimates({{0, W}, {0, H}});
            rgb.set_estimates({{0, 3}, {0, W}, {0, H}});
            return Built{rgb, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{3, s[0], s[1]}; }};
        },
        {{8, 1}, {13, 3}, {129, 7}, {512, 64}}, nullptr, &source);
    CHECK_THAT(source, Catch::Contains("TailStrategy::ShiftInwards"));
    CHECK_THAT(source, Catch::Contains("TailStrategy::GuardWithIf"));
}

// A 2-D filter written as one sum over a window of weights from a Func and an image read at
// clamped coordinates (round 13's Gaussian): a contraction whose image operand moves with the
// register tile's rows through the window. Its tasks are row tiles across the image (the panel
// loop named n_q inside them), not panels down every row: in 128-column strips each step down
// reached a new row of the image, 2.3x slower at 1024 x 768.
TEST_CASE("a 2-D filter written as a sum over a window runs tasks of rows across the image", "[styles]") {
    std::string source;
    check_style(
        [] {
            Param<int> W = shape_var("W", 16, 512, 512), H = shape_var("H", 16, 384, 384), R = shape_var("R", 1, 3, 3);
            ImageParam im(Float(32), 2, "g2t_im");
            Var x("x"), y("y"), i("i");
            Func g("g2t_w");
            g(i) = Halide::exp(-cast<float>((i - R) * (i - R)) / 4.0f);
            RDom r(0, 2 * R + 1, 0, 2 * R + 1, "r");
            Func out("g2t_out");
            out(x, y) = sum(g(r.x) * g(r.y) * im(clamp(x + r.x - R, 0, W - 1), clamp(y + r.y - R, 0, H - 1)));
            im.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {im}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{16, 16, 1}, {17, 23, 3}, {129, 97, 2}, {512, 384, 3}}, nullptr, &source);
    CHECK_THAT(source, Catch::Contains("\"n_q\""));
}

// Fourth-order curl and divergence of an interleaved 3-vector field on constant_exterior
// (red-team round 14): the curl a 3-Tuple Func computed at root, read by an interleaved output,
// a 0-D sum over the grid (rfactored) and, through the padded field, the divergence output. Its
// rows narrower than a vector at the family's smallest take 3 vector branches; with the task
// tiers in each (5 leaves) and 3 values, Halide 14's bounds inference ran past 400 s
// (kMaxTieredLeaves). Without them the pipeline compiles in seconds and is correct.
namespace {
struct Curl {
    std::vector<Func> outs;
    ImageParam field;
    Param<int> NX, NY, NZ;
};
// `estimated`: with the Params as estimates (Diet's copy; Halide 14's JIT takes none such).
Curl curl_div_enstrophy(bool estimated) {
    Curl c{{}, ImageParam(Float(32), 4, "cd_field"), shape_var("NX", 1, 64, 64), shape_var("NY", 1, 64, 64),
           shape_var("NZ", 1, 64, 64)};
    Var ch("ch"), x("x"), y("y"), z("z");
    Func fb = BoundaryConditions::constant_exterior(c.field, 0.0f, {{0, 3}, {0, c.NX}, {0, c.NY}, {0, c.NZ}});
    const auto d = [&](int comp, int axis) {
        const auto at = [&](int s) { return fb(comp, x + (axis == 0 ? s : 0), y + (axis == 1 ? s : 0), z + (axis == 2 ? s : 0)); };
        return (-at(2) + 8.0f * at(1) - 8.0f * at(-1) + at(-2)) * (1.0f / 12.0f);
    };
    Func curl("cd_curl"), curl_out("cd_curl_out"), div("cd_div"), ens("cd_enstrophy");
    curl(x, y, z) = Tuple(d(2, 1) - d(1, 2), d(0, 2) - d(2, 0), d(1, 0) - d(0, 1));
    curl_out(ch, x, y, z) = mux(ch, {curl(x, y, z)[0], curl(x, y, z)[1], curl(x, y, z)[2]});
    div(x, y, z) = d(0, 0) + d(1, 1) + d(2, 2);
    RDom r(0, c.NX, 0, c.NY, 0, c.NZ, "r");
    const Tuple v = curl(r.x, r.y, r.z);
    ens() = sum(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (estimated) {
        c.field.set_estimates({{0, 3}, {0, c.NX}, {0, c.NY}, {0, c.NZ}});
        curl_out.set_estimates({{0, 3}, {0, c.NX}, {0, c.NY}, {0, c.NZ}});
        div.set_estimates({{0, c.NX}, {0, c.NY}, {0, c.NZ}});
    }
    c.outs = {curl_out, div, ens};
    return c;
}
}  // namespace

TEST_CASE("a Tuple read by several outputs keeps its specializations few enough for Halide's bounds inference", "[styles]") {
    const Target target("x86-64-linux-avx-avx2-f16c-fma-sse41");
    Curl d = curl_div_enstrophy(true), r = curl_div_enstrophy(false);
    std::string log, source;
    {
        diet_test::StderrCapture cap(false);
        source = diet::autoschedule(Pipeline(d.outs), target, 2, 0, diet::Options{}).schedule_source;
        log = cap.finish();
    }
    INFO(log << "\n" << source);
    // Checked before compiling: with the tiers, compiling would not end.
    REQUIRE(std::regex_search(log, std::regex(R"(Func cd_curl(\$\d+)?: no task tiers \(its 3 vector branches x 3 values)")));
    CHECK(std::regex_search(log, std::regex(R"(Func cd_div(\$\d+)?: output, tiled group)")));
    Pipeline dp(d.outs), rp(r.outs);
    dp.compile_jit(target);
    for (const std::vector<int> &s : std::vector<std::vector<int>>{{1, 1, 1}, {5, 3, 2}, {9, 17, 4}}) {
        INFO("shape " << s[0] << " " << s[1] << " " << s[2]);
        Buffer<> field = random_input(Float(32), {3, s[0], s[1], s[2]}, 5, -1, 1);
        for (Curl *c : {&d, &r}) {
            c->field.set(field);
            c->NX.set(s[0]);
            c->NY.set(s[1]);
            c->NZ.set(s[2]);
        }
        Buffer<float> co(3, s[0], s[1], s[2]), dv(s[0], s[1], s[2]), en = Buffer<float>::make_scalar();
        Buffer<float> rco(3, s[0], s[1], s[2]), rdv(s[0], s[1], s[2]), ren = Buffer<float>::make_scalar();
        dp.realize({co, dv, en}, target);
        rp.realize({rco, rdv, ren}, target);
        CHECK(compare(co, rco) == "");
        CHECK(compare(dv, rdv) == "");
        CHECK(std::abs(en() - ren()) <= 1e-4f * (1 + std::abs(ren())));
    }
}

// Lucas-Kanade's window sums written inline (red-team round 14): Halide's sum() CSEs its body, so
// `ix(x + r.x, y + r.y) * it(x + r.x, y + r.y)` reads both Funcs at let-bound coordinates. Read
// through the lets those are window taps: the temporal difference `it = e1 - e0` is computed
// once, not inlined into every tap of two window sums (two clamped loads per tap: 24.4 ms vs
// 10.5 at 640 x 480, R = 4, and a 129 s JIT).
namespace {
Built lucas_kanade_sums() {
    Param<int> W = shape_var("W", 1, 96, 96), H = shape_var("H", 1, 64, 64);
    Param<int> R("R");
    R.set_range(1, 2);
    ImageParam i0(Float(32), 2, "lk_i0"), i1(Float(32), 2, "lk_i1");
    Var x("x"), y("y");
    Func e0 = BoundaryConditions::repeat_edge(i0, {{0, W}, {0, H}});
    Func e1 = BoundaryConditions::repeat_edge(i1, {{0, W}, {0, H}});
    Func ix("lk_ix"), iy("lk_iy"), it("lk_it"), out("lk_out");
    ix(x, y) = (e0(x + 1, y) - e0(x - 1, y)) * 0.5f;
    iy(x, y) = (e0(x, y + 1) - e0(x, y - 1)) * 0.5f;
    it(x, y) = e1(x, y) - e0(x, y);
    RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "r");
    const auto at = [&](Func f) { return f(x + r.x, y + r.y); };
    Expr sxx = sum(at(ix) * at(ix)), sxy = sum(at(ix) * at(iy)), sxt = sum(at(ix) * at(it)), syt = sum(at(iy) * at(it));
    out(x, y) = sxx * syt - sxy * sxt;
    i0.set_estimates({{0, W}, {0, H}});
    i1.set_estimates({{0, W}, {0, H}});
    out.set_estimates({{0, W}, {0, H}});
    return Built{out, {i0, i1}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}, {s[0], s[1]}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
}
}  // namespace

TEST_CASE("a Func read at the taps of inline window sums through Halide's lets is computed, not inlined", "[styles]") {
    const std::string log = check_style(lucas_kanade_sums, {{1, 1, 1}, {7, 3, 2}, {33, 17, 1}, {96, 64, 2}}, nullptr, nullptr,
                                        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    INFO(log);
    CHECK(std::regex_search(log, std::regex(R"(Func lk_it(\$\d+)?: computed)")));
}

// FAST-9's segment test (red-team round 14): the 16 circle offsets as two mux() tables read at a
// reduction variable, `e(x + dx(k), y + dy(k))`. Inlined, every step of the reduction evaluated
// both 16-way select chains; computed (16 values each), a load (4.5 -> 2.6 ms at 1024 x 768).
namespace {
Built fast_brighter_count() {
    Param<int> W = shape_var("W", 1, 128, 128), H = shape_var("H", 1, 96, 96);
    Param<int> T("T");
    T.set_range(1, 60);
    ImageParam im(UInt(8), 2, "fa_im");
    Var x("x"), y("y"), k("k");
    Func e = BoundaryConditions::repeat_edge(im, {{0, W}, {0, H}});
    const int circle[16][2] = {{0, -3}, {1, -3}, {2, -2}, {3, -1}, {3, 0}, {3, 1}, {2, 2}, {1, 3},
                               {0, 3}, {-1, 3}, {-2, 2}, {-3, 1}, {-3, 0}, {-3, -1}, {-2, -2}, {-1, -3}};
    std::vector<Expr> dxs, dys;
    for (const auto &c : circle) {
        dxs.emplace_back(c[0]);
        dys.emplace_back(c[1]);
    }
    Func dx("fa_dx"), dy("fa_dy"), out("fa_count");
    dx(k) = mux(k, dxs);
    dy(k) = mux(k, dys);
    RDom r(0, 16, "r");
    Expr p = cast<int>(e(x, y)), q = cast<int>(e(x + dx(r), y + dy(r)));
    out(x, y) = sum(select(q > p + T, 1, 0));
    im.set_estimates({{0, W}, {0, H}});
    out.set_estimates({{0, W}, {0, H}});
    return Built{out, {im}, {W, H, T}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
}
}  // namespace

TEST_CASE("a table written as mux() and read at a reduction variable is computed, not inlined per step", "[styles]") {
    const std::string log = check_style(fast_brighter_count, {{1, 1, 1}, {5, 9, 20}, {33, 7, 60}, {128, 96, 10}}, nullptr, nullptr,
                                        Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    INFO(log);
    CHECK(std::regex_search(log, std::regex(R"(Func fa_dx(\$\d+)?: computed)")));
    CHECK(std::regex_search(log, std::regex(R"(Func fa_dy(\$\d+)?: computed)")));
}

// An RGBA resampler (interleaved [c, x, y]) whose sum over a 4 x 4 window is its own Func,
// sum(ox, oy, c) as hl.sum writes it: its update gathers along ox (the taps' x is computed) and
// reads the input at clamped x and y but an unclamped channel c. Its rows' last steps round up
// along ox (a guarded step of gathers runs lane by lane: 2x slower at 129 points a row), which
// the unclamped c does not forbid; correct from 1 x 1 up, across the family.
TEST_CASE("a gathered update of an intermediate rounds its last vectors up where its reads are clamped along them", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 4, 128, 128), H = shape_var("H", 4, 96, 96);
            Param<int> OW = shape_var("OW", 1, 256, 256), OH = shape_var("OH", 1, 192, 192);
            ImageParam in(Float(32), 3, "rgba_in");
            Var c("c"), ox("ox"), oy("oy");
            Expr fx = (cast<float>(ox) + 0.5f) * (cast<float>(W) / cast<float>(OW)) - 0.5f;
            Expr fy = (cast<float>(oy) + 0.5f) * (cast<float>(H) / cast<float>(OH)) - 0.5f;
            Expr ix = cast<int>(floor(fx)), iy = cast<int>(floor(fy));
            Expr tx = fx - floor(fx), ty = fy - floor(fy);
            RDom r(-1, 4, -1, 4, "r");
            Func sum("rs_sum"), out("rs_out");
            sum(ox, oy, c) = 0.f;
            sum(ox, oy, c) += (1.f - abs(cast<float>(r.x) - tx) * 0.5f) * (1.f - abs(cast<float>(r.y) - ty) * 0.5f) *
                              in(c, clamp(ix + r.x, 0, W - 1), clamp(iy + r.y, 0, H - 1));
            out(c, ox, oy) = sum(ox, oy, c) * 0.25f;
            in.set_estimates({{0, 4}, {0, W}, {0, H}});
            out.set_estimates({{0, 4}, {0, OW}, {0, OH}});
            return Built{out, {in}, {W, H, OW, OH},
                         [](const std::vector<int> &s) { return Sizes{{4, s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{4, s[2], s[3]}; }};
        },
        {{4, 4, 1, 1}, {5, 7, 3, 2}, {65, 49, 129, 97}, {64, 48, 128, 96}, {128, 96, 256, 192}, {100, 20, 255, 5}}, nullptr, &source);
    INFO(source);
    CHECK_THAT(log, Catch::Contains("Func rs_sum: its update's last vectors rounded up"));
    CHECK_THAT(source, Catch::Contains("TailStrategy::RoundUp"));
}

// A lens remap (Brown's radial model) of an interleaved RGB image, bilinear from a
// constant_exterior boundary condition at coordinates computed per pixel through floats. Halide
// bounds those coordinates only loosely (r^2 = ux * ux + uy * uy widens every interval), so the
// boundary condition, computed over the region they span, filled many times the image per call
// (red-team round 15: 70x Mullapudi2016's time at 1024 x 768). It stays inlined, read in place.
TEST_CASE("a boundary condition read at loosely bounded coordinates is inlined, not computed over their region", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 256, 256), H = shape_var("H", 1, 192, 192), K = shape_var("K", 0, 400, 200);
            ImageParam in(Float(32), 3, "lens_in");
            Var c("c"), x("x"), y("y");
            Func e = BoundaryConditions::constant_exterior(in, 0.f, {{0, 3}, {0, W}, {0, H}});
            Expr cx = cast<float>(W) * 0.5f, cy = cast<float>(H) * 0.5f, nrm = 1.f / max(cx, cy);
            Expr ux = (cast<float>(x) + 0.5f - cx) * nrm, uy = (cast<float>(y) + 0.5f - cy) * nrm;
            Expr s = 1.f + cast<float>(K) * 0.001f * (ux * ux + uy * uy);
            Expr sx = ux * s / nrm + cx - 0.5f, sy = uy * s / nrm + cy - 0.5f;
            Expr ix = cast<int>(floor(sx)), iy = cast<int>(floor(sy));
            Expr ax = sx - floor(sx), ay = sy - floor(sy);
            Func out("lens_out");
            out(c, x, y) = (e(c, ix, iy) * (1 - ax) + e(c, ix + 1, iy) * ax) * (1 - ay) +
                           (e(c, ix, iy + 1) * (1 - ax) + e(c, ix + 1, iy + 1) * ax) * ay;
            in.set_estimates({{0, 3}, {0, W}, {0, H}});
            out.set_estimates({{0, 3}, {0, W}, {0, H}});
            return Built{out, {in}, {W, H, K},
                         [](const std::vector<int> &s) { return Sizes{{3, s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{3, s[0], s[1]}; }};
        },
        {{1, 1, 0}, {2, 3, 400}, {37, 20, 100}, {129, 97, 51}, {256, 192, 400}});
    CHECK_THAT(log, !Catch::Contains("Func constant_exterior: computed"));
}

// HSV -> RGB as written by hand (red-team round 15): a per-pixel 3-Tuple (p, q, t) read by every
// channel of an interleaved output through the sector's mux. Broadcast to the 3 channels, it is
// cheaper recomputed per channel than stored and read back (2.2x slower computed at root):
// inlined, in both layouts of the output. Interleaved, the channels are unrolled where the
// buffer holds 3 of them from 0, so that each channel's select folds (from 3 only, every channel
// computed all three muxes: 1.7x slower).
TEST_CASE("a cheap per-pixel Tuple read by every channel of an RGB output is inlined", "[styles]") {
    for (const bool interleaved : {true, false}) {
        INFO("interleaved " << interleaved);
        std::string lowered, source;
        const std::string log = check_style(
            [interleaved] {
                Param<int> W = shape_var("W", 1, 256, 256), H = shape_var("H", 1, 192, 192);
                ImageParam in(Float(32), 3, "hsv_in");
                Var c("c"), x("x"), y("y");
                Expr h = in(x, y, 0) * 360.f + 400.f;
                h = h - 360.f * floor(h * (1.f / 360.f));
                Expr s = min(abs(in(x, y, 1)), 1.f), v = abs(in(x, y, 2));
                Expr hh = h * (1.f / 60.f), f = hh - floor(hh);
                Func sector("hsv_sector"), pqt("hsv_pqt"), out("hsv_out");
                sector(x, y) = clamp(cast<int>(floor(hh)), 0, 5);
                pqt(x, y) = Tuple(v * (1.f - s), v * (1.f - s * f), v * (1.f - s * (1.f - f)));
                Expr P = pqt(x, y)[0], Q = pqt(x, y)[1], T = pqt(x, y)[2], sc = sector(x, y);
                Expr R = mux(sc, {v, Q, P, P, T, v}), G = mux(sc, {T, v, v, Q, P, P}), B = mux(sc, {P, P, T, v, v, Q});
                Expr value = select(c == 0, R, c == 1, G, B);
                if (interleaved) out(c, x, y) = value;
                else out(x, y, c) = value;
                in.set_estimates({{0, W}, {0, H}, {0, 3}});
                if (interleaved) out.set_estimates({{0, 3}, {0, W}, {0, H}});
                else out.set_estimates({{0, W}, {0, H}, {0, 3}});
                return Built{out, {in}, {W, H},
                             [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 3}}; },
                             [interleaved](const std::vector<int> &s) {
                                 return interleaved ? std::vector<int>{3, s[0], s[1]} : std::vector<int>{s[0], s[1], 3};
                             }};
            },
            {{1, 1}, {2, 3}, {17, 5}, {129, 97}, {256, 192}}, &lowered, &source);
        CHECK_THAT(log, !Catch::Contains("Func hsv_pqt: computed"));
        CHECK_THAT(lowered, !Catch::Contains("produce hsv_pqt"));
        if (interleaved) CHECK_THAT(source, Catch::Contains("dim(0).extent() == 3 && hsv_out.output_buffer().dim(0).min() == 0"));
    }
}

// An integral histogram (red-team round 15): 8 bins innermost, `ih(b, x, y)`, summed along x,
// then down y. The scan down y steps across the (b, x) planes; with one 8-bin vector per step it
// walked each column alone, a page per step (1.7-6.6x Adams2019's time at 640 x 480). It runs a
// tile of rows of x inside each step instead, as a reduction across planes does.
TEST_CASE("a scan down the planes of a Func with a short innermost dimension runs rows inside its steps", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 320, 320), H = shape_var("H", 1, 240, 240);
            ImageParam in(UInt(8), 2, "ihist_in");
            Var b("b"), x("x"), y("y");
            Func ih("ihist_int"), out("ihist_out");
            ih(b, x, y) = select(cast<int>(in(x, y) >> 5) == b, 1, 0);
            RDom rx(1, W - 1, "rx"), ry(1, H - 1, "ry");
            ih(b, rx, y) = ih(b, rx, y) + ih(b, rx - 1, y);
            ih(b, x, ry) = ih(b, x, ry) + ih(b, x, ry - 1);
            out(b, x, y) = ih(b, x, y) - ih(b, max(x - 3, 0), y) - ih(b, x, max(y - 3, 0)) + ih(b, max(x - 3, 0), max(y - 3, 0));
            in.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, 8}, {0, W}, {0, H}});
            return Built{out, {in}, {W, H},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{8, s[0], s[1]}; }};
        },
        // The unscheduled reference recomputes the scans per point (O((W H)^2)): the largest
        // shape is one just past the rows' threshold (2^18 points of the scan's steps).
        {{1, 1}, {2, 3}, {37, 20}, {205, 170}});
    CHECK_THAT(log, Catch::Contains("Func ihist_int: its reduction steps across planes"));
    // Its init's rows of 8 bins made a task each (307200 of 8 points at 640 x 480): 512 per task.
    CHECK_THAT(log, Catch::Contains("Func ihist_int: rows of dimension b of at most 8 points: 512 of them per parallel task"));
}

// Many tiny products (red-team round 15): C = A B A^T per batch element n, 8 x 8 each, written as
// unrolled sums (no RDom). The product T is computed per n in C's tiles; a task per n was a task
// per 64 points (2-11x Adams2019's time). Tasks take 64 of them, T still computed per n.
TEST_CASE("a batch of tiny products computed per element takes many elements per task", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> N = shape_var("N", 1, 4096, 4096);
            ImageParam A(Float(32), 3, "bt_a"), B(Float(32), 3, "bt_b");
            Var i("i"), j("j"), n("n");
            Func T("bt_t"), C("bt_c");
            Expr t = 0.f, c = 0.f;
            for (int k = 0; k < 8; k++) t += A(k, i, n) * B(j, k, n);
            T(i, j, n) = t;
            for (int k = 0; k < 8; k++) c += T(k, i, n) * A(k, j, n);
            C(i, j, n) = c;
            A.set_estimates({{0, 8}, {0, 8}, {0, N}});
            B.set_estimates({{0, 8}, {0, 8}, {0, N}});
            C.set_estimates({{0, 8}, {0, 8}, {0, N}});
            return Built{C, {A, B}, {N},
                         [](const std::vector<int> &s) { return Sizes{{8, 8, s[0]}, {8, 8, s[0]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{8, 8, s[0]}; }};
        },
        {{1}, {2}, {63}, {65}, {300}, {4096}});
    CHECK_THAT(log, Catch::Contains("Func bt_c: its members computed per point of n in a plane of constant size: 64 of them per parallel task."));
    CHECK_THAT(log, Catch::Contains("Func bt_t: computed per tile of bt_c at n_in_task"));
}

// Windows read at resampled coordinates (red-team round 15's joint bilateral upsampling): a 2x
// upsampling guided by a u8 image read at 2 * (x / 2 + r.x) under a 5 x 5 RDom, and a hand-written
// 3-tap 2x decimation, both over boundary conditions. Inlined, each tap was a vector at stride 2
// from the input, which Halide 14 loads lane by lane (1.8x Mullapudi2016's time); the conditions
// are computed (per tile), their strided reads dense loads and shuffles.
TEST_CASE("windows and taps at resampled coordinates compute their boundary conditions", "[styles]") {
    const std::string up = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 160, 160), H = shape_var("H", 1, 120, 120);
            ImageParam lo(Float(32), 2, "jb_lo");
            ImageParam guide(UInt(8), 2, "jb_guide");
            Var x("x"), y("y");
            Func le = BoundaryConditions::repeat_edge(lo, {{0, W}, {0, H}});
            Func ge = BoundaryConditions::repeat_edge(guide, {{0, 2 * W}, {0, 2 * H}});
            RDom r(-2, 5, -2, 5, "r");
            Expr lx = x / 2 + r.x, ly = y / 2 + r.y;
            Expr wgt = 1.0f / (1.0f + cast<float>(absd(ge(x, y), ge(2 * lx, 2 * ly))));
            Func num("jb_num"), den("jb_den"), out("jb_up");
            num(x, y) = sum(wgt * le(lx, ly));
            den(x, y) = sum(wgt);
            out(x, y) = num(x, y) / den(x, y);
            lo.set_estimates({{0, W}, {0, H}});
            guide.set_estimates({{0, 2 * W}, {0, 2 * H}});
            out.set_estimates({{0, 2 * W}, {0, 2 * H}});
            return Built{out, {lo, guide}, {W, H},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}, {2 * s[0], 2 * s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{2 * s[0], 2 * s[1]}; }};
        },
        {{1, 1}, {3, 2}, {17, 9}, {64, 33}, {160, 120}});
    const std::regex computed_condition(R"(Func repeat_edge(\$\d+)?: computed)");
    CHECK(std::regex_search(up, computed_condition));
    const std::string down = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 512, 512), H = shape_var("H", 1, 256, 256);
            ImageParam in(UInt(16), 2, "dec_in");
            Var x("x"), y("y");
            Func e = BoundaryConditions::repeat_edge(in, {{0, 2 * W}, {0, H}});
            Func out("dec_out");
            out(x, y) = cast<uint16_t>((cast<uint32_t>(e(2 * x - 1, y)) + 2 * e(2 * x, y) + e(2 * x + 1, y) + 2) / 4);
            in.set_estimates({{0, 2 * W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in}, {W, H}, [](const std::vector<int> &s) { return Sizes{{2 * s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {2, 3}, {17, 9}, {100, 33}, {512, 64}});
    CHECK(std::regex_search(down, computed_condition));
}

// A filter bank written with its kernel first (red-team round 16's Gabor bank):
// `resp(x, y, o) = sum(k(r.x, r.y, o) * im(x + r.x, y + r.y))`, an output also read by the
// strongest orientation's output (so no contraction takes it). The inline sum() takes its
// dimensions in the order its free variables appear, `sum(o, x, y)`: its dim 0 strides through
// the kernel, and its vectors ran along the window's r.x (55x Adams2019's time). They run along x,
// the sum stored with x innermost, a register tile of orientations by vectors per window step.
namespace {
struct FilterBank {
    std::vector<Func> outs;
    ImageParam im;
    Param<int> W, H, NO;
};
FilterBank filter_bank(bool estimated) {
    FilterBank b{{}, ImageParam(Float(32), 2, "fb_im"), shape_var("W", 2, 320, 320), shape_var("H", 2, 240, 240),
                 shape_var("NO", 1, 8, 8)};
    Var x("x"), y("y"), o("o"), i("i"), j("j");
    Func ker("fb_ker"), resp("fb_resp"), strongest("fb_max");
    ker(i, j, o) = cast<float>(i * 3 - j + o) * 0.125f;
    Func e = BoundaryConditions::mirror_interior(b.im, {{0, b.W}, {0, b.H}});
    RDom r(-2, 5, -2, 5, "r");
    resp(x, y, o) = sum(ker(r.x, r.y, o) * e(x + r.x, y + r.y));
    RDom ro(0, b.NO, "ro");
    strongest(x, y) = maximum(abs(resp(x, y, ro)));
    if (estimated) {
        b.im.set_estimates({{0, b.W}, {0, b.H}});
        resp.set_estimates({{0, b.W}, {0, b.H}, {0, b.NO}});
        strongest.set_estimates({{0, b.W}, {0, b.H}});
    }
    b.outs = {resp, strongest};
    return b;
}
}  // namespace

TEST_CASE("an inline sum whose dimension 0 strides through its operands vectorizes along dimension 1", "[styles]") {
    const Target target = diet::runnable_host_target();
    FilterBank d = filter_bank(true), r = filter_bank(false);
    std::string log, source;
    {
        diet_test::StderrCapture cap(false);
        source = diet::autoschedule(Pipeline(d.outs), target, 2, 0, diet::Options{}).schedule_source;
        log = cap.finish();
    }
    INFO(log << "\n" << source);
    CHECK_THAT(log, Catch::Contains("its updates load densely along x only: vectors along x, stored innermost, o outside its reduction loops"));
    CHECK(source.find("reorder_storage(x, o, y)") != std::string::npos);
    Pipeline dp(d.outs), rp(r.outs);
    dp.compile_jit(target);
    for (const std::vector<int> &s : std::vector<std::vector<int>>{{2, 2, 1}, {5, 3, 2}, {17, 9, 3}, {64, 33, 8}, {100, 7, 5}, {320, 240, 8}}) {
        INFO("shape " << s[0] << " " << s[1] << " " << s[2]);
        Buffer<> im = random_input(Float(32), {s[0], s[1]}, 7, -1, 1);
        for (FilterBank *b : {&d, &r}) {
            b->im.set(im);
            b->W.set(s[0]);
            b->H.set(s[1]);
            b->NO.set(s[2]);
        }
        Buffer<float> resp(s[0], s[1], s[2]), top(s[0], s[1]), rresp(s[0], s[1], s[2]), rtop(s[0], s[1]);
        dp.realize({resp, top}, target);
        rp.realize({rresp, rtop}, target);
        CHECK(compare(resp, rresp) == "");
        CHECK(compare(top, rtop) == "");
    }
}

// A tetrahedral 3-D colour LUT (red-team round 16): per pixel a base cell (a Tuple of 3 ints) and
// the tetrahedron's weights and vertex offsets (a Tuple of 9) read by an interleaved RGB output,
// out(c, x, y), whose 3 channels fill at most half a vector. Counted along c, their lanes made the
// Tuples' tiles cost 10x, so they were computed at root: 6.0-8.7 ms against 3.8-4.1 per row at
// 1024 x 768 (AVX2). Now the output's vectors run along x and the Tuples are computed per row.
TEST_CASE("per-pixel Funcs read by an interleaved output are computed per row of it", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1024, 1024), H = shape_var("H", 1, 768, 768), N = shape_var("LN", 2, 33, 33);
            ImageParam im(UInt(8), 3, "lt_im"), lut(Float(32), 4, "lt_lut");
            Var c("c"), x("x"), y("y");
            Expr sc = cast<float>(N - 1) * (1.0f / 255.0f);
            std::vector<Expr> fr;
            for (int k = 0; k < 3; k++) fr.push_back(cast<float>(im(k, x, y)) * sc);
            Func cell("lt_cell"), tet("lt_tet"), out("lt_out");
            cell(x, y) = Tuple(min(cast<int>(fr[0]), N - 2), min(cast<int>(fr[1]), N - 2), min(cast<int>(fr[2]), N - 2));
            Expr dr = fr[0] - cast<float>(cell(x, y)[0]), dg = fr[1] - cast<float>(cell(x, y)[1]), db = fr[2] - cast<float>(cell(x, y)[2]);
            Expr rg = dr >= dg, gb = dg >= db, rb = dr >= db;
            Expr c1 = rg && gb, c2 = rg && !gb && rb, c3 = rg && !rb, c4 = !rg && rb, c5 = !rg && !rb && gb, c6 = !rg && !gb;
            const auto one = [](Expr e) { return select(e, 1, 0); };
            tet(x, y) = Tuple(std::vector<Expr>{select(c1 || c2, dr, c4 || c5, dg, db), select(c1 || c6, dg, c2 || c5, db, dr),
                               select(c1 || c4, db, c2 || c3, dg, dr), one(c1 || c2), one(c4 || c5), one(c3 || c6),
                               one(c1 || c2 || c3 || c4), one(c1 || c4 || c5 || c6), one(c2 || c3 || c5 || c6)});
            Expr ir = cell(x, y)[0], ig = cell(x, y)[1], ib = cell(x, y)[2];
            const auto t = [&](int k) { return tet(x, y)[k]; };
            Expr v0 = lut(c, ir, ig, ib), v1 = lut(c, ir + t(3), ig + t(4), ib + t(5)), v2 = lut(c, ir + t(6), ig + t(7), ib + t(8)),
                 v3 = lut(c, ir + 1, ig + 1, ib + 1);
            Expr val = v0 + t(0) * (v1 - v0) + t(1) * (v2 - v1) + t(2) * (v3 - v2);
            // In float: rounded to 8 bits, one pixel in 1728 differed by 1 from the unscheduled
            // reference (LLVM contracts the interpolation into fused multiply-adds differently).
            out(c, x, y) = clamp(val, 0.0f, 1.0f) * 255.0f;
            im.set_estimates({{0, 3}, {0, W}, {0, H}});
            lut.set_estimates({{0, 3}, {0, N}, {0, N}, {0, N}});
            out.set_estimates({{0, 3}, {0, W}, {0, H}});
            return Built{out, {im, lut}, {W, H, N},
                         [](const std::vector<int> &s) { return Sizes{{3, s[0], s[1]}, {3, s[2], s[2], s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{3, s[0], s[1]}; }};
        },
        {{1, 1, 2}, {7, 3, 5}, {129, 97, 5}, {300, 20, 17}, {64, 9, 33}});
    CHECK_THAT(log, Catch::Contains("Func lt_tet: computed per tile of lt_out at y_in_task"));
    CHECK_THAT(log, Catch::Contains("Func lt_cell: computed per tile of lt_out at y_in_task"));
    CHECK_THAT(log, Catch::Contains("Func lt_out: its dimension c fills at most half a vector: vectors along x"));
}

// A Kuwahara filter (red-team round 17): statistics per quadrant st(q, x, y), a Tuple (sum, sum of
// squares) over 4 quadrants, read by the least-variance pick at st(0, x, y) then st(r, x, y).
// Computed per tile with its vectors along q (4 of 16 lanes, gathered) it took 154 ms at 1024 x 768
// against 6.5-8 stored x innermost and vectorized along x (AVX-512).
TEST_CASE("a member whose readers take its short dimension 0 at constants vectorizes along dimension 1", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 1024, 1024), H = shape_var("H", 1, 768, 768), R = shape_var("R", 1, 6, 6);
            ImageParam im(UInt(8), 2, "kw_im");
            Var q("q"), x("x"), y("y");
            Func e = BoundaryConditions::mirror_image(im, {{0, W}, {0, H}});
            Func ei("kw_e"), st("kw_stats"), best("kw_best"), out("kw_out");
            ei(x, y) = cast<int>(e(x, y));
            RDom r(0, R + 1, 0, R + 1, "rq");
            Expr ox = (q % 2) * R - R, oy = (q / 2) * R - R;
            st(q, x, y) = Tuple(0, 0);
            Expr v = ei(x + ox + r.x, y + oy + r.y);
            st(q, x, y) = Tuple(st(q, x, y)[0] + v, st(q, x, y)[1] + v * v);
            Expr n = (R + 1) * (R + 1);
            best(x, y) = Tuple(n * st(0, x, y)[1] - st(0, x, y)[0] * st(0, x, y)[0], st(0, x, y)[0]);
            RDom rb(1, 3, "rb");
            Expr s = st(rb, x, y)[0], s2 = st(rb, x, y)[1], var = n * s2 - s * s, better = var < best(x, y)[0];
            best(x, y) = Tuple(select(better, var, best(x, y)[0]), select(better, s, best(x, y)[1]));
            out(x, y) = cast<uint8_t>((best(x, y)[1] + n / 2) / n);
            im.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {im}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 1}, {5, 3, 2}, {129, 97, 1}, {300, 40, 6}, {64, 9, 3}});
    CHECK_THAT(log, Catch::Contains("Func kw_stats: computed per tile of kw_out"));
    CHECK_THAT(log, Catch::Contains("vectorized along x (its readers' vectors run along it, q elsewhere), stored x innermost"));
}

// A maximum over interleaved channels shorter than a vector at every shape (a compressor's
// linked detector over C <= 8 channels, red-team round 17): rfactored into per-lane partial
// results, its one vector per row predicated and loaded lane by lane (C = 8 on AVX-512: 4.4x the
// serial reference). Its vectors run along t.
TEST_CASE("a reduction shorter than a vector at every shape keeps its vectors along dimension 0", "[styles]") {
    const int lanes = diet::runnable_host_target().natural_vector_size(Float(32));
    const std::string log = check_style(
        [=] {
            Param<int> T = shape_var("T", 1, 65536, 65536), C = shape_var("C", 1, lanes - 1, lanes - 1);
            ImageParam in(Float(32), 2, "cp_x");
            Var t("t");
            RDom rc(0, C, "rc");
            Func det("cp_det");
            det(t) = maximum(abs(in(rc, t)));
            in.set_estimates({{0, C}, {0, T}});
            det.set_estimates({{0, T}});
            return Built{det, {in}, {T, C}, [](const std::vector<int> &s) { return Sizes{{s[1], s[0]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0]}; }};
        },
        {{1, 1}, {7, lanes - 1}, {1000, lanes / 2}, {65536, lanes - 1}, {33, 2}});
    CHECK_THAT(log, !Catch::Contains("per-lane partial results"));
}

// Difference-of-Gaussians scale space (red-team round 17): the vertical blur g(x, y, s) =
// sum(w(r, s) * gx(x, y + r, s)) is an inline sum whose free variables came out (s, x, y), computed
// per tile of the extrema mask with its vectors along s (4 scales): 19-28 ms at 640 x 480 against
// 3.7-5.2 stored x innermost and vectorized along x (AVX2).
TEST_CASE("an inline sum whose free variables put a short dimension first vectorizes along its readers' vectors", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 640, 640), H = shape_var("H", 1, 480, 480), S0 = shape_var("S0", 8, 20, 16);
            ImageParam im(Float(32), 2, "dg_im");
            Var x("x"), y("y"), s("s"), i("i");
            Func e = BoundaryConditions::mirror_image(im, {{0, W}, {0, H}});
            Expr sig = cast<float>(S0) * 0.1f * pow(2.0f, cast<float>(s) / 3.0f);
            Func w("dg_w"), wn("dg_wn"), gx("dg_gx"), g("dg_g"), d("dg_dog"), mask("dg_mask");
            w(i, s) = exp(-cast<float>(i * i) / (2.0f * sig * sig));
            RDom rn(-6, 13, "rn"), rt(-6, 13, "rt"), rt2(-6, 13, "rt2");
            wn(i, s) = w(i, s) / sum(w(rn, s));
            gx(x, y, s) = sum(wn(rt, s) * e(x + rt, y));
            g(x, y, s) = sum(wn(rt2, s) * gx(x, y + rt2, s));
            d(x, y, s) = g(x, y, s + 1) - g(x, y, s);
            Expr v = d(x, y, 1), mx = d(x, y, 0), mn = d(x, y, 0);
            for (int ss = 0; ss < 3; ss++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        if (ss == 1 && dx == 0 && dy == 0) continue;
                        Expr nb = d(clamp(x + dx, 0, W - 1), clamp(y + dy, 0, H - 1), ss);
                        mx = max(mx, nb);
                        mn = min(mn, nb);
                    }
                }
            }
            mask(x, y) = select((v > mx || v < mn) && abs(v) > 0.003f, cast<uint8_t>(255), cast<uint8_t>(0));
            im.set_estimates({{0, W}, {0, H}});
            mask.set_estimates({{0, W}, {0, H}});
            return Built{mask, {im}, {W, H, S0}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 8}, {7, 5, 12}, {81, 61, 8}, {200, 33, 20}});
    CHECK(std::regex_search(log, std::regex(R"(Func sum\$\d+: computed per tile of dg_mask at \w+, vectorized along x \(its readers' vectors run along it, s elsewhere\))")));
}

// An exact distance transform's row pass (red-team round 17): d(x, y) = min over x' of
// (x - x')^2 + g(x', y). Its loads move along the reduction and not with x at all, so vectors along
// x broadcast them; per-lane partial results over the 512-long row ran 0.63-0.68x as fast
// (3.3x Adams2019 at the small shape).
TEST_CASE("a row reduction whose loads do not move with dimension 0 keeps its vectors along it", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 512, 512), H = shape_var("H", 1, 384, 384);
            ImageParam g(Int(32), 2, "dt_g");
            Var x("x"), y("y");
            RDom r(0, W, "rx");
            Func d("dt_out");
            d(x, y) = minimum((x - r) * (x - r) + g(r, y));
            g.set_estimates({{0, W}, {0, H}});
            d.set_estimates({{0, W}, {0, H}});
            return Built{d, {g}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {7, 3}, {65, 49}, {512, 20}});
    CHECK_THAT(log, !Catch::Contains("per-lane partial results"));
}

// Linear prediction's autocorrelation (red-team round 17's LPC): r(k, f) = sum over n of
// x(n, f) * x(min(n + k, N - 1), f), 9 lags, per frame. Its vectors run along k, 9 lags in vectors
// of 8 or 16: the last one, guarded, was predicated and its clamped loads gathered lane by lane;
// computed past the tile instead (the clamp keeps x's region), both vectors load densely.
TEST_CASE("an update whose vectors read a clamped coordinate rounds its last vector up", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> NF = shape_var("NF", 1, 256, 256), N = shape_var("N", 16, 512, 512), HOP = shape_var("HOP", 1, 256, 256);
            ImageParam sig(Float(32), 1, "ac_sig");
            Var n("n"), f("f"), k("k");
            Func xw("ac_xw"), r("ac_r"), out("ac_out");
            xw(n, f) = sig(f * HOP + n) * (0.5f - 0.5f * cos(6.2831853f * cast<float>(n) / cast<float>(N - 1)));
            RDom rn(0, N, "rn");
            r(k, f) = sum(select(rn + k < N, xw(rn, f) * xw(min(rn + k, N - 1), f), 0.0f));
            out(k, f) = r(k, f) / (r(0, f) + 1e-6f);
            sig.set_estimates({{0, 255 * 256 + 512}});
            out.set_estimates({{0, 9}, {0, NF}});
            return Built{out, {sig}, {NF, N, HOP},
                         [](const std::vector<int> &s) { return Sizes{{(s[0] - 1) * s[2] + s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{9, s[0]}; }};
        },
        {{1, 16, 1}, {7, 33, 5}, {64, 512, 256}, {3, 100, 17}});
    CHECK(std::regex_search(log, std::regex(R"(Func sum: .*its update's last vectors? rounded up \(clamped reads along it\))")));
}

// Sobel written with wrappers (red-team round 21): gradients read the padded image through
// per-consumer wrappers `pad.in(gx)`, `pad.in(gy)`. The wrappers are relays that stay inlined; the
// window's six taps are theirs, so the padding, read pointwise by them, was inlined into every tap
// (a clamped gather per load): 4.15 ms at 640 x 480 x 4 against 0.79 without the wrappers (AVX2;
// apps/results/cpu/redteam21_2026-12-07/repro_sobel21.out).
// Looked at through the relays, the padding is computed per tile as without them.
TEST_CASE("a boundary condition read at taps through a user's in() wrappers is computed per tile", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 640, 640), H = shape_var("H", 1, 480, 480);
            ImageParam img(UInt(8), 2, "sw_img");
            Var x("x"), y("y");
            Func pad("sw_pad"), gx("sw_gx"), gy("sw_gy"), out("sw_out");
            pad(x, y) = cast<uint16_t>(BoundaryConditions::repeat_edge(img, {{0, W}, {0, H}})(x, y));
            Func px = pad.in(gx), py = pad.in(gy);
            gx(x, y) = absd(px(x + 1, y - 1) + 2 * px(x + 1, y) + px(x + 1, y + 1), px(x - 1, y - 1) + 2 * px(x - 1, y) + px(x - 1, y + 1));
            gy(x, y) = absd(py(x - 1, y + 1) + 2 * py(x, y + 1) + py(x + 1, y + 1), py(x - 1, y - 1) + 2 * py(x, y - 1) + py(x + 1, y - 1));
            out(x, y) = saturating_cast<uint8_t>(gx(x, y) + gy(x, y));
            img.set_estimates({{0, W}, {0, H}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {img}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {7, 3}, {640, 480}, {65, 2}});
    CHECK_THAT(log, Catch::Contains("Func sw_pad: computed per tile of sw_out"));
}

// Red-team round 22's lens blur: a Tuple sum over a disc of run-time radius R in [1, 8] (17 x 17
// points at most) of a repeat_edge image, weighted by a brightness Func. Counted as a search (more
// than 121 points), the boundary condition was inlined into every tap, the taps near the edges
// gathered: 16.0-16.6 ms at 512 x 512, R = 8, against 9.3-9.4 computed per tile (AVX-512;
// apps/results/cpu/wide_windows_2026-12-07/). Windows up to 64 x 64 points count now.
TEST_CASE("a boundary condition read through a disc of radius up to 8 is computed per tile", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 512, 512), H = shape_var("H", 1, 512, 512), R = shape_var("R", 1, 8, 8);
            ImageParam in(Float(32), 3, "lb_in");
            Var x("x"), y("y"), c("c");
            Func cl("lb_edge"), wgt("lb_wgt"), acc("lb_acc"), out("lb_out");
            cl(x, y, c) = BoundaryConditions::repeat_edge(in, {{0, W}, {0, H}})(x, y, c);
            wgt(x, y) = 1.0f + 8.0f * pow(0.25f * cl(x, y, 0) + 0.5f * cl(x, y, 1) + 0.25f * cl(x, y, 2), 2);
            RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "lb_disc");
            r.where(r.x * r.x + r.y * r.y <= R * R);
            acc(x, y, c) = Tuple(0.0f, 0.0f);
            acc(x, y, c) = Tuple(acc(x, y, c)[0] + wgt(x + r.x, y + r.y) * cl(x + r.x, y + r.y, c), acc(x, y, c)[1] + wgt(x + r.x, y + r.y));
            out(x, y, c) = acc(x, y, c)[0] / acc(x, y, c)[1];
            in.set_estimates({{0, W}, {0, H}, {0, 3}});
            out.set_estimates({{0, W}, {0, H}, {0, 3}});
            return Built{out, {in}, {W, H, R}, [](const std::vector<int> &s) { return Sizes{{s[0], s[1], 3}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], 3}; }};
        },
        {{1, 1, 1}, {7, 3, 8}, {65, 65, 2}, {200, 17, 8}, {31, 40, 5}});
    CHECK_THAT(log, Catch::Contains("Func repeat_edge: computed per tile of lb_out"));
}
