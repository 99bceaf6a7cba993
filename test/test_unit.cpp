// Unit tests of the plugin's pieces: options, shape family, DAG patterns, micro-kernel space.
#include <algorithm>
#include <catch2/catch.hpp>

#include <regex>

#include "Halide.h"
#include "space/HostCpu.h"
#include "dense_fixture.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ParamRanges.h"
#include "analysis/ShapeFamily.h"
#include "analysis/StridedReads.h"
#include "analysis/VanishingReads.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "schedule/Instantiate.h"
#include "schedule/ScheduleSnapshot.h"
#include "schedule/SizeExpr.h"
#include "schedule/VariantCells.h"
#include "space/MicroKernel.h"
#include "space/GpuSpace.h"

using namespace Halide;
using namespace diet;

namespace {

int64_t ceil_div_for_test(int64_t a, int64_t b) { return (a + b - 1) / b; }

using DensePipeline = DenseFixture;

// The CPU of this project's CI: AVX2 (8 float lanes, 16 vector registers), 2 cores.
CpuLimits avx2_two_cores() {
    CpuLimits lim;
    lim.vector_bits = 256;
    lim.vector_registers = 16;
    lim.cores = 2;
    return lim;
}

}  // namespace

TEST_CASE("HL_DIET_SHAPES accepts the range, step and list forms", "[options]") {
    auto s = parse_shape_specs("T=1:4,B=2:10:4,C=1,8,64");
    REQUIRE(s.size() == 3);
    CHECK(s[0].name == "T");
    CHECK(s[0].values == std::vector<int64_t>{1, 2, 3, 4});
    CHECK(s[1].values == std::vector<int64_t>{2, 6, 10});
    CHECK(s[2].values == std::vector<int64_t>{1, 8, 64});
}

