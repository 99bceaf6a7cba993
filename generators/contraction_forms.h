// The same contractions written the ways other people write them (issue 13), in one place for the
// tests (test/test_forms.cpp, the contraction_forms generator) and the benchmark (apps/forms_bench).
// A form is named "<family>/<spelling>":
//   dense/*      y(n, m) = sum_k x(k, m) * w(k, n), x: [rows][K], w: [N][K], y: [rows][N], rows = rows_per_t * T
//   layout/XY    the same product with each operand stored as written (N) or transposed (T)
//   bmm_nt/*     s(j, i, b) = sum_d q(d, i, b) * k(d, j, b)   (attention scores, T x T per head)
//   bmm_nn/*     o(d, i, b) = sum_j p(j, i, b) * v(d, j, b)   (attention times values, reduction over T)
//   bmm_*/batch_innermost  the same in numpy's index order, o(b, i, d) = sum_j p(b, i, j) * v(b, j, d):
//                the batch innermost in every buffer (not in form_names(): the model's dataset and
//                the GPU bundle were collected without it; forms_bench and test_forms name it)
//   dense/rows_innermost, rows_innermost_update, rows_innermost_epilogue: the output stored with
//                its rows innermost, y(m, n) (not in form_names() either)
//   bmm_*/lhs_transposed  the left operand stored with its rows innermost, q(i, d, b) or p(i, j, b)
//                (a transposed query or probability matrix; not in form_names() either)
//   conv/3x3     out(x, y, co) = sum_{rx, ry, ci} in(x + rx, y + ry, ci) * wt(co, rx, ry, ci)
//   conv/3x3_zero_padded  the same "same"-sized over a zero-padded input, bias 0.25, ReLU, wt(rx, ry, ci, co)
//   int/*        uint8 x int8 -> int32, int16 -> int32, float16 -> float32 (and float32, to compare);
//                int/<type>_nn: the same with w stored n-innermost, w(n, k) (u8i8_nn, i16_nn, f32_nn;
//                not in form_names())
//   mlp/*        two chained contractions (a transformer's feed-forward block without biases):
//                y(n, m) = sum_j relu(h(j, m)) * w2(j, n), h(j, m) = sum_k x(k, m) * w1(k, j);
//                x: [rows][K], w1: [N][K], w2: [K][N], y: [rows][K]; the first one's result is
//                read by the second's reduction, not by an output
//   attn/*       attention: softmax(q kᵀ / 8) v per head, q, k, v, out: [heads][T][K]; the scores
//                are read by the softmax's reductions
//   dense/product_func, transpose_func, scaled_operand, flat_1d, symbolic_k: the product in a
//                Func of its own, the weights through a transposing Func, the activations scaled
//                by a Func, both operands flattened to 1-D buffers, the reduction over x's width
//   dense/sum_of_halves, two_updates: the reduction over two halves of K as two inline sums added
//                in the output, or as two updates of one accumulator (the shapes of an LSTM gate)
// Estimates are symbolic in T (range [t_min, t_max]).
#pragma once

#include "Halide.h"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace contraction_forms {

using namespace Halide;

struct Sizes {
    int K = 24, N = 40;   // reduction, fixed output extent of the dense forms (the head dimension for bmm)
    int rows_per_t = 1;   // dense rows per token
    int heads = 3;        // batch of the bmm forms
    int t_min = 1, t_max = 64;
};

struct Form {
    std::string name;
    std::vector<ImageParam> inputs;
    Param<int> T{"T", 16};
    Func out;
    std::function<std::vector<int>(int)> out_sizes;
    std::vector<std::function<std::vector<int>(int)>> in_sizes;
};

inline std::vector<std::string> form_names() {
    return {"dense/canonical", "dense/inline_sum",  "dense/inline_sum_other_names", "dense/update_on_output",
            "dense/bias_init", "dense/epilogue_chain", "dense/bias_relu_chain", "dense/relu_sum_cast",
            "dense/split_reduction", "dense/product_func", "dense/transpose_func", "dense/scaled_operand",
            "dense/flat_1d", "dense/symbolic_k", "dense/sum_of_halves", "dense/two_updates", "layout/NN",
            "layout/NT",       "layout/TN",          "layout/TT",                    "bmm_nt/canonical",
            "bmm_nt/inline_sum", "bmm_nt/update_on_output", "bmm_nn/canonical",      "bmm_nn/inline_sum",
            "bmm_nn/update_on_output", "conv/3x3", "conv/3x3_zero_padded", "int/u8i8", "int/i16", "int/f16", "int/f32",
            "mlp/canonical", "mlp/inline_sum", "mlp/relu_in_operand", "mlp/update_read", "attn/canonical", "attn/inline_sum"};
}

