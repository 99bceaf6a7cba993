// Neural-network layers in the styles other people write them (probe 12,
// apps/results/cpu/probe_styles12/): a layer norm whose mean is finished by a pointwise update, a
// depthwise convolution over channels-innermost activations behind a zero-padding boundary
// condition. Each is scheduled by Diet with default options, checked against the same algorithm
// unscheduled at shapes across its family, and checked for the placement that made it fast.
#include "style_check.h"

#include <regex>
#include <set>

using namespace Halide;
using namespace diet_test;

namespace {

// `.specialize(` calls in an emitted schedule source: each kept tile variant specializes the host,
// the accumulator's init and its update (3 each).
size_t specialize_calls(const std::string &source) {
    size_t n = 0;
    for (size_t at = source.find(".specialize("); at != std::string::npos; at = source.find(".specialize(", at + 1)) n++;
    return n;
}

}  // namespace

// `mean(t) += x(r, t); mean(t) = mean(t) / H`: the reduction followed by a pointwise update was
// vectorized along t, every lane a load 768 floats from the next (8x slower than every Func at
// root at T = 1). A reduction followed by pointwise updates now gets the per-lane partial results
// along its rows, as a Func with the reduction alone did (the variance beside it).
TEST_CASE("a reduction finished by a pointwise update reduces along its rows in vectors", "[styles]") {
    const int H = 96;
    std::string stmt;
    const std::string log = check_style(
        [=] {
            Param<int> T = shape_var("T", 1, 512, 128);
            ImageParam x(Float(32), 2, "x");
            Var c("c"), t("t");
            Func mean("mean"), var("var"), out("layernorm");
            RDom r(0, H, "r");
            mean(t) = 0.0f;
            mean(t) += x(r, t);
            mean(t) = mean(t) / H;
            var(t) = 0.0f;
            Expr d = x(r, t) - mean(t);
            var(t) += d * d;
            out(c, t) = (x(c, t) - mean(t)) / sqrt(var(t) / H + 1e-5f);
            x.set_estimates({{0, H}, {0, T}});
            out.set_estimates({{0, H}, {0, T}});
            return Built{out, {x}, {T}, [=](const std::vector<int> &s) { return Sizes{{H, s[0]}}; },
                         [=](const std::vector<int> &s) { return std::vector<int>{H, s[0]}; }};
        },
        {{1}, {7}, {128}, {333}}, &stmt);
    CHECK_THAT(log, Catch::Contains("Func mean: computed per tile of layernorm at t_o, r$x in vectors of per-lane partial results reduced per row"));
    CHECK_THAT(log, Catch::Contains("Func var: computed per tile of layernorm at t_o, r$x in vectors of per-lane partial results reduced per row"));
    // No gather along t (a vector of x whose lanes are a row apart): every load is dense along c or r.
    INFO(stmt);
    CHECK(stmt.find("x.stride.1, 8)]") == std::string::npos);
    CHECK(stmt.find("x.stride.1, 4)]") == std::string::npos);
}