TEST_CASE("malformed options are user errors that name the problem", "[options]") {
    auto message_of = [](const std::map<std::string, std::string> &kv) {
        try {
            Options::from_map(kv);
        } catch (const CompileError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message_of({{"shapes", "T=5:1"}}), Catch::Contains("is empty"));
    CHECK_THAT(message_of({{"shapes", "T=1:x"}}), Catch::Contains("not an integer"));
    CHECK_THAT(message_of({{"shapes", "T"}}), Catch::Contains("NAME=MIN:MAX"));
    CHECK_THAT(message_of({{"shapes", "T=1:8,T=2:3"}}), Catch::Contains("names T twice"));
    CHECK_THAT(message_of({{"shapes", "T=1:8:0"}}), Catch::Contains("step must be positive"));
    CHECK_THAT(message_of({{"samples", "0"}}), Catch::Contains("samples must be in"));
    CHECK_THAT(message_of({{"samples", "eight"}}), Catch::Contains("not an integer"));
    CHECK_THAT(message_of({{"debug", "maybe"}}), Catch::Contains("not a boolean"));
    CHECK_THAT(message_of({{"timeout", "-1"}}), Catch::Contains("timeout must be"));
    CHECK_THAT(message_of({{"timeout", "5s"}}), Catch::Contains("timeout must be"));
    CHECK(Options::from_map({{"timeout", "2.5"}}).timeout_seconds == 2.5);
    CHECK_THAT(message_of({{"max_kernels", "0"}}), Catch::Contains("max_kernels must be in"));
    CHECK_THAT(message_of({{"training", "T=1:x"}}), Catch::Contains("not an integer"));
    CHECK(Options::from_map({{"max_kernels", "3"}}).max_kernels == 3);
    CHECK_THAT(message_of({{"cuda_registers", "300"}}), Catch::Contains("cuda_registers must be in [16, 255]"));
    CHECK(Options::from_map({{"cuda_registers", "255"}}).cuda_registers == 255);
    CHECK(Options{}.cuda_registers == 64);
    CHECK_THAT(message_of({{"model_objective", "lambdamart"}}), Catch::Contains("pairwise or regression"));
    CHECK_THAT(message_of({{"base_model", ""}}), Catch::Contains("base_model must be a file path or none"));
    CHECK(Options::from_map({{"model_features", "ansor"}}).model_features == "ansor");
    CHECK(Options::from_map({}).model_objective == "pairwise");
    CHECK_THAT(message_of({{"tile", "8"}}), Catch::Contains("unknown option 'tile'") && Catch::Contains("HL_DIET_tile"));
}

TEST_CASE("environment variables are read as options", "[options]") {
    setenv("HL_DIET_SAMPLES", "5", 1);
    auto kv = Options::environment_map();
    unsetenv("HL_DIET_SAMPLES");
    REQUIRE(kv.count("samples"));
    CHECK(Options::from_map(kv).samples == 5);
}

TEST_CASE("the shape family comes from a ranged parameter used in symbolic estimates", "[analysis]") {
    DensePipeline d;
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    REQUIRE(fam.vars.size() == 1);
    CHECK(fam.vars[0].name == "T");
    CHECK(fam.size() == 128);
    CHECK(fam.vars[0].representative == 128);  // no estimate on T: the largest value

    auto shapes = fam.training_shapes(8, 0);
    REQUIRE(shapes.size() == 8);
    CHECK(shapes.front().at("T") == 1);
    CHECK(shapes.back().at("T") == 128);
    CHECK(fam.training_shapes(8, 0) == fam.training_shapes(8, 0));

    auto [lo, hi] = fam.range_of(16 * d.T, shapes);
    CHECK(lo == 16);
    CHECK(hi == 2048);
}

// Params outside the family (read only by RDoms) get values for the planner's costs: the
// estimate where it lies in the range, else the largest; none without a range or an estimate.
TEST_CASE("ranged Params outside the shape family are bound for the costs", "[analysis]") {
    Param<int> W("pcv_W"), R("pcv_R"), S("pcv_S"), F("pcv_F");
    W.set_range(1, 64);
    R.set_range(1, 4);
    S.set_range(0, 3);
    S.set_estimate(2);
    ImageParam in(Float(32), 1, "pcv_in");
    Var x("x");
    RDom r(-R, 2 * R + 1, 0, S + 1, "r");
    Func f("pcv_f");
    f(x) = 0.0f;
    f(x) += in(x + r.x + r.y + F);
    in.set_estimates({{0, W + 8}});
    f.set_estimates({{0, W}});
    const std::vector<Internal::Function> outputs = {f.function()};
    const ShapeFamily fam = read_shape_family(outputs, Options{});
    const FunctionDAG dag(outputs);
    const ParamCostValues v = param_cost_values(dag, fam);
    CHECK(v.representative == Shape{{"pcv_R", 4}, {"pcv_S", 2}});  // W is a shape variable, F unranged
    CHECK(v.largest == Shape{{"pcv_R", 4}, {"pcv_S", 3}});
}

TEST_CASE("HL_DIET_SHAPES overrides the range", "[analysis]") {
    DensePipeline d;
    Options o;
    o.shapes = parse_shape_specs("T=16:64:16");
    ShapeFamily fam = read_shape_family(d.outputs(), o);
    CHECK(fam.vars[0].values == std::vector<int64_t>{16, 32, 48, 64});
    CHECK(fam.training_shapes(8, 0).size() == 4);  // the whole family
}

TEST_CASE("HL_DIET_TRAINING gives the training shapes, checked against the family", "[analysis]") {
    DensePipeline d;
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    Options o = Options::from_map({{"training", "T=5,24,64"}});
    CHECK(fam.training_shapes(o) == std::vector<Shape>{{{"T", 5}}, {{"T", 24}}, {{"T", 64}}});
    auto message_of = [&](const std::string &spec) {
        try {
            fam.training_shapes(Options::from_map({{"training", spec}}));
        } catch (const CompileError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message_of("T=0,5"), Catch::Contains("T=0 is not in the shape family"));
    CHECK_THAT(message_of("U=5"), Catch::Contains("gives no values for the shape variable T"));
    CHECK_THAT(message_of("T=5,U=3"), Catch::Contains("U, which is not a shape variable"));
}

TEST_CASE("several shape variables are sampled deterministically with both corners", "[analysis]") {
    ImageParam x(Float(32), 2, "x");
    Param<int> T("T", 8, 1, 64), B("B", 2, 1, 8);
    Func y("y");
    Var i("i"), j("j");
    y(i, j) = x(i, j) * 2.f;
    y.set_estimates({{0, 4 * B}, {0, 16 * T}});
    ShapeFamily fam = read_shape_family({y.function()}, Options{});
    REQUIRE(fam.vars.size() == 2);
    CHECK(fam.size() == 64 * 8);
    auto a = fam.training_shapes(8, 7), b = fam.training_shapes(8, 7);
    CHECK(a == b);
    CHECK(a.size() == 8);
    CHECK(a[0] == Shape{{"B", 1}, {"T", 1}});
    CHECK(a[1] == Shape{{"B", 8}, {"T", 64}});
}

TEST_CASE("estimates are made constant before codegen", "[analysis]") {
    DensePipeline d;
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    concretize_estimates(d.outputs(), Shape{{"T", 4}});
    for (const auto &b : d.y.function().schedule().estimates()) {
        CHECK(Internal::is_const(b.extent));
    }
    CHECK(Internal::is_const(d.x.parameter().extent_constraint_estimate(1)));
    CHECK(constant_value(d.x.parameter().extent_constraint_estimate(1)) == 64);
}

TEST_CASE("the DAG finds the matmul-like stage and its strided operand", "[analysis]") {
    DensePipeline d;
    FunctionDAG dag(d.outputs());
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &p = dag.matmuls()[0];
    CHECK(p.acc == d.acc.name());
    CHECK(p.host == d.y.name());
    CHECK(p.reduction_extent == 64);
    CHECK(p.acc_arg_of_host_dim == std::vector<int>{0, 1});
    bool w_strided = false, x_broadcast = false;
    for (const auto &o : p.operands) {
        if (o.func.rfind("w_im", 0) == 0) w_strided = o.strided_along_vector();
        if (o.func.rfind("x_im", 0) == 0) x_broadcast = o.vector_arg == -1;
    }
    CHECK(w_strided);
    CHECK(x_broadcast);
    // get_func indices follow Halide's topological order.
    Pipeline pl(d.y);
    for (const FuncNode &n : dag.nodes()) {
        CHECK(pl.get_func(n.pipeline_index).name() == n.name);
    }
}

// A reduction over T (attention times values) is the output's rows at every training shape; a
// constant one is its constant; one that fits no extent gets the geometric mean (a heuristic).
TEST_CASE("the reduction's size is fitted on the output's extents, and the task grain follows it", "[space]") {
    ImageParam p(Float(32), 3, "p"), v(Float(32), 3, "v");
    Param<int> T("T", 16, 1, 128);
    Var d("d"), i("i"), b("b");
    RDom r(0, p.dim(0).extent(), "r");
    Func ctx("ctx");
    ctx(d, i, b) = 0.f;
    ctx(d, i, b) += p(r, i, b) * v(d, r, b);
    p.dim(0).set_estimate(0, T).dim(1).set_estimate(0, T).dim(2).set_estimate(0, 192);
    v.dim(0).set_estimate(0, 64).dim(1).set_estimate(0, T).dim(2).set_estimate(0, 192);
    ctx.set_estimates({{0, 64}, {0, T}, {0, 192}});
    FunctionDAG dag({ctx.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &mp = dag.matmuls()[0];
    const ShapeFamily fam = read_shape_family({ctx.function()}, Options{});
    MatmulExtents e = matmul_extents(mp, fam, fam.training_shapes(8, 0));
    REQUIRE(e.reduction_points.size() == e.host_extents.size());
    const ReductionModel m = fit_reduction_model(mp, e);
    CHECK(m.kernel_dim == 1);  // the rows (i)
    CHECK(m.scale == 1);
    CHECK(m.offset == 0);
    for (size_t s = 0; s < e.host_extents.size(); s++) CHECK(m.at(e.host_extents[s]) == e.reduction_points[s]);

    MatmulExtents constant = e, mixed = e;
    for (int64_t &k : constant.reduction_points) k = 768;
    CHECK(fit_reduction_model(mp, constant).kernel_dim == -1);
    CHECK(fit_reduction_model(mp, constant).offset == 768);
    mixed.reduction_points = std::vector<int64_t>(e.host_extents.size(), 4);
    mixed.reduction_points[0] = 64;  // no line through every shape
    const ReductionModel g = fit_reduction_model(mp, mixed);
    CHECK(g.kernel_dim == -1);
    CHECK(g.offset > 4);
    CHECK(g.offset < 64);

    // Task grain: one 64-wide panel per head; T = 1 is 64 multiply-adds a head: all 192 in one
    // task. T = 128: 1M a head, one each.
    CpuKernel k{16, 4, 1, 8, 1, false};
    TileVariant t{64, 1};
    t.vectors = 4;
    CHECK(cpu_task_grain(t, k, {64, 1, 192}, 1) == 192);
    CHECK(cpu_task_grain(t, k, {64, 128, 192}, 128) == 1);
    CHECK(cpu_task_grain(t, k, {64, 8, 192}, 8) == ceil_div_for_test(kMinTaskFmas, 64 * 8 * 8));

    // A deep tile's iteration (CpuKernel::depth) is one row tile over the whole depth dimension:
    // 192 heads of 16 lanes, rows 5 (of 128), depth 64: 12 panels x 26 row tiles, each 16 x 5 x 64
    // outputs of 128 multiply-adds.
    CpuKernel deep{16, 1, 5, 1, 1, false};
    deep.depth = 5;
    TileVariant dt{16, 5};
    dt.vectors = 1;
    dt.depth = 5;
    CHECK(cpu_task_grain(dt, deep, {192, 128, 64}, 128) == 1);
    CHECK(cpu_task_grain(dt, deep, {192, 128, 64}, 1) == ceil_div_for_test(kMinTaskFmas, 16 * 5 * 64));
    CHECK(cpu_task_grain(dt, deep, {192, 5, 5}, 1) == 12);  // every iteration: 12 panels x 1 row tile
}

TEST_CASE("deep register tiles: variants, fitting and the heuristic", "[unit]") {
    MicroKernel k;
    k.cpu = {16, 1, 5, 1, 1, false};
    k.cpu.depth = 5;
    const std::vector<TileVariant> v = tile_variants(k);
    REQUIRE(v.size() > 2);
    CHECK(v[0].depth == 5);
    CHECK(v[0].rows == 5);
    CHECK(v.back().depth == 1);
    CHECK(v.back().cols == 1);
    // The depth extent decides: 4 indices get a square 4 x 4 deep tile (several accumulators per
    // vector, fewer than the kernel's), one index a flat tile of the same width and rows.
    CHECK(fitting_variant(v, 192, 64, 64).depth == 5);
    const TileVariant &square = fitting_variant(v, 192, 64, 4);
    CHECK(square.depth == 4);
    CHECK(square.rows == 4);
    CHECK(square.cols == 16);
    const TileVariant &flat = fitting_variant(v, 192, 64, 1);
    CHECK(flat.depth == 1);
    CHECK(flat.rows == 5);
    CHECK(&fitting_variant_at(v, {192, 64, 1}) == &flat);
    // Both extents short: 2 x 2 at T = 2; at T = 1 four vectors of one row (192 heads hold them).
    CHECK(fitting_variant(v, 192, 2, 2).rows == 2);
    CHECK(fitting_variant(v, 192, 2, 2).depth == 2);
    CHECK(fitting_variant(v, 192, 1, 1).cols == 64);
    CHECK(fitting_variant(v, 20, 1, 1).cols == 16);
    // The JSON round trip keeps the depth; a flat kernel's JSON has none (older logs read as flat).
    CHECK(kernel_from_json(kernel_to_json(k)) == k);
    CHECK(kernel_to_json(MicroKernel{}).count("depth") == 0);
    CHECK(k.to_string().find("depth=5") != std::string::npos);
    // Without a broadcast operand, a flat tile loads a vector per row and one more per step; the
    // deep one a vector per row and per depth index: the heuristic ranks it above.
    MatmulExtents e;
    e.host_extents = {{192, 64, 64}};
    e.reduction_max = 64;
    e.vector_operands_only = true;
    MicroKernel flat_k;
    flat_k.cpu = {16, 4, 6, 1, 1, false};
    CHECK(heuristic_score(k, e, 2) > 1.5 * heuristic_score(flat_k, e, 2));
    // With 8 lanes of 4 bytes a run of one vector reads half a cache line: tiles of two vectors
    // (2 x 2 x 2) rank above one-vector ones of more reuse (1 x 3 x 4), as they measured.
    MicroKernel one, two;
    one.cpu = {8, 1, 3, 1, 1, false};
    one.cpu.depth = 4;
    two.cpu = {8, 2, 2, 1, 1, false};
    two.cpu.depth = 2;
    CHECK(heuristic_score(two, e, 2) > heuristic_score(one, e, 2));
}

TEST_CASE("an inline sum() with permuted arguments is still a matmul", "[analysis]") {
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var i("i"), j("j");
    RDom r(0, 32, "r");
    Func y("y");
    y(j, i) = sum(a(r, i) * b(j, r));
    FunctionDAG dag({y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    CHECK(dag.matmuls()[0].host == y.name());
}

TEST_CASE("a reduction defined on the output is recognized as a contraction on its output", "[analysis]") {
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var i("i"), j("j");
    RDom r(0, 32, "r");
    Func y("y");
    y(j, i) = 0.f;
    y(j, i) += a(r, i) * b(j, r);
    FunctionDAG dag({y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    CHECK(dag.matmuls()[0].update_on_output);
    CHECK(dag.matmuls()[0].host == y.name());
    CHECK(dag.matmuls()[0].acc == y.name());
    CHECK(dag.unmatched_reductions().empty());
}

TEST_CASE("two reduction variables over one contiguous run are fused into one reduction", "[analysis]") {
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b"), a3(Float(32), 3, "a3"), b3(Float(32), 3, "b3");
    Var n("n"), m("m");
    const auto fused_of = [](Func y) {
        FunctionDAG dag({y.function()});
        REQUIRE(dag.matmuls().size() == 1);
        return dag.matmuls()[0];
    };
    {  // x(r.x + 8 * r.y, m): one argument
        RDom r(0, 8, 0, 12, "r");
        Func y("y");
        y(n, m) = sum(a(r.x + 8 * r.y, m) * b(r.x + 8 * r.y, n));
        const MatmulPattern p = fused_of(y);
        REQUIRE(p.fused_reduction.size() == 2);
        REQUIRE(p.reduction.size() == 1);
        CHECK(p.reduction_extent == std::optional<int64_t>(96));
        CHECK(p.cpu_inner_reduction_extent() == std::optional<int64_t>(96));
    }
    {  // ctx(r.x, r.y, m): consecutive arguments (measured slower fused: ContractionOperands.h)
        RDom r(0, 64, 0, 12, "r");
        Func y("y");
        y(n, m) = sum(a3(r.x, r.y, m) * b3(r.x, r.y, n));
        CHECK(fused_of(y).fused_reduction.empty());
    }
    {  // a 16 x 3 window of an image 20 wide (a convolution): the window's rows are not one run
        RDom r(0, 16, 0, 3, "r");
        Func y("y");
        y(n, m) = sum(a(r.x + 20 * (m + r.y), 0) * b(r.x + 16 * r.y, n));
        CHECK(fused_of(y).fused_reduction.empty());
    }
    {  // the reduction written as r.y + 12 * r.x: r.x is not the inner step of the run
        RDom r(0, 8, 0, 12, "r");
        Func y("y");
        y(n, m) = sum(a(r.y + 12 * r.x, m) * b(r.y + 12 * r.x, n));
        CHECK(fused_of(y).fused_reduction.empty());
    }
}

TEST_CASE("CPU micro-kernels respect the register file and the cache", "[space]") {
    DensePipeline d;
    FunctionDAG dag(d.outputs());
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    auto shapes = fam.training_shapes(8, 0);
    MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, shapes);
    for (int bits : {128, 256, 512}) {
        CpuLimits lim;
        lim.vector_bits = bits;
        lim.vector_registers = bits == 512 ? 32 : 16;
        lim.cores = 2;
        auto space = enumerate_cpu_kernels(dag.matmuls()[0], ext, lim);
        REQUIRE(!space.empty());
        for (const MicroKernel &k : space) {
            CHECK(k.cpu.vector_width == bits / 32);
            if (k.cpu.dot) {
                // cols x rows accumulators, one step's vectors of the smaller side, one more.
                CHECK(k.cpu.vectors * k.cpu.rows + std::min(k.cpu.vectors, k.cpu.rows) + 1 <= lim.vector_registers);
                CHECK(64 % k.cpu.vector_width == 0);  // the reduction splits into whole vectors
            } else {
                CHECK(k.cpu.vectors * k.cpu.rows + k.cpu.vectors + 1 <= lim.vector_registers);
            }
            CHECK(64 % k.cpu.k_unroll == 0);
            auto v = tile_variants(k);
            CHECK(v.back().cols == 1);
            CHECK(v.back().rows == 1);
            CHECK(v.front().cols == k.cpu.tile_cols());
        }
        MicroKernel best = choose_by_heuristic(space, ext, 2);
        CHECK(best.to_string() == choose_by_heuristic(space, ext, 2).to_string());
    }
}

// Found by a probe of other styles (apps/results/cpu/probe_styles5/): a complex product's real
// part, sum(ar * br - ai * bi), reads two operand vectors and two broadcasts per step. Budgeted as
// one of each, the heuristic's 3 x 4 column tile needed 20 of AVX2's 16 registers and spilled
// (1.6x slower at T = 64-128). The dot-product kernels keep their budget (see MicroKernel.cpp).
TEST_CASE("a summand of two products counts both reads per step against the register file", "[space]") {
    Param<int> T("T");
    T.set_range(1, 128);
    T.set_estimate(64);
    ImageParam a(Float(32), 3, "a"), b(Float(32), 3, "b");
    Var n("n"), m("m");
    RDom r(0, 256, "r");
    Func o("complex_re");
    o(n, m) = sum(a(r, m, 0) * b(r, n, 0) - a(r, m, 1) * b(r, n, 1));
    a.set_estimates({{0, 256}, {0, T * 4}, {0, 2}});
    b.set_estimates({{0, 256}, {0, 256}, {0, 2}});
    o.set_estimates({{0, 256}, {0, T * 4}});
    FunctionDAG dag({o.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &p = dag.matmuls()[0];
    CHECK(p.vector_reads == 2);
    CHECK(p.broadcast_reads == 2);
    ShapeFamily fam = read_shape_family({o.function()}, Options{});
    MatmulExtents ext = matmul_extents(p, fam, fam.training_shapes(8, 0));
    const CpuLimits lim = avx2_two_cores();
    const std::vector<MicroKernel> space = enumerate_cpu_kernels(p, ext, lim);
    REQUIRE(!space.empty());
    for (const MicroKernel &k : space) {
        INFO(k.to_string());
        if (!k.cpu.dot) CHECK(k.cpu.vectors * k.cpu.rows + k.cpu.vectors * 2 + 2 <= 16);
    }
    // A product of two operands keeps one of each.
    DensePipeline d;
    FunctionDAG dense(d.outputs());
    CHECK(dense.matmuls()[0].vector_reads == 1);
    CHECK(dense.matmuls()[0].broadcast_reads == 1);
}

// Several contraction updates (acc += x_lo * w_lo; acc += x_hi * w_hi): each update's lane
// accumulators are computed inside it in a dot-product kernel (CpuTiling.cpp tile_update_dot), one
// tile live at a time, so the space keeps the tiles that one update's accumulators fit, as for one
// update (when all were live at once, a 3 x 4 tile spilled on AVX2:
// apps/results/cpu/two_updates_dot_2026-11-29/).
TEST_CASE("dot-product kernels of several updates keep the tiles one update's accumulators fit", "[space]") {
    Param<int> T("T");
    T.set_range(1, 128);
    T.set_estimate(8);
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w");
    Var n("n"), m("m");
    RDom lo(0, 384, "lo"), hi(384, 384, "hi");
    Func acc("acc"), y("y");
    acc(n, m) = 0.f;
    acc(n, m) += x(lo, m) * w(lo, n);
    acc(n, m) += x(hi, m) * w(hi, n);
    y(n, m) = acc(n, m);
    x.set_estimates({{0, 768}, {0, T * 4}});
    w.set_estimates({{0, 768}, {0, 256}});
    y.set_estimates({{0, 256}, {0, T * 4}});
    FunctionDAG dag({y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &p = dag.matmuls()[0];
    REQUIRE(p.update_reductions.size() == 2);
    ShapeFamily fam = read_shape_family({y.function()}, Options{});
    MatmulExtents ext = matmul_extents(p, fam, fam.training_shapes(8, 0));
    const CpuLimits lim = avx2_two_cores();
    const std::vector<MicroKernel> space = enumerate_cpu_kernels(p, ext, lim);
    int dots = 0, widest = 0;
    for (const MicroKernel &k : space) {
        if (!k.cpu.dot) continue;
        INFO(k.to_string());
        dots++;
        widest = std::max(widest, k.cpu.vectors * k.cpu.rows);
        CHECK(k.cpu.vectors * k.cpu.rows + std::min(k.cpu.vectors, k.cpu.rows) + 1 <= lim.vector_registers);
    }
    CHECK(dots > 0);
    CHECK(widest == 12);  // 3 x 4, 4 x 3, 6 x 2, 2 x 6: 12 accumulators + 2-3 + 1 (all updates' lanes live: 7)
    // The same reduction in one update keeps the 3 x 4 tile too.
    DensePipeline d;
    FunctionDAG dense(d.outputs());
    ShapeFamily dfam = read_shape_family(d.outputs(), Options{});
    MatmulExtents dext = matmul_extents(dense.matmuls()[0], dfam, dfam.training_shapes(8, 0));
    const std::vector<MicroKernel> one = enumerate_cpu_kernels(dense.matmuls()[0], dext, lim);
    CHECK(std::any_of(one.begin(), one.end(), [](const MicroKernel &k) { return k.cpu.dot && k.cpu.vectors * k.cpu.rows == 12; }));
}

// Found by the sixth probe: an operand that reads no reduction variable (a per-column scale
// inside the sum) is a broadcast per output for the dot-product kernels, not a reason to leave
// them out of the space.
TEST_CASE("an operand invariant along the reduction leaves the dot-product kernels in the space", "[space]") {
    ImageParam x(Float(32), 2, "x"), wq(Float(32), 2, "wq"), scale(Float(32), 1, "scale");
    Var n("n"), m("m");
    RDom r(0, 768, "r");
    Func y("dequant");
    y(n, m) = sum(x(r, m) * (wq(r, n) * scale(n)));
    y.set_estimates({{0, 768}, {0, 16}});
    x.set_estimates({{0, 768}, {0, 16}});
    wq.set_estimates({{0, 768}, {0, 768}});
    scale.set_estimates({{0, 768}});
    FunctionDAG dag({y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &p = dag.matmuls()[0];
    int invariant = 0;
    for (const ContractionOperand &o : p.operands) invariant += o.reduction_invariant;
    CHECK(invariant == 1);
    CHECK(dot_kernels_apply(p, 8));
}

// Found by the same probe: a batched matrix-vector product, y(n, b) = sum_k W(k, n, b) x(k, b),
// whose matrix moves with the tile's rows (the batch). A staged copy of it serves one row; the
// heuristic counted it reused by every row and picked staged column kernels from T = 79 (10 ms
// at T = 128, against 1.7 ms for the dot-product kernel it picks below).
TEST_CASE("an operand that moves with the vectors and the rows is not staged for a batched matrix-vector product", "[space]") {
    Param<int> T("T");
    T.set_range(1, 128);
    T.set_estimate(64);
    ImageParam W(Float(32), 3, "W"), x(Float(32), 2, "x");
    Var n("n"), b("b");
    RDom r(0, 256, "r");
    Func y("bgemv");
    y(n, b) = sum(W(r, n, b) * x(r, b));
    W.set_estimates({{0, 256}, {0, 256}, {0, T}});
    x.set_estimates({{0, 256}, {0, T}});
    y.set_estimates({{0, 256}, {0, T}});
    FunctionDAG dag({y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &p = dag.matmuls()[0];
    CHECK(vector_operand_moves_with_rows(p));
    CHECK(staged_panel_serves_one_row(p));
    ShapeFamily fam = read_shape_family({y.function()}, Options{});
    const CpuLimits lim = avx2_two_cores();
    for (int t : {1, 64, 100, 128}) {
        INFO("T = " << t);
        MatmulExtents ext = matmul_extents(p, fam, {Shape{{"T", (int64_t)t}}});
        CHECK(ext.vector_operand_per_row);
        const std::vector<MicroKernel> space = enumerate_cpu_kernels(p, ext, lim);
        const MicroKernel best = choose_by_heuristic(space, ext, 2);
        INFO(best.to_string());
        CHECK(best.cpu.dot);
        // Whatever ranks them: the space holds no column kernel that would copy W.
        CHECK(std::all_of(space.begin(), space.end(), [](const MicroKernel &k) { return k.cpu.dot; }));
    }
    // A dense layer's weights do not move with its rows.
    DensePipeline d;
    FunctionDAG dense(d.outputs());
    CHECK_FALSE(vector_operand_moves_with_rows(dense.matmuls()[0]));
    CHECK_FALSE(staged_panel_serves_one_row(dense.matmuls()[0]));
}

TEST_CASE("GPU micro-kernels respect thread and register limits", "[space]") {
    DensePipeline d;
    FunctionDAG dag(d.outputs());
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(8, 0));
    GpuLimits lim;
    auto space = enumerate_gpu_kernels(dag.matmuls()[0], ext, lim);
    REQUIRE(!space.empty());
    for (const MicroKernel &k : space) {
        int threads = k.cuda.threads_x * k.cuda.threads_y;
        CHECK(threads <= lim.max_threads_per_block);
        CHECK(threads % lim.warp_size == 0);
        int regs = k.cuda.reg_x * k.cuda.reg_y + k.cuda.reg_x + k.cuda.reg_y + 24;
        CHECK(regs * threads <= lim.registers_per_block);
        CHECK(tile_variants(k).back().threads_x * tile_variants(k).back().threads_y == 1);
    }
}

// Halide 14's CUDA runtime JIT-compiles kernels with at most 64 registers per thread by default:
// under it, 8 accumulators per lane beat 16 at every T in two H200 sweeps of the dense layer, and
// blocks of 4 rows re-read the weights too often (apps/results/gpu/h200_2026-11-27_NOTES.md,
// apps/results/gpu/h200_2026-11-30_heuristic_dispatch/). With the cap lifted to 255
// (cuda_registers, HL_CUDA_JIT_MAX_REGISTERS at run time) 2x16 was the fastest.
TEST_CASE("the staged GPU heuristic sizes register tiles to the JIT register cap", "[space]") {
    CHECK(staged_tile_fit(1, 8, 32, 64) == Approx(1.0));
    CHECK(staged_tile_fit(2, 8, 32, 64) == Approx(0.5));
    CHECK(staged_tile_fit(2, 8, 32, 255) == Approx(1.0));
    CHECK(staged_tile_fit(4, 4, 32, 255) == Approx(0.25));
    CHECK(staged_tile_fit(4, 8, 32, 255) == Approx(0.5).epsilon(0.01));
    CHECK(staged_tile_fit(2, 16, 32, 255) == Approx(1.0).epsilon(0.01));
    CHECK(staged_tile_fit(2, 8, 64, 255) > staged_tile_fit(2, 8, 32, 255));

    DensePipeline d;
    FunctionDAG dag(d.outputs());
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(8, 0));
    auto space = enumerate_gpu_kernels(dag.matmuls()[0], ext, GpuLimits{});
    REQUIRE(!space.empty());
    const MicroKernel at_default_cap = choose_by_heuristic(space, ext, 132);
    INFO(at_default_cap.to_string());
    REQUIRE(at_default_cap.cuda.staged());
    CHECK(at_default_cap.cuda.reg_x * at_default_cap.cuda.reg_y <= 8);
    CHECK(at_default_cap.cuda.reg_y >= 8);
}

TEST_CASE("the heuristic score rewards shapes that fill the machine", "[space]") {
    MicroKernel k;
    k.cpu = {8, 2, 4, 1, 1, false};
    MatmulExtents small, large;
    small.host_extents = {{16, 4}};
    large.host_extents = {{1024, 1024}};
    CHECK(heuristic_score(k, large, 8) > heuristic_score(k, small, 8));
}

TEST_CASE("the same pipeline and options give the same schedule source", "[plugin]") {
    std::string first, second;
    for (std::string *out : {&first, &second}) {
        DensePipeline d;
        // Halide makes Func names unique within a process (acc, acc$2, ...): compare without suffixes.
        std::string src = autoschedule(Pipeline(d.y), diet::runnable_host_target(), 2, 0, Options{}).schedule_source;
        src = std::regex_replace(src, std::regex(R"(\$[0-9]+)"), "");
        *out = std::regex_replace(src, std::regex(R"((acc|y|w_im|x_im)_[0-9]+)"), "$1");
    }
    CHECK(first == second);
    CHECK_THAT(first, Catch::Contains("specialize("));
}

TEST_CASE("candidates compile on copies and match the unscheduled reference", "[schedule]") {
    DensePipeline d;
    FunctionDAG dag(d.outputs());
    ShapeFamily fam = read_shape_family(d.outputs(), Options{});
    MatmulExtents ext = matmul_extents(dag.matmuls()[0], fam, fam.training_shapes(4, 0));
    CpuLimits lim = CpuLimits::for_target(diet::runnable_host_target(), 2, 0);
    auto space = enumerate_cpu_kernels(dag.matmuls()[0], ext, lim);
    Buffer<float> x(64, 16 * 3), w(64, 96);
    x.for_each_element([&](int k, int m) { x(k, m) = (float)((k * 3 + m * 7) % 13) - 6.f; });
    w.for_each_element([&](int k, int n) { w(k, n) = (float)((k * 5 + n) % 11) - 5.f; });
    d.x.set(x);
    d.w.set(w);
    d.T.set(3);
        // Candidates are made before the estimates are made constant: take the family's samples first.
    Buffer<float> ref = unscheduled_copy(d.outputs(), Shape{{"T", 3}}).realize({96, 48});
    for (size_t i : {size_t(0), space.size() / 2, space.size() - 1}) {
        for (bool single_variant : {false, true}) {
            Candidate c{{{dag.matmuls()[0], space[i], {}}}};
            if (single_variant) c.kernels[0].only_for_extents = {96, 48};
            INFO(c.describe() << (single_variant ? " (one variant)" : ""));
            Buffer<float> out = instantiate(d.outputs(), c, diet::runnable_host_target(), lim, Shape{{"T", 3}}).realize({96, 48});
            float worst = 0;
            out.for_each_element([&](int n, int m) { worst = std::max(worst, std::abs(out(n, m) - ref(n, m))); });
            CHECK(worst == 0.f);
        }
    }
    // The original Funcs stay unscheduled.
    CHECK(d.acc.function().schedule().compute_level().is_inlined());
}

// The occupancy rule for GPU tile variants (space/MicroKernel.h): a variant with a narrower one of
// the same rows after it needs 8 warps per SM; 1-row variants are never chosen by block count over
// 8-row ones, and the single-output variant only where nothing else fits.
TEST_CASE("GPU tile variants: the occupancy rule picks enough one-warp blocks", "[unit][cuda]") {
    diet::MicroKernel k;
    k.gpu = true;
    k.cuda.threads_x = 32;
    k.cuda.reg_x = 4;
    k.cuda.reg_y = 8;
    k.cuda.k_tile = 32;
    const std::vector<diet::TileVariant> v = diet::tile_variants(k);
    auto pick = [&](std::vector<int64_t> e) {
        const diet::TileVariant &t = diet::gpu_variant_for(v, e, 132);
        return std::make_pair(t.cols, t.rows);
    };
    CHECK(diet::min_gpu_blocks(v[0], 132) == 8 * 132);
    CHECK(pick({2304, 2048}) == std::make_pair(128, 8));  // dense T = 128: 4608 blocks of 128 x 8
    CHECK(pick({2304, 16}) == std::make_pair(32, 8));     // dense T = 1: 36 blocks of 128 x 8 are too few
    CHECK(pick({2304, 2}) == std::make_pair(32, 1));      // 2 rows: 128 x 1 gives too few blocks
    CHECK(pick({20, 20, 192}) == std::make_pair(1, 1));   // narrower than a warp: one output per block
    // The first fitting variant is what the rule replaced: it would keep 128 x 8 at T = 1.
    CHECK(diet::fitting_variant(v, 2304, 16).cols == 128);
}

// Tile-variant conditions are decided with what holds at every run: extents are never negative,
// Params lie in their ranges (an LSTM's gates, an intermediate host 384 wider than the output).
TEST_CASE("size conditions are simplified with non-negative extents and Param ranges", "[schedule]") {
    using namespace Halide;
    const Expr extent = Internal::Variable::make(Int(32), "gates_out.extent.0");
    CHECK(Internal::is_const_one(diet::simplify_size_condition(extent + 384 >= 4)));
    CHECK(!Internal::is_const(diet::simplify_size_condition(extent + 384 >= 400)));
    CHECK(!Internal::is_const(diet::simplify_size_condition(extent >= 4)));
    Param<int> T("T_cond");
    T.set_range(1, 512);
    CHECK(Internal::is_const_one(diet::simplify_size_condition(Expr(T) >= 1)));
    CHECK(Internal::is_const_zero(diet::simplify_size_condition(Expr(T) >= 513)));
    CHECK(!Internal::is_const(diet::simplify_size_condition(Expr(T) >= 2)));
    Param<int> free_param("U_cond");  // no range: nothing assumed
    CHECK(!Internal::is_const(diet::simplify_size_condition(Expr(free_param) >= 1)));
}

// A large family's box cut where a tile variant or dispatch leaf changes (schedule/VariantCells.h):
// one corner per cell, lowest first per dimension; values outside the box are no cuts.
TEST_CASE("the cells of a family's extents box have one corner each", "[schedule]") {
    const std::vector<std::pair<int64_t, int64_t>> box = {{128, 128}, {1, 256}, {1, 256}};
    const std::vector<std::set<int64_t>> cuts = {{1, 4, 16, 64, 128}, {1, 6}, {1, 300}};
    const std::vector<std::vector<int64_t>> corners = diet::cell_corners(box, cuts, 4096);
    // Dimension 0 is one value (the cuts below and at 128 are at or under its low end); dimension 1
    // is cut at 6; dimension 2's cut lies outside the box.
    const std::vector<std::vector<int64_t>> expected = {{128, 1, 1}, {128, 6, 1}};
    CHECK(corners == expected);
    // More cells than allowed: none (every variant is then kept).
    CHECK(diet::cell_corners(box, {{}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}}, 8).empty());
}

TEST_CASE("reads a definition names but its simplified form drops are found", "[analysis]") {
    ImageParam in(UInt(8), 2, "vanish_in");
    Var x("x"), y("y");
    Func p("vanish_p"), kept("vanish_kept"), gone("vanish_gone");
    p(x, y) = in(x, y) + 1;
    Expr t = p(x, y);
    kept(x, y) = t + in(y, x);
    gone(x, y) = select(t < t, t, t - t) + in(x, y);  // simplifies to in(x, y)
    CHECK(diet::reads_vanishing_when_simplified(kept.function().definition()).empty());
    CHECK(diet::reads_vanishing_when_simplified(gone.function().definition()) == std::set<std::string>{"vanish_p"});
}

// analysis/StridedReads.h: a pure variable in a callee's argument other than its innermost makes
// a vector along it a gather (the update then takes at most kGatherLanes lanes).
TEST_CASE("reads that gather along a pure variable are found", "[analysis]") {
    ImageParam in(UInt(8), 3, "gather_in");
    Var x("x"), y("y");
    RDom r(0, 8, "gather_r");
    Func across("gather_across"), along("gather_along");
    across(x, y) = cast<uint8_t>(0);
    across(x, y) = max(across(x, y), in(r, x, y));  // x is the input's dimension 1
    along(x, y) = cast<uint8_t>(0);
    along(x, y) = max(along(x, y), in(x, r, y));  // x is the input's innermost dimension
    CHECK(diet::gathers_along(across.function().update(0), "x"));
    CHECK(!diet::gathers_along(along.function().update(0), "x"));
    CHECK(diet::gathers_along(along.function().update(0), "y"));
    CHECK(!diet::gathers_along(along.function().definition(), "x"));
}

// analysis/StridedReads.h steps_across_planes: each reduction step reads a run along x in
// another plane (vol(x, y, rz)); not a window along the output's own rows (in(x, y + r)), nor a
// read along the reduction's own innermost dimension.
TEST_CASE("reductions that step across planes are told from windows and row reductions", "[analysis]") {
    ImageParam vol(UInt(16), 3, "planes_vol");
    Var x("x"), y("y");
    RDom rz(0, 64, "planes_rz");
    Func mip("planes_mip"), window("planes_window"), rows("planes_rows");
    mip(x, y) = cast<uint16_t>(0);
    mip(x, y) = max(mip(x, y), vol(x, y, rz));
    window(x, y) = cast<uint16_t>(0);
    window(x, y) = max(window(x, y), vol(x, y + rz, 0));
    rows(x, y) = cast<uint16_t>(0);
    rows(x, y) = max(rows(x, y), vol(rz, x, y));
    const std::vector<std::string> r = {rz.x.name()}, pure = {"x", "y"};
    CHECK(diet::steps_across_planes(mip.function().update(0), r, pure, "x", "y"));
    CHECK(!diet::steps_across_planes(window.function().update(0), r, pure, "x", "y"));
    CHECK(!diet::steps_across_planes(rows.function().update(0), r, pure, "x", "y"));
    // Rows that select planes: a tile of them inside each step would read that many planes.
    Func planes_apart("planes_apart");
    planes_apart(x, y) = cast<uint16_t>(0);
    planes_apart(x, y) = max(planes_apart(x, y), vol(x, rz, y));
    CHECK(!diet::steps_across_planes(planes_apart.function().update(0), r, pure, "x", "y"));
}

// A Func read through a user's `in()` wrapper: the snapshot keeps the wrapper (Halide 14's
// deep_copy asserts on a wrapper its map does not name: auto_schedule aborted on such a pipeline,
// red-team round 20), and Diet schedules the pipeline correctly.
TEST_CASE("a pipeline with a user's in() wrapper is snapshotted and scheduled", "[unit]") {
    ImageParam img(UInt(8), 2, "wr_img");
    Param<int> w("wr_w"), h("wr_h");
    w.set_range(1, 96);
    h.set_range(1, 64);
    Var x("x"), y("y");
    RDom rr(-2, 5, "wr_r");
    const auto build = [&](Func &out) {
        Func m("wr_m"), box("wr_box");
        m(x, y) = cast<int>(BoundaryConditions::repeat_edge(img, {{0, w}, {0, h}})(x, y));
        box(x, y) = sum(m.in()(x + rr, y));
        out(x, y) = box(x, y) - 5 * m(x, y);
        out.set_estimate(x, 0, 96).set_estimate(y, 0, 64);
        img.dim(0).set_estimate(0, 96);
        img.dim(1).set_estimate(0, 64);
    };
    Func out("wr_out"), ref("wr_ref");
    build(out);
    build(ref);
    {
        const diet::ScheduleSnapshot snapshot({out.function()});
        snapshot.restore();
    }
    REQUIRE_NOTHROW(autoschedule(Pipeline(out), diet::runnable_host_target(), 2, 0, Options{}));
    for (const auto &[W, H] : std::vector<std::pair<int, int>>{{1, 1}, {7, 5}, {96, 64}, {33, 17}}) {
        Buffer<uint8_t> in(W, H);
        in.for_each_element([&](int i, int j) { in(i, j) = (uint8_t)((i * 37 + j * 11) % 251); });
        img.set(in);
        w.set(W);
        h.set(H);
        Buffer<int> a = out.realize({W, H}, diet::runnable_host_target()), b = ref.realize({W, H});
        int bad = 0;
        a.for_each_element([&](int i, int j) { bad += a(i, j) != b(i, j); });
        INFO("W = " << W << ", H = " << H);
        CHECK(bad == 0);
    }
}

// The plugin's safety net when Halide refuses a schedule Diet built (plugin/Diet.cpp): every
// directive, a specialization and an rfactor (which rewrites the update's definition) undone.
TEST_CASE("a schedule snapshot restores definitions and schedules as written", "[unit]") {
    Param<int> n("snap_n");
    ImageParam in(Float(32), 2, "snap_in");
    Var x("x"), y("y");
    Func g("snap_g"), total("snap_total");
    g(x, y) = in(x, y) * 2.f;
    RDom r(0, n, 0, n, "snap_r");
    total() = 0.f;
    total() += g(r.x, r.y);
    const auto lowered = [&] {
        std::ostringstream text;
        Pipeline p(total);
        text << p.compile_to_module(p.infer_arguments(), "snap", get_host_target().without_feature(Target::AVX512_SapphireRapids));
        // (Lowering numbers its temporaries from a global counter.)
        return std::regex_replace(text.str(), std::regex(R"(\bt[0-9]+\b)"), "t");
    };
    const std::string before = lowered();
    const diet::ScheduleSnapshot snapshot({total.function(), g.function()});
    RVar rxo("rxo"), rxi("rxi");
    Var u("u");
    total.update().split(r.x, rxo, rxi, 4);
    Func intm = total.update().rfactor(rxi, u);
    intm.compute_root().vectorize(u);
    g.compute_root().specialize(n > 8).vectorize(x, 8);
    REQUIRE(lowered() != before);
    snapshot.restore();
    const std::string after = lowered();
    std::istringstream a(before), b(after);
    std::string la, lb;
    int line = 0;
    while (std::getline(a, la) && std::getline(b, lb) && la == lb) line++;
    INFO("first difference at line " << line << ":\n" << la << "\n" << lb);
    CHECK(after == before);
}
