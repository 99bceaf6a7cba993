// Diet loaded as a real plugin (dlopen, as GenGen's -p does) schedules pipelines of many kinds;
// each is compared, JIT-compiled, with the same algorithm under Halide's default schedule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "Halide.h"
#include "space/HostCpu.h"
#include "test_support.h"

#include <functional>
#include <random>

using namespace Halide;
using namespace diet_test;

namespace {


Buffer<float> random_buffer(std::vector<int> sizes, int seed) {
    Buffer<float> b(sizes);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    b.for_each_value([&](float &v) { v = u(rng); });
    return b;
}

float max_abs_diff(const Buffer<float> &a, const Buffer<float> &b) {
    float worst = 0;
    a.for_each_element([&](const int *pos) { worst = std::max(worst, std::abs(a(pos) - b(pos))); });
    return worst;
}

// Builds the algorithm into fresh Funcs: called twice, once for Diet and once for the reference.
using Builder = std::function<Func(ImageParam &in, Expr T)>;

void check_pipeline(const std::string &name, const Builder &build, int dims, const std::vector<int> &Ts,
                    const std::function<std::vector<int>(int)> &input_size,
                    const std::function<std::vector<int>(int)> &output_size) {
    load_diet();
    ImageParam in(Float(32), dims, "in");
    Param<int> T("T", 8, 1, 64);
    Func scheduled = build(in, T);
    Pipeline p(scheduled);
    p.auto_schedule("Diet", diet::runnable_host_target(), MachineParams(2, 1 << 20, 40));

    ImageParam in_ref(Float(32), dims, "in_ref");
    Func reference = build(in_ref, 8);  // the same algorithm, constant estimates, default schedule
    for (int t : Ts) {
        INFO(name << " at T=" << t);
        Buffer<float> input = random_buffer(input_size(t), t);
        in.set(input);
        T.set(t);
        in_ref.set(input);
        Buffer<float> out = p.realize(output_size(t));
        Buffer<float> ref = reference.realize(output_size(t));
        CHECK(max_abs_diff(out, ref) <= 1e-4f);
    }
}

}  // namespace

TEST_CASE("inline sum() matmul with a batch dimension and permuted arguments", "[pipelines]") {
    // y(j, i, b) = sum_r in(r, i, b) * in(j, r, b): square [T, T, 3] operands.
    check_pipeline(
        "bmm",
        [](ImageParam &in, Expr T) {
            Var i("i"), j("j"), b("b");
            RDom r(0, in.dim(0).extent(), "r");
            Func y("y");
            y(j, i, b) = sum(in(r, i, b) * in(j, r, b));
            y.set_estimates({{0, T}, {0, T}, {0, 3}});
            in.set_estimates({{0, T}, {0, T}, {0, 3}});
            return y;
        },
        3, {1, 2, 5, 17, 64}, [](int t) { return std::vector<int>{t, t, 3}; },
        [](int t) { return std::vector<int>{t, t, 3}; });
}

TEST_CASE("a three-stage stencil chain with a boundary condition", "[pipelines]") {
    check_pipeline(
        "stencil",
        [](ImageParam &in, Expr T) {
            Var x("x"), y("y");
            Func c = BoundaryConditions::repeat_edge(in);
            Func s1("s1"), s2("s2"), s3("s3");
            s1(x, y) = c(x - 1, y) + c(x, y) + c(x + 1, y);
            s2(x, y) = s1(x, y - 1) + s1(x, y) + s1(x, y + 1);
            s3(x, y) = s2(x - 2, y) * 0.5f + s2(x + 2, y);
            s3.set_estimates({{0, 16 * T}, {0, 9 * T}});
            return s3;
        },
        2, {1, 3, 8, 37}, [](int t) { return std::vector<int>{16 * t, 9 * t}; },
        [](int t) { return std::vector<int>{16 * t, 9 * t}; });
}

TEST_CASE("a histogram (scatter update with an RDom of symbolic extent)", "[pipelines]") {
    check_pipeline(
        "histogram",
        [](ImageParam &in, Expr T) {
            Var x("x");
            RDom r(0, in.dim(0).extent(), 0, in.dim(1).extent(), "r");
            Func h("h"), out("out");
            h(x) = 0.f;
            Expr bin = clamp(cast<int>((in(r.x, r.y) + 1.f) * 8.f), 0, 15);
            h(bin) += 1.f;
            out(x) = h(x) * 2.f;
            out.set_estimates({{0, 16}});
            return out;
        },
        2, {1, 4, 33}, [](int t) { return std::vector<int>{7 * t, t}; },
        [](int) { return std::vector<int>{16}; });
}