// A 3x3 depthwise convolution over NHWC activations (channels innermost), zero padded. The
// boundary condition was computed at root and then copied again per task (two passes over the
// input); the register tile took one output pixel (its weights reloaded per pixel); and each row
// task copied three input rows for one output row.
TEST_CASE("a depthwise convolution copies its padded window once per run of row tasks and tiles pixels", "[styles]") {
    std::string stmt;
    const std::string log = check_style(
        [] {
            Param<int> S = shape_var("S", 4, 256, 64);
            ImageParam in(Float(32), 3, "in"), w(Float(32), 3, "w");
            Var c("c"), x("x"), y("y");
            Func padded = BoundaryConditions::constant_exterior(in, 0.0f);
            Func out("depthwise");
            RDom r(-1, 3, -1, 3, "r");
            out(c, x, y) = sum(padded(c, x + r.x, y + r.y) * w(c, r.x + 1, r.y + 1));
            in.set_estimates({{0, 32}, {0, S}, {0, S}});
            w.set_estimates({{0, 32}, {0, 3}, {0, 3}});
            out.set_estimates({{0, 32}, {0, S}, {0, S}});
            return Built{out, {in, w}, {S}, [](const std::vector<int> &s) { return Sizes{{32, s[0], s[0]}, {32, 3, 3}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{32, s[0], s[0]}; }};
        },
        {{4}, {5}, {17}, {64}, {131}}, &stmt);
    CHECK_THAT(log, !Catch::Contains("constant_exterior: computed at root"));
    // The weights are shared by the pixels of a register tile: more than one row (pixel) per tile.
    CHECK_THAT(log, Catch::Contains("micro-kernel cpu{"));
    CHECK_THAT(log, !Catch::Contains("rows=1,"));
    // The padded window is allocated per parallel run of tasks, outside the task loop.
    const size_t alloc = stmt.find("allocate constant_exterior_in_sum");
    const size_t task_loop = stmt.find("for (depthwise.s0.c.n_o.n_t.task.task_i");
    INFO(stmt);
    REQUIRE(alloc != std::string::npos);
    REQUIRE(task_loop != std::string::npos);
    CHECK(alloc < task_loop);
}

// Masked attention scores, s(j, i, h) = select(j <= i, q . k, -inf), T in [1, 256]: both tiled
// extents are T, so of a kernel's chain of tile variants (cols x rows: 3x4, 3x2, 2x4, ...) the
// family takes only those with cols and rows fitting the same T. Each variant kept is a
// specialization Halide lowers and LLVM compiles (the dot kernels' with an rfactor intermediate
// each): 33 specializations took 50 s to compile. Variants no shape takes are dropped now.
TEST_CASE("tile variants that no shape of the family takes are not specialized on", "[styles]") {
    auto build = [] {
        Param<int> T = shape_var("T", 1, 256, 128);
        ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k");
        Var i("i"), j("j"), h("h");
        Func out("masked_scores");
        RDom r(0, 64, "d");
        out(j, i, h) = select(j <= i, sum(q(r, i, h) * k(r, j, h)) * 0.125f, -1e30f);
        q.set_estimates({{0, 64}, {0, T}, {0, 12}});
        k.set_estimates({{0, 64}, {0, T}, {0, 12}});
        out.set_estimates({{0, T}, {0, T}, {0, 12}});
        return Built{out, {q, k}, {T}, [](const std::vector<int> &s) { return Sizes{{64, s[0], 12}, {64, s[0], 12}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{s[0], s[0], 12}; }};
    };
    std::string source;
    check_style(build, {{1}, {2}, {3}, {5}, {64}}, nullptr, &source);
    INFO(source);
    const size_t specializations = specialize_calls(source);
    // Each kept variant specializes the host, the accumulator's init and its update (3 each).
    // The whole chains were 33. The dot kernel's 3x4 tile takes T >= 4, 3x2 T = 3, 2x2 T = 2, 1x1
    // T = 1; its 2x4 variant (two columns, four rows) would need T >= 4, where 3x4 comes first.
    CHECK(specializations > 0);
    CHECK(specializations <= 21);
    const std::regex two_by_four(R"(dim\(0\)\.extent\(\) >= 2 && \w+\.output_buffer\(\)\.dim\(1\)\.extent\(\) >= 4\b)");
    CHECK(!std::regex_search(source, two_by_four));
}

// A family of two shape variables over [1, 256] x [1, 256] (65536 shapes: too many to list): a 1x1
// convolution over NHWC, out(c, x, y) = bias(c) + sum_ci in(ci, x, y) w(ci, c), 128 output
// channels. Every variant of every leaf's chain used to stay (51 specialize calls over three
// leaves for this layer); now those no point of the family's extents box reaches are dropped
// (schedule/VariantCells.h): no column variant narrower than the 128 channels, and the layer is
// still correct at both extremes of each variable and where a leaf changes.
TEST_CASE("a family too large to list keeps only the tile variants its extents box reaches", "[styles]") {
    auto build = [] {
        Param<int> W = shape_var("W", 1, 256, 56), H = shape_var("H", 1, 256, 56);
        ImageParam in(Float(32), 3, "in"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        Var c("c"), x("x"), y("y");
        Func out("pointwise_conv");
        RDom r(0, 64, "ci");
        out(c, x, y) = bias(c) + sum(in(r, x, y) * w(r, c));
        in.set_estimates({{0, 64}, {0, W}, {0, H}});
        w.set_estimates({{0, 64}, {0, 128}});
        bias.set_estimates({{0, 128}});
        out.set_estimates({{0, 128}, {0, W}, {0, H}});
        return Built{out, {in, w, bias}, {W, H},
                     [](const std::vector<int> &s) { return Sizes{{64, s[0], s[1]}, {64, 128}, {128}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{128, s[0], s[1]}; }};
    };
    std::string source;
    check_style(build, {{1, 1}, {1, 256}, {256, 1}, {5, 7}, {15, 200}, {16, 30}, {256, 256}}, nullptr, &source);
    INFO(source);
    const size_t specializations = specialize_calls(source);
    CHECK(specializations > 0);
    CHECK(specializations <= 24);
    // Every column condition is a leaf kernel's full tile width (a column kernel's lanes x
    // vectors, a dot-product kernel's columns), never a narrower variant's: the 128 channels
    // always hold a full-width tile. (Whichever kernels rank first on this CPU: on AVX2 a 4-column
    // dot-product kernel serves W <= 50, and its full width reads `extent() >= 4`.)
    std::set<int> full_widths;
    const std::regex column_kernel(R"(cpu\{vec=(\d+)x(\d+))"), dot_kernel(R"(cpu\{dot=\d+, cols=(\d+))");
    for (std::sregex_iterator i(source.begin(), source.end(), column_kernel), e; i != e; ++i) {
        full_widths.insert(std::stoi((*i)[1]) * std::stoi((*i)[2]));
    }
    for (std::sregex_iterator i(source.begin(), source.end(), dot_kernel), e; i != e; ++i) full_widths.insert(std::stoi((*i)[1]));
    REQUIRE(!full_widths.empty());
    const std::regex column_condition(R"(dim\(0\)\.extent\(\) >= (\d+))");
    for (std::sregex_iterator i(source.begin(), source.end(), column_condition), e; i != e; ++i) {
        INFO((*i)[0].str());
        CHECK(full_widths.count(std::stoi((*i)[1])) == 1);
    }
}

// A dense layer over batch x sequence, y(o, t, b) = bias(o) + sum_c x(c, t, b) w(c, o), T in
// [1, 128], B in [1, 16]: the weights are shared by every t and every b, so where T is shorter than
// a kernel's register-tile rows the rows run along b (ApplySchedule rows_along_batch_variant). Before,
// T = 1..2 ran one- and two-row tiles: 0.41-0.49x the same layer with its rows flattened at B = 16
// (apps/results/cpu/rows_two_dims/). Correct at both ends of each variable and where the tile
// rows change; the schedule holds the specialization.
TEST_CASE("a batch the weights are shared across takes the register tile's rows where the sequence is short", "[styles]") {
    auto build = [] {
        Param<int> T = shape_var("T", 1, 128, 64), B = shape_var("B", 1, 16, 4);
        ImageParam x(Float(32), 3, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
        Var o("o"), t("t"), b("b");
        Func out("dense_bt");
        RDom r(0, 256, "c");
        out(o, t, b) = bias(o) + sum(x(r, t, b) * w(r, o));
        x.set_estimates({{0, 256}, {0, T}, {0, B}});
        w.set_estimates({{0, 256}, {0, 192}});
        bias.set_estimates({{0, 192}});
        out.set_estimates({{0, 192}, {0, T}, {0, B}});
        return Built{out, {x, w, bias}, {T, B},
                     [](const std::vector<int> &s) { return Sizes{{256, s[0], s[1]}, {256, 192}, {192}}; },
                     [](const std::vector<int> &s) { return std::vector<int>{192, s[0], s[1]}; }};
    };
    std::string source;
    check_style(build, {{1, 16}, {2, 16}, {1, 4}, {1, 1}, {3, 5}, {7, 9}, {128, 16}, {128, 1}}, nullptr, &source);
    INFO(source);
    // Some specialization takes short rows (dim 1 at most a tile's rows R less one) and a batch of
    // at least R (dim 2); a dispatch leaf's box never pairs the two bounds that way.
    const std::regex rows_along_batch(R"(dim\(1\)\.extent\(\) <= (\d+) && \w+\.output_buffer\(\)\.dim\(2\)\.extent\(\) >= (\d+))");
    bool found = false;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), rows_along_batch); it != std::sregex_iterator(); ++it) {
        found |= std::stoi((*it)[2].str()) == std::stoi((*it)[1].str()) + 1 && std::stoi((*it)[2].str()) > 1;
    }
    CHECK(found);
}

// A product read at an offset by a ranged Param that no estimate uses (a dilated convolution's
// dilation, red-team round 9's WaveNet): out(n, m) = c(n, m) + c(n, m + GAP), GAP in [0, 8]. The
// product's required extent M + GAP had no value at the family's shapes and the contraction's
// sizing stopped on an internal error; it is now sized at its smallest over GAP's range, with one
// warning, and correct at every GAP.
TEST_CASE("a product read at an offset by a Param no estimate uses is sized at its smallest, not an error", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> M = shape_var("M", 1, 128, 128), N = shape_var("N", 1, 128, 128), K = shape_var("K", 1, 64, 64);
            Param<int> gap("GAP");
            gap.set_range(0, 8);
            gap.set_estimate(8);
            ImageParam a(Float(32), 2, "gap_a"), b(Float(32), 2, "gap_b");
            Var n("n"), m("m");
            RDom r(0, K, "r");
            Func c("gap_c"), out("gap_out");
            c(n, m) = 0.0f;
            c(n, m) += a(r, m) * b(n, r);
            out(n, m) = c(n, m) + c(n, m + gap);
            a.set_estimates({{0, K}, {0, M}});
            b.set_estimates({{0, N}, {0, K}});
            out.set_estimates({{0, N}, {0, M}});
            return Built{out, {a, b}, {M, N, K, gap},
                         [](const std::vector<int> &s) { return Sizes{{s[2], s[0] + s[3]}, {s[1], s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[1], s[0]}; }};
        },
        {{1, 1, 1, 0}, {1, 1, 1, 8}, {7, 5, 3, 2}, {33, 17, 64, 8}, {128, 128, 64, 0}, {128, 128, 64, 5}});
    CHECK_THAT(log, Catch::Contains("depends on a parameter that no estimate uses"));
    CHECK_THAT(log, Catch::Contains("micro-kernel"));
}

// GroupNorm with channels innermost (red-team round 9): mean(g, n) += x(g * CPG + r.x, r.y, n). A
// vector along g read x with the run-time stride CPG (a gather per lane) and ran the whole
// reduction serially in one vector: 2.7x Mullapudi2016's time. Its rows (the group's channels,
// contiguous) go into the lanes instead, per-lane partial results reduced per row: 0.22-0.37x the
// time (apps/results/cpu/strided_rows_2026-12-01/).
TEST_CASE("a reduction over a group's channels strided by a run-time group size takes the channels into lanes", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> G = shape_var("G", 1, 8, 8), CPG = shape_var("CPG", 1, 16, 16), P = shape_var("P", 1, 256, 256);
            ImageParam x(Float(32), 2, "gn_x");
            Var g("g"), c("c"), p("p");
            RDom r(0, CPG, 0, P, "r");
            Func mean("gn_mean"), out("gn_out");
            mean(g) = 0.0f;
            mean(g) += x(g * CPG + r.x, r.y);
            out(c, p) = x(c, p) - mean(c / CPG) / cast<float>(CPG * P);
            x.set_estimates({{0, G * CPG}, {0, P}});
            out.set_estimates({{0, G * CPG}, {0, P}});
            return Built{out, {x}, {G, CPG, P}, [](const std::vector<int> &s) { return Sizes{{s[0] * s[1], s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0] * s[1], s[2]}; }};
        },
        {{1, 1, 1}, {2, 3, 5}, {8, 16, 256}, {5, 1, 100}, {3, 7, 33}});
    CHECK_THAT(log, Catch::Contains("Func gn_mean: computed at root, update loops, r$x in vectors of per-lane partial results"));
}

