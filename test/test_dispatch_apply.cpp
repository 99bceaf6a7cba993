// A shape dispatch applied to the live Funcs (nested specialize() on the output's extents, each
// leaf its own micro-kernel with its chain of tile variants) computes the right result at every
// T of the family and outside it. The dispatch here is made by hand, with deliberately different
// kernels per leaf, so the test does not depend on what a tuning run happens to choose.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "dispatch/Dispatch.h"
#include "schedule/ApplySchedule.h"
#include "schedule/ScheduleWriter.h"
#include "space/Hardware.h"
#include "space/MicroKernel.h"

#include <functional>
#include <random>
#include <sstream>

using namespace Halide;
using namespace diet;

namespace {

struct Algorithm {
    ImageParam a, b;
    Param<int> T{"T", 32, 1, 128};
    Func out;
};

// Each builder defines the same algorithm on fresh Funcs (called for Diet and for the reference).
using Build = std::function<void(Algorithm &)>;

void dense(Algorithm &g) {  // y[16T, 200] = x[16T, 64] * w[200, 64]^T
    g.a = ImageParam(Float(32), 2, "x");
    g.b = ImageParam(Float(32), 2, "w");
    Func acc("acc");
    Var n("n"), m("m");
    RDom k(0, 64, "k");
    acc(n, m) = 0.f;
    acc(n, m) += g.a(k, m) * g.b(k, n);
    g.out = Func("y");
    g.out(n, m) = acc(n, m);
    g.a.set_estimates({{0, 64}, {0, 16 * g.T}});
    g.b.set_estimates({{0, 64}, {0, 200}});
    g.out.set_estimates({{0, 200}, {0, 16 * g.T}});
}

void batch_matmul_nt(Algorithm &g) {  // out[B=3][T][T] = a[3][T][64] * bt[3][T][64]^T
    g.a = ImageParam(Float(32), 3, "a");
    g.b = ImageParam(Float(32), 3, "bt");
    Func acc("acc");
    Var j("j"), i("i"), bb("b");
    RDom k(0, 64, "k");
    acc(j, i, bb) = 0.f;
    acc(j, i, bb) += g.a(k, i, bb) * g.b(k, j, bb);
    g.out = Func("out");
    g.out(j, i, bb) = acc(j, i, bb);
    g.a.set_estimates({{0, 64}, {0, g.T}, {0, 3}});
    g.b.set_estimates({{0, 64}, {0, g.T}, {0, 3}});
    g.out.set_estimates({{0, g.T}, {0, g.T}, {0, 3}});
}

void batch_matmul_nn(Algorithm &g) {  // out[3][T][64] = a[3][T][T] * bn[3][T][64]
    g.a = ImageParam(Float(32), 3, "a");
    g.b = ImageParam(Float(32), 3, "bn");
    Func acc("acc");
    Var j("j"), i("i"), bb("b");
    RDom k(0, g.a.dim(0).extent(), "k");
    acc(j, i, bb) = 0.f;
    acc(j, i, bb) += g.a(k, i, bb) * g.b(j, k, bb);
    g.out = Func("out");
    g.out(j, i, bb) = acc(j, i, bb);
    g.a.set_estimates({{0, g.T}, {0, g.T}, {0, 3}});
    g.b.set_estimates({{0, 64}, {0, g.T}, {0, 3}});
    g.out.set_estimates({{0, 64}, {0, g.T}, {0, 3}});
}

Buffer<float> random_buffer(const std::vector<int> &sizes, int seed) {
    Buffer<float> buf(sizes);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    buf.for_each_value([&](float &v) { v = u(rng); });
    return buf;
}

// Three leaves over the output's row extent (dim 1), the middle one also bounded on dim 0, each
// with a different kernel of the space (same operand staging: one wrapper Func for all leaves).
Dispatch three_leaves(const std::vector<MicroKernel> &space, bool with_dot) {
    std::vector<MicroKernel> picks;
    for (size_t i = 0; i < space.size() && picks.size() < 3; i += std::max<size_t>(1, space.size() / 3)) {
        if (picks.empty() || space[i].cpu.stage_strided == picks[0].cpu.stage_strided) picks.push_back(space[i]);
    }
    REQUIRE(picks.size() == 3);
    if (with_dot) {
        // The small-rows leaf and the last leaf dot-product kernels (4 x 3 and 2 x 5 tiles: their
        // halves and 1 x 1 variants all run somewhere in 1..128), the middle one a column kernel.
        auto dot = [&](int cols, int rows) {
            for (const MicroKernel &k : space) {
                if (k.cpu.dot && k.cpu.vectors == cols && k.cpu.rows == rows) return k;
            }
            FAIL("no dot-product kernel " << cols << "x" << rows << " in the space");
            return space[0];
        };
        picks[0] = dot(4, 3);
        picks[2] = dot(2, 5);
        for (const MicroKernel &k : space) {
            if (!k.cpu.dot) {
                picks[1] = k;
                break;
            }
        }
    }
    Dispatch d;
    d.leaves.push_back({picks[0], {1, 1}, {kNoUpperBound, 40}, "rows <= 40", ""});
    d.leaves.push_back({picks[1], {20, 41}, {kNoUpperBound, 700}, "rows in 41..700, cols >= 20", ""});
    d.leaves.push_back({picks[2], {1, 1}, {kNoUpperBound, kNoUpperBound}, "the rest", ""});
    return d;
}

// Four leaves over the rows alternating two kernels (as a noisy tuning can leave them): A for rows
// <= 40, B for 41..700, A for 701..1500, B for the rest.
Dispatch alternating_leaves(const std::vector<MicroKernel> &space) {
    const MicroKernel a = space.front(), b = space[space.size() / 2];
    REQUIRE(!(a == b));
    Dispatch d;
    d.leaves.push_back({a, {1, 1}, {kNoUpperBound, 40}, "rows <= 40", ""});
    d.leaves.push_back({b, {1, 41}, {kNoUpperBound, 700}, "rows in 41..700", ""});
    d.leaves.push_back({a, {1, 701}, {kNoUpperBound, 1500}, "rows in 701..1500", ""});
    d.leaves.push_back({b, {1, 1}, {kNoUpperBound, kNoUpperBound}, "the rest", ""});
    return d;
}

// Returns the schedule's source.
std::string check_dispatched(const std::string &name, const Build &build, const std::function<std::vector<int>(int)> &a_size,
                      const std::function<std::vector<int>(int)> &b_size,
                      const std::function<std::vector<int>(int)> &out_size, const std::vector<int> &ts,
                      bool with_dot = false, bool alternating = false) {
    Algorithm g, ref;
    build(g);
    build(ref);
    std::vector<Internal::Function> outputs{g.out.function()};
    FunctionDAG dag(outputs);
    REQUIRE(dag.matmuls().size() == 1);
    const MatmulPattern &p = dag.matmuls()[0];
    Options opts;
    ShapeFamily fam = read_shape_family(outputs, opts);
    const Target target = diet::runnable_host_target();
    const CpuLimits cpu = CpuLimits::for_target(target, 2, 0);
    MatmulExtents ext = matmul_extents(p, fam, fam.training_shapes(8, 0));
    std::vector<MicroKernel> space = enumerate_cpu_kernels(p, ext, cpu);
    KernelChoice kc{p, space[0]};
    kc.dispatch = alternating ? alternating_leaves(space) : three_leaves(space, with_dot);
    if (with_dot) {
        CHECK(dot_kernels_apply(p, cpu.lanes(p.type)));
    }
    ScheduleWriter w(false);
    apply_schedule(dag, {kc}, target, cpu, w);
    concretize_estimates(outputs, fam.representative());
    const std::string source = w.source();
    CHECK(source.find("extent() <= 40") != std::string::npos);
    CHECK(source.find(alternating ? "extent() >= 701" : "extent() >= 41") != std::string::npos);
    Pipeline scheduled(g.out);
    scheduled.compile_jit(target);
    concretize_estimates({ref.out.function()}, fam.representative());
    for (int t : ts) {
        INFO(name << " at T=" << t);
        Buffer<float> a = random_buffer(a_size(t), t), b = random_buffer(b_size(t), 1000 + t);
        g.a.set(a);
        g.b.set(b);
        g.T.set(t);
        ref.a.set(a);
        ref.b.set(b);
        ref.T.set(t);
        Buffer<float> got = scheduled.realize(out_size(t));
        Buffer<float> want = ref.out.realize(out_size(t));
        float worst = 0;
        got.for_each_element([&](const int *pos) { worst = std::max(worst, std::abs(got(pos) - want(pos))); });
        REQUIRE(worst <= 1e-4f);
    }
    return source;
}

std::vector<int> every_t_and_200() {
    std::vector<int> ts;
    for (int t = 1; t <= 128; t++) ts.push_back(t);
    ts.push_back(200);  // outside the family: the nearest leaf runs
    return ts;
}

}  // namespace

