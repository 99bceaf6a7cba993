// Issue 13: the same contraction written in the ways other people write it. Each form is
// recognized (one micro-kernel, the host we expect), correct at every shape tried inside its range
// and outside it, guard-free in its compute loops, and its accumulator is never gathered or
// scattered (the vector dimension is stored innermost whatever the order of its arguments).
#include <catch2/catch.hpp>

#include "test_support.h"

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "features/Features.h"
#include "features/Lowering.h"
#include "contraction_forms.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"
#include "space/MicroKernel.h"

#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>

using namespace Halide;
using namespace Halide::Internal;
using contraction_forms::Form;
using diet_test::compare;
using diet_test::random_input;

namespace {

// The target check_form schedules and runs for: the host's, or, inside an Avx2Target scope, the
// AVX2 target. Some tests check a mechanism the AVX2 target's heuristic and model choose (the
// dot-product kernels' variants, vectors moved to a dimension four 8-lane vectors fill); an
// AVX-512 host (16 lanes, its own model) chooses others there, so those tests run its AVX2 code.
std::optional<Target> forms_target_override;
Target forms_target() { return forms_target_override.value_or(diet::runnable_host_target()); }

struct Avx2Target {
    bool available = diet::runnable_host_target().has_feature(Target::AVX2);
    Avx2Target() {
        if (available) forms_target_override = Target("x86-64-linux-avx-avx2-f16c-fma-sse41");
        else WARN("skipped: this CPU has no AVX2, and these checks are about the AVX2 target's choices");
    }
    ~Avx2Target() { forms_target_override.reset(); }
};

// Keeps the Stmt after all scheduling transformations.
class RecordStmt : public IRMutator {
public:
    explicit RecordStmt(Stmt *out) : out(out) {}
    Stmt *out;
    using IRMutator::mutate;
    Stmt mutate(const Stmt &s) override {
        *out = s;
        return s;
    }
};

class HasLoop : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const For *) override { found = true; }
};

// Guards and strided accumulator accesses in the innermost loops of the accumulator's update.
class ComputeLoopCheck : public IRVisitor {
public:
    // `intermediate`: the accumulation moved into an rfactor intermediate (an update on the
    // output): its loops are the compute loops, the output's own `+=` pass is a plain pass.
    // Halide names it <output>_intm, the output's "$6" suffix spelled "_6".
    // `any_intermediate`: every rfactor intermediate of acc, however nested (a dot-product
    // kernel's <acc>_intm, or <output>_intm_intm when the update is on the output; acc's "$1"
    // suffix spelled "_1" there).
    ComputeLoopCheck(const std::string &acc, bool intermediate, bool any_intermediate = false)
        : acc_(acc), pattern_("^" + std::regex_replace(acc, std::regex(R"([$])"), any_intermediate ? R"([$_])" : R"(\$)") +
                              (any_intermediate ? R"([^.]*_intm(\$[0-9]+)?\.s1\.)"
                               : intermediate   ? R"(((\$|_)[0-9]+)?_intm(\$[0-9]+)?\.s1\.)"
                                                : R"((\$[0-9]+)?\.s[1-9][0-9]*\.)")) {}
    int loops = 0;
    std::vector<std::string> problems;
    std::string update_loops;  // every update loop seen, for the failure message
    using IRVisitor::visit;
    void visit(const For *op) override {
        if (std::regex_search(op->name, kUpdateStage)) update_loops += " " + op->name;
        HasLoop inner;
        op->body.accept(&inner);
        if (!inner.found && std::regex_search(op->name, pattern_)) {
            loops++;
            Inner v(acc_name_of(op->name));
            op->body.accept(&v);
            for (const std::string &p : v.problems) problems.push_back(op->name + ": " + p);
        }
        IRVisitor::visit(op);
    }

private:
    std::string acc_;
    std::regex pattern_;
    // Every update stage's loops (a contraction may have several updates: two_updates).
    inline static const std::regex kUpdateStage{R"(\.s[1-9][0-9]*\.)"};
    static std::string acc_name_of(const std::string &loop) {
        std::smatch m;
        return std::regex_search(loop, m, kUpdateStage) ? loop.substr(0, m.position(0)) : loop;
    }
    struct Inner : IRVisitor {
        explicit Inner(std::string buf) : buf(std::move(buf)) {}
        std::string buf;
        std::vector<std::string> problems;
        using IRVisitor::visit;
        void visit(const IfThenElse *op) override { problems.push_back("if"), IRVisitor::visit(op); }
        void visit(const Select *op) override { problems.push_back("select"), IRVisitor::visit(op); }
        // Integer min/max: index clamping (a float max is the math: a ReLU read by the product).
        void visit(const Min *op) override {
            if (!op->type.is_float()) problems.push_back("min");
            IRVisitor::visit(op);
        }
        void visit(const Max *op) override {
            if (!op->type.is_float()) problems.push_back("max");
            IRVisitor::visit(op);
        }
        void visit(const Call *op) override {
            if (op->is_intrinsic(Call::likely) || op->is_intrinsic(Call::if_then_else)) problems.push_back(op->name);
            IRVisitor::visit(op);
        }
        void check_index(const std::string &name, const Expr &index, const char *what) {
            if (name != buf) return;
            const Ramp *r = index.as<Ramp>();
            if (index.type().is_vector() && !(r && is_const_one(r->stride))) {
                problems.push_back(std::string(what) + " of the accumulator " + name + " with index " +
                                   (std::ostringstream() << index).str());
            }
        }
        void visit(const Load *op) override {
            if (!is_const_one(op->predicate)) problems.push_back("predicated load");
            check_index(op->name, op->index, "gather");
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            if (!is_const_one(op->predicate)) problems.push_back("predicated store");
            check_index(op->name, op->index, "scatter");
            IRVisitor::visit(op);
        }
    };
};

// Inputs: floats in [-1, 1), integers small enough that int32 sums of K products cannot overflow.
Buffer<> input_of(const Type &t, const std::vector<int> &sizes, uint32_t seed) {
    uint32_t s = seed * 2654435761u + 1;
    auto next = [&s] { return (s = s * 1103515245u + 12345u) >> 8; };  // 24 random bits
    if (t == Float(32)) return random_input(t, sizes, seed, -1, 1);
    if (t == Float(16)) {
        Buffer<float16_t> h(sizes);
        h.for_each_value([&](float16_t &v) { v = float16_t((float)(next() % 2048) / 1024.f - 1.f); });
        return h;
    }
    if (t == Int(8)) {
        Buffer<int8_t> b(sizes);
        b.for_each_value([&](int8_t &v) { v = (int8_t)(next() % 256 - 128); });
        return b;
    }
    if (t == UInt(8)) {
        Buffer<uint8_t> b(sizes);
        b.for_each_value([&](uint8_t &v) { v = (uint8_t)(next() % 256); });
        return b;
    }
    REQUIRE(t == Int(16));
    Buffer<int16_t> b(sizes);
    b.for_each_value([&](int16_t &v) { v = (int16_t)(next() % 4001) - 2000; });
    return b;
}

// The Diet-scheduled and the reference pipeline of a form agree at every T (the same inputs).
void check_values(Form &diet_form, Form &ref_form, Pipeline &dp, Pipeline &rp, const std::vector<int> &ts,
                  const Target &target) {
    for (int t : ts) {
        INFO("T = " << t);
        for (size_t i = 0; i < diet_form.inputs.size(); i++) {
            Buffer<> b = input_of(diet_form.inputs[i].type(), diet_form.in_sizes[i](t), 7 + (uint32_t)i);
            diet_form.inputs[i].set(b);
            ref_form.inputs[i].set(b);
        }
        diet_form.T.set(t);
        ref_form.T.set(t);
        CHECK(compare(dp.realize(diet_form.out_sizes(t), target), rp.realize(ref_form.out_sizes(t), target)) == "");
    }
}