// All-pairs forces (red-team round 9's n-body): f(i) += m(r) * (p(r) - p(i)) / |p(r) - p(i)|^3
// over RDom(0, N), N in [1, 1024]. Its tasks held 8192 bodies each, so N <= 1024 ran as one task
// on one core; where the reduction is at least kLongReductionSteps long (a specialization on N),
// a task holds 8192 bodies' worth of steps (apps/results/cpu/scan_lanes_2026-12-01/).
TEST_CASE("a one-dimensional update over a long run-time reduction takes tasks by its steps", "[styles]") {
    std::string source;
    check_style(
        [] {
            Param<int> N = shape_var("N", 1, 1024, 1024);
            ImageParam pos(Float(32), 2, "nb_pos"), mass(Float(32), 1, "nb_mass");
            Var i("i");
            RDom r(0, N, "r");
            Expr dx = pos(0, r) - pos(0, i), dy = pos(1, r) - pos(1, i);
            Expr inv = 1.0f / sqrt(dx * dx + dy * dy + 0.01f);
            Func f("nb_force");
            f(i) = 0.0f;
            f(i) += mass(r) * dx * inv * inv * inv;
            pos.set_estimates({{0, 2}, {0, N}});
            mass.set_estimates({{0, N}});
            f.set_estimates({{0, N}});
            return Built{f, {pos, mass}, {N}, [](const std::vector<int> &s) { return Sizes{{2, s[0]}, {s[0]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0]}; }};
        },
        {{1}, {3}, {63}, {64}, {65}, {517}, {1024}}, nullptr, &source, Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    INFO(source);
    // The long-reduction branch: tasks of at most 8192 / 64 bodies (2 to 16 vectors of 8), fewer
    // where N is longer at run time, a gathered step counted as its lanes (min(that, a quotient of
    // N): apps/results/cpu/long_steps_grain_2026-12-02/).
    CHECK(std::regex_search(source, std::regex(R"(\(1 \* value_N\) >= 64\))")));
    CHECK(std::regex_search(source, std::regex(R"(split\(i_vo, i_task, i_in_task, Halide::min\((2|4|8|16), [^;]*value_N)")));
}

// An embedding lookup then a projection (red-team round 12): out(n, t) += W(n, k) * ce(k, ids(t)),
// ce the table [depth, V] behind a constant_exterior (ids out of range read 0), W [width, depth].
namespace {

Built embedding_projection(const std::string &name, int depth, int width, int max_t, int max_v) {
    Param<int> T = shape_var("T", 1, max_t, max_t), Vocab = shape_var("V", 1, max_v, max_v);
    ImageParam table(Float(32), 2, "emb_table"), ids(Int(32), 1, "emb_ids"), w(Float(32), 2, "emb_w");
    Var n("n"), t("t");
    Func ce = BoundaryConditions::constant_exterior(table, 0.0f, {{0, depth}, {0, Vocab}});
    RDom k(0, depth, "k");
    Func out(name);
    out(n, t) = 0.0f;
    out(n, t) += w(n, k) * ce(k, ids(t));
    table.set_estimates({{0, depth}, {0, Vocab}});
    ids.set_estimates({{0, T}});
    w.set_estimates({{0, width}, {0, depth}});
    out.set_estimates({{0, width}, {0, T}});
    return Built{out, {table, ids, w}, {T, Vocab},
                 [=](const std::vector<int> &s) { return Sizes{{depth, s[1]}, {s[0]}, {width, depth}}; },
                 [=](const std::vector<int> &s) { return std::vector<int>{width, s[0]}; }};
}

}  // namespace

// A computed operand read at coordinates computed from values was no contraction (its copy per
// tile has no bound), and the stage rules streamed W once per token: 2.3x Mullapudi2016's time.
// The boundary condition is read in place now, like an input at gathered rows, and the
// projection gets the micro-kernel.
TEST_CASE("an embedding table's boundary condition read at token ids is read in place by a micro-kernel", "[styles]") {
    // ids are drawn from [-1000, 1000]: most fall outside the vocabulary and read 0.
    const std::string log = check_style([] { return embedding_projection("emb_proj", 64, 96, 256, 800); },
                                        {{1, 1}, {3, 800}, {37, 500}, {256, 800}, {100, 7}});
    CHECK_THAT(log, Catch::Contains("Func emb_proj (computed per tile of output emb_proj): micro-kernel"));
    // (Halide numbers a Func name made twice in one process: constant_exterior$2.)
    CHECK(std::regex_search(log, std::regex(R"(constant_exterior(\$\d+)? read in place \(at coordinates computed from values\))")));
}

// The same projection for CUDA (lowered only, no GPU needed): the staged kernel copied every
// separable operand into shared memory, the gathered table too, whose tile has no bound (Halide:
// "calls constant_exterior_in_... in an unbounded way"). An operand read at coordinates computed
// from values is read in place there; the weights are staged.
TEST_CASE("an embedding projection's CUDA kernel stages the weights and reads the gathered table in place", "[styles][cuda]") {
    const Built b = embedding_projection("emb_proj_gpu", 128, 128, 512, 5000);
    const Target cuda("x86-64-linux-cuda-cuda_capability_80");
    Pipeline p(b.out);
    diet_test::StderrCapture cap(false);
    std::string source;
    try {
        source = diet::autoschedule(p, cuda, 2, 0, diet::Options{}).schedule_source;
        p.compile_to_module(p.infer_arguments(), "emb_proj_gpu", cuda);
    } catch (const Halide::Error &e) {
        FAIL("Diet's CUDA schedule does not compile: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO(log);
    CHECK_THAT(log, Catch::Contains("Func emb_proj_gpu (computed per tile of output emb_proj_gpu): micro-kernel cuda{"));
    CHECK(std::regex_search(source, std::regex(R"(emb_w_im\w*\.in\()")));
    CHECK_FALSE(std::regex_search(source, std::regex(R"(constant_exterior\w*\.in\()")));
}

namespace {

// LayerNorm over d = 32 NC of x(d, t), its statistics the careful way: Welford (count, mean, M2)
// per 32-wide chunk c of each token, then Chan's merge of the chunks per token (red-team round
// 12). With `pointwise_chunks`, the output also reads the chunk statistics at its own (c, t)
// (the negative control: a member read pointwise keeps its vectors along dimension 0).
Built welford_layernorm(bool pointwise_chunks) {
    Param<int> NC = shape_var("NC", 1, 24, 24), T = shape_var("T", 1, 256, 256);
    ImageParam x(Float(32), 2, "x");
    Var c("c"), t("t"), d("d");
    Func chunk("lw_chunk"), merge("lw_merge"), out("lw_out");
    chunk(c, t) = Tuple(0.0f, 0.0f, 0.0f);
    RDom r(0, 32, "r");
    Expr v = x(c * 32 + r, t);
    Expr n1 = chunk(c, t)[0] + 1.0f, delta = v - chunk(c, t)[1], m1 = chunk(c, t)[1] + delta / n1;
    chunk(c, t) = Tuple(n1, m1, chunk(c, t)[2] + delta * (v - m1));
    merge(t) = Tuple(0.0f, 0.0f, 0.0f);
    RDom rc(0, Expr(NC), "rc");
    Expr na = merge(t)[0], ma = merge(t)[1], qa = merge(t)[2];
    Expr nb = chunk(rc, t)[0], mb = chunk(rc, t)[1], qb = chunk(rc, t)[2];
    Expr n = na + nb, de = mb - ma;
    merge(t) = Tuple(n, ma + de * nb / n, qa + qb + de * de * na * nb / n);
    Expr normed = (x(d, t) - merge(t)[1]) / sqrt(merge(t)[2] / merge(t)[0] + 1e-5f);
    out(d, t) = pointwise_chunks ? normed + chunk(d / 32, t)[1] : normed;
    x.set_estimates({{0, 32 * NC}, {0, T}});
    out.set_estimates({{0, 32 * NC}, {0, T}});
    return Built{out, {x}, {NC, T}, [](const std::vector<int> &s) { return Sizes{{32 * s[0], s[1]}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{32 * s[0], s[1]}; }};
}

}  // namespace

// The chunk statistics were vectorized along c: with NC <= 24, a second vector at most half
// full, each lane a stride-32 gather, and the merge gathering across chunks (3.4x a hand
// schedule with vectors along t). A member whose readers reduce over its dimension 0 and read its
// dimension 1 at their own vectors now takes its vectors along dimension 1, stored innermost.
TEST_CASE("chunk statistics merged per token take their vectors along the tokens", "[styles]") {
    std::string stmt, source;
    const std::string log = check_style([] { return welford_layernorm(false); },
                                        {{1, 1}, {24, 256}, {14, 183}, {24, 37}, {3, 5}, {1, 110}}, &stmt, &source);
    CHECK_THAT(log, Catch::Contains("Func lw_chunk: computed per tile of lw_out at t_o, vectorized along t (its readers' vectors run along it, c elsewhere), stored t innermost."));
    INFO(source);
    CHECK_THAT(source, Catch::Contains("lw_chunk.reorder_storage(t, c);"));
    CHECK_THAT(source, Catch::Contains("lw_chunk.update(0).vectorize(t_vi);"));
    CHECK_THAT(source, !Catch::Contains("vectorize(c_vi)"));
}

TEST_CASE("chunk statistics also read at the output's own points keep their vectors along the chunks", "[styles]") {
    std::string source;
    const std::string log = check_style([] { return welford_layernorm(true); }, {{1, 1}, {24, 256}, {3, 5}}, nullptr, &source);
    CHECK_THAT(log, !Catch::Contains("its readers' vectors run along it"));
    INFO(source);
    CHECK_THAT(source, !Catch::Contains("reorder_storage(t, c)"));
}

// C = bias; C += A(k, m) B(n, k) written as three updates over consecutive K chunks (red-team
// round 12): no micro-kernel (several contraction updates on an output), and the stage rules ran
// each update one row per step, loading B's vectors once per row. Rows of a tile now run inside
// each step, sharing its loads; a window reduction along the rows (each row its own loads) keeps
// one row per step.
TEST_CASE("a product written as K-chunk updates on its output runs a tile of rows inside each step", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> M = shape_var("M", 1, 256, 256), K1 = shape_var("K1", 1, 128, 128);
            ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b"), bias(Float(32), 1, "bias");
            Var n("n"), m("m");
            Func c("kc_out");
            c(n, m) = bias(n);
            RDom r1(0, K1, "r1"), r2(K1, 64, "r2"), r3(K1 + 64, 32, "r3");
            for (const RDom &r : {r1, r2, r3}) c(n, m) += a(r, m) * b(n, r);
            a.set_estimates({{0, K1 + 96}, {0, M}});
            b.set_estimates({{0, 96}, {0, K1 + 96}});
            bias.set_estimates({{0, 96}});
            c.set_estimates({{0, 96}, {0, M}});
            return Built{c, {a, b, bias}, {M, K1},
                         [](const std::vector<int> &s) { return Sizes{{s[1] + 96, s[0]}, {96, s[1] + 96}, {96}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{96, s[0]}; }};
        },
        {{1, 1}, {256, 128}, {9, 3}, {37, 100}});
    CHECK_THAT(log, Catch::Contains("Func kc_out: its rows share its reduction steps' loads"));
}

// Rows inside the steps: short rows of whole vectors but no whole number of steps take one vector
// per step (a guarded last step, its 8 rows unrolled, cost more than the rest of the row: 0.18 ms
// at N = 160 in 64-point steps on AVX-512, 0.10 in one vector per step); the shapes cover each
// specialization (a multiple of the step, whole vectors, neither, shorter than a step).
TEST_CASE("a decayed accumulation whose rows share its steps' loads takes one vector per step over short rows of whole vectors", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> N = shape_var("N", 1, 200, 160), M = shape_var("M", 1, 160, 160), K = shape_var("K", 1, 128, 128);
            ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
            Var n("n"), m("m");
            Func c("decayed");
            RDom r(0, K, "r");
            c(n, m) = 0.0f;
            c(n, m) = 0.75f * c(n, m) + a(r, m) * b(n, r);
            a.set_estimates({{0, K}, {0, M}});
            b.set_estimates({{0, N}, {0, K}});
            c.set_estimates({{0, N}, {0, M}});
            return Built{c, {a, b}, {N, M, K},
                         [](const std::vector<int> &s) { return Sizes{{s[2], s[1]}, {s[0], s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1, 1}, {192, 160, 128}, {161, 37, 100}, {160, 9, 3}, {17, 16, 5}});
    CHECK_THAT(log, Catch::Contains("Func decayed: its rows share its reduction steps' loads"));
    CHECK_THAT(log, Catch::Contains("Func decayed: over rows of whole vectors shorter than 8 of its"));
}

TEST_CASE("a window reduction along the rows keeps one row per reduction step", "[styles]") {
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 300, 300), H = shape_var("H", 1, 200, 200);
            ImageParam in(Float(32), 2, "in"), w(Float(32), 1, "w");
            Var x("x"), y("y");
            Func out("windowed");
            RDom r(0, 24, "r");
            out(x, y) = 0.0f;
            out(x, y) += in(x + r, y) * w(r);
            in.set_estimates({{0, W + 24}, {0, H}});
            w.set_estimates({{0, 24}});
            out.set_estimates({{0, W}, {0, H}});
            return Built{out, {in, w}, {W, H}, [](const std::vector<int> &s) { return Sizes{{s[0] + 24, s[1]}, {24}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1]}; }};
        },
        {{1, 1}, {300, 200}, {17, 9}});
    CHECK_THAT(log, !Catch::Contains("share its reduction steps' loads"));
    CHECK_THAT(log, !Catch::Contains("over rows of whole vectors shorter than"));
}