inline Expr gelu(Expr x) { return 0.5f * x * (1.f + tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }
// The same in C++ (apps/forms_bench's epilogue pass after a vendor sgemm).
inline float gelu_value(float x) { return 0.5f * x * (1.f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }

namespace detail {

inline std::string family_of(const std::string &name) { return name.substr(0, name.find('/')); }
inline std::string spelling_of(const std::string &name) { return name.substr(name.find('/') + 1); }

// y(n, m) = sum_k x(k, m) * w(k, n), spelled `how`.
inline void dense(Form &f, const Sizes &s, const std::string &how) {
    const int K = s.K, N = s.N, R = s.rows_per_t;
    ImageParam x(Float(32), 2, "x"), w(Float(32), 2, "w"), bias(Float(32), 1, "bias");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    f.inputs = {x, w};
    f.in_sizes = {[=](int t) { return std::vector<int>{K, R * t}; }, [=](int) { return std::vector<int>{K, N}; }};
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
        // acc -> biased -> activated -> y: pure Funcs between the accumulator and the output.
        Func acc("s"), biased("biased"), activated("activated");
        acc(m, n) = 0.f;  // the accumulator's arguments in the other order
        acc(m, n) += w(k, n) * x(k, m);
        biased(n, m) = acc(m, n) + bias(n);
        activated(n, m) = gelu(biased(n, m));
        y(n, m) = activated(n, m) * 0.5f;
    } else if (how == "bias_relu_chain") {
        // The same chain with a cheap epilogue: what the chain itself costs, without GELU's arithmetic.
        Func acc("s"), biased("biased"), activated("activated");
        acc(m, n) = 0.f;
        acc(m, n) += w(k, n) * x(k, m);
        biased(n, m) = acc(m, n) + bias(n);
        activated(n, m) = max(biased(n, m), 0.f);
        y(n, m) = activated(n, m) * 0.5f;
    } else if (how == "relu_sum_cast") {
        y(n, m) = cast<double>(max(sum(x(k, m) * w(k, n)) + bias(n), 0.f));
    } else if (how == "product_func") {
        // The summand as a Func of its own, summed by the output.
        Func prod("prod");
        Var kk("kk");
        prod(kk, n, m) = x(kk, m) * w(kk, n);
        y(n, m) = sum(prod(k, n, m));
    } else if (how == "transpose_func") {
        // The weights read through a transposing Func (wt[k][n] = w[n][k]), as a user writes
        // x · wᵀ spelled out.
        Func wt("wt");
        Var kk("kk");
        wt(n, kk) = w(kk, n);
        y(n, m) = sum(x(k, m) * wt(n, k));
    } else if (how == "scaled_operand") {
        // A computed operand: the activations scaled by a Func before the product (attention's
        // 1/sqrt(d) folded into q, a LayerNorm's output).
        Func xs("xs");
        xs(n, m) = x(n, m) * 0.125f;
        y(n, m) = sum(xs(k, m) * w(k, n));
    } else if (how == "flat_1d") {
        // Both operands flattened into 1-D buffers, indexed by hand (row-major, row length K).
        ImageParam xf(Float(32), 1, "x"), wf(Float(32), 1, "w");
        y(n, m) = sum(xf(k + K * m) * wf(k + K * n));
        f.inputs = {xf, wf};
        f.in_sizes = {[=](int t) { return std::vector<int>{K * R * t}; }, [=](int) { return std::vector<int>{K * N}; }};
    } else if (how == "symbolic_k") {
        // The reduction over the input's width, as a shape-generic generator writes it.
        RDom kw(0, x.dim(0).extent(), "kw");
        y(n, m) = sum(x(kw, m) * w(kw, n));
    } else if (how == "sum_of_halves") {
        // A sum of two contractions added in one output (the shape of an LSTM gate's x·Wx + h·Wh),
        // here over the two halves of K so that it computes the dense product.
        RDom lo(0, K / 2, "lo"), hi(K / 2, K - K / 2, "hi");
        y(n, m) = sum(x(lo, m) * w(lo, n)) + sum(x(hi, m) * w(hi, n));
    } else if (how == "two_updates") {
        // The same as two updates of one accumulator.
        RDom lo(0, K / 2, "lo"), hi(K / 2, K - K / 2, "hi");
        Func acc("acc");
        acc(n, m) = 0.f;
        acc(n, m) += x(lo, m) * w(lo, n);
        acc(n, m) += x(hi, m) * w(hi, n);
        y(n, m) = acc(n, m);
    } else if (how == "split_reduction") {
        // The reduction written over a 2-D RDom, its index computed from both (Halide's sum()
        // binds the shared index in a Let).
        const int inner = K % 8 == 0 ? 8 : 1;
        RDom r(0, inner, 0, K / inner, "r");
        Expr kk = r.x + inner * r.y;
        y(n, m) = sum(x(kk, m) * w(kk, n));
    } else if (how == "rows_innermost") {
        // The output stored with its rows innermost (column-major y[N][rows]).
        y(m, n) = sum(x(k, m) * w(k, n));
    } else if (how == "rows_innermost_update") {
        y(m, n) = 0.f;
        y(m, n) += x(k, m) * w(k, n);
    } else if (how == "rows_innermost_epilogue") {
        // Computed in the canonical order, stored rows innermost by the epilogue (bias, GELU).
        Func acc("acc");
        acc(n, m) = sum(x(k, m) * w(k, n));
        y(m, n) = gelu(acc(n, m) + bias(n));
    } else {
        throw std::invalid_argument(std::string("contraction_forms: no dense form " + how));
    }
    if (how == "bias_init" || how == "epilogue_chain" || how == "bias_relu_chain" || how == "relu_sum_cast" ||
        how == "rows_innermost_epilogue") {
        f.inputs.push_back(bias);
        f.in_sizes.push_back([=](int) { return std::vector<int>{N}; });
    }
    f.out = y;
    if (how.rfind("rows_innermost", 0) == 0) {
        f.out_sizes = [=](int t) { return std::vector<int>{R * t, N}; };
    } else {
        f.out_sizes = [=](int t) { return std::vector<int>{N, R * t}; };
    }
}

// y(n, m) = sum_k A[m][k] * B[k][n] with A, B stored as written (N) or transposed (T).
inline void layout(Form &f, const Sizes &s, const std::string &how) {
    const int K = s.K, N = s.N, R = s.rows_per_t;
    ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    const bool at = how[0] == 'T', bt = how[1] == 'T';
    y(n, m) = sum((at ? a(m, k) : a(k, m)) * (bt ? b(k, n) : b(n, k)));
    f.inputs = {a, b};
    f.in_sizes = {[=](int t) { return at ? std::vector<int>{R * t, K} : std::vector<int>{K, R * t}; },
                  [=](int) { return bt ? std::vector<int>{K, N} : std::vector<int>{N, K}; }};
    f.out = y;
    f.out_sizes = [=](int t) { return std::vector<int>{N, R * t}; };
}

// Attention scores (NT) or attention times values (NN, reduction over T), batched over heads.
inline void bmm(Form &f, const Sizes &s, bool nt, const std::string &how) {
    const int D = s.K, B = s.heads;
    ImageParam a(Float(32), 3, nt ? "q" : "p"), b(Float(32), 3, nt ? "k" : "v");
    Var j("j"), i("i"), bh("b");
    // numpy's index order written as is (q[b, i, d] -> q(b, i, d)): every dimension order reversed,
    // the batch innermost in every buffer.
    const bool reversed = how == "batch_innermost", lhs_transposed = how == "lhs_transposed";
    RDom r = nt ? RDom(0, D, "d") : RDom(0, a.dim(reversed ? 2 : lhs_transposed ? 1 : 0).extent(), "r");
    Expr lhs = reversed ? a(bh, i, r) : lhs_transposed ? a(i, r, bh) : a(r, i, bh);
    Expr prod = reversed ? (nt ? lhs * b(bh, j, r) : lhs * b(bh, r, j)) : (nt ? lhs * b(r, j, bh) : lhs * b(j, r, bh));
    Func out(nt ? "scores" : "context");
    if (reversed) {
        out(bh, i, j) = sum(prod);
    } else if (lhs_transposed) {
        out(j, i, bh) = sum(prod);
    } else if (how == "canonical") {
        Func acc("acc");
        acc(j, i, bh) = 0.f;
        acc(j, i, bh) += prod;
        out(j, i, bh) = acc(j, i, bh);
    } else if (how == "inline_sum") {
        out(j, i, bh) = sum(prod);
    } else if (how == "update_on_output") {
        out(j, i, bh) = 0.f;
        out(j, i, bh) += prod;
    } else {
        throw std::invalid_argument(std::string("contraction_forms: no bmm form " + how));
    }
    f.inputs = {a, b};
    if (nt && lhs_transposed) {
        f.in_sizes = {[=](int t) { return std::vector<int>{t, D, B}; }, [=](int t) { return std::vector<int>{D, t, B}; }};
        f.out_sizes = [=](int t) { return std::vector<int>{t, t, B}; };
    } else if (nt) {
        f.in_sizes = {[=](int t) { return std::vector<int>{D, t, B}; }, [=](int t) { return std::vector<int>{D, t, B}; }};
        f.out_sizes = [=](int t) { return std::vector<int>{t, t, B}; };
    } else {
        f.in_sizes = {[=](int t) { return std::vector<int>{t, t, B}; }, [=](int t) { return std::vector<int>{D, t, B}; }};
        f.out_sizes = [=](int t) { return std::vector<int>{D, t, B}; };
    }
    if (reversed) {
        const auto reverse = [](std::function<std::vector<int>(int)> sizes) {
            return [=](int t) {
                std::vector<int> s = sizes(t);
                return std::vector<int>(s.rbegin(), s.rend());
            };
        };
        for (auto &s : f.in_sizes) s = reverse(s);
        f.out_sizes = reverse(f.out_sizes);
    }
    f.out = out;
}

// A 3x3 convolution over 8 channels as a contraction over a 3-D RDom; x extent T.
// zero_padded: "same" size, the input read through constant_exterior (a CNN layer's spelling),
// bias initial value, ReLU epilogue, filter laid out (kx, ky, ci, co).
inline void conv(Form &f, const std::string &how) {
    ImageParam in(Float(32), 3, "in"), wt(Float(32), 4, "wt");
    Var x("x"), y("y"), co("co");
    RDom r(0, 3, 0, 3, 0, 8, "r");
    if (how == "zero_padded") {
        Func padded = BoundaryConditions::constant_exterior(in, 0.f, {{0, in.dim(0).extent()}, {0, in.dim(1).extent()}});
        Func acc("conv_acc"), out("conv");
        acc(x, y, co) = 0.25f;
        acc(x, y, co) += wt(r.x, r.y, r.z, co) * padded(x + r.x - 1, y + r.y - 1, r.z);
        out(x, y, co) = max(acc(x, y, co), 0.f);
        f.inputs = {in, wt};
        f.in_sizes = {[](int t) { return std::vector<int>{t, 8, 8}; }, [](int) { return std::vector<int>{3, 3, 8, 16}; }};
        f.out = out;
        f.out_sizes = [](int t) { return std::vector<int>{t, 8, 16}; };
        return;
    }
    Func out("conv");
    out(x, y, co) = sum(in(x + r.x, y + r.y, r.z) * wt(co, r.x, r.y, r.z));
    f.inputs = {in, wt};
    f.in_sizes = {[](int t) { return std::vector<int>{t + 2, 10, 8}; }, [](int) { return std::vector<int>{16, 3, 3, 8}; }};
    f.out = out;
    f.out_sizes = [](int t) { return std::vector<int>{t, 8, 16}; };
}

// The dense product with narrow operands accumulated wider (and float32, to compare).
inline void widening(Form &f, const Sizes &s, const std::string &spelling) {
    const int K = s.K, N = s.N, R = s.rows_per_t;
    const bool nn = spelling.size() > 3 && spelling.compare(spelling.size() - 3, 3, "_nn") == 0;
    const std::string how = nn ? spelling.substr(0, spelling.size() - 3) : spelling;
    const Type ta = how == "u8i8" ? UInt(8) : how == "i16" ? Int(16) : how == "f16" ? Float(16) : Float(32);
    const Type tb = how == "u8i8" ? Int(8) : ta;
    const Type acc = ta.is_float() ? Float(32) : Int(32);
    ImageParam a(ta, 2, "a"), b(tb, 2, "b");
    Var n("n"), m("m");
    RDom k(0, K, "k");
    Func y("y");
    y(n, m) = sum(cast(acc, a(k, m)) * cast(acc, nn ? b(n, k) : b(k, n)));
    f.inputs = {a, b};
    f.in_sizes = {[=](int t) { return std::vector<int>{K, R * t}; },
                  [=](int) { return nn ? std::vector<int>{N, K} : std::vector<int>{K, N}; }};
    f.out = y;
    f.out_sizes = [=](int t) { return std::vector<int>{N, R * t}; };
}

// Two chained contractions, spelled `how`; every spelling computes relu(x w1ᵀ) w2ᵀ.
inline void mlp(Form &f, const Sizes &s, const std::string &how) {
    const int K = s.K, N = s.N, R = s.rows_per_t;
    ImageParam x(Float(32), 2, "x"), w1(Float(32), 2, "w1"), w2(Float(32), 2, "w2");
    Var n("n"), m("m");
    RDom k(0, K, "k"), j(0, N, "j");
    Func h("h"), y("y");
    if (how == "canonical") {
        // Each layer an explicit accumulator, the activation a Func of its own.
        Func acc1("acc1"), acc2("acc2");
        acc1(n, m) = 0.f;
        acc1(n, m) += x(k, m) * w1(k, n);
        h(n, m) = max(acc1(n, m), 0.f);
        acc2(n, m) = 0.f;
        acc2(n, m) += h(j, m) * w2(j, n);
        y(n, m) = acc2(n, m);
    } else if (how == "inline_sum") {
        h(n, m) = max(sum(x(k, m) * w1(k, n)), 0.f);
        y(n, m) = sum(h(j, m) * w2(j, n));
    } else if (how == "relu_in_operand") {
        // The activation applied where the second layer reads the first.
        h(n, m) = sum(x(k, m) * w1(k, n));
        y(n, m) = sum(max(h(j, m), 0.f) * w2(j, n));
    } else if (how == "update_read") {
        // The first layer's update is read directly by the second layer's reduction.
        h(n, m) = 0.f;
        h(n, m) += x(k, m) * w1(k, n);
        y(n, m) = sum(max(h(j, m), 0.f) * w2(j, n));
    } else {
        throw std::invalid_argument(std::string("contraction_forms: no mlp form " + how));
    }
    f.inputs = {x, w1, w2};
    f.in_sizes = {[=](int t) { return std::vector<int>{K, R * t}; }, [=](int) { return std::vector<int>{K, N}; },
                  [=](int) { return std::vector<int>{N, K}; }};
    f.out = y;
    f.out_sizes = [=](int t) { return std::vector<int>{K, R * t}; };
}

// Attention per head: out(d, i, b) = sum_j softmax_j(q(., i, b) · k(., j, b) / 8) v(d, j, b).
inline void attention(Form &f, const Sizes &s, const std::string &how) {
    const int D = s.K, H = s.heads;
    ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k"), v(Float(32), 3, "v");
    Var d("d"), i("i"), j("j"), b("b");
    RDom rd(0, D, "rd"), rj(0, f.T, "rj");
    Func scores("scores"), mx("mx"), e("e"), den("den"), p("p"), out("out");
    if (how == "canonical") {
        Func qk("qk"), ctx("ctx");
        qk(j, i, b) = 0.f;
        qk(j, i, b) += q(rd, i, b) * k(rd, j, b);
        scores(j, i, b) = qk(j, i, b) * 0.125f;
        mx(i, b) = maximum(scores(rj, i, b));
        e(j, i, b) = exp(scores(j, i, b) - mx(i, b));
        den(i, b) = sum(e(rj, i, b));
        p(j, i, b) = e(j, i, b) / den(i, b);
        ctx(d, i, b) = 0.f;
        ctx(d, i, b) += p(rj, i, b) * v(d, rj, b);
        out(d, i, b) = ctx(d, i, b);
    } else if (how == "inline_sum") {
        scores(j, i, b) = sum(q(rd, i, b) * k(rd, j, b)) * 0.125f;
        mx(i, b) = maximum(scores(rj, i, b));
        e(j, i, b) = exp(scores(j, i, b) - mx(i, b));
        den(i, b) = sum(e(rj, i, b));
        p(j, i, b) = e(j, i, b) / den(i, b);
        out(d, i, b) = sum(p(rj, i, b) * v(d, rj, b));
    } else {
        throw std::invalid_argument(std::string("contraction_forms: no attn form " + how));
    }
    f.inputs = {q, k, v};
    auto qkv = [=](int t) { return std::vector<int>{D, t, H}; };
    f.in_sizes = {qkv, qkv, qkv};
    f.out = out;
    f.out_sizes = qkv;
}

}  // namespace detail

// Sets estimates: each extent that grows with T becomes (T + c) or rows_per_t * T, constant ones stay.
inline void set_symbolic_estimates(Form &f) {
    auto region = [&](const std::function<std::vector<int>(int)> &sizes) {
        const std::vector<int> a = sizes(16), b = sizes(17);
        Region r;
        for (size_t d = 0; d < a.size(); d++) {
            const int slope = b[d] - a[d];
            r.push_back(slope == 0 ? Range(0, a[d]) : Range(0, slope * f.T + (a[d] - 16 * slope)));
        }
        return r;
    };
    f.out.set_estimates(region(f.out_sizes));
    for (size_t i = 0; i < f.inputs.size(); i++) f.inputs[i].set_estimates(region(f.in_sizes[i]));
}

// The sizes the benchmarks use (apps/forms_bench, apps/gpu/gpu_forms_build), T in [1, 128], by
// family ("bmm", "bmm_nt" and "bmm_nn" alike): attention products over 192 heads of 64, attention
// over 12 heads of 64, BERT's feed-forward block on T tokens (768 -> 3072 -> 768), and BERT's
// dense_qkv on 16 sequences (y[16T, 2304] = x[16T, 768] · wᵀ) for the other dense-shaped families.
// (A convolution ignores them but T's range.)
inline Sizes benchmark_sizes(const std::string &family) {
    Sizes s;
    s.t_min = 1;
    s.t_max = 128;
    if (family.rfind("bmm", 0) == 0) {
        s.K = 64;
        s.heads = 192;
    } else if (family == "attn") {
        s.K = 64;
        s.heads = 12;
    } else if (family == "mlp") {
        s.K = 768;
        s.N = 3072;
        s.rows_per_t = 1;
    } else {
        s.K = 768;
        s.N = 2304;
        s.rows_per_t = 16;
    }
    return s;
}

// For a reference (unscheduled) copy of a form: in a chain (an MLP, attention) every reduction but
// the output is computed at root, or Halide's default recomputes the first one at every point of
// the next. A single contraction keeps Halide's default.
inline void compute_chain_reductions_at_root(Func out) {
    std::vector<Func> reductions;
    for (const auto &[name, f] : Internal::find_transitive_calls(out.function())) {
        if (name != out.name() && f.has_update_definition()) reductions.emplace_back(f);
    }
    if (reductions.size() + out.function().has_update_definition() > 1) {
        for (Func &r : reductions) r.compute_root();
    }
}

// Builds form `name` at sizes `s`; `symbolic_estimates`: estimates in T (for Diet), else none.
inline Form make_form(const std::string &name, const Sizes &s, bool symbolic_estimates) {
    Form f;
    f.name = name;
    f.T.set_range(s.t_min, s.t_max);
    f.T.set_estimate(std::min(std::max(16, s.t_min), s.t_max));
    const std::string fam = detail::family_of(name), how = detail::spelling_of(name);
    if (fam == "dense") detail::dense(f, s, how);
    else if (fam == "layout") detail::layout(f, s, how);
    else if (fam == "bmm_nt" || fam == "bmm_nn") detail::bmm(f, s, fam == "bmm_nt", how);
    else if (fam == "conv") detail::conv(f, how);
    else if (fam == "int") detail::widening(f, s, how);
    else if (fam == "mlp") detail::mlp(f, s, how);
    else if (fam == "attn") detail::attention(f, s, how);
    else throw std::invalid_argument(std::string("contraction_forms: no form " + name));
    if (symbolic_estimates) set_symbolic_estimates(f);
    return f;
}

}  // namespace contraction_forms