// Diet schedules `out` with default options; `dp` (a Pipeline of it) is compiled for the host; the
// compute loops of every contraction of `dag` (its accumulator's updates, or their lane
// intermediates) exist and are guard-free without accumulator gathers. Returns Diet's log.
std::string schedule_and_check_loops(Func out, Pipeline &dp, const diet::FunctionDAG &dag) {
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    try {
        diet::autoschedule(Pipeline(out), target, 2, 0, diet::Options{});
    } catch (const Halide::Error &e) {
        FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    CHECK_THAT(log, !Catch::Contains("scheduled with the default stage rules"));
    Stmt lowered;
    dp.add_custom_lowering_pass(new RecordStmt(&lowered));
    dp.compile_jit(target);
    for (const diet::MatmulPattern &p : dag.matmuls()) {
        INFO("contraction " << p.acc << ", recognized: " << p.description);
        // The exact name: a softmax's sum() is "sum$<n>" too.
        ComputeLoopCheck lanes(p.acc, false, true), plain(p.acc, false);
        lowered.accept(&lanes);
        lowered.accept(&plain);
        INFO("update loops:" << lanes.update_loops);
        CHECK(lanes.loops + plain.loops > 0);
        for (const std::string &problem : lanes.problems) FAIL_CHECK(problem);
        for (const std::string &problem : plain.problems) FAIL_CHECK(problem);
    }
    return log;
}

// Builds the form twice: one scheduled by Diet, one left unscheduled (the reference); checks
// recognition, the lowered compute loops and the values at each T.
// T in [1, 64]; the T tried go past the range.
// Returns Diet's log.
// `sizes`: K = 24, N = 40 by default: not multiples of any tile (and no dot-product kernel with 16
// lanes: 24 is not a multiple of them). With `dot_leaves`, the dispatch must hold dot-product
// kernels too; whenever it does, their compute loops (in the rfactor intermediate) are checked
// like the others.
std::string check_form(const std::string &label, const std::string &expected_host,
                       const std::vector<int> &ts = {1, 2, 3, 5, 16, 37, 64, 100},
                       const contraction_forms::Sizes &sizes = {}, const diet::Options &opts = {},
                       bool dot_leaves = false, std::string *lowered_text = nullptr, Stmt *lowered_stmt = nullptr,
                       std::string *schedule_source = nullptr) {
    INFO("form " << label);
    // The reference is JIT-compiled unscheduled: Halide 14 refuses symbolic estimates there.
    Form diet_form = contraction_forms::make_form(label, sizes, true), ref_form = contraction_forms::make_form(label, sizes, false);

    diet::FunctionDAG dag({diet_form.out.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const diet::MatmulPattern p = dag.matmuls()[0];
    CHECK(p.host.substr(0, p.host.find('$')) == expected_host);
    INFO("recognized: " << p.description);

    const Target target = forms_target();
    diet_test::StderrCapture cap(false);
    std::string schedule;
    try {
        schedule = diet::autoschedule(Pipeline(diet_form.out), target, 2, 0, opts).schedule_source;
    } catch (const Halide::Error &e) {
        FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    CHECK_THAT(log, Catch::Contains("micro-kernel"));
    CHECK_THAT(log, !Catch::Contains("scheduled with the default stage rules"));

    Stmt lowered;
    Pipeline dp(diet_form.out), rp(ref_form.out);
    dp.add_custom_lowering_pass(new RecordStmt(&lowered));
    dp.compile_jit(target);
    if (lowered_stmt) *lowered_stmt = lowered;
    if (schedule_source) *schedule_source = schedule;
    if (lowered_text) {
        std::ostringstream text;
        text << lowered;
        *lowered_text = text.str();
    }
    ComputeLoopCheck check(p.acc.substr(0, p.acc.find('$')), p.update_on_output);
    lowered.accept(&check);
    INFO("update loops:" << check.update_loops);
    // The kernels applied, as the log names them: column kernels (cpu{vec=...}) and dot-product
    // kernels. (With 8 lanes, AVX2, K = 24 is a multiple of the lanes: dot-product kernels may
    // apply where `sizes` was meant to leave them out, and a flattened weight matrix then gets
    // them alone.)
    const bool column_kernels = log.find("micro-kernel cpu{vec=") != std::string::npos;
    const bool dot_kernels = log.find("micro-kernel cpu{dot=") != std::string::npos;
    CHECK((column_kernels || dot_kernels));
    if (column_kernels) CHECK(check.loops > 0);
    for (const std::string &problem : check.problems) FAIL_CHECK(problem);
    // The rfactor intermediates' compute loops (<acc>_intm): the dot leaves' lanes, and the
    // in-place leaves among staged ones (tile_acc_direct). (All leaves may be dot-product
    // kernels: then no column kernel's loops exist.)
    ComputeLoopCheck intermediates(p.acc.substr(0, p.acc.find('$')), true, true);
    lowered.accept(&intermediates);
    for (const std::string &problem : intermediates.problems) FAIL_CHECK(problem);
    if (dot_leaves || dot_kernels) {
        CHECK_THAT(log, Catch::Contains("micro-kernel cpu{dot="));
        CHECK(intermediates.loops > 0);
    }

    check_values(diet_form, ref_form, dp, rp, ts, target);
    return log;
}

}  // namespace

TEST_CASE("dense forms: each spelling is recognized, correct, guard-free, without accumulator gathers", "[forms]") {
    for (const char *how : {"canonical", "inline_sum", "inline_sum_other_names", "update_on_output", "bias_init",
                            "epilogue_chain", "bias_relu_chain", "relu_sum_cast", "split_reduction", "product_func",
                            "transpose_func", "scaled_operand", "flat_1d", "symbolic_k", "two_updates"}) {
        check_form(std::string("dense/") + how, "y");
    }
}

namespace {

// An LSTM-style gate over two inputs and their weights, y = x·wxᵀ + h·whᵀ + b, spelled as two
// inline sums added in the output, or as two updates of one accumulator.
struct Gate {
    ImageParam x{Float(32), 2, "x"}, wx{Float(32), 2, "wx"}, h{Float(32), 2, "h"}, wh{Float(32), 2, "wh"};
    ImageParam b{Float(32), 1, "b"};
    Param<int> T{"T", 16};
    Func y{"y"};
    static constexpr int K = 40, J = 24, N = 48;
    Gate(bool updates, bool estimates) {
        T.set_range(1, 64);
        Var n("n"), m("m");
        RDom k(0, K, "k"), j(0, J, "j");
        if (updates) {
            Func acc("acc");
            acc(n, m) = b(n);
            acc(n, m) += x(k, m) * wx(k, n);
            acc(n, m) += h(j, m) * wh(j, n);
            y(n, m) = acc(n, m);
        } else {
            y(n, m) = sum(x(k, m) * wx(k, n)) + sum(h(j, m) * wh(j, n)) + b(n);
        }
        if (!estimates) return;
        x.set_estimates({{0, K}, {0, 4 * T}});
        h.set_estimates({{0, J}, {0, 4 * T}});
        wx.set_estimates({{0, K}, {0, N}});
        wh.set_estimates({{0, J}, {0, N}});
        b.set_estimates({{0, N}});
        y.set_estimates({{0, N}, {0, 4 * T}});
    }
    std::vector<ImageParam> inputs() const { return {x, wx, h, wh, b}; }
    std::vector<std::vector<int>> sizes(int t) const { return {{K, 4 * t}, {K, N}, {J, 4 * t}, {J, N}, {N}}; }
};

// Diet schedules the gate; returns its log after checking the values against the unscheduled
// gate at every T (inside T's range and past it) and the compute loops of every contraction.
std::string check_gate(bool updates) {
    Gate diet_gate(updates, true), ref(updates, false);
    diet::FunctionDAG dag({diet_gate.y.function()});
    REQUIRE(dag.matmuls().size() == (updates ? 1u : 2u));
    CHECK(dag.unmatched_reductions().empty());
    const Target target = diet::runnable_host_target();
    Pipeline dp(diet_gate.y), rp(ref.y);
    const std::string log = schedule_and_check_loops(diet_gate.y, dp, dag);
    for (int t : {1, 2, 3, 16, 37, 64, 100}) {
        INFO("T = " << t);
        const std::vector<std::vector<int>> sizes = diet_gate.sizes(t);
        for (size_t i = 0; i < sizes.size(); i++) {
            Buffer<> in = input_of(Float(32), sizes[i], 11 + (uint32_t)i);
            diet_gate.inputs()[i].set(in);
            ref.inputs()[i].set(in);
        }
        diet_gate.T.set(t);
        ref.T.set(t);
        CHECK(compare(dp.realize({Gate::N, 4 * t}, target), rp.realize({Gate::N, 4 * t}, target)) == "");
    }
    return log;
}

}  // namespace

// A sum of contractions (issue 13; 15-50x slower before, see apps/results/cpu/forms_probe3):
// the first sum tiles the output, the second is tiled on a wrapper of its own accumulator (stored
// in the output's order) that the output's tiles read; two updates of one accumulator are computed
// in turn on the same register tile.
TEST_CASE("a sum of contractions: two inline sums in one output, two updates of one accumulator", "[forms][sum]") {
    std::string log = check_gate(false);
    CHECK_THAT(log, Catch::Contains("read pointwise by y"));
    log = check_gate(true);
    CHECK_THAT(log, Catch::Contains("over 2 updates"));
}

// The same product split across Funcs by the user, at K = 64 (dot-product kernels exist): the
// recognizer reads through a product Func and a transposing Func (left inlined); a scaled operand
// is computed once at root and read in place; flattened operands get dot-product kernels only
// (a column kernel's vectors would gather the weights, K apart).
TEST_CASE("a contraction split across Funcs, a computed operand, flattened operands", "[forms][dot]") {
    contraction_forms::Sizes sizes;
    sizes.K = 64;
    sizes.rows_per_t = 4;
    diet::Options opts;
    opts.base_model = "none";
    const std::vector<int> ts = {1, 2, 5, 16, 64, 100};
    std::string log = check_form("dense/product_func", "y", ts, sizes, opts, true);
    CHECK_THAT(log, Catch::Contains("(read through prod"));
    CHECK_THAT(log, Catch::Contains("micro-kernel cpu{vec="));  // column leaves: panels through prod's clone
    log = check_form("dense/transpose_func", "y", ts, sizes, opts, true);
    CHECK_THAT(log, Catch::Contains("(read through wt"));
    log = check_form("dense/scaled_operand", "y", ts, sizes, opts, true);
    CHECK_THAT(log, Catch::Contains(": operand of a contraction, computed at root"));
    log = check_form("dense/flat_1d", "y", ts, sizes, opts, true);
    CHECK_THAT(log, !Catch::Contains("micro-kernel cpu{vec="));
}

// A transposing Func whose own argument names are the caller's, swapped: the substitution into
// the summand binds every argument at once (one by one, wt(m, n) = w(n, m) called as wt(n, k)
// would read w(k, k)).
TEST_CASE("the summand's Funcs are substituted with all their arguments at once", "[forms]") {
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w");
    Var n("n"), m("m");
    RDom k(0, 64, "k");
    Func wt("wt"), y("y");
    wt(m, n) = w(n, m);
    y(n, m) = sum(x(k, m) * wt(n, k));
    diet::FunctionDAG dag({y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const diet::MatmulPattern &p = dag.matmuls()[0];
    INFO(p.description);
    bool weights = false;
    for (const diet::ContractionOperand &o : p.operands) {
        if (o.func.rfind("w", 0) != 0) continue;
        weights = true;
        CHECK(o.via == std::vector<std::string>{wt.name()});
        CHECK(o.vector_arg == 1);     // w(k, n): n in its second argument
        CHECK(o.reduction_arg == 0);  // and k in its first
        CHECK(o.unit_stride_reduction);
    }
    CHECK(weights);
}

// RDom(0, x.width()): the kernels are chosen for x's estimated width (64: dot products, k
// unrolling) under specialize(width == 64), with a general column kernel for any other width.
TEST_CASE("a reduction over an input's width: kernels for its estimate, a general one otherwise", "[forms][dot]") {
    contraction_forms::Sizes sizes;
    sizes.K = 64;
    sizes.rows_per_t = 4;
    diet::Options opts;
    opts.base_model = "none";
    const std::string log = check_form("dense/symbolic_k", "y", {1, 2, 5, 16, 64, 100}, sizes, opts, true);
    CHECK_THAT(log, Catch::Contains("for a reduction extent that is a multiple of"));
    CHECK_THAT(log, Catch::Contains("any other extent: micro-kernel cpu{vec="));
    // Widths other than the estimate, one not a multiple of the lanes: correct.
    const Target target = diet::runnable_host_target();
    Form diet_form = contraction_forms::make_form("dense/symbolic_k", sizes, true);
    {
        diet_test::StderrCapture cap(false);
        diet::autoschedule(Pipeline(diet_form.out), target, 2, 0, opts);
    }
    for (int k : {40, 64, 77}) {
        contraction_forms::Sizes other = sizes;
        other.K = k;
        Form ref_form = contraction_forms::make_form("dense/symbolic_k", other, false);
        Pipeline dp(diet_form.out), rp(ref_form.out);
        for (int t : {1, 7, 64}) {
            INFO("K = " << k << ", T = " << t);
            for (size_t i = 0; i < ref_form.inputs.size(); i++) {
                Buffer<> b = input_of(Float(32), ref_form.in_sizes[i](t), 11 + (uint32_t)i);
                diet_form.inputs[i].set(b);
                ref_form.inputs[i].set(b);
            }
            diet_form.T.set(t);
            ref_form.T.set(t);
            CHECK(compare(dp.realize(ref_form.out_sizes(t), target), rp.realize(ref_form.out_sizes(t), target)) == "");
        }
    }
}

// RDom(0, D) with D a ranged Param that no input estimate binds (the family's D up to 256): the
// kernels are enumerated for the family's largest D, so the dot-product kernels are in the space
// and run under specialize(D % lanes == 0); other D run a general column kernel. Before, such a
// reduction had no dot kernels at all (a batched score gemv over D = 256 ran 4x slower).
TEST_CASE("a reduction over a ranged Param: dot kernels where the lanes divide it", "[forms][dot]") {
    ImageParam x(Float(32), 3, "x"), w(Float(32), 1, "w");
    Param<int> D("D", 256, 1, 256), T("T", 64, 1, 64), B("B", 4, 1, 4);
    Var t("t"), b("b");
    RDom rd(0, D, "rd");
    Func sc("sc");
    sc(t, b) = sum(x(rd, t, b) * w(rd));
    x.dim(0).set_estimate(0, D).dim(1).set_estimate(0, T).dim(2).set_estimate(0, B);
    w.dim(0).set_estimate(0, D);
    sc.set_estimate(t, 0, T).set_estimate(b, 0, B);
    diet::Options opts;
    opts.base_model = "none";
    const Target target = forms_target();
    std::string log;
    {
        diet_test::StderrCapture cap(false);
        diet::autoschedule(Pipeline(sc), target, 2, 0, opts);
        log = cap.finish();
    }
    INFO(log);
    CHECK_THAT(log, Catch::Contains("micro-kernel cpu{dot="));
    CHECK_THAT(log, Catch::Contains("for a reduction extent that is a multiple of"));
    Pipeline dp(sc);
    for (int d : {1, 7, 64, 77, 256}) {
        for (int tt : {1, 13, 64}) {
            INFO("D = " << d << ", T = " << tt);
            Buffer<float> xb = random_input(Float(32), {d, tt, 3}, 5).as<float>(), wb = random_input(Float(32), {d}, 6).as<float>();
            Buffer<float> want(tt, 3);
            for (int bb = 0; bb < 3; bb++) {
                for (int i = 0; i < tt; i++) {
                    double acc = 0;
                    for (int k = 0; k < d; k++) acc += (double)xb(k, i, bb) * wb(k);
                    want(i, bb) = (float)acc;
                }
            }
            x.set(xb);
            w.set(wb);
            D.set(d);
            T.set(tt);
            B.set(3);
            CHECK(compare(dp.realize({tt, 3}, target), want) == "");
        }
    }
}

// K = 64 (a multiple of the lanes): dot-product kernels exist for the NT forms (and TT, through
// the copy of its transposed activations). With no model and no measurement the heuristic
// dispatch gives them the small shapes (few rows: the column kernels' panel copy is not
// amortized) and column kernels the large ones.
TEST_CASE("dot-product kernels at small T: dense and attention scores, heuristic dispatch", "[forms][dot]") {
    const Avx2Target avx2;
    if (!avx2.available) return;
    contraction_forms::Sizes sizes;
    sizes.K = 64;
    sizes.rows_per_t = 4;
    diet::Options opts;
    opts.base_model = "none";
    for (const char *how : {"canonical", "update_on_output"}) {
        const std::string log = check_form(std::string("dense/") + how, "y", {1, 2, 3, 5, 16, 37, 64, 100}, sizes,
                                           opts, true);
        CHECK_THAT(log, Catch::Contains("micro-kernel cpu{vec="));  // large T: column kernels
    }
    check_form("bmm_nt/canonical", "scores", {1, 2, 3, 7, 33, 64, 70}, sizes, opts, true);
    // TT: the activations a(m, k) are stored across the reduction; over K = 320 steps (more than
    // a tile's lines of them keep in L1) they are copied reduction-major once per call (a global
    // wrapper), which the dot leaves' rfactor intermediates read too. The copy runs in three
    // specializations: rows shorter than a vector (T <= 3: 4T rows), serial while small, and in
    // parallel lanes x lanes blocks; T covers each.
    contraction_forms::Sizes long_k = sizes;
    long_k.K = 320;
    std::string tt_stmt;
    check_form("layout/TT", "y", {1, 2, 3, 5, 16, 37, 64, 100}, long_k, opts, true, &tt_stmt);
    CHECK_THAT(tt_stmt, Catch::Contains("_global_wrapper"));
    // The parallel copy's blocks are whole cache lines of the destination (two vectors along the
    // reduction on AVX2, schedule/OperandStaging.cpp): a reduction that is not a multiple of
    // them (328 = 20.5 lines) ends in a guarded half block.
    long_k.K = 328;
    check_form("layout/TT", "y", {1, 5, 37, 100}, long_k, opts, true, &tt_stmt);
    CHECK_THAT(tt_stmt, Catch::Contains("_global_wrapper"));
}

TEST_CASE("operand layouts NN, NT, TN, TT", "[forms]") {
    for (const char *how : {"NN", "NT", "TN", "TT"}) check_form(std::string("layout/") + how, "y");
}

TEST_CASE("batched attention products: scores (NT) and context (NN, reduction over T), three spellings", "[forms]") {
    for (const char *how : {"canonical", "inline_sum", "update_on_output"}) {
        check_form(std::string("bmm_nt/") + how, "scores", {1, 2, 7, 33, 64, 70});
        check_form(std::string("bmm_nn/") + how, "context", {1, 2, 7, 33, 64, 70});
    }
}

TEST_CASE("batch innermost (numpy's index order): recognized, correct, guard-free", "[forms]") {
    // o(b, i, d) = sum(p(b, i, j) * v(b, j, d)): every operand moves with the output's innermost
    // dimension (the vectors run along the batch: apps/RESULTS.md, the tries to move them).
    // No operand is a broadcast: the register tile spans the rows and a third dimension (deep
    // tiles, CpuKernel::depth), so each operand's vectors are reused along one of them. Deep
    // tiles are in whole vectors: 20 heads (a shifted-inward last vector).
    contraction_forms::Sizes twenty_heads;
    twenty_heads.heads = 20;
    // The scores' reduction steps are a page apart from T = 52 (20 heads): small T read the
    // operands in place, large T from staged panels, in one dispatch (unstaged_alternatives); the
    // in-place leaves compute in an rfactor intermediate, checked like every compute loop.
    for (const char *form : {"bmm_nt/batch_innermost", "bmm_nn/batch_innermost"}) {
        const bool scores = std::string(form).rfind("bmm_nt", 0) == 0;
        std::string lowered, source;
        const std::string log = check_form(form, scores ? "scores" : "context", {1, 2, 4, 7, 33, 64, 70}, twenty_heads,
                                           {}, false, &lowered, nullptr, &source);
        CHECK_THAT(log, Catch::Contains("register tiles over"));
        CHECK_THAT(log, Catch::Contains(", depth="));
        if (scores) {
            CHECK_THAT(log, Catch::Contains("stage=0, depth="));
            CHECK_THAT(log, Catch::Contains("stage=1, depth="));
            CHECK_THAT(lowered, Catch::Contains("_intm"));
            // The emitted schedule says it too (an rfactor with nothing preserved, on a specialization).
            CHECK_THAT(source, Catch::Contains(".rfactor(std::vector<std::pair<RVar, Var>>{})"));
        }
    }
    // Below the deep tile's rows and depth: square 3 x 3 and 2 x 2 tiles at T = 2..4, and at T = 1
    // four vectors of one row where the heads hold them (72: the last four shifted inwards).
    contraction_forms::Sizes many_heads;
    many_heads.heads = 72;
    many_heads.t_max = 16;
    check_form("bmm_nt/batch_innermost", "scores", {1, 2, 3, 4, 5, 17}, many_heads);
    check_form("bmm_nt/lhs_transposed", "scores", {1, 2, 7, 33, 64, 70});
    check_form("bmm_nn/lhs_transposed", "context", {1, 2, 7, 33, 64, 70});
}

// Dot kernels gathering an operand along the reduction (transposed queries) add a copy of their
// one-row variants for T = 1 (the gathers then dense); the variants no shape of the family takes
// are dropped first. Dropped after (never, before this), the dot leaf kept 9 variants, each an
// rfactor intermediate, and the form took 23 s to compile at these sizes (3.4 s with 5).
// Their variants of several rows copy the queries per row tile (correct on both sides of T = 2,
// where the one-row variants end).
TEST_CASE("a gathering dot kernel keeps only the tile variants its shapes take, plus the T = 1 copy", "[forms][dot]") {
    const Avx2Target avx2;
    if (!avx2.available) return;
    std::string source;
    check_form("bmm_nt/lhs_transposed", "scores", {1, 2, 3, 5, 6, 12, 17, 64, 70}, {}, {}, false, nullptr, nullptr,
               &source);
    INFO(source);
    size_t lane_funcs = 0;
    for (size_t at = source.find(".rfactor(r_d_x_l"); at != std::string::npos; at = source.find(".rfactor(r_d_x_l", at + 1)) {
        lane_funcs++;
    }
    CHECK(lane_funcs >= 1);
    CHECK(lane_funcs <= 6);
    CHECK_THAT(source, Catch::Contains("_stride_1 == 1"));  // the T = 1 copy is still there
    // The variants of several rows read the queries from a copy per row tile, for their lane
    // intermediate alone, stored reduction-major (schedule/OperandStaging.h copy_gathered_rows).
    // (Names carry Halide's suffixes when the whole binary runs in one process.)
    const std::regex row_copy("Func (q_im\\w*_in_lanes\\w*) = q_im\\w*\\.in\\(lanes\\w*\\);\n\\1\\.compute_at\\(scores\\w*, m_o\\);\n"
                              "\\1\\.store_in\\(MemoryType::Stack\\);\n\\1\\.reorder_storage\\(_1, _0, _2\\);");
    CHECK(std::regex_search(source, row_copy));
}

// No operand is read densely along the output's innermost dimension, one is along dimension 1
// (attention scores with a transposed query q(i, d, b); a dense layer with both operands
// transposed): the vectors move there where it fills a register tile's columns (four vectors)
// at every shape of the family (analysis/VectorChoice.h), and stay where it does not (from
// T = 1 the unmoved space's dot kernels win). (Below the family's range the moved form's
// transposing pass is tiled for the range's smallest extent: Halide's bounds check refuses it.)
TEST_CASE("vectors move to the dimension an operand is dense along, where it fills a tile", "[forms]") {
    const Avx2Target avx2;
    if (!avx2.available) return;
    contraction_forms::Sizes from_32;
    from_32.t_min = 32;
    from_32.t_max = 80;
    from_32.K = 64;
    std::string log = check_form("bmm_nt/lhs_transposed", "scores", {32, 33, 47, 64, 80, 90}, from_32);
    CHECK_THAT(log, Catch::Contains("vectors moved off"));
    CHECK_THAT(log, Catch::Contains("vectors along i"));
    log = check_form("bmm_nt/lhs_transposed", "scores", {1, 2, 7, 33, 64, 70});
    CHECK_THAT(log, !Catch::Contains("vectors moved off"));
    contraction_forms::Sizes rows_32;
    rows_32.rows_per_t = 32;
    log = check_form("layout/TT", "y", {1, 2, 5, 16, 37, 64, 100}, rows_32);
    CHECK_THAT(log, Catch::Contains("vectors moved off"));
    // NN and TN read the weights densely along the features: nothing moves.
    for (const char *how : {"NN", "TN"}) {
        log = check_form(std::string("layout/") + how, "y", {1, 2, 5, 16, 37}, rows_32);
        CHECK_THAT(log, !Catch::Contains("vectors moved off"));
    }
}

TEST_CASE("a dense layer stored with its rows innermost: recognized, correct, guard-free", "[forms]") {
    // y(m, n) with T from 1: vectors along m would fill one lane at T = 1, so they move to n (80
    // features) on a wrapper of the accumulator; y is a transposing pass (analysis/VectorChoice.h).
    contraction_forms::Sizes wide;
    wide.N = 80;
    // The update on the output keeps y as its host: the wrapper its tiles fill is stored n
    // innermost, and y's two passes read it transposed.
    for (const char *how : {"rows_innermost", "rows_innermost_epilogue", "rows_innermost_update"}) {
        const std::string log = check_form(std::string("dense/") + how, "y", {1, 2, 3, 5, 16, 37, 64, 100}, wide);
        CHECK_THAT(log, Catch::Contains("vectors moved off y"));
        CHECK_THAT(log, Catch::Contains("vectors along n"));
    }
}

TEST_CASE("a convolution as a contraction over channels and window (3-D RDom)", "[forms]") {
    check_form("conv/3x3", "conv", {1, 3, 16, 40, 64});
    // Read through a boundary condition: the register tile's rows run along the output channels
    // (the filter's side), and the padded input is copied per task (no select or clamped gather
    // in the reduction loop: the guard and gather checks above cover it).
    const std::string log = check_form("conv/3x3_zero_padded", "conv", {1, 3, 16, 40, 64});
    CHECK_THAT(log, Catch::Contains("rows along co"));
}

TEST_CASE("widening integer and half-precision contractions", "[forms]") {
    for (const char *how : {"u8i8", "i16", "f16", "u8i8_nn", "i16_nn"}) check_form(std::string("int/") + how, "y");
}

// With a reduction of a multiple of 64 steps the integer forms get packed dot-product kernels:
// each lane sums 4 (uint8 x int8 on a target with VNNI) or 2 (int16; uint8 x int8 elsewhere)
// products per instruction, which Halide 14 lowers to vpdpbusd / vpmaddwd. Correct at every T,
// guard-free, and the packed kernel is the one chosen.
TEST_CASE("integer contractions with a reduction of 128: packed dot-product kernels", "[forms]") {
    contraction_forms::Sizes sizes;
    sizes.K = 128;
    const bool vnni = diet::CpuLimits::for_target(diet::runnable_host_target(), 2, 0).dot_product_8bit;
    for (const char *how : {"u8i8", "i16"}) {
        const std::string log = check_form(std::string("int/") + how, "y", {1, 2, 3, 16, 64, 100}, sizes, {}, true);
        CHECK_THAT(log, Catch::Contains(std::string(", pack=") + (std::string(how) == "u8i8" && vnni ? "4}" : "2}")));
    }
}

namespace {
// y(n, t, b) = sum_k x(k, t, b) * w(k, n) with two ranged shape variables (tokens T, batch B);
// for_diet: symbolic estimates in both (Halide 14 refuses them unscheduled).
struct TwoVarDense {
    ImageParam x{Float(32), 3, "x"}, w{Float(32), 2, "w"};
    Param<int> T{"T", 16, 1, 64}, B{"B", 2, 1, 6};
    Func y{"y"};
    explicit TwoVarDense(bool for_diet) {
        Var n("n"), t("t"), b("b");
        RDom k(0, 24, "k");
        y(n, t, b) = sum(x(k, t, b) * w(k, n));
        if (for_diet) {
            x.set_estimates({{0, 24}, {0, T}, {0, B}});
            w.set_estimates({{0, 24}, {0, 40}});
            y.set_estimates({{0, 40}, {0, T}, {0, B}});
        }
    }
};
}  // namespace

TEST_CASE("two shape variables (tokens and batch), inline sum: correct, guard-free, no gathers", "[forms]") {
    TwoVarDense d(true), ref(false);
    diet::FunctionDAG dag({d.y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    diet::autoschedule(Pipeline(d.y), target, 2, 0, diet::Options{});
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    CHECK_THAT(log, Catch::Contains("shape family of 384 shape(s)"));  // 64 T x 6 B
    CHECK_THAT(log, Catch::Contains("micro-kernel"));
    Stmt lowered;
    Pipeline dp(d.y), rp(ref.y);
    dp.add_custom_lowering_pass(new RecordStmt(&lowered));
    dp.compile_jit(target);
    ComputeLoopCheck check(dag.matmuls()[0].acc.substr(0, dag.matmuls()[0].acc.find('$')), false);
    lowered.accept(&check);
    CHECK(check.loops > 0);
    for (const std::string &problem : check.problems) FAIL_CHECK(problem);
    for (auto [t, b] : std::vector<std::pair<int, int>>{{1, 1}, {2, 6}, {3, 2}, {17, 5}, {64, 6}, {70, 8}}) {
        INFO("T = " << t << ", B = " << b);
        Buffer<> xb = input_of(Float(32), {24, t, b}, 3), wb = input_of(Float(32), {24, 40}, 4);
        d.x.set(xb), ref.x.set(xb), d.w.set(wb), ref.w.set(wb);
        d.T.set(t), ref.T.set(t), d.B.set(b), ref.B.set(b);
        CHECK(compare(dp.realize({40, t, b}, target), rp.realize({40, t, b}, target)) == "");
    }
}

namespace {
// JIT-compiles `dp` and checks contraction `p`'s compute loops on the lowered Stmt, as
// check_form does: the accumulator's (column kernels) and its rfactor intermediates' (dot-product
// leaves), guard-free and without accumulator gathers. Returns how many compute loops it found.
int compile_checking_compute_loops(Pipeline &dp, const diet::MatmulPattern &p, const Target &target, Stmt *out = nullptr) {
    Stmt lowered;
    dp.add_custom_lowering_pass(new RecordStmt(&lowered));
    dp.compile_jit(target);
    const std::string acc = p.acc.substr(0, p.acc.find('$'));
    ComputeLoopCheck check(acc, p.update_on_output), intermediates(acc, true, true);
    lowered.accept(&check);
    lowered.accept(&intermediates);
    for (const std::string &problem : check.problems) FAIL_CHECK(problem);
    for (const std::string &problem : intermediates.problems) FAIL_CHECK(problem);
    if (out) *out = lowered;
    return check.loops + intermediates.loops;
}

// Vector loads whose lanes are not one dense run (gathers) in the innermost loops of `acc`'s
// update stages that store it as vectors, of any buffer: an operand read lane by lane. (A scalar
// fallback leaf's packed step reads its k_pack values a panel row apart: scalar loads either way.)
struct VectorStoreTo : IRVisitor {
    explicit VectorStoreTo(const std::string &buf) : buf(buf) {}
    std::string buf;
    bool found = false;
    using IRVisitor::visit;
    void visit(const Store *op) override {
        found = found || (op->name == buf && op->value.type().is_vector());
        IRVisitor::visit(op);
    }
};
struct OperandGathers : IRVisitor {
    explicit OperandGathers(const std::string &acc) : acc(acc) {}
    std::string acc;
    std::vector<std::string> gathers;
    std::string compute_loop;  // the innermost update loop being visited, or empty
    using IRVisitor::visit;
    void visit(const For *op) override {
        const std::string was = compute_loop;
        if (op->name.rfind(acc, 0) == 0 && std::regex_search(op->name, update_stage())) {
            HasLoop inner;
            op->body.accept(&inner);
            VectorStoreTo vector_store(acc);
            if (!inner.found) op->body.accept(&vector_store);
            if (vector_store.found) compute_loop = op->name;
        }
        IRVisitor::visit(op);
        compute_loop = was;
    }
    static const std::regex &update_stage() {
        static const std::regex r(R"(\.s[1-9][0-9]*\.)");
        return r;
    }
    void visit(const Load *op) override {
        const Ramp *r = op->index.as<Ramp>();
        if (!compute_loop.empty() && op->index.type().is_vector() && !(r && is_const_one(r->stride))) {
            gathers.push_back(compute_loop + ": " + op->name + "[" + (std::ostringstream() << op->index).str() + "]");
        }
        IRVisitor::visit(op);
    }
};
}  // namespace

namespace {
// uint8 x int8 -> int32 written in two styles that are not contraction_forms': (0) the update on
// the output itself, whose rows (T) are its innermost dimension; (1) NN (b stored n-innermost),
// inline sum(), two shape variables (T rows, N columns).
struct PackedStyle {
    ImageParam a{UInt(8), 2, "a"}, b{Int(8), 2, "b"};
    Param<int> T{"T", 16, 1, 64}, N{"N", 40, 8, 80};
    Func y{"y"};
    PackedStyle(int style, bool for_diet) {
        Var n("n"), m("m");
        RDom k(0, 128, "k");
        Expr prod = cast<int32_t>(a(k, m)) * cast<int32_t>(style == 0 ? b(k, n) : b(n, k));
        if (style == 0) {
            y(m, n) = 0;
            y(m, n) += prod;
        } else {
            y(n, m) = sum(prod);
        }
        if (!for_diet) return;
        a.set_estimates({{0, 128}, {0, T}});
        if (style == 0) {
            b.set_estimates({{0, 128}, {0, 40}});
            y.set_estimates({{0, T}, {0, 40}});
        } else {
            b.set_estimates({{0, N}, {0, 128}});
            y.set_estimates({{0, N}, {0, T}});
        }
    }
};
}  // namespace

// Style 0 reads both operands along the reduction (packed); style 1's b is stored n-innermost: it
// packs too, b staged per task in its own order at a constant pitch, each packed vector a dense
// load and an interleaving shuffle, never a gather (packed_in_natural_panel).
TEST_CASE("integer kernels in other styles: update on the output packed, NN with two shape variables packed from a natural panel", "[forms]") {
    const Target target = diet::runnable_host_target();
    for (int style : {0, 1}) {
        INFO("style " << style);
        PackedStyle d(style, true), ref(style, false);
        diet::FunctionDAG dag({d.y.function()});
        REQUIRE(dag.matmuls().size() == 1);
        diet_test::StderrCapture cap(false);
        diet::autoschedule(Pipeline(d.y), target, 2, 0, diet::Options{});
        const std::string log = cap.finish();
        INFO("Diet's log:\n" << log);
        // Four 8-bit products per lane where the target sums them in one instruction (VNNI), pairs
        // of 16-bit products (vpmaddwd) elsewhere and from a natural-order panel (style 1: a
        // 4-row byte interleave is one vpinsrb per byte).
        CHECK_THAT(log, Catch::Contains(diet::CpuLimits::for_target(target, 2, 0).dot_product_8bit && style == 0 ? "pack=4" : "pack=2"));
        Pipeline dp(d.y), rp(ref.y);
        Stmt lowered;
        CHECK(compile_checking_compute_loops(dp, dag.matmuls()[0], target, &lowered) > 0);
        OperandGathers gathers(dag.matmuls()[0].acc.substr(0, dag.matmuls()[0].acc.find('$')));
        lowered.accept(&gathers);
        for (const std::string &g : gathers.gathers) FAIL_CHECK("gather in a compute loop: " << g);
        for (auto [t, n] : std::vector<std::pair<int, int>>{{1, 40}, {3, 40}, {17, 40}, {64, 40}, {70, 40}, {5, 8}, {33, 80}}) {
            if (style == 0 && n != 40) continue;
            INFO("T = " << t << ", N = " << n);
            Buffer<> ab = input_of(UInt(8), {128, t}, 3);
            Buffer<> bb = input_of(Int(8), style == 0 ? std::vector<int>{128, n} : std::vector<int>{n, 128}, 4);
            d.a.set(ab), ref.a.set(ab), d.b.set(bb), ref.b.set(bb);
            d.T.set(t), ref.T.set(t), d.N.set(n), ref.N.set(n);
            const std::vector<int> size = style == 0 ? std::vector<int>{t, n} : std::vector<int>{n, t};
            CHECK(compare(dp.realize(size, target), rp.realize(size, target)) == "");
        }
    }
}

TEST_CASE("8-bit operands pack by 4 only where the target has a 4-way dot product", "[forms][unit]") {
    PackedStyle d(0, true);
    diet::FunctionDAG dag({d.y.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const diet::MatmulPattern &p = dag.matmuls()[0];
    const auto limits = [](const char *target) { return diet::CpuLimits::for_target(Target(target), 2, 0); };
    CHECK_FALSE(limits("x86-64-linux-avx-avx2-f16c-fma-sse41").dot_product_8bit);
    CHECK_FALSE(limits("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41").dot_product_8bit);
    CHECK(limits("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_sapphirerapids-avx512_skylake-f16c-fma-sse41")
              .dot_product_8bit);
    CHECK(limits("arm-64-linux-arm_dot_prod").dot_product_8bit);
    CHECK(diet::packed_reduction_factor(p, limits("x86-64-linux-avx-avx2-f16c-fma-sse41")) == 2);
    CHECK(diet::packed_reduction_factor(
              p, limits("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_sapphirerapids-avx512_skylake-f16c-fma-sse41")) ==
          4);
}

// Pairs of 16-bit products are one instruction for signed words only: uint16 operands do not pack
// (Halide emulates the pair; 1.6-2x slower than unpacked on AVX2), int16 ones pack by 2.
TEST_CASE("16-bit operands pack by 2 only when signed", "[forms][unit]") {
    const auto pack_of = [](Type a, Type b) {
        ImageParam x(a, 2, "x"), w(b, 2, "w");
        Var n("n"), m("m");
        RDom k(0, 128, "k");
        Func y("y");
        y(n, m) = sum(cast<int32_t>(x(k, m)) * cast<int32_t>(w(k, n)));
        x.set_estimates({{0, 128}, {0, 64}});
        w.set_estimates({{0, 128}, {0, 48}});
        y.set_estimates({{0, 48}, {0, 64}});
        diet::FunctionDAG dag({y.function()});
        REQUIRE(dag.matmuls().size() == 1);
        return diet::packed_reduction_factor(dag.matmuls()[0],
                                             diet::CpuLimits::for_target(Target("x86-64-linux-avx-avx2-f16c-fma-sse41"), 2, 0));
    };
    CHECK(pack_of(Int(16), Int(16)) == 2);
    CHECK(pack_of(UInt(16), UInt(16)) == 1);
    CHECK(pack_of(UInt(16), Int(16)) == 1);
    CHECK(pack_of(UInt(8), Int(8)) == 2);
}

// Packed kernels only where both operands are read densely along the reduction: in NN, TN and
// TT (a transposed operand over a reduction short enough to be read in place) every packed kernel
// would gather pairs lane by lane from a staged panel, 1.6-12x slower than unpacked
// (apps/results/cpu/int_layouts_2026-11-30/).
namespace {
// A Gram matrix: one input as both operands, c(j, i) = sum_k a(k, i) * a(k, j), N ranged.
struct Gram {
    ImageParam a{Float(32), 2, "a"};
    Param<int> N{"N", 16, 1, 64};
    Func c{"c"};
    explicit Gram(bool for_diet) {
        Var j("j"), i("i");
        RDom k(0, 64, "k");
        c(j, i) = 0.f;
        c(j, i) += a(k, i) * a(k, j);
        if (for_diet) {
            a.set_estimates({{0, 64}, {0, N}});
            c.set_estimates({{0, N}, {0, N}});
        }
    }
};
}  // namespace

// Halide 14 wraps a Func once per consumer: a panel staged for a(k, j) would also serve a(k, i),
// its region every row (the whole matrix copied per task). The dot-product kernels, reading both
// in place, replace the staged column kernels (1.9x faster at N = 256:
// apps/results/cpu/redteam4_contractions_2026-11-30/gram_vs_two_inputs.txt).
TEST_CASE("a Gram matrix (one input as both operands) gets in-place dot-product kernels", "[forms]") {
    Gram d(true), ref(false);
    diet::FunctionDAG dag({d.c.function()});
    REQUIRE(dag.matmuls().size() == 1);
    CHECK(diet::operand_read_twice(dag.matmuls()[0]));
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    diet::autoschedule(Pipeline(d.c), target, 2, 0, diet::Options{});
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    CHECK_THAT(log, Catch::Contains("micro-kernel cpu{dot="));
    CHECK_THAT(log, !Catch::Contains("micro-kernel cpu{vec="));
    Pipeline dp(d.c), rp(ref.c);
    CHECK(compile_checking_compute_loops(dp, dag.matmuls()[0], target) > 0);
    for (int n : {1, 3, 17, 64, 70}) {
        INFO("N = " << n);
        Buffer<> ab = input_of(Float(32), {64, n}, 3);
        d.a.set(ab), ref.a.set(ab), d.N.set(n), ref.N.set(n);
        CHECK(compare(dp.realize({n, n}, target), rp.realize({n, n}, target)) == "");
    }
}

TEST_CASE("integer products pack where both operands run along the reduction or the vector operand is NN's", "[forms][unit]") {
    const auto pack_of = [](bool a_transposed, bool b_transposed, int K, Type acc = Int(32)) {
        ImageParam x(UInt(8), 2, "x"), w(UInt(8), 2, "w");
        Var n("n"), m("m");
        RDom k(0, K, "k");
        Func y("y");
        // NT is x(k, m), w(k, n): both reduction-innermost.
        Expr xa = a_transposed ? x(m, k) : x(k, m), wb = b_transposed ? w(k, n) : w(n, k);
        y(n, m) = cast(acc, 0);
        y(n, m) += cast(acc, xa) * cast(acc, wb);
        x.set_estimates(a_transposed ? Region{{0, 64}, {0, K}} : Region{{0, K}, {0, 64}});
        w.set_estimates(b_transposed ? Region{{0, K}, {0, 48}} : Region{{0, 48}, {0, K}});
        y.set_estimates({{0, 48}, {0, 64}});
        diet::FunctionDAG dag({y.function()});
        REQUIRE(dag.matmuls().size() == 1);
        return diet::packed_reduction_factor(dag.matmuls()[0],
                                             diet::CpuLimits::for_target(Target("x86-64-linux-avx-avx2-f16c-fma-sse41"), 2, 0));
    };
    CHECK(pack_of(false, true, 128) == 2);   // NT
    CHECK(pack_of(false, false, 128) == 2);  // NN: w staged in its own order (packed_in_natural_panel)
    CHECK(pack_of(true, false, 128) == 1);   // TN
    CHECK(pack_of(true, true, 128) == 1);    // TT, the transposed x read in place
    CHECK(pack_of(true, true, 1024) == 2);   // TT over a long reduction: x copied reduction-major
    // Into uint32 the pair sums are not vpmaddwd's (extra shuffles, 1.2-1.8x slower): never packed.
    CHECK(pack_of(false, true, 128, UInt(32)) == 1);
    CHECK(pack_of(false, false, 128, UInt(32)) == 1);
}

// The thread-pool task grain is computed at run time from the output's extents (the reduction of
// the context product is T: fitted on the training shapes as the output's rows): at T = 1 the
// 192 heads of 64 multiply-adds each are one task, at T = 128 every head is a task of its own.
namespace {
// The loops enclosing each Allocate whose name ends in `part` (but for Halide's "$n" suffixes).
class AllocationLoops : public IRVisitor {
public:
    explicit AllocationLoops(std::string part) : part(std::move(part)) {}
    std::string part;
    std::vector<std::string> loops;
    std::vector<std::vector<std::string>> found;
    std::string names;  // every allocation's name, for the failure message
    using IRVisitor::visit;
    void visit(const For *op) override {
        loops.push_back(op->name);
        IRVisitor::visit(op);
        loops.pop_back();
    }
    void visit(const Allocate *op) override {
        names += op->name + " ";
        // `part` ends the name but for Halide's "$n" suffixes (k_im_in_scores_intm is not scores' wrapper).
        const size_t at = op->name.find(part), end = at + part.size();
        const bool ends_with_part = at != std::string::npos && (end == op->name.size() || op->name[end] == '$');
        if (ends_with_part) found.push_back(loops);
        IRVisitor::visit(op);
    }
};
// The lane counts of the stores into one buffer.
struct StoreLanes : public IRVisitor {
    std::string buffer;
    std::set<int> lanes;
    explicit StoreLanes(std::string b) : buffer(std::move(b)) {}
    using IRVisitor::visit;
    void visit(const Store *op) override {
        if (op->name == buffer) lanes.insert(op->value.type().lanes());
        IRVisitor::visit(op);
    }
};
}  // namespace

// An update on a batched output that is not lifted (a per-point update follows it: here the
// scores scaled on the output): the wrapper of its rfactor intermediate (`<acc>_in_<output>`)
// is computed per slice of the batch, inside the output's parallel update loop, and stored per
// task: one heap allocation per task, not one per slice (192 per call at T = 1 before). Its passes
// over the output store vectors where a row is at least a vector long and scalars where it is
// shorter (masked vectors over rows T floats apart made each row's store overlap the next row's
// load, which the CPU cannot forward: 1.5x slower at T = 1-2).
TEST_CASE("an update on a batched output allocates its wrapper once per task, passes short rows in scalars",
          "[forms][grain]") {
    // The benchmark's attention sizes: 192 heads of 64, T in [1, 128].
    const contraction_forms::Sizes sizes = contraction_forms::benchmark_sizes("bmm");
    Form f = contraction_forms::make_form("bmm_nt/update_on_output", sizes, true);
    {
        const std::vector<Var> at = f.out.args();
        f.out(at) = f.out(at) * 0.125f;
    }
    diet::Options opts;
    opts.base_model = "none";
    diet_test::StderrCapture cap(false);
    const std::string source = diet::autoschedule(Pipeline(f.out), diet::runnable_host_target(), 2, 0, opts).schedule_source;
    const std::string log = cap.finish();
    INFO(log << source);
    CHECK_THAT(log, !Catch::Contains("lifted"));
    CHECK_THAT(source, Catch::Contains(".store_at("));
    Stmt lowered;
    Pipeline dp(f.out);
    dp.add_custom_lowering_pass(new RecordStmt(&lowered));
    dp.compile_jit(diet::runnable_host_target());
    // (Halide names the rfactor intermediate after a sanitized copy of the output's name.)
    AllocationLoops allocs("_in_" + f.out.name());
    lowered.accept(&allocs);
    INFO("allocations: " << allocs.names);
    REQUIRE_FALSE(allocs.found.empty());
    const std::string slice_loop = "." + f.out.args().back().name() + "_i";
    for (const std::vector<std::string> &loops : allocs.found) {
        std::string where;
        for (const std::string &l : loops) where += l + " ";
        INFO("the wrapper is allocated inside: " << where);
        bool in_task = false, in_slice = false;
        for (const std::string &l : loops) {
            in_task |= l.find(".s1.") != std::string::npos;
            in_slice |= l.size() >= slice_loop.size() && l.compare(l.size() - slice_loop.size(), slice_loop.size(), slice_loop) == 0;
        }
        CHECK(in_task);
        CHECK_FALSE(in_slice);
    }
    StoreLanes stores(f.out.name());
    lowered.accept(&stores);
    CHECK(stores.lanes.count(1));
    CHECK(*stores.lanes.rbegin() > 1);
}

namespace {
// Stores into one buffer: how many, and how many store a constant (an initial value).
struct OutputStores : public IRVisitor {
    std::string buffer;
    int stores = 0, constant = 0;
    explicit OutputStores(std::string b) : buffer(std::move(b)) {}
    using IRVisitor::visit;
    void visit(const Store *op) override {
        if (op->name == buffer) {
            stores++;
            const Broadcast *b = op->value.as<Broadcast>();
            constant += is_const(op->value) || (b && is_const(b->value));
        }
        IRVisitor::visit(op);
    }
};
}  // namespace

// An update on the output as its only update, `out(v) = 0; out(v) += a * b`: lifted into an
// rfactor intermediate computed per tile, the output computed from it like an accumulator's
// consumer. The lowered output is written by the tiles alone: no pass storing its initial
// values, no wrapper, no pass adding one (through the wrapper, batched attention products ran
// 1.3-2.2x the canonical form's time). The emitted schedule spells the lift and builds.
TEST_CASE("an update on the output is lifted: the output written once by its tiles", "[forms]") {
    // (dense/rows_innermost_update: the vectors moved to its dimension 1, the output one
    // transposing pass from the wrapper.)
    for (const char *label : {"bmm_nt/update_on_output", "bmm_nn/update_on_output", "dense/update_on_output",
                              "dense/rows_innermost_update"}) {
        INFO("form " << label);
        // The benchmark's sizes: BERT's dense layer has columns enough for the vectors to move.
        const contraction_forms::Sizes s = contraction_forms::benchmark_sizes(std::string(label).rfind("bmm", 0) == 0 ? "bmm" : "dense");
        Form f = contraction_forms::make_form(label, s, true);
        diet::FunctionDAG dag({f.out.function()});
        REQUIRE(dag.matmuls().size() == 1);
        CHECK(dag.matmuls()[0].update_liftable);
        diet_test::StderrCapture cap(false);
        const std::string source = diet::autoschedule(Pipeline(f.out), forms_target(), 2, 0, diet::Options{}).schedule_source;
        const std::string log = cap.finish();
        INFO(log << source);
        CHECK_THAT(log, Catch::Contains("(lifted: "));
        CHECK_THAT(source, Catch::Contains("Halide::Internal::Function fn = "));
        Stmt lowered;
        Pipeline dp(f.out);
        dp.add_custom_lowering_pass(new RecordStmt(&lowered));
        dp.compile_jit(forms_target());
        OutputStores stores(f.out.name());
        lowered.accept(&stores);
        CHECK(stores.stores > 0);
        CHECK(stores.constant == 0);
        AllocationLoops wrapper("_in_" + f.out.name());
        lowered.accept(&wrapper);
        INFO("allocations: " << wrapper.names);
        const bool moved = log.find("vectors moved off") != std::string::npos;
        CHECK(moved == (std::string(label) == "dense/rows_innermost_update"));
        CHECK(wrapper.found.empty() == !moved);
    }
    // Correct, guard-free, no accumulator gathers, at every T (and past the range).
    check_form("bmm_nt/update_on_output", "scores", {1, 2, 3, 7, 33, 64, 70}, {}, {}, false);
    check_form("bmm_nn/update_on_output", "context", {1, 2, 3, 7, 33, 64, 70}, {}, {}, false);
}

// Several contraction updates (an LSTM gate's two products into one accumulator) with
// dot-product kernels: each update's lane sums are computed inside that update (an outer loop of
// one iteration over the tile's rows, named per update: schedule/CpuTiling.cpp), so one lane
// tile is live at a time and the tiles keep the whole registers (computed together before acc's
// stages they were live at once: 3 x 2 tiles, 0.7x the canonical form at T = 1-5).
TEST_CASE("several updates compute each one's dot-product lanes inside it", "[forms]") {
    contraction_forms::Sizes sizes;
    sizes.K = 64;  // halves of 32: a multiple of 8 and 16 lanes
    sizes.t_max = 4;
    Stmt lowered;
    std::string source;
    const std::string log = check_form("dense/two_updates", "y", {1, 2, 3, 4, 7}, sizes, {}, true, nullptr, &lowered, &source);
    // The emitted schedule places each update's lanes at that update's own loop.
    CHECK_THAT(source, Catch::Contains("_once0"));
    CHECK_THAT(source, Catch::Contains("_once1"));
    // Each lane tile is freed before the next update's is allocated: no two are live together
    // (computed at the tile, the second update's allocation was nested in the first's).
    struct LaneNesting : IRVisitor {
        int open = 0, deepest = 0, count = 0;
        using IRVisitor::visit;
        void visit(const Allocate *op) override {
            const bool lanes = op->name.rfind("acc", 0) == 0 && op->name.find("_intm") != std::string::npos;
            count += lanes;
            open += lanes;
            deepest = std::max(deepest, open);
            IRVisitor::visit(op);
            open -= lanes;
        }
    } nesting;
    lowered.accept(&nesting);
    CHECK(nesting.count >= 2);
    CHECK(nesting.deepest == 1);
}

TEST_CASE("the task grain follows the shape at run time", "[forms][grain]") {
    // The benchmark's attention sizes: 192 heads of 64, T in [1, 128].
    const contraction_forms::Sizes sizes = contraction_forms::benchmark_sizes("bmm");
    Form f = contraction_forms::make_form("bmm_nn/canonical", sizes, true);
    // Bound before Diet makes the estimates constant (Halide 14's AOT metadata).
    std::map<int, diet::ShapeBinding> bindings;
    for (int t : {1, 128}) bindings[t] = diet::bind_shape(Pipeline(f.out), diet::Shape{{"T", t}});
    diet::Options opts;
    opts.base_model = "none";
    diet_test::StderrCapture cap(false);
    const std::string source = diet::autoschedule(Pipeline(f.out), diet::runnable_host_target(), 2, 0, opts).schedule_source;
    cap.finish();
    INFO(source);
    CHECK(std::regex_search(source, std::regex(R"(\.split\([^;]*output_buffer\(\)\.dim\(1\)\.extent\(\))")));
    std::map<int, double> tasks;
    for (int t : {1, 128}) {
        diet::LoweredProgram p = diet::lower_at_shape(Pipeline(f.out), Target("x86-64-linux-avx2-fma"), bindings[t]);
        diet::ProgramFeatures pf = diet::extract_features(p);
        for (const diet::FeatureRow &r : pf.rows) {
            if (r.buffer.rfind("context", 0) == 0) tasks[t] = r.ansor_raw[diet::ansor_feature_index("parallel_prod")];
        }
    }
    CHECK(tasks.count(1));
    CHECK(tasks[1] <= 1);  // one task (a parallel loop of one iteration may be lowered away: 0)
    CHECK(tasks[128] >= 192);
}

// Dot-product variants that gather their row operand lane by lane (transposed queries read from
// buffers sized for T = 128, as forms_bench and a key/value cache hold them: rows 128 floats
// apart, so no dense-stride specialization applies) count each multiply-add `lanes` times in the
// task grain (gathered_fma_cost): at T = 1 the 192 heads run as several tasks (one before, 1.43x
// slower on 2 cores). The canonical form's dense heads stay one task.
TEST_CASE("gathering dot-product variants spread a small output over several tasks", "[forms][grain]") {
    const contraction_forms::Sizes sizes = contraction_forms::benchmark_sizes("bmm");
    const Target target = diet::runnable_host_target();
    for (const char *name : {"bmm_nt/lhs_transposed", "bmm_nt/canonical"}) {
        INFO("form " << name);
        Form f = contraction_forms::make_form(name, sizes, true), ref = contraction_forms::make_form(name, sizes, false);
        diet::Options opts;
        opts.base_model = "none";
        {
            diet_test::StderrCapture cap(false);
            diet::autoschedule(Pipeline(f.out), target, 2, 0, opts);
        }
        Pipeline dp(f.out), rp(ref.out);
        dp.jit_handlers().custom_do_par_for = diet_test::count_tasks;
        dp.compile_jit(target);
        for (size_t i = 0; i < f.inputs.size(); i++) {
            const std::vector<int> full = f.in_sizes[i](128), used = f.in_sizes[i](1);
            Buffer<> b = input_of(f.inputs[i].type(), full, 5 + (uint32_t)i);
            for (size_t d = 0; d < used.size(); d++) b.crop((int)d, 0, used[d]);
            f.inputs[i].set(b);
            ref.inputs[i].set(b);
        }
        f.T.set(1);
        ref.T.set(1);
        diet_test::g_tasks = 0;
        Buffer<> got = dp.realize(f.out_sizes(1), target);
        const int64_t tasks = diet_test::g_tasks;
        CHECK(compare(got, rp.realize(ref.out_sizes(1), target)) == "");
        if (std::string(name) == "bmm_nt/lhs_transposed") {
            CHECK(tasks >= 2);
        } else {
            CHECK(tasks <= 1);
        }
    }
}

namespace {

// A chain of contractions: every contraction is recognized (the first hosted on the Func the
// second reads, or on a wrapper of its accumulator), none is left to the default rules, each
// one's compute loops are guard-free without accumulator gathers, and the outputs are right at
// every T tried, inside the range and past it.
void check_chain(const std::string &label, int contractions, const std::vector<int> &ts,
                 const contraction_forms::Sizes &sizes) {
    INFO("form " << label);
    Form diet_form = contraction_forms::make_form(label, sizes, true), ref_form = contraction_forms::make_form(label, sizes, false);
    diet::FunctionDAG dag({diet_form.out.function()});
    REQUIRE((int)dag.matmuls().size() == contractions);
    CHECK(dag.unmatched_reductions().empty());
    int intermediate_hosts = 0;
    for (const diet::MatmulPattern &p : dag.matmuls()) {
        INFO("recognized: " << p.description);
        intermediate_hosts += !p.host_is_output;
        REQUIRE(p.host_extent.size() == dag.node(p.host).func.args().size());
    }
    CHECK(intermediate_hosts == contractions - 1);

    const Target target = diet::runnable_host_target();
    Pipeline dp(diet_form.out), rp(ref_form.out);
    schedule_and_check_loops(diet_form.out, dp, dag);
    check_values(diet_form, ref_form, dp, rp, ts, target);
}

}  // namespace

// The first layer's result is not an output: it is tiled where it is computed (at root) and sized at
// run time by what the second layer reads (here the output's rows, and a constant width).
TEST_CASE("two chained contractions (an MLP), four spellings", "[forms][chain]") {
    contraction_forms::Sizes sizes;
    sizes.K = 40;
    sizes.N = 72;
    for (const char *how : {"canonical", "inline_sum", "relu_in_operand", "update_read"}) {
        check_chain(std::string("mlp/") + how, 2, {1, 2, 3, 7, 16, 37, 64, 100}, sizes);
    }
}

// The scores are read by the softmax's reductions over T: hosted on the scaled scores (or the
// inline sum's Func), sized by a run-time parameter (T, the reduction's extent).
TEST_CASE("attention: scores read by a softmax, then the context product", "[forms][chain]") {
    contraction_forms::Sizes sizes;
    sizes.K = 24;
    sizes.heads = 3;
    for (const char *how : {"canonical", "inline_sum"}) {
        check_chain(std::string("attn/") + how, 2, {1, 2, 5, 17, 33, 64}, sizes);  // T bounds an RDom: in range
    }
}

// The sum of contractions in the forms table (two inline sums over the halves of K): two kernels,
// one on the output, one on a wrapper the output's tiles read.
TEST_CASE("a sum of contractions in the forms table", "[forms][sum]") {
    contraction_forms::Sizes sizes;
    sizes.K = 48;
    check_chain("dense/sum_of_halves", 2, {1, 2, 3, 16, 37, 64, 100}, sizes);
}

namespace {
// Two contractions reading one transposed activation x(m, k) (m innermost) as their broadcast
// operand, as a layer's Q and V projections of the same input do.
struct SharedTransposedInput {
    ImageParam x{Float(32), 2, "x"}, wq{Float(32), 2, "wq"}, wv{Float(32), 2, "wv"};
    Param<int> T{"T", 16, 1, 64};
    Func q{"q"}, v{"v"};
    explicit SharedTransposedInput(bool for_diet) {
        Var n("n"), m("m");
        RDom k(0, 320, "k");  // long enough to be copied (space/MicroKernel.h copied_reduction_major)
        q(n, m) = sum(x(m, k) * wq(k, n));
        v(n, m) = sum(x(m, k) * wv(k, n));
        if (!for_diet) return;
        x.set_estimates({{0, 4 * T}, {0, 320}});
        wq.set_estimates({{0, 320}, {0, 96}});
        wv.set_estimates({{0, 320}, {0, 96}});
        q.set_estimates({{0, 96}, {0, 4 * T}});
        v.set_estimates({{0, 96}, {0, 4 * T}});
    }
};
}  // namespace

TEST_CASE("two contractions share a transposed activation: one reduction-major copy, correct", "[forms][dot]") {
    SharedTransposedInput d(true), ref(false);
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    try {
        diet::autoschedule(Pipeline({d.q, d.v}), target, 2, 0, diet::Options{});
    } catch (const Halide::Error &e) {
        FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    CHECK_THAT(log, Catch::Contains("micro-kernel"));
    Pipeline dp({d.q, d.v}), rp({ref.q, ref.v});
    dp.compile_jit(target);  // the copy was scheduled twice before (a Halide error: a var split twice)
    for (int t : {1, 3, 64, 80}) {
        INFO("T = " << t);
        Buffer<> xb = input_of(Float(32), {4 * t, 320}, 3), wqb = input_of(Float(32), {320, 96}, 4),
                 wvb = input_of(Float(32), {320, 96}, 5);
        d.x.set(xb), ref.x.set(xb), d.wq.set(wqb), ref.wq.set(wqb), d.wv.set(wvb), ref.wv.set(wvb);
        d.T.set(t), ref.T.set(t);
        Buffer<float> dq(96, 4 * t), dv(96, 4 * t), rq(96, 4 * t), rv(96, 4 * t);
        dp.realize({dq, dv}, target);
        rp.realize({rq, rv}, target);
        CHECK(compare(dq, rq) == "");
        CHECK(compare(dv, rv) == "");
    }
}

// A masked contraction written with a predicated reduction domain (RDom::where, a triangular or
// causal mask): recognized, one-row column kernels only (split across vector lanes the predicate
// became a select per lane and step: 10x slower at T = 1 than at T = 7; taller tiles test every
// row's predicate per step: apps/results/cpu/forms_gelu_dotpanels_2026-11-29/styles_probe.txt),
// correct at T in and outside the range. Without `reduction_predicated` the heuristic gives it
// dot-product kernels at small T (K = 64, a multiple of the lanes).
TEST_CASE("a predicated reduction domain (RDom::where) gets one-row column kernels, correct at every T", "[forms][dot]") {
    auto build = [](bool for_diet, ImageParam &x, ImageParam &w, Param<int> &T) {
        Var n("n"), m("m");
        RDom k(0, 64, "k");
        k.where(k <= m);
        Func y("y");
        y(n, m) = 0.f;
        y(n, m) += x(k, m) * w(k, n);
        if (for_diet) {
            x.set_estimates({{0, 64}, {0, 4 * T}});
            w.set_estimates({{0, 64}, {0, 48}});
            y.set_estimates({{0, 48}, {0, 4 * T}});
        }
        return y;
    };
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"), rx(Float(32), 2, "x"), rw(Float(32), 2, "w");
    Param<int> T("T", 16, 1, 64), rT("T", 16, 1, 64);
    Func y = build(true, x, w, T), ry = build(false, rx, rw, rT);
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    try {
        diet::autoschedule(Pipeline(y), target, 2, 0, diet::Options::from_map({{"base_model", "none"}, {"debug", "1"}}));
    } catch (const Halide::Error &e) {
        FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO("Diet's log:\n" << log);
    CHECK_THAT(log, Catch::Contains("predicated (where): one-row column kernels only"));
    CHECK_THAT(log, Catch::Contains("micro-kernel cpu{vec="));
    CHECK_THAT(log, Catch::Contains("rows=1,"));
    CHECK_THAT(log, !Catch::Contains("rows=2,"));
    CHECK_THAT(log, !Catch::Contains("cpu{dot="));
    y.compile_jit(target);
    for (int t : {1, 2, 5, 16, 64, 80}) {
        INFO("T = " << t);
        Buffer<> xb = input_of(Float(32), {64, 4 * t}, 3), wb = input_of(Float(32), {64, 48}, 4);
        x.set(xb), rx.set(xb), w.set(wb), rw.set(wb), T.set(t), rT.set(t);
        Buffer<float> got = y.realize({48, 4 * t}, target), want = ry.realize({48, 4 * t}, target);
        CHECK(compare(got, want) == "");
    }
}

namespace {

// Every shared-memory allocation of a lowered CUDA pipeline: its largest size in bytes (-1: no
// constant bound). A size known at run time (a reduction extent that is not a constant: the tile
// is min(k_tile, K) there) is bounded through the lets that define it.
class SharedAllocations : public IRVisitor {
public:
    std::vector<std::pair<std::string, int64_t>> found;
    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        lets[op->name] = op->value;
        IRVisitor::visit(op);
    }
    void visit(const Allocate *op) override {
        if (op->memory_type == MemoryType::GPUShared) {
            Expr bytes = make_const(Int(64), op->type.bytes());
            for (const Expr &e : op->extents) bytes = bytes * cast<int64_t>(e);
            for (int i = 0; i < 8; i++) bytes = substitute(lets, bytes);
            const Expr bound = find_constant_bound(simplify(bytes), Direction::Upper);
            const int64_t *b = as_const_int(bound);
            found.emplace_back(op->name, b ? *b : -1);
        }
        IRVisitor::visit(op);
    }

private:
    std::map<std::string, Expr> lets;
};

}  // namespace

// Issue 13 on the GPU: every form of the table (and the batch-innermost products), at the
// benchmarks' sizes (BERT's K = 768, 192 heads of 64), scheduled by Diet for CUDA: the staged
// kernels' shared-memory tiles fit the block's static limit (48 KiB). A flattened operand,
// x(k + K * m), once got a staged kernel whose tile of w spanned 127 rows of K: the launch failed
// with CUDA_ERROR_INVALID_VALUE on an H200; the batch stored innermost (operands moving with both
// the tile's columns and rows) asked for 144 KiB. Lowered here, no GPU needed.
TEST_CASE("every form scheduled for CUDA keeps its shared-memory tiles within the block's limit", "[forms][cuda]") {
    const Target cuda("x86-64-linux-avx-avx2-f16c-fma-sse41-cuda-cuda_capability_80");
    std::vector<std::string> names = contraction_forms::form_names();
    names.push_back("dense/rows_innermost");
    names.push_back("dense/rows_innermost_update");
    names.push_back("dense/rows_innermost_epilogue");
    names.push_back("bmm_nt/batch_innermost");
    names.push_back("bmm_nn/batch_innermost");
    names.push_back("bmm_nt/lhs_transposed");
    names.push_back("bmm_nn/lhs_transposed");
    int staged = 0;
    for (const std::string &name : names) {
        INFO("form " << name);
        Form f = contraction_forms::make_form(name, contraction_forms::benchmark_sizes(name.substr(0, name.find('/'))), true);
        diet_test::StderrCapture cap(false);
        try {
            diet::autoschedule(Pipeline(f.out), cuda, 132, 52428800, diet::Options{});
        } catch (const Halide::Error &e) {
            FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
        }
        INFO("Diet's log:\n" << cap.finish());
        Stmt lowered;
        Pipeline p(f.out);
        p.add_custom_lowering_pass(new RecordStmt(&lowered));
        std::vector<Argument> args(f.inputs.begin(), f.inputs.end());
        args.emplace_back(f.T);
        p.compile_to_module(args, "form", cuda);
        SharedAllocations shared;
        lowered.accept(&shared);
        staged += !shared.found.empty();
        for (const auto &[buf, bytes] : shared.found) {
            INFO("shared allocation " << buf << ": " << bytes << " bytes");
            CHECK(bytes >= 0);
            CHECK(bytes <= 48 * 1024);
        }
    }
    // The staged kernels are what most forms get (this is not a test of unstaged kernels only).
    CHECK(staged >= 20);
}

// Attention scores in numpy's order with two shape variables, heads H from 4 (below one vector)
// and T: correct at every shape of the family and outside it. (A dispatch mixing in-place and
// staged leaves failed Halide's input bounds check below 8 heads; such families keep staging.)
// Written with an accumulator Func or as an update on the output itself (which moves the
// reduction into an rfactor intermediate: its per-slice placement along the output's outermost
// dimension is for batch dimensions only; here that dimension is tiled, and the placement read k
// before its first row).
TEST_CASE("numpy-order attention scores over heads from 4 and any T are correct", "[forms]") {
    const bool on_output = GENERATE(false, true);
    INFO((on_output ? "the update on the output" : "an accumulator Func"));
    ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k");
    Param<int> H("H"), T("T");
    H.set_range(4, 48);
    H.set_estimate(16);
    T.set_range(1, 96);
    T.set_estimate(32);
    Var h("h"), i("i"), j("j");
    RDom d(0, 64, "d");
    Func acc("acc"), s("s"), ref_acc("ref_acc"), ref("ref");
    if (on_output) {
        s(h, i, j) = 0.f;
        s(h, i, j) += q(h, i, d) * k(h, j, d) * 0.125f;
    } else {
        acc(h, i, j) = 0.f;
        acc(h, i, j) += q(h, i, d) * k(h, j, d);
        s(h, i, j) = acc(h, i, j) * 0.125f;
    }
    ref_acc(h, i, j) = 0.f;
    ref_acc(h, i, j) += q(h, i, d) * k(h, j, d);
    ref(h, i, j) = ref_acc(h, i, j) * 0.125f;
    q.set_estimates({{0, H}, {0, T}, {0, 64}});
    k.set_estimates({{0, H}, {0, T}, {0, 64}});
    s.set_estimates({{0, H}, {0, T}, {0, T}});
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    diet::autoschedule(Pipeline(s), target, 2, 0, diet::Options{});
    INFO(cap.finish());
    s.compile_jit(target);
    for (auto [hh, tt] : std::vector<std::pair<int, int>>{{4, 1}, {5, 2}, {7, 20}, {8, 1}, {16, 7}, {20, 33}, {48, 96}, {3, 100}}) {
        INFO("H = " << hh << ", T = " << tt);
        Buffer<float> qb(hh, tt, 64), kb(hh, tt, 64);
        qb.for_each_element([&](int a, int b, int c) { qb(a, b, c) = ((a * 7 + b * 3 + c) % 13) * 0.1f - 0.6f; });
        kb.for_each_element([&](int a, int b, int c) { kb(a, b, c) = ((a * 5 + b * 11 + c) % 17) * 0.1f - 0.8f; });
        q.set(qb);
        k.set(kb);
        H.set(hh);
        T.set(tt);
        CHECK(compare(s.realize({hh, tt, tt}, target), ref.realize({hh, tt, tt})) == "");
    }
}

// Transposed queries (gathered by the dot-product kernels along the reduction) read through a
// Func inlined into the summand, with the update on the output or in an accumulator. Through a
// plain copy, `qf(_) = q(_)`, the row copy per tile (schedule/OperandStaging.h copy_gathered_rows)
// wraps qf for each lane intermediate; through a transposing Func, `qt(d, i, b) = q(i, d, b)`,
// it would wrap q in a clone of qt per lane intermediate, which Halide 14 cannot make twice (the
// whole schedule failed with an internal error, found by the 288-spelling probe, the plain copy
// too before it was wrapped itself): no copy there. Both correct.
TEST_CASE("transposed queries read through an inlined Func are scheduled and correct", "[forms][dot]") {
    const bool on_output = GENERATE(false, true);
    const bool transposing = GENERATE(false, true);
    INFO((on_output ? "the update on the output" : "an accumulator Func"));
    INFO((transposing ? "through qt(d, i, b) = q(i, d, b)" : "through qf(_) = q(_)"));
    ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k");
    Param<int> T("T");
    T.set_range(1, 48);
    T.set_estimate(16);
    Var i("i"), j("j"), b("b");
    RDom d(0, 32, "d");
    Func qf("qf"), qt("qt"), acc("acc"), s("s"), ref("ref");
    qf(_) = q(_);
    Var x("x");
    qt(x, i, b) = q(i, x, b);
    const Expr query = transposing ? qt(d, i, b) : qf(i, d, b);
    if (on_output) {
        s(j, i, b) = 0.f;
        s(j, i, b) += query * k(d, j, b);
    } else {
        acc(j, i, b) = 0.f;
        acc(j, i, b) += query * k(d, j, b);
        s(j, i, b) = acc(j, i, b);
    }
    ref(j, i, b) = 0.f;
    ref(j, i, b) += q(i, d, b) * k(d, j, b);
    q.set_estimates({{0, T}, {0, 32}, {0, 6}});
    k.set_estimates({{0, 32}, {0, T}, {0, 6}});
    s.set_estimates({{0, T}, {0, T}, {0, 6}});
    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    std::string source;
    try {
        source = diet::autoschedule(Pipeline(s), target, 2, 0, diet::Options{}).schedule_source;
    } catch (const Halide::Error &e) {
        FAIL("Diet threw: " << e.what() << "\n" << cap.finish());
    }
    const std::string log = cap.finish();
    INFO(log);
    CHECK_THAT(log, Catch::Contains("micro-kernel cpu{dot="));
    INFO(source);
    const bool copied = std::regex_search(source, std::regex("Func qf\\w*_in_lanes\\w* = qf\\w*\\.in\\(lanes"));
    CHECK(copied == !transposing);
    s.compile_jit(target);
    for (auto [tt, bb] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {3, 2}, {5, 6}, {17, 2}, {48, 3}, {50, 1}}) {
        INFO("T = " << tt << ", batch " << bb);
        Buffer<float> qb(tt, 32, bb), kb(32, tt, bb);
        qb.for_each_element([&](int x, int y, int z) { qb(x, y, z) = ((x * 7 + y * 3 + z) % 13) * 0.1f - 0.6f; });
        kb.for_each_element([&](int x, int y, int z) { kb(x, y, z) = ((x * 5 + y * 11 + z) % 17) * 0.1f - 0.8f; });
        q.set(qb);
        k.set(kb);
        T.set(tt);
        CHECK(compare(s.realize({tt, tt, bb}, target), ref.realize({tt, tt, bb})) == "");
    }
}
