// A random Halide pipeline from a seed: the generator behind test/test_fuzz.cpp (correctness of
// Diet's schedules on pipelines nobody wrote for it) and apps/diet_collect_pipelines.cpp (the
// plan model's dataset of random pipelines at realistic sizes, issue 15).
//
// Pointwise math and casts among uint8 / int16 / int32 / float / double, 1-D and 2-D stencils
// (with repeat_edge, constant_exterior, mirror_image, mirror_interior, or shrinking "valid"
// regions), matmul-like reductions in several forms, general reductions, scans, histograms,
// gathers, transposes, down- and upsamples, Tuples, pure updates, several outputs. Sizes are
// affine in one ranged scalar Param<int> T; with `for_diet` the inputs and outputs carry symbolic
// estimates (a*T + b) from which Diet reads the shape family. Every read stays inside the region
// its producer is valid on. `Limits` bound the extents, elements and multiply-adds at the top of
// T's range: the fuzzer keeps them small (fast JIT runs), the collector realistic.
#pragma once

#include "Halide.h"

#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace random_pipeline {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::Type;
using Halide::Var;
using Halide::Param;

struct Limits {
    int64_t max_extent = 640;        // of any dimension
    int64_t max_elements = 1 << 16;  // of any Func
    int64_t max_macs = 1 << 22;      // matmul-like reductions: n * m * k (* batch)
};

// ---- random choices ----------------------------------------------------------------------------

struct Rng {
    std::mt19937 g;
    explicit Rng(uint32_t seed) : g(seed) {}
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); }
    bool coin(double p = 0.5) { return std::uniform_real_distribution<double>(0, 1)(g) < p; }
    template<typename T>
    const T &pick(const std::vector<T> &v) { return v[uniform(0, (int)v.size() - 1)]; }
    // Index into `weights`, with probability proportional to the weight.
    int weighted(const std::vector<int> &weights) {
        int total = 0;
        for (int w : weights) total += w;
        int x = uniform(0, total - 1);
        for (size_t i = 0; i < weights.size(); i++) {
            if (x < weights[i]) return (int)i;
            x -= weights[i];
        }
        return (int)weights.size() - 1;
    }
};

inline const std::vector<Halide::Type> &value_types() {
    static const std::vector<Halide::Type> t = {Halide::UInt(8), Halide::Int(16), Halide::Int(32), Halide::Float(32), Halide::Float(64)};
    return t;
}

inline std::string type_name(const Halide::Type &t) {
    std::ostringstream o;
    o << t;
    return o.str();
}

// ---- the generated algorithm -------------------------------------------------------------------

// One dimension [0, extent): `alg` is what the algorithm itself uses (it may read an input buffer's
// extent), `est` the same extent in terms of T only (what estimates may use).
struct Extent {
    Halide::Expr alg, est;
};

// A value with a bound on its magnitude (kept for int32, where overflow is not allowed, and for
// floats, which are kept finite).
struct Val {
    Halide::Expr e;
    double bound = 0;
    Halide::Type type() const { return e.type(); }
};

struct Node {
    Halide::Func f;
    std::vector<Halide::Type> types;   // one, or a Tuple's
    std::vector<Extent> ext;   // the Func is valid (reads only valid data) on [0, ext) per dim
    std::vector<double> bound; // per Tuple element
    int input = -1;            // the ImageParam it is, -1: a Func of the algorithm
    int dims() const { return (int)ext.size(); }
    bool tuple() const { return types.size() > 1; }
};

class Generator {
public:
    Generator(uint32_t seed, const Halide::Param<int> &T, int t_lo, int t_hi, bool for_diet, Limits limits = Limits())
        : rng_(seed), T_(T), lo_(t_lo), hi_(t_hi), for_diet_(for_diet), limits_(limits) {}

    std::vector<ImageParam> inputs;
    std::vector<std::vector<Extent>> input_ext;
    std::vector<Func> outputs;
    std::vector<Node> output_nodes;
    std::vector<std::string> stages;   // one line per stage kind, for the description

    void build();

    // The value of a T-only extent at T = t.
    static int64_t at(const Expr &est, int t);

private:
    enum Kind { kUnary, kBinary, kBroadcast, kStencil, kResample, kTranspose, kMatmul, kReduce, kScan,
                kHistogram, kGather, kTuple, kPureUpdate, kKinds };
    static const std::vector<int> &kind_weights();

    Rng rng_;
    Halide::Param<int> T_;
    int lo_, hi_;
    bool for_diet_;
    Limits limits_;
    std::vector<Node> nodes_;
    int counter_ = 0;

    std::string fresh(const std::string &kind) { return kind + std::to_string(counter_++); }

    static std::vector<Var> vars(int n);
    static std::vector<Expr> exprs(const std::vector<Var> &v) { return {v.begin(), v.end()}; }

    // ---- extents ----
    Extent ext_min(const Extent &a, const Extent &b);
    bool fits(const std::vector<Extent> &region);

    // ---- inputs ----
    void make_input(int i);

    // ---- picking producers ----
    int pick_node(const std::function<bool(const Node &)> &ok);
    // Two producers of the same dimensionality (any first, the second among those of its
    // dimensions), Vars over them, and the region both are valid on.
    struct SameShapePair {
        Node a, b;
        std::vector<Var> args;
        std::vector<Extent> ext;
    };
    SameShapePair pick_same_shape_pair();

    // Reads a node (one Tuple element of a Tuple).
    Val read(const Node &n, const std::vector<Expr> &args);

    Node make_node(Func f, const std::vector<Val> &values, std::vector<Extent> ext);
    Node define(const std::string &kind, const std::vector<Var> &args, Val v, const std::vector<Extent> &ext);

    Type maybe_other_type(const Type &t, double p) { return rng_.coin(p) ? rng_.pick(value_types()) : t; }

    // ---- pointwise math ----
    Val unary(Val v);

    Val binary(Val a, Val b);

    bool add_stage(int kind);

    bool accept(Node n, const std::string &what);

    bool add_unary();

    bool add_binary();

    // a(x, y, ...) op b(some of x, y, ...)
    bool add_broadcast();

    bool add_stencil();

    bool add_resample();

    bool add_transpose();

    // acc(n, m[, b]) (+)= a(k, m[, b]) * b(k, n[, b]) in its several forms.
    bool add_matmul();

    bool add_reduce();

    bool add_scan();

    bool add_histogram();

    // g(..., x_d, ...) = a(..., clamp(idx(...), 0, extent - 1), ...)
    bool add_gather();

    bool add_tuple();

    // g = a; g = g op b (an update at the pure coordinates), or g(.., 0, ..) = c (an edge fix-up).
    bool add_pure_update();
};

}  // namespace random_pipeline
