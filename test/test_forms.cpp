// Issue 13: the same contraction written in the ways other people write it. Each form is
// recognized (one micro-kernel, the host we expect), correct at every shape tried inside its range
// and outside it, guard-free in its compute loops, and its accumulator is never gathered or
// scattered (the vector dimension is stored innermost whatever the order of its arguments).
#include <catch2/catch.hpp>

#include "test_support.h"

#include "Halide.h"
#include "analysis/FunctionDAG.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"

#include <functional>
#include <regex>

using namespace Halide;
using namespace Halide::Internal;
using diet_test::compare;
using diet_test::random_input;

namespace {

// One way of writing a contraction: its inputs, the shape parameter T (range [1, 64]) and the
// output; `extents(T)` gives the output's and each input's sizes at T.
struct Form {
    std::vector<ImageParam> inputs;
    Param<int> T{"T", 16, 1, 64};
    Func out;
    std::function<std::vector<int>(int)> out_sizes;
    std::vector<std::function<std::vector<int>(int)>> in_sizes;
};

constexpr int K = 24, N = 40;  // reduction and fixed output extent (not multiples of the tiles)

using Builder = std::function<Form()>;

Expr gelu(Expr x) { return 0.5f * x * (1.f + tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }

// The dense layer y(n, m) = sum_k x(k, m) * w(k, n), output [N][T] with n innermost.
Form dense(const std::string &how) {
    Form f;
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    f.inputs = {x, w};
    f.in_sizes = {[](int t) { return std::vector<int>{K, t}; }, [](int) { return std::vector<int>{K, N}; }};
    if (how == "canonical") {
        Func acc("acc");
        acc(n, m) = 0.f;
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);
    } else if (how == "inline_sum") {
        // The most common Halide spelling: sum()'s Func takes (m, n), the output's opposite order.
        y(n, m) = sum(x(k, m) * w(k, n));
    } else if (how == "inline_sum_other_names") {
        Var o("o"), r("r");
        RDom c(0, K, "c");
        y(o, r) = sum(x(c, r) * w(c, o));
    } else if (how == "update_on_output") {
        y(n, m) = 0.f;
        y(n, m) += x(k, m) * w(k, n);
    } else if (how == "bias_init") {
        Func acc("acc");
        acc(n, m) = bias(n);
        acc(n, m) += x(k, m) * w(k, n);
        y(n, m) = acc(n, m);
    } else if (how == "epilogue_chain") {
        // acc -> biased -> activated -> y: two pure Funcs between the accumulator and the output.
        Func s("s"), biased("biased"), activated("activated");
        s(m, n) = 0.f;  // accumulator's arguments in the other order
        s(m, n) += w(k, n) * x(k, m);
        biased(n, m) = s(m, n) + bias(n);
        activated(n, m) = gelu(biased(n, m));
        y(n, m) = activated(n, m) * 0.5f;
    } else if (how == "relu_sum_cast") {
        y(n, m) = cast<double>(max(sum(x(k, m) * w(k, n)) + bias(n), 0.f));
    } else {
        FAIL("unknown form " << how);
    }
    if (how == "bias_init" || how == "epilogue_chain" || how == "relu_sum_cast") {
        f.inputs.push_back(bias);
        f.in_sizes.push_back([](int) { return std::vector<int>{N}; });
    }
    f.out = y;
    f.out_sizes = [](int t) { return std::vector<int>{N, t}; };
    return f;
}

// Four operand layouts of y(n, m) = sum_k A[m][k] * B[k][n] (N: as stored, T: transposed).
Form layout(const std::string &how) {
    Form f;
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    const bool at = how[0] == 'T', bt = how[1] == 'T';
    Expr av = at ? a(m, k) : a(k, m);  // "N": a stored (k innermost, m)
    Expr bv = bt ? b(k, n) : b(n, k);  // "N": b stored (n innermost, k)
    y(n, m) = sum(av * bv);
    f.inputs = {a, b};
    f.in_sizes = {[at](int t) { return at ? std::vector<int>{t, K} : std::vector<int>{K, t}; },
                  [bt](int) { return bt ? std::vector<int>{K, N} : std::vector<int>{N, K}; }};
    f.out = y;
    f.out_sizes = [](int t) { return std::vector<int>{N, t}; };
    return f;
}

// Attention scores: s(j, i, b) = sum_d q(d, i, b) * k(d, j, b), T tokens, 3 heads.
Form attention(const std::string &how) {
    Form f;
    ImageParam q(Float(32), 3, "q"), kk(Float(32), 3, "k");
    Var j("j"), i("i"), b("b");
    RDom d(0, K, "d");
    Func s("s");
    if (how == "update_on_output") {
        s(j, i, b) = 0.f;
        s(j, i, b) += q(d, i, b) * kk(d, j, b);
    } else {
        s(j, i, b) = sum(q(d, i, b) * kk(d, j, b)) * 0.125f;
    }
    f.inputs = {q, kk};
    f.in_sizes = {[](int t) { return std::vector<int>{K, t, 3}; }, [](int t) { return std::vector<int>{K, t, 3}; }};
    f.out = s;
    f.out_sizes = [](int t) { return std::vector<int>{t, t, 3}; };
    return f;
}

// A 3x3 convolution as a contraction over channels and window: out(x, c, y) with a 3-D RDom.
Form convolution() {
    Form f;
    ImageParam in(Float(32), 3, "in"), wt(Float(32), 4, "wt");
    Var x("x"), y("y"), co("co");
    RDom r(0, 3, 0, 3, 0, 8, "r");  // window x, window y, input channel
    Func out("conv");
    out(x, y, co) = sum(in(x + r.x, y + r.y, r.z) * wt(co, r.x, r.y, r.z));
    f.inputs = {in, wt};
    f.in_sizes = {[](int t) { return std::vector<int>{t + 2, 10, 8}; }, [](int) { return std::vector<int>{16, 3, 3, 8}; }};
    f.out = out;
    f.out_sizes = [](int t) { return std::vector<int>{t, 8, 16}; };
    return f;
}

// Integer and half-precision contractions with widening accumulation.
Form widening(const std::string &how) {
    Form f;
    Type ta = how == "u8i8" ? UInt(8) : how == "i16" ? Int(16) : Float(16);
    Type tb = how == "u8i8" ? Int(8) : how == "i16" ? Int(16) : Float(16);
    Type acc_t = how == "f16" ? Float(32) : Int(32);
    ImageParam a(ta, 2, "a"), b(tb, 2, "b");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    y(n, m) = sum(cast(acc_t, a(k, m)) * cast(acc_t, b(k, n)));
    f.inputs = {a, b};
    f.in_sizes = {[](int t) { return std::vector<int>{K, t}; }, [](int) { return std::vector<int>{K, N}; }};
    f.out = y;
    f.out_sizes = [](int t) { return std::vector<int>{N, t}; };
    return f;
}

void set_estimates(Form &f) {
    std::vector<Region> est;
    const std::vector<int> out_at = f.out_sizes(16);
    Region r;
    // Symbolic in T where the size is T-dependent (compare sizes at T=16 and T=17).
    const std::vector<int> out_next = f.out_sizes(17);
    for (size_t d = 0; d < out_at.size(); d++) {
        r.push_back(out_at[d] == out_next[d] ? Range(0, out_at[d]) : Range(0, f.T + (out_at[d] - 16)));
    }
    f.out.set_estimates(r);
    for (size_t i = 0; i < f.inputs.size(); i++) {
        const std::vector<int> a = f.in_sizes[i](16), b = f.in_sizes[i](17);
        Region ir;
        for (size_t d = 0; d < a.size(); d++) ir.push_back(a[d] == b[d] ? Range(0, a[d]) : Range(0, f.T + (a[d] - 16)));
        f.inputs[i].set_estimates(ir);
    }
}

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
    explicit ComputeLoopCheck(const std::string &acc) : acc_(acc), pattern_("^" + std::regex_replace(acc, std::regex(R"([$])"), R"(\$)") + R"((_intm)?(\$[0-9]+)?\.s1\.)") {}
    int loops = 0;
    std::vector<std::string> problems;
    using IRVisitor::visit;
    void visit(const For *op) override {
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
    static std::string acc_name_of(const std::string &loop) { return loop.substr(0, loop.find(".s1.")); }
    struct Inner : IRVisitor {
        explicit Inner(std::string buf) : buf(std::move(buf)) {}
        std::string buf;
        std::vector<std::string> problems;
        using IRVisitor::visit;
        void visit(const IfThenElse *op) override { problems.push_back("if"), IRVisitor::visit(op); }
        void visit(const Select *op) override { problems.push_back("select"), IRVisitor::visit(op); }
        void visit(const Min *op) override { problems.push_back("min"), IRVisitor::visit(op); }
        void visit(const Max *op) override { problems.push_back("max"), IRVisitor::visit(op); }
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

// Builds the form twice: one scheduled by Diet, one left unscheduled (the reference); checks
// recognition, the lowered compute loops and the values at each T.
void check_form(const std::string &label, const Builder &build, const std::string &expected_host,
                const std::vector<int> &ts = {1, 2, 3, 5, 16, 37, 64, 100}) {
    INFO("form " << label);
    Form diet_form = build(), ref_form = build();
    set_estimates(diet_form);
    // The reference is JIT-compiled unscheduled: Halide 14 would refuse symbolic estimates there.

    diet::FunctionDAG dag({diet_form.out.function()});
    REQUIRE(dag.matmuls().size() == 1);
    const diet::MatmulPattern p = dag.matmuls()[0];
    CHECK(p.host.substr(0, p.host.find('$')) == expected_host);
    INFO("recognized: " << p.description);

    const Target target = diet::runnable_host_target();
    diet_test::StderrCapture cap(false);
    std::string schedule;
    try {
        schedule = diet::autoschedule(Pipeline(diet_form.out), target, 2, 0, diet::Options{}).schedule_source;
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
    ComputeLoopCheck check(p.acc.substr(0, p.acc.find('$')));
    lowered.accept(&check);
    CHECK(check.loops > 0);
    for (const std::string &problem : check.problems) FAIL_CHECK(problem);

    for (int t : ts) {
        INFO("T = " << t);
        for (size_t i = 0; i < diet_form.inputs.size(); i++) {
            Buffer<> b = input_of(diet_form.inputs[i].type(), diet_form.in_sizes[i](t), 7 + (uint32_t)i);
            diet_form.inputs[i].set(b);
            ref_form.inputs[i].set(b);
        }
        diet_form.T.set(t);
        ref_form.T.set(t);
        Buffer<> got = dp.realize(diet_form.out_sizes(t), target);
        Buffer<> want = rp.realize(ref_form.out_sizes(t), target);
        const std::string diff = compare(got, want);
        CHECK(diff == "");
    }
}

}  // namespace

TEST_CASE("dense forms: each spelling is recognized, correct, guard-free, without accumulator gathers", "[forms]") {
    for (const std::string how : {"canonical", "inline_sum", "inline_sum_other_names", "update_on_output", "bias_init",
                                  "epilogue_chain", "relu_sum_cast"}) {
        check_form("dense " + how, [how] { return dense(how); }, "y");
    }
}

TEST_CASE("operand layouts NN, NT, TN, TT", "[forms]") {
    for (const std::string how : {"NN", "NT", "TN", "TT"}) {
        check_form("layout " + how, [how] { return layout(how); }, "y");
    }
}

TEST_CASE("attention scores: sum() and the update on the output, batched", "[forms]") {
    check_form("attention sum", [] { return attention("sum"); }, "s", {1, 2, 7, 33, 64, 70});
    check_form("attention update_on_output", [] { return attention("update_on_output"); }, "s", {1, 2, 7, 33, 64, 70});
}

TEST_CASE("a convolution as a contraction over channels and window (3-D RDom)", "[forms]") {
    check_form("conv 3x3", convolution, "conv", {1, 3, 16, 40, 64});
}

TEST_CASE("widening integer and half-precision contractions", "[forms]") {
    check_form("uint8 x int8 -> int32", [] { return widening("u8i8"); }, "y");
    check_form("int16 -> int32", [] { return widening("i16"); }, "y");
    check_form("float16 -> float32", [] { return widening("f16"); }, "y");
}