// A 3x3 convolution at a run-time stride and dilation (red-team round 13): the input is read at
// x * ST + r.x * DL, so each vector of it along x is a gather, one per register-tile vector and
// reduction step. Its tiles of 4 vectors x 4 output channels ran 2.1-2.4x a tile of 1 vector x 16
// (hand schedules, apps/results/cpu/gathered_vector_operand_2026-12-03/); a gathered vector now
// costs its lanes in the kernel ranking (space/MicroKernel.h gathered_vector_loads): every column
// kernel chosen loads at least four rows of broadcast weights per gathered vector.
TEST_CASE("a convolution whose input vectors are gathers at a run-time stride takes tiles of few vectors and many rows", "[styles]") {
    std::string source;
    check_style(
        [] {
            Param<int> W = shape_var("OW", 1, 64, 64), H = shape_var("OH", 1, 32, 32), ST = shape_var("ST", 1, 3, 3),
                       DL = shape_var("DL", 1, 2, 2);
            ImageParam in(Float(32), 3, "sc_in"), w(Float(32), 4, "sc_w");
            Var x("x"), y("y"), co("co");
            RDom r(0, 3, 0, 3, 0, 16, "r");
            Func out("strided_conv");
            out(x, y, co) = sum(w(r.x, r.y, r.z, co) * in(x * ST + r.x * DL, y * ST + r.y * DL, r.z));
            in.set_estimates({{0, (W - 1) * ST + 2 * DL + 1}, {0, (H - 1) * ST + 2 * DL + 1}, {0, 16}});
            w.set_estimates({{0, 3}, {0, 3}, {0, 16}, {0, 32}});
            out.set_estimates({{0, W}, {0, H}, {0, 32}});
            return Built{out, {in, w}, {W, H, ST, DL},
                         [](const std::vector<int> &s) {
                             return Sizes{{(s[0] - 1) * s[2] + 2 * s[3] + 1, (s[1] - 1) * s[2] + 2 * s[3] + 1, 16}, {3, 3, 16, 32}};
                         },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], 32}; }};
        },
        {{1, 1, 1, 1}, {64, 32, 3, 2}, {17, 5, 2, 1}, {64, 7, 1, 2}, {33, 32, 3, 1}}, nullptr, &source);
    INFO(source);
    const std::regex column_kernel(R"(cpu\{vec=(\d+)x(\d+), rows=(\d+))");
    int kernels = 0;
    for (std::sregex_iterator i(source.begin(), source.end(), column_kernel), e; i != e; ++i) {
        INFO((*i)[0].str());
        CHECK(4 * std::stoi((*i)[2]) <= std::stoi((*i)[3]));
        kernels++;
    }
    CHECK(kernels > 0);
}