TEST_CASE("row reductions, softmax-like, with a scan", "[pipelines]") {
    check_pipeline(
        "softmax_scan",
        [](ImageParam &in, Expr T) {
            Var c("c"), m("m");
            RDom r(0, in.dim(0).extent(), "r");
            Func mx("mx"), e("e"), s("s"), out("out"), scan("scan");
            mx(m) = maximum(in(r, m));
            e(c, m) = exp(in(c, m) - mx(m));
            s(m) = sum(e(r, m));
            scan(c, m) = e(c, m) / s(m);
            RDom rs(1, in.dim(0).extent() - 1, "rs");
            scan(rs, m) = scan(rs, m) + scan(rs - 1, m);
            out(c, m) = scan(c, m);
            out.set_estimates({{0, 64}, {0, 16 * T}});
            return out;
        },
        2, {1, 2, 9}, [](int t) { return std::vector<int>{64, 16 * t}; },
        [](int t) { return std::vector<int>{64, 16 * t}; });
}

TEST_CASE("a downsample and an upsample of odd sizes", "[pipelines]") {
    check_pipeline(
        "resample",
        [](ImageParam &in, Expr T) {
            Var x("x"), y("y");
            Func c = BoundaryConditions::mirror_interior(in);
            Func down("down"), up("up");
            down(x, y) = (c(2 * x, y) + c(2 * x + 1, y)) * 0.5f;
            up(x, y) = down(x / 2, y) + c(x, y);
            up.set_estimates({{0, 10 * T}, {0, 3 * T}});
            return up;
        },
        2, {1, 5, 13}, [](int t) { return std::vector<int>{10 * t, 3 * t}; },
        [](int t) { return std::vector<int>{10 * t, 3 * t}; });
}