TEST_CASE("a three-leaf dispatch of dense is correct at every T and outside the range", "[dispatch]") {
    check_dispatched(
        "dense", dense, [](int t) { return std::vector<int>{64, 16 * t}; },
        [](int) { return std::vector<int>{64, 200}; }, [](int t) { return std::vector<int>{200, 16 * t}; },
        every_t_and_200());
}

TEST_CASE("a three-leaf dispatch of batch_matmul NT is correct at every T and outside the range", "[dispatch]") {
    check_dispatched(
        "batch_matmul_nt", batch_matmul_nt, [](int t) { return std::vector<int>{64, t, 3}; },
        [](int t) { return std::vector<int>{64, t, 3}; }, [](int t) { return std::vector<int>{t, t, 3}; },
        every_t_and_200());
}

TEST_CASE("a three-leaf dispatch of batch_matmul NN is correct at every T and outside the range", "[dispatch]") {
    check_dispatched(
        "batch_matmul_nn", batch_matmul_nn, [](int t) { return std::vector<int>{t, t, 3}; },
        [](int t) { return std::vector<int>{64, t, 3}; }, [](int t) { return std::vector<int>{64, t, 3}; },
        every_t_and_200());
}

// Dot-product kernels (vectorized along the reduction, an rfactor per leaf) mixed with a column
// kernel in one dispatch: every leaf and variant correct, also where operand panels exist for the
// other leaves.
TEST_CASE("a dispatch mixing dot-product and column kernels is correct at every T", "[dispatch][dot]") {
    check_dispatched(
        "dense", dense, [](int t) { return std::vector<int>{64, 16 * t}; },
        [](int) { return std::vector<int>{64, 200}; }, [](int t) { return std::vector<int>{200, 16 * t}; },
        every_t_and_200(), true);
    check_dispatched(
        "batch_matmul_nt", batch_matmul_nt, [](int t) { return std::vector<int>{64, t, 3}; },
        [](int t) { return std::vector<int>{64, t, 3}; }, [](int t) { return std::vector<int>{t, t, 3}; },
        every_t_and_200(), true);
}