// A 4-bit quantized GEMV for a few tokens (red-team round 16's Q4_0): weights packed two per byte,
// `nib(k, n) = ((wq(k / 2, n) >> 4 * (k % 2)) & 15) - 8` in int32, read by `y(n, t) = sum(nib * x)`.
// Materialized, the unpacked weights were written and read back at 4x the packed bytes' width for
// at most 8 tokens (208 ms against 35 computed where read, 4096 x 4096). Over many tokens (T up
// to 128) the copy is reused enough and stays.
namespace {
Built q4_gemv(int most_tokens) {
    Param<int> N = shape_var("N", 1, 512, 512), K2 = shape_var("K2", 1, 256, 256), T = shape_var("T", 1, most_tokens, most_tokens);
    ImageParam wq(UInt(8), 2, "q4_wq"), x(Float(32), 2, "q4_x");
    Var k("k"), n("n"), t("t");
    Func nib("q4_nib"), y("q4_y");
    nib(k, n) = cast<int>((wq(k / 2, n) >> cast<uint8_t>((k % 2) * 4)) & 15) - 8;
    RDom r(0, 2 * K2, "r");
    y(n, t) = sum(cast<float>(nib(r, n)) * x(r, t));
    wq.set_estimates({{0, K2}, {0, N}});
    x.set_estimates({{0, 2 * K2}, {0, T}});
    y.set_estimates({{0, N}, {0, T}});
    return Built{y, {wq, x}, {N, K2, T}, [](const std::vector<int> &s) { return Sizes{{s[1], s[0]}, {2 * s[1], s[2]}}; },
                 [](const std::vector<int> &s) { return std::vector<int>{s[0], s[2]}; }};
}
}  // namespace