namespace {

// The vector loads of buffer `name` (empty: of every buffer) in a lowered Stmt: how many, and how
// many are not dense (a ramp of stride 1, maybe predicated): gathers.
struct VectorLoads : Internal::IRVisitor {
    std::string name;
    int dense = 0, gathers = 0;
    // Non-empty: the else branch of an if whose condition uses this variable (directly or
    // through lets) is not counted (a specialization's general case).
    std::string skip_else_of;
    int skipped_branches = 0;
    std::set<std::string> uses_skipped;  // the lets whose value uses it
    using IRVisitor::visit;
    bool uses(const Expr &e) {
        if (skip_else_of.empty()) return false;
        if (Internal::expr_uses_var(e, skip_else_of)) return true;
        return std::any_of(uses_skipped.begin(), uses_skipped.end(),
                           [&](const std::string &v) { return Internal::expr_uses_var(e, v); });
    }
    void visit(const Internal::LetStmt *op) override {
        if (uses(op->value)) uses_skipped.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Internal::Let *op) override {
        if (uses(op->value)) uses_skipped.insert(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Internal::IfThenElse *op) override {
        if (uses(op->condition)) {
            skipped_branches += op->else_case.defined();
            op->condition.accept(this);
            op->then_case.accept(this);
            return;
        }
        IRVisitor::visit(op);
    }
    void visit(const Internal::Load *op) override {
        if ((name.empty() || op->name == name) && op->type.is_vector()) {
            const auto *ramp = op->index.as<Internal::Ramp>();
            (ramp && Internal::is_const_one(ramp->stride) ? dense : gathers)++;
        }
        IRVisitor::visit(op);
    }
};

class RecordLowered : public Internal::IRMutator {
public:
    explicit RecordLowered(Internal::Stmt *out) : out_(out) {}
    using IRMutator::mutate;
    Internal::Stmt mutate(const Internal::Stmt &s) override {
        *out_ = s;
        return s;
    }

private:
    Internal::Stmt *out_;
};

// Stores to buffers whose names start with `prefix`, inside and outside parallel loops.
struct StoresUnderParallel : Internal::IRVisitor {
    std::string prefix;
    int parallel_depth = 0, inside = 0, outside = 0;
    using IRVisitor::visit;
    void visit(const Internal::For *op) override {
        const bool par = op->for_type == Internal::ForType::Parallel;
        parallel_depth += par;
        IRVisitor::visit(op);
        parallel_depth -= par;
    }
    void visit(const Internal::Store *op) override {
        if (op->name.compare(0, prefix.size(), prefix) == 0) (parallel_depth > 0 ? inside : outside)++;
        IRVisitor::visit(op);
    }
};

// The whole lowered Stmt of `build`'s pipeline scheduled by Diet for T in [1, 64].
Internal::Stmt lowered_with_diet(const Builder &build, int dims) {
    load_diet();
    ImageParam in(Float(32), dims, "in");
    Param<int> T("T", 8, 1, 64);
    Pipeline p(build(in, T));
    p.auto_schedule("Diet", diet::runnable_host_target(), MachineParams(2, 1 << 20, 40));
    Internal::Stmt lowered;
    p.add_custom_lowering_pass(new RecordLowered(&lowered));
    p.compile_to_module({in, T}, "diet_lowered", diet::runnable_host_target());
    REQUIRE(lowered.defined());
    return lowered;
}

// The vector loads of the whole Stmt of `build`'s pipeline scheduled by Diet for T in [1, 64].
VectorLoads loads_with_diet(const Builder &build, int dims) {
    VectorLoads loads;
    lowered_with_diet(build, dims).accept(&loads);
    return loads;
}

}  // namespace

TEST_CASE("row reductions of a dynamic length are vectorized along their rows (softmax per head)", "[pipelines]") {
    // Attention's softmax over s(j, i, b), rows of T (1..64) along the contiguous dim: the
    // maximum and the sum reduce along j while their own dim 0 (i) moves along s's rows, so
    // vectorizing i would gather one element per lane.
    const auto softmax = [](ImageParam &in, Expr T) {
        Var j("j"), i("i"), b("b");
        RDom r(0, in.dim(0).extent(), "r");
        Func mx("mx"), e("e"), den("den"), p("p");
        mx(i, b) = maximum(in(r, i, b));
        e(j, i, b) = exp(in(j, i, b) - mx(i, b));
        den(i, b) = sum(e(r, i, b));
        p(j, i, b) = e(j, i, b) / den(i, b);
        p.set_estimates({{0, T}, {0, T}, {0, 4}});
        in.set_estimates({{0, T}, {0, T}, {0, 4}});
        return p;
    };
    check_pipeline("softmax_rows", softmax, 3, {1, 3, 16, 17, 40, 64},
                   [](int t) { return std::vector<int>{t, t, 4}; }, [](int t) { return std::vector<int>{t, t, 4}; });

    // The whole Stmt (every shape of the family: it is symbolic in T) reads the input and every
    // intermediate with dense vectors only, the reductions' included, except where rows are much
    // shorter than a vector: there (the else branch of the specialization on the row's length,
    // in.extent.0) the reductions vectorize their dim 0, which gathers, as a matrix-vector
    // product over K = 3 wants (7x faster than the per-lane partial results there).
    VectorLoads loads;
    loads.skip_else_of = "in.extent.0";
    lowered_with_diet(softmax, 3).accept(&loads);
    CHECK(loads.dense > 0);
    CHECK(loads.gathers == 0);
    CHECK(loads.skipped_branches > 0);
}

TEST_CASE("a layer norm's mean and variance per token are vectorized along the token's row", "[pipelines]") {
    // Over 48 channels of 5T tokens: the reductions read x(r, t) along its rows while their own
    // dim 0 is the token; computed per tile of the output (or at root), either way no gathers.
    const auto layer_norm = [](ImageParam &in, Expr T) {
        Var c("c"), t("t");
        RDom r(0, 48, "r");
        Func mean("mean"), var("var"), out("out");
        mean(t) = sum(in(r, t)) / 48;
        var(t) = sum((in(r, t) - mean(t)) * (in(r, t) - mean(t))) / 48;
        out(c, t) = (in(c, t) - mean(t)) / sqrt(var(t) + 1e-5f);
        out.set_estimates({{0, 48}, {0, 5 * T}});
        in.set_estimates({{0, 48}, {0, 5 * T}});
        return out;
    };
    check_pipeline("layer_norm", layer_norm, 2, {1, 3, 16, 64, 70}, [](int t) { return std::vector<int>{48, 5 * t}; },
                   [](int t) { return std::vector<int>{48, 5 * t}; });
    const VectorLoads loads = loads_with_diet(layer_norm, 2);
    CHECK(loads.dense > 0);
    CHECK(loads.gathers == 0);
}

TEST_CASE("a row reduction read by a one-dimensional output keeps its parallel loop", "[pipelines]") {
    // The output has no tile loop to compute the reduction in: taken into its group, the
    // reduction would run at root serially.
    const auto row_sums = [](ImageParam &in, Expr T) {
        Var y("y");
        RDom r(0, 300, "r");
        Func rs("rs"), out("out");
        rs(y) = 0.f;
        rs(y) += in(r, y);
        out(y) = rs(y) * 2.f;
        out.set_estimates({{0, 5 * T}});
        in.set_estimates({{0, 300}, {0, 5 * T}});
        return out;
    };
    check_pipeline("row_sums", row_sums, 2, {1, 5, 64, 70}, [](int t) { return std::vector<int>{300, 5 * t}; },
                   [](int t) { return std::vector<int>{5 * t}; });
    StoresUnderParallel stores;
    stores.prefix = "rs";
    lowered_with_diet(row_sums, 2).accept(&stores);
    CHECK(stores.inside > 0);
}