// Leaves that share a kernel run under one specialization (the disjunction of their boxes): each
// specialization compiles its kernel again, and a 14-leaf dispatch over 8 kernels took LLVM over
// 8 minutes (scripts/main.sh). Here 4 leaves over 2 kernels: one specialization, the other kernel
// the general case; correct at every T (rows 16T cross every box) and outside the range.
TEST_CASE("leaves sharing a kernel run under one specialization, correct at every T", "[dispatch]") {
    const std::string source = check_dispatched(
        "dense", dense, [](int t) { return std::vector<int>{64, 16 * t}; },
        [](int) { return std::vector<int>{64, 200}; }, [](int t) { return std::vector<int>{200, 16 * t}; },
        every_t_and_200(), false, true);
    INFO(source);
    CHECK(source.find(") || (") != std::string::npos);
    // Kernel A's two boxes: one specialization of each of y, acc and acc.update(0) (the tile
    // variants below it specialize further); kernel B, holding the last leaf, is the general case:
    // no specialization names its box 41..700.
    std::istringstream lines(source);
    int a_specializations = 0, b_specializations = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.find(".specialize(") == std::string::npos) continue;
        a_specializations += line.find("<= 40)") != std::string::npos && line.find("<= 1500") != std::string::npos;
        b_specializations += line.find("<= 700") != std::string::npos;
    }
    CHECK(a_specializations == 3);
    CHECK(b_specializations == 0);
}

// A Halide 14 bug (apps/results/cpu/broadcast_wrappers_2026-12-06/halide14_update_spec_repro.py):
// a Func whose pure stage is specialized on P and whose update on U, P ruling U out, loses its
// update wherever P holds. The schedule writer leaves such an update specialization out (its
// directives are dropped), so the scan below stays correct where P holds.
TEST_CASE("the schedule writer leaves out an update specialization its pure stage's rules out", "[dispatch]") {
    Var k("k"), f("f");
    Func cs("sw_cs"), g("sw_g");
    cs(k, f) = cast<float>(k);
    RDom r(1, 128, "rs");
    cs(r, f) += cs(r - 1, f);
    g(f) = cs(128, f);
    std::vector<Internal::Function> outputs{g.function()};
    FunctionDAG dag(outputs);
    ScheduleWriter w(false);
    const FuncNode &node = dag.node("sw_cs");
    ScheduleWriter::FuncRef ref = w.func(node);
    w.compute_root(ref);
    const Expr extent = g.output_buffer().dim(0).extent();
    ScheduleWriter::StageRef pure = w.stage(ref, 0, node.stages[0]);
    ScheduleWriter::StageRef wide = w.specialize(pure, {extent >= 32, "extent >= 32"});
    ScheduleWriter::StageRef update = w.stage(ref, 1, node.stages[1]);
    // Ruled out where extent >= 32 (extent <= 1), and no earlier update branch matches it.
    ScheduleWriter::StageRef tiny = w.specialize(update, {extent * 16512 <= 32768, "extent * 16512 <= 32768"});
    CHECK(!wide.discarded);
    CHECK(tiny.discarded);
    CHECK_THAT(w.source(), Catch::Contains("a Halide 14 bug drops the update there"));
    // A dispatch's pattern, the update specialized on the pure stage's own condition first, is kept.
    ScheduleWriter::StageRef same = w.specialize(update, {extent >= 32, "extent >= 32"});
    CHECK(!same.discarded);
    Buffer<float> out = Pipeline(g).realize({64}, diet::runnable_host_target());
    for (int i = 0; i < 64; i++) CHECK(out(i) == 8256.0f);
}