TEST_CASE("an unpacking read by a contraction over few tokens is computed where it is read", "[styles]") {
    const std::string few = check_style([] { return q4_gemv(8); }, {{1, 1, 1}, {17, 9, 3}, {64, 32, 8}, {512, 256, 5}});
    const std::regex materialized(R"(Func q4_nib(\$\d+)?: operand of a contraction, computed at root)");
    CHECK_FALSE(std::regex_search(few, materialized));
    const std::string many = check_style([] { return q4_gemv(128); }, {{1, 1, 1}, {64, 32, 100}});
    CHECK(std::regex_search(many, materialized));
}

// Winograd F(2x2, 3x3) (red-team round 16): 4 x 4 transforms as sums over constant matrices, then
// 16 batched products M(xi, eta, co, tx, ty) = sum over ci of U(xi, eta, ci, co) * V(xi, eta, ci,
// tx, ty), the tile coordinates (xi, eta) innermost in every buffer. U is reused across the tiles
// and V across the output channels, but no operand is a broadcast along dimension 0: the products
// were taken for a weighted sum (no register tile; 102 ms against 48 as a kernel at 64 x 64 tiles
// of 32 channels, AVX2). The input transform's panels ran outermost: one iteration (xi has 4
// values) was its only parallel loop.
TEST_CASE("batched products over constant tile coordinates stored innermost get a register-tile kernel", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> TW = shape_var("TW", 1, 16, 16), TH = shape_var("TH", 1, 16, 16), CI = shape_var("CI", 1, 8, 8),
                       CO = shape_var("CO", 1, 8, 8);
            ImageParam x(Float(32), 3, "wg_x"), w(Float(32), 4, "wg_w");
            Var a("a"), b("b"), ci("ci"), co("co"), tx("tx"), ty("ty"), xi("xi"), eta("eta"), ox("ox"), oy("oy");
            const auto consts = [](std::vector<float> v) {
                std::vector<Expr> e;
                for (float f : v) e.push_back(f);
                return e;
            };
            Func G("wg_G"), Bt("wg_Bt"), At("wg_At"), U("wg_U"), V("wg_V"), M("wg_M"), out("wg_out");
            G(a, b) = mux(a * 3 + b, consts({1, 0, 0, .5f, .5f, .5f, .5f, -.5f, .5f, 0, 0, 1}));
            Bt(a, b) = mux(a * 4 + b, consts({1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1}));
            At(a, b) = mux(a * 4 + b, consts({1, 1, 1, 0, 0, 1, -1, -1}));
            RDom rg(0, 3, 0, 3, "rg"), rb(0, 4, 0, 4, "rb"), rc(0, CI, "rc"), ra(0, 4, 0, 4, "ra");
            U(xi, eta, ci, co) = sum(G(xi, rg.x) * w(rg.x, rg.y, ci, co) * G(eta, rg.y));
            V(xi, eta, ci, tx, ty) = sum(Bt(xi, rb.x) * x(2 * tx + rb.x, 2 * ty + rb.y, ci) * Bt(eta, rb.y));
            M(xi, eta, co, tx, ty) = sum(U(xi, eta, rc, co) * V(xi, eta, rc, tx, ty));
            out(ox, oy, co) = sum(At(ox % 2, ra.x) * M(ra.x, ra.y, co, ox / 2, oy / 2) * At(oy % 2, ra.y));
            x.set_estimates({{0, 2 * TW + 2}, {0, 2 * TH + 2}, {0, CI}});
            w.set_estimates({{0, 3}, {0, 3}, {0, CI}, {0, CO}});
            out.set_estimates({{0, 2 * TW}, {0, 2 * TH}, {0, CO}});
            return Built{out, {x, w}, {TW, TH, CI, CO},
                         [](const std::vector<int> &s) { return Sizes{{2 * s[0] + 2, 2 * s[1] + 2, s[2]}, {3, 3, s[2], s[3]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{2 * s[0], 2 * s[1], s[3]}; }};
        },
        {{1, 1, 1, 1}, {16, 16, 8, 8}, {5, 3, 7, 2}, {9, 16, 1, 8}}, nullptr, &source);
    CHECK_THAT(log, !Catch::Contains("no operand is reused across its result"));
    CHECK_THAT(log, Catch::Contains("product of wg_U, wg_V over rc$x; result wg_M"));
    // The input transform's parallel loop is one of its tiles' (tx, ty, ci), not the one-panel loop.
    INFO(source);
    CHECK(source.find("wg_V.parallel(n_t)") == std::string::npos);
    CHECK(source.find("wg_V.parallel(") != std::string::npos);
}

// Complex numbers interleaved (red-team round 16): re/im as every buffer's innermost dimension of
// 2, c(ri, n, m) = sum(select(ri == 0, ar br - ai bi, ar bi + ai br)). The kernel's vectors ran
// along ri, which fills no vector: scalar tiles, 4.6-9.2 ms at 128 x 128 x 256 against 0.5-0.6
// with the vectors along n (AVX2).
TEST_CASE("a contraction whose output's innermost dimension is a constant shorter than a vector vectorizes the next", "[styles]") {
    std::string stmt;
    const std::string log = check_style(
        [] {
            Param<int> M = shape_var("M", 1, 128, 128), N = shape_var("N", 1, 128, 128), K = shape_var("K", 1, 256, 256);
            ImageParam A(Float(32), 3, "cx_a"), B(Float(32), 3, "cx_b");
            Var ri("ri"), n("n"), m("m");
            RDom k(0, K, "k");
            Expr ar = A(0, k, m), ai = A(1, k, m), br = B(0, n, k), bi = B(1, n, k);
            Func c("cx_c");
            c(ri, n, m) = sum(select(ri == 0, ar * br - ai * bi, ar * bi + ai * br));
            A.set_estimates({{0, 2}, {0, K}, {0, M}});
            B.set_estimates({{0, 2}, {0, N}, {0, K}});
            c.set_estimates({{0, 2}, {0, N}, {0, M}});
            return Built{c, {A, B}, {M, N, K},
                         [](const std::vector<int> &s) { return Sizes{{2, s[2], s[0]}, {2, s[1], s[2]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{2, s[1], s[0]}; }};
        },
        {{1, 1, 1}, {17, 17, 33}, {128, 128, 256}, {3, 70, 5}, {64, 1, 9}}, &stmt);
    CHECK_THAT(log, Catch::Contains("vectors along n"));
    // The kernel's accumulator is updated in vectors.
    INFO(stmt);
    CHECK(std::regex_search(stmt, std::regex(R"(sum\[ramp\()")));
}

// LRN across channels (red-team round 20): ce(x, y, c, n)^2 summed over a channel window c + r, R
// a Param. No operand is reused across the output: the kernel's rows go along the window's
// dimension c, so neighbouring rows' windows overlap inside one task's copy of the padded input.
// With rows along y the tasks ran over x tiles, c and n, and the copy per run of tasks spanned
// every channel of the image (Halide bounds a fused loop's inner quotients by the whole
// dimension): 10-12x Adams2019c's time (8.5 ms at 64 x 64 x 64 x 4, R = 3; now 0.85, AVX-512).
TEST_CASE("a sum over a window along an outer dimension runs its rows along the window", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> W = shape_var("W", 1, 64, 64), H = shape_var("H", 1, 64, 64), C = shape_var("C", 1, 64, 64),
                       N = shape_var("N", 1, 4, 4), R = shape_var("R", 0, 3, 2);
            ImageParam in(Float(32), 4, "lrn_in");
            Var x("x"), y("y"), c("c"), n("n");
            Func ce = BoundaryConditions::constant_exterior(in, 0.f, {{0, W}, {0, H}, {0, C}, {0, N}});
            RDom r(-R, 2 * R + 1, "lrn_r");
            Func ssq("lrn_ssq"), out("lrn_out");
            ssq(x, y, c, n) = sum(ce(x, y, c + r, n) * ce(x, y, c + r, n));
            out(x, y, c, n) = in(x, y, c, n) / pow(2.f + 1e-4f * ssq(x, y, c, n), 0.75f);
            in.set_estimates({{0, W}, {0, H}, {0, C}, {0, N}});
            out.set_estimates({{0, W}, {0, H}, {0, C}, {0, N}});
            return Built{out, {in}, {W, H, C, N, R},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1], s[2], s[3]}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], s[2], s[3]}; }};
        },
        {{1, 1, 1, 1, 0}, {64, 64, 64, 4, 3}, {17, 5, 9, 2, 2}, {33, 64, 2, 1, 1}}, nullptr, &source);
    CHECK_THAT(log, Catch::Contains("vectors along x, rows along c"));
}

// A depthwise 3x3 convolution over channels-innermost activations with a batch, out(c, x, y, n) =
// sum w(c, r.x, r.y) * ce(c, x + r.x - 1, y + r.y - 1, n), ce zero padding: no operand reused,
// rows along x (a window), tasks over channel tiles, y and n. The padded input, read through a
// window along y, an inner dimension of the task loop, is copied per task (its rows' window), not
// per run of tasks, which Halide bounds by every row of the image (schedule/OperandStaging.cpp
// windowed_across_tasks).
TEST_CASE("a window along an inner dimension of the task loop is copied per task", "[styles]") {
    std::string source;
    const std::string log = check_style(
        [] {
            Param<int> C = shape_var("C", 1, 64, 64), W = shape_var("W", 1, 48, 48), H = shape_var("H", 1, 48, 48),
                       N = shape_var("N", 1, 4, 4);
            ImageParam in(Float(32), 4, "dwb_in"), w(Float(32), 3, "dwb_w");
            Var c("c"), x("x"), y("y"), n("n");
            Func ce = BoundaryConditions::constant_exterior(in, 0.f, {{0, C}, {0, W}, {0, H}, {0, N}});
            RDom r(0, 3, 0, 3, "dwb_r");
            Func out("dwb_out");
            out(c, x, y, n) = sum(w(c, r.x, r.y) * ce(c, x + r.x - 1, y + r.y - 1, n));
            in.set_estimates({{0, C}, {0, W}, {0, H}, {0, N}});
            w.set_estimates({{0, C}, {0, 3}, {0, 3}});
            out.set_estimates({{0, C}, {0, W}, {0, H}, {0, N}});
            return Built{out, {in, w}, {C, W, H, N},
                         [](const std::vector<int> &s) { return Sizes{{s[0], s[1], s[2], s[3]}, {s[0], 3, 3}}; },
                         [](const std::vector<int> &s) { return std::vector<int>{s[0], s[1], s[2], s[3]}; }};
        },
        {{1, 1, 1, 1}, {64, 48, 48, 4}, {17, 5, 3, 2}, {33, 48, 1, 1}}, nullptr, &source);
    INFO(source);
    CHECK_THAT(log, Catch::Contains("output dwb_out; vectors along c\n"));  // rows along x (dimension 1)
    CHECK(source.find("constant_exterior_in_sum.compute_at(dwb_out, task_i)") != std::string::npos);
}
