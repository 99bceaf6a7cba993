// A random pipeline fuzzer for Diet (the "any pipeline" part of issue 7).
//
// Each case builds a small random Halide pipeline from a seed: pointwise math and casts among
// uint8 / int16 / int32 / float / double, 1-D and 2-D stencils (with repeat_edge, constant_exterior,
// mirror_image, mirror_interior, or shrinking "valid" regions), matmul-like reductions
// (acc(n, m) += a(k, m) * b(k, n) with a pure init and an output wrapper, the inline sum() idiom,
// the reduction directly on the Func, a bias init, a batch dimension, transposed operand layouts),
// general reductions (sum / maximum / minimum / argmax / argmin, explicit updates, triangular
// RDom::where, down to 0-D), scans, histograms (scatter at a clamped index), gathers (data-dependent
// index), transposes, downsamples f(2x), upsamples f(x/2), Tuples, pure updates, and pipelines
// with several outputs.  The sizes come from one ranged scalar Param<int> T used in symbolic
// estimates (inputs' dim(d).set_estimate(0, a*T + b), outputs' set_estimates): Diet reads the
// shape family from them, as it does in a generator.
//
// The generator runs twice from the same seed: once into Funcs scheduled by Diet (loaded through
// dlopen as GenGen's -p does), once into fresh Funcs for the reference: every stage compute_root,
// the rest (boundary conditions, inline sum()s) Halide's default schedule; plain default would
// recompute a scan or a histogram once per consumer iteration, at a cost that explodes.  Both are
// JIT-compiled (strict_float, so that float -> int casts and float comparisons round the same way
// whatever Diet inlines or stores) and run at 2-3 values of T in its range on the same random
// inputs; integer outputs must match exactly, float outputs within 1e-4 relative to the output's
// largest magnitude.  Every read of the generated algorithm stays inside the region its producer
// is valid on, so any out-of-bounds input access is the schedule's.
//
// A failure names its seed and prints the pipeline (every Func's definitions), Diet's log and the
// schedule it emitted.  To reproduce or to run longer:
//
//   DIET_FUZZ_SEED=<seed> DIET_FUZZ_COUNT=1 build/test/test_fuzz     # one pipeline
//   DIET_FUZZ_SEED=1000 DIET_FUZZ_COUNT=5000 build/test/test_fuzz    # a longer run
//   DIET_FUZZ_VERBOSE=1 ...                                           # print every pipeline
//   DIET_FUZZ_VERBOSE=1 DIET_FUZZ_DRY=1 ...                           # only generate and print
//   DIET_FUZZ_STMT=out.stmt ...                                        # Diet's lowered statement
//
// Pipeline i of a run uses seed DIET_FUZZ_SEED + i (default seed 1; the default count is what
// fits the CI budget, see kDefaultCount).  A crash (signal) prints the seed it happened on.
#include <catch2/catch.hpp>

#include "Halide.h"
#include "space/HostCpu.h"
#include "test_support.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace Halide;
using namespace diet_test;

namespace {

constexpr int kDefaultCount = 250;
constexpr uint32_t kDefaultSeed = 1;

// The largest extent of any dimension and the most elements of any Func at the top of T's range.
constexpr int64_t kMaxExtent = 640;
constexpr int64_t kMaxElements = 1 << 16;
constexpr int64_t kMaxMacs = 1 << 22;   // matmul-like reductions: n * m * k
constexpr double kIntLimit = 1 << 22;   // |int32 values| are kept below this (no signed overflow)
constexpr double kFloatLimit = 1e5;

int env_int(const char *name, int dflt) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

// ---- crash reporting ---------------------------------------------------------------------------

volatile sig_atomic_t g_current_seed = -1;
const char *volatile g_phase = "";

void on_crash(int sig) {
    char buf[160];
    int n = snprintf(buf, sizeof buf, "\n*** test_fuzz: signal %d while %s the pipeline of seed %d "
                                      "(reproduce: DIET_FUZZ_SEED=%d DIET_FUZZ_COUNT=1)\n",
                     sig, (const char *)g_phase, (int)g_current_seed, (int)g_current_seed);
    if (n > 0) (void)!write(2, buf, (size_t)n);
    signal(sig, SIG_DFL);
    raise(sig);
}


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

const std::vector<Type> &value_types() {
    static const std::vector<Type> t = {UInt(8), Int(16), Int(32), Float(32), Float(64)};
    return t;
}

std::string type_name(const Type &t) {
    std::ostringstream o;
    o << t;
    return o.str();
}

// ---- the generated algorithm -------------------------------------------------------------------

// One dimension [0, extent): `alg` is what the algorithm itself uses (it may read an input buffer's
// extent), `est` the same extent in terms of T only (what estimates may use).
struct Extent {
    Expr alg, est;
};

// A value with a bound on its magnitude (kept for int32, where overflow is not allowed, and for
// floats, which are kept finite).
struct Val {
    Expr e;
    double bound = 0;
    Type type() const { return e.type(); }
};

struct Node {
    Func f;
    std::vector<Type> types;   // one, or a Tuple's
    std::vector<Extent> ext;   // the Func is valid (reads only valid data) on [0, ext) per dim
    std::vector<double> bound; // per Tuple element
    int input = -1;            // the ImageParam it is, -1: a Func of the algorithm
    int dims() const { return (int)ext.size(); }
    bool tuple() const { return types.size() > 1; }
};

// A constant of type t (Halide has no Expr(double)).
Expr konst(const Type &t, double x) { return Internal::make_const(t, x); }

double type_bound(const Type &t) {
    if (t.is_float()) return kFloatLimit;
    if (t.is_uint()) return std::ldexp(1.0, t.bits()) - 1;
    return std::ldexp(1.0, t.bits() - 1);
}

// Converts without undefined behavior: floats are clamped into the integer type's range first
// (and int32 into [-1024, 1024]); integer narrowing wraps, as Halide defines it.
Val convert(const Val &v, const Type &t) {
    Type from = v.type();
    if (from == t) return v;
    if (from.is_float() && !t.is_float()) {
        double lo = t.is_uint() ? 0 : t.bits() >= 32 ? -1024 : -type_bound(t);
        double hi = t.bits() >= 32 ? 1024 : type_bound(t);
        return {cast(t, clamp(v.e, konst(from, lo), konst(from, hi))), std::min(v.bound, std::max(-lo, hi))};
    }
    // Narrow integers wrap to anything in their range; int32 and floats keep the magnitude.
    return {cast(t, v.e), !t.is_float() && t.bits() < 32 ? type_bound(t) : v.bound};
}

// Brings a value's magnitude below `limit` when it might exceed it (int32: a mask; float: a soft
// clamp); narrower integers wrap and need nothing.
Val fit(const Val &v, double limit) {
    if (v.bound <= limit) return v;
    Type t = v.type();
    if (t.is_float()) return {v.e / (abs(v.e) + cast(t, 1)), 1.0};
    if (t == Int(32)) return {(v.e & 1023) - 512, 512};
    return v;
}

Val fit_int(const Val &v) { return fit(v, v.type().is_float() ? kFloatLimit : kIntLimit); }

class Generator {
public:
    Generator(uint32_t seed, const Param<int> &T, int t_lo, int t_hi, bool for_diet)
        : rng_(seed), T_(T), lo_(t_lo), hi_(t_hi), for_diet_(for_diet) {}

    std::vector<ImageParam> inputs;
    std::vector<std::vector<Extent>> input_ext;
    std::vector<Func> outputs;
    std::vector<Node> output_nodes;
    std::vector<std::string> stages;   // one line per stage kind, for the description

    void build() {
        const int n_inputs = rng_.weighted({5, 4, 2}) + 1;
        for (int i = 0; i < n_inputs; i++) make_input(i);
        const int n_stages = rng_.uniform(1, 5);
        const bool end_with_matmul = rng_.coin(0.2);
        for (int s = 0; s < n_stages; s++) {
            bool last = s + 1 == n_stages;
            for (int attempt = 0; attempt < 40; attempt++) {
                int kind = last && end_with_matmul && attempt < 10 ? kMatmul : rng_.weighted(kind_weights());
                if (add_stage(kind)) break;
            }
        }
        // Outputs: the last Func (never an input), sometimes one more.
        int last = -1;
        for (int i = (int)nodes_.size() - 1; i >= 0 && last < 0; i--) {
            if (nodes_[i].input < 0) last = i;
        }
        if (last < 0) {
            add_stage(kUnary);
            last = (int)nodes_.size() - 1;
        }
        std::vector<int> outs = {last};
        if (rng_.coin(0.25)) {
            std::vector<int> others;
            for (int i = 0; i < last; i++) {
                if (nodes_[i].input < 0) others.push_back(i);
            }
            if (!others.empty()) outs.push_back(rng_.pick(others));
        }
        for (int i : outs) {
            Node &n = nodes_[i];
            if (for_diet_) {
                Region r;
                for (const Extent &e : n.ext) r.push_back({0, e.est});
                n.f.set_estimates(r);
            }
            outputs.push_back(n.f);
            output_nodes.push_back(n);
        }
        if (for_diet_) {
            for (size_t i = 0; i < inputs.size(); i++) {
                for (size_t d = 0; d < input_ext[i].size(); d++) inputs[i].dim((int)d).set_estimate(0, input_ext[i][d].est);
            }
        }
    }

    // The value of a T-only extent at T = t.
    static int64_t at(const Expr &est, int t) {
        Expr s = Internal::simplify(Internal::substitute("T", Expr(t), est));
        const int64_t *v = Internal::as_const_int(s);
        if (!v) throw std::runtime_error("test_fuzz: extent " + [&] { std::ostringstream o; o << est; return o.str(); }() +
                                         " is not constant at T=" + std::to_string(t));
        return *v;
    }

private:
    enum Kind { kUnary, kBinary, kBroadcast, kStencil, kResample, kTranspose, kMatmul, kReduce, kScan,
                kHistogram, kGather, kTuple, kPureUpdate, kKinds };
    static const std::vector<int> &kind_weights() {
        static const std::vector<int> w = {8, 8, 5, 12, 8, 5, 9, 10, 4, 4, 4, 3, 4};
        return w;
    }

    Rng rng_;
    Param<int> T_;
    int lo_, hi_;
    bool for_diet_;
    std::vector<Node> nodes_;
    int counter_ = 0;

    std::string fresh(const std::string &kind) { return kind + std::to_string(counter_++); }

    static std::vector<Var> vars(int n) {
        static const char *names[] = {"x", "y", "z", "w"};
        std::vector<Var> v;
        for (int i = 0; i < n; i++) v.push_back(Var(names[i]));
        return v;
    }
    static std::vector<Expr> exprs(const std::vector<Var> &v) { return {v.begin(), v.end()}; }

    // ---- extents ----
    Extent ext_min(const Extent &a, const Extent &b) {
        if (Internal::equal(a.est, b.est)) return a;
        return {min(a.alg, b.alg), min(a.est, b.est)};
    }
    bool fits(const std::vector<Extent> &region) {
        int64_t elems = 1;
        for (const Extent &e : region) {
            int64_t l = at(e.est, lo_), h = at(e.est, hi_);
            if (l < 1 || h > kMaxExtent) return false;
            elems *= h;
        }
        return elems <= kMaxElements;
    }

    // ---- inputs ----
    void make_input(int i) {
        int dims = rng_.weighted({2, 10, 2}) + 1;
        Type t = rng_.pick(value_types());
        ImageParam in(t, dims, "in" + std::to_string(i));
        std::vector<Extent> ext;
        for (int d = 0; d < dims; d++) {
            for (;;) {
                // The first dimension of the first input always depends on T.
                int a = rng_.pick(std::vector<int>{0, 1, 1, 2, 4, 8, 16});
                if (i == 0 && d == 0 && a == 0) a = 1;
                int b = rng_.uniform(a == 0 ? 1 : 0, a == 0 ? 40 : 9);
                if (d == 2) {  // a third dimension stays small
                    a = rng_.coin() ? 0 : 1;
                    b = rng_.uniform(a == 0 ? 1 : 0, 4);
                }
                Expr est = a == 0 ? Expr(b) : b == 0 ? (a == 1 ? Expr(T_) : a * T_) : a * T_ + b;
                Extent e{rng_.coin() ? in.dim(d).extent() : est, est};
                if (at(est, hi_) > kMaxExtent) continue;
                ext.push_back(e);
                break;
            }
        }
        // Keep inputs within the element budget: the largest dimension becomes a small constant.
        while (!fits(ext)) {
            size_t big = 0;
            for (size_t d = 1; d < ext.size(); d++) {
                if (at(ext[d].est, hi_) > at(ext[big].est, hi_)) big = d;
            }
            Expr c = rng_.uniform(1, 8);
            ext[big] = Extent{c, c};
        }
        inputs.push_back(in);
        input_ext.push_back(ext);
        Node n;
        n.f = in;
        n.types = {t};
        n.ext = ext;
        n.bound = {t == Int(32) ? 1000.0 : t.is_float() ? 2.0 : type_bound(t)};
        n.input = i;
        nodes_.push_back(n);
    }

    // ---- picking producers ----
    int pick_node(const std::function<bool(const Node &)> &ok) {
        std::vector<int> c;
        for (int i = 0; i < (int)nodes_.size(); i++) {
            if (ok(nodes_[i])) c.push_back(i);
        }
        if (c.empty()) return -1;
        if (ok(nodes_.back()) && rng_.coin(0.5)) return (int)nodes_.size() - 1;
        return rng_.pick(c);
    }

    // Reads a node (one Tuple element of a Tuple).
    Val read(const Node &n, const std::vector<Expr> &args) {
        if (n.tuple()) {
            int c = rng_.uniform(0, (int)n.types.size() - 1);
            return {n.f(args)[c], n.bound[c]};
        }
        return {n.f(args), n.bound[0]};
    }

    Node make_node(Func f, const std::vector<Val> &values, std::vector<Extent> ext) {
        Node n;
        n.f = f;
        for (const Val &v : values) {
            n.types.push_back(v.type());
            n.bound.push_back(v.bound);
        }
        n.ext = std::move(ext);
        return n;
    }
    Node define(const std::string &kind, const std::vector<Var> &args, Val v, const std::vector<Extent> &ext) {
        Func f(fresh(kind));
        v = fit_int(v);
        f(args) = v.e;
        return make_node(f, {v}, ext);
    }

    Type maybe_other_type(const Type &t, double p) { return rng_.coin(p) ? rng_.pick(value_types()) : t; }

    // ---- pointwise math ----
    Val unary(Val v) {
        Type t = v.type();
        if (t.is_float()) {
            Expr e = v.e;
            auto c = [&](double x) { return konst(t, x); };
            switch (rng_.uniform(0, 10)) {
            case 0: return {e * c(-1.5) + c(0.25), v.bound * 1.5 + 0.25};
            case 1: return {sin(e), 1};
            case 2: return {cos(e), 1};
            case 3: return {sqrt(abs(e)), std::sqrt(v.bound) + 1};
            case 4: return {abs(e), v.bound};
            case 5: return {floor(e), v.bound + 1};
            case 6: return {e / (abs(e) + c(1)), 1};
            case 7: return {clamp(e, c(-0.5), c(0.5)), 0.5};
            case 8: return {select(e > c(0), e, e * c(0.25)), v.bound};
            case 9: return {tanh(e), 1};
            default: return {exp(-abs(e)), 1};
            }
        }
        v = fit(v, kIntLimit / 4);
        Expr e = v.e;
        auto c = [&](int x) { return cast(t, x); };
        switch (rng_.uniform(0, 8)) {
        case 0: return {e * c(3) + c(1), v.bound * 3 + 1};
        case 1: return {e >> c(1), v.bound};
        case 2: return {e / c(3), v.bound};
        case 3: return {e % c(7), 7};
        case 4: return {clamp(e, c(3), c(100)), 100};
        case 5: return {select(e > c(20), e, c(20) - e), v.bound + 20};
        case 6: return {~e, v.bound + 1};
        case 7: return convert({absd(e, c(9)), v.bound + 9}, t);
        default: return {e ^ c(0x55), v.bound + 128};
        }
    }

    Val binary(Val a, Val b) {
        Type t = a.type();
        b = convert(b, t);
        if (t.is_float()) {
            a = fit(a, 1e2);
            b = fit(b, 1e2);
            Expr x = a.e, y = b.e;
            double s = a.bound + b.bound;
            switch (rng_.uniform(0, 7)) {
            case 0: return {x + y, s};
            case 1: return {x - y, s};
            case 2: return {x * y, a.bound * b.bound};
            case 3: return {min(x, y), s};
            case 4: return {max(x, y), s};
            case 5: return {select(x < y, x, y * konst(t, 0.5)), s};
            case 6: return {x / (abs(y) + cast(t, 1)), a.bound};
            default: return {sqrt(x * x + y * y), s};
            }
        }
        a = fit(a, 2048);
        b = fit(b, 2048);
        Expr x = a.e, y = b.e;
        double s = a.bound + b.bound;
        auto c = [&](int v) { return cast(t, v); };
        switch (rng_.uniform(0, 10)) {
        case 0: return {x + y, s};
        case 1: return {x - y, s};
        case 2: return {x * y, a.bound * b.bound};
        case 3: return {min(x, y), s};
        case 4: return {max(x, y), s};
        case 5: return {x & y, s};
        case 6: return {x | y, s};
        case 7: return {x ^ y, s};
        case 8: return convert({absd(x, y), s}, t);
        case 9: return {select(x < y, x, y - x), s};
        default: return {x / ((y & c(7)) + c(1)), a.bound};
        }
    }

    bool add_stage(int kind) {
        switch (kind) {
        case kUnary: return add_unary();
        case kBinary: return add_binary();
        case kBroadcast: return add_broadcast();
        case kStencil: return add_stencil();
        case kResample: return add_resample();
        case kTranspose: return add_transpose();
        case kMatmul: return add_matmul();
        case kReduce: return add_reduce();
        case kScan: return add_scan();
        case kHistogram: return add_histogram();
        case kGather: return add_gather();
        case kTuple: return add_tuple();
        default: return add_pure_update();
        }
    }

    bool accept(Node n, const std::string &what) {
        if (!fits(n.ext)) return false;
        // The reference materializes every stage: Halide's default would recompute a Func with
        // updates (a scan, a histogram) once per consumer iteration, at a cost that can explode.
        if (!for_diet_) n.f.compute_root();
        nodes_.push_back(n);
        std::ostringstream o;
        o << n.f.name() << ": " << what << " ->";
        for (const Type &t : n.types) o << " " << type_name(t);
        o << " [";
        for (size_t d = 0; d < n.ext.size(); d++) o << (d ? ", " : "") << n.ext[d].est;
        o << "]";
        stages.push_back(o.str());
        return true;
    }

    bool add_unary() {
        int i = pick_node([](const Node &) { return true; });
        const Node src = nodes_[i];
        auto args = vars(src.dims());
        Val v = read(src, exprs(args));
        Type t = maybe_other_type(v.type(), 0.4);
        v = unary(convert(v, maybe_other_type(v.type(), 0.2)));
        v = convert(v, t);
        return accept(define("pw", args, v, src.ext), "unary/cast of " + src.f.name());
    }

    bool add_binary() {
        int i = pick_node([](const Node &) { return true; });
        const Node a = nodes_[i];
        int j = pick_node([&](const Node &n) { return n.dims() == a.dims(); });
        const Node b = nodes_[j];
        auto args = vars(a.dims());
        std::vector<Extent> ext;
        for (int d = 0; d < a.dims(); d++) ext.push_back(ext_min(a.ext[d], b.ext[d]));
        Val va = read(a, exprs(args)), vb = read(b, exprs(args));
        Val v = rng_.coin() ? binary(va, vb) : binary(vb, va);
        return accept(define("bin", args, v, ext), "binary of " + a.f.name() + ", " + b.f.name());
    }

    // a(x, y, ...) op b(some of x, y, ...)
    bool add_broadcast() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node a = nodes_[i];
        int j = pick_node([&](const Node &n) { return n.dims() < a.dims(); });
        if (j < 0) return false;
        const Node b = nodes_[j];
        auto args = vars(a.dims());
        std::vector<int> dims_of_a(a.dims());
        for (int d = 0; d < a.dims(); d++) dims_of_a[d] = d;
        std::shuffle(dims_of_a.begin(), dims_of_a.end(), rng_.g);
        std::vector<Extent> ext = a.ext;
        std::vector<Expr> bargs;
        for (int d = 0; d < b.dims(); d++) {
            bargs.push_back(args[dims_of_a[d]]);
            ext[dims_of_a[d]] = ext_min(ext[dims_of_a[d]], b.ext[d]);
        }
        Val va = read(a, exprs(args)), vb = read(b, bargs);
        Val v = rng_.coin() ? binary(va, vb) : binary(vb, va);
        return accept(define("bcast", args, v, ext), "broadcast of " + b.f.name() + " into " + a.f.name());
    }

    bool add_stencil() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1 && !n.tuple(); });
        if (i < 0) return false;
        const Node src = nodes_[i];
        auto args = vars(src.dims());
        // Stencil dimensions: one, or two.
        std::vector<int> sdims = {rng_.uniform(0, src.dims() - 1)};
        if (src.dims() >= 2 && rng_.coin(0.4)) {
            int d2 = rng_.uniform(0, src.dims() - 2);
            sdims.push_back(d2 >= sdims[0] ? d2 + 1 : d2);
        }
        const int bc = rng_.uniform(0, 4);  // 0: none ("valid" region), 1-4: a boundary condition
        static const char *bc_names[] = {"valid", "repeat_edge", "constant_exterior", "mirror_image", "mirror_interior"};
        Func in = src.f;
        std::vector<Extent> ext = src.ext;
        if (bc != 0) {
            Region r;
            for (const Extent &e : src.ext) r.push_back({0, e.alg});
            if (bc == 4) {
                for (const Extent &e : src.ext) {
                    if (at(e.est, lo_) < 2) return false;
                }
            }
            Expr zero = cast(src.types[0], rng_.uniform(0, 3));
            if (src.input >= 0 && rng_.coin()) {
                const ImageParam &im = inputs[src.input];
                in = bc == 1 ? BoundaryConditions::repeat_edge(im) :
                     bc == 2 ? BoundaryConditions::constant_exterior(im, zero) :
                     bc == 3 ? BoundaryConditions::mirror_image(im) : BoundaryConditions::mirror_interior(im);
            } else {
                in = bc == 1 ? BoundaryConditions::repeat_edge(src.f, r) :
                     bc == 2 ? BoundaryConditions::constant_exterior(src.f, zero, r) :
                     bc == 3 ? BoundaryConditions::mirror_image(src.f, r) : BoundaryConditions::mirror_interior(src.f, r);
            }
        }
        // Taps per stencil dimension.
        std::vector<std::vector<int>> taps;
        for (int d : sdims) {
            std::vector<int> t;
            int width = rng_.uniform(2, 3);
            int first = bc != 0 ? rng_.uniform(-2, 0) : 0, step = rng_.coin(0.8) ? 1 : 2;
            for (int k = 0; k < width; k++) t.push_back(first + k * step);
            std::sort(t.begin(), t.end());
            t.erase(std::unique(t.begin(), t.end()), t.end());
            if (bc == 0) {
                ext[d] = Extent{ext[d].alg - t.back(), ext[d].est - t.back()};
                if (at(ext[d].est, lo_) < 1) return false;
            }
            taps.push_back(t);
        }
        Type acc = src.types[0];
        if (rng_.coin(0.5)) acc = acc.is_float() ? acc : rng_.pick(std::vector<Type>{Int(16), Int(32), Float(32)});
        const bool use_max = rng_.coin(0.25);
        Val total;
        int count = 0;
        std::function<void(size_t, std::vector<Expr>)> go = [&](size_t k, std::vector<Expr> a) {
            if (k == sdims.size()) {
                Val v = convert({in(a), src.bound[0]}, acc);
                v = fit(v, acc.is_float() ? 1e3 : 4096);
                int w = use_max ? 1 : rng_.uniform(1, 3);
                Val term = {w == 1 ? v.e : v.e * cast(acc, w), v.bound * w};
                if (count++ == 0) {
                    total = term;
                } else if (use_max) {
                    total = {max(total.e, term.e), std::max(total.bound, term.bound)};
                } else {
                    total = {total.e + term.e, total.bound + term.bound};
                }
                return;
            }
            for (int t : taps[k]) {
                std::vector<Expr> b = a;
                b[sdims[k]] = b[sdims[k]] + t;
                go(k + 1, b);
            }
        };
        go(0, exprs(args));
        Val v = total;
        if (rng_.coin(0.3)) v = convert(v, src.types[0]);
        return accept(define("st", args, v, ext),
                      std::string(use_max ? "max " : "") + std::to_string(sdims.size()) + "-D stencil (" +
                          bc_names[bc] + ") of " + src.f.name());
    }

    bool add_resample() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node src = nodes_[i];
        auto args = vars(src.dims());
        int d = rng_.uniform(0, src.dims() - 1);
        std::vector<Extent> ext = src.ext;
        auto with = [&](Expr c) {
            std::vector<Expr> a = exprs(args);
            a[d] = c;
            return a;
        };
        Val v;
        std::string what;
        if (rng_.coin()) {
            Expr x = args[d];
            ext[d] = Extent{ext[d].alg / 2, ext[d].est / 2};
            if (at(ext[d].est, lo_) < 1) return false;
            v = read(src, with(2 * x));
            if (rng_.coin()) v = binary(v, read(src, with(2 * x + 1)));
            what = "downsample";
        } else {
            Expr x = args[d];
            v = read(src, with(x / 2));
            if (rng_.coin()) {
                v = binary(v, read(src, with((x + 1) / 2)));
                ext[d] = Extent{ext[d].alg * 2 - 1, ext[d].est * 2 - 1};
            } else {
                ext[d] = Extent{ext[d].alg * 2, ext[d].est * 2};
            }
            what = "upsample";
        }
        return accept(define("rs", args, v, ext), what + " of " + src.f.name() + " along dim " + std::to_string(d));
    }

    bool add_transpose() {
        int i = pick_node([](const Node &n) { return n.dims() >= 2; });
        if (i < 0) return false;
        const Node src = nodes_[i];
        auto args = vars(src.dims());
        int a = rng_.uniform(0, src.dims() - 2);
        int b = rng_.uniform(a + 1, src.dims() - 1);
        std::vector<Expr> r = exprs(args);
        std::swap(r[a], r[b]);
        std::vector<Extent> ext = src.ext;
        std::swap(ext[a], ext[b]);
        return accept(define("tr", args, read(src, r), ext), "transpose of " + src.f.name());
    }

    // acc(n, m[, b]) (+)= a(k, m[, b]) * b(k, n[, b]) in its several forms.
    bool add_matmul() {
        int i = pick_node([](const Node &n) { return n.dims() == 2 || n.dims() == 3; });
        if (i < 0) return false;
        const Node A = nodes_[i];
        int j = pick_node([&](const Node &n) { return n.dims() == A.dims(); });
        const Node B = nodes_[j];
        const bool batch = A.dims() == 3;
        const int ak = rng_.coin(0.7) ? 0 : 1, bk = rng_.coin(0.6) ? 0 : 1;
        Extent K = ext_min(A.ext[ak], B.ext[bk]);
        Extent M = A.ext[1 - ak], N = B.ext[1 - bk];
        std::vector<Extent> ext = {N, M};
        if (batch) ext.push_back(ext_min(A.ext[2], B.ext[2]));
        if (!fits(ext)) return false;
        if (at(N.est, hi_) * at(M.est, hi_) * at(K.est, hi_) * (batch ? at(ext[2].est, hi_) : 1) > kMaxMacs) return false;
        if (at(K.est, lo_) < 1) return false;

        Type ta = A.types[0], tb = B.types[0];
        Type acc_t = ta.is_float() || tb.is_float() ? (rng_.coin(0.7) ? Float(32) : Float(64)) : Int(32);
        Var n("n"), m("m"), bt("b");
        RDom r(0, K.alg, "k");
        auto operand = [&](const Node &X, int k_dim, Expr other) {
            std::vector<Expr> a(X.dims());
            a[k_dim] = r;
            a[1 - k_dim] = other;
            if (batch) a[2] = bt;
            Val v = convert(read(X, a), acc_t);
            return fit(v, acc_t.is_float() ? 4.0 : 512.0);
        };
        Val va = operand(A, ak, m), vb = operand(B, bk, n);
        Expr prod = va.e * vb.e;
        double bound = va.bound * vb.bound * at(K.est, hi_);
        std::vector<Var> args = {n, m};
        if (batch) args.push_back(bt);
        std::vector<Expr> eargs = exprs(args);

        // The pure init: zero, or a bias read from another node.
        Val init{cast(acc_t, 0), 0};
        std::string init_what = "zero init";
        if (rng_.coin(0.25)) {
            int c = pick_node([&](const Node &x) { return x.dims() >= 1 && x.dims() <= 2; });
            if (c >= 0) {
                const Node C = nodes_[c];
                std::vector<Expr> cargs(eargs.begin(), eargs.begin() + C.dims());
                for (int d = 0; d < C.dims(); d++) ext[d] = ext_min(ext[d], C.ext[d]);
                init = fit(convert(read(C, cargs), acc_t), acc_t.is_float() ? 10.0 : 1000.0);
                init_what = "bias init from " + C.f.name();
                bound += init.bound;
            }
        }
        const int form = rng_.weighted({5, 4, 3});  // acc + output wrapper, sum(), update on the Func
        const std::string desc = std::string(batch ? "batched " : "") + "matmul of " + A.f.name() + (ak ? "(m,k)" : "(k,m)") +
                                 " x " + B.f.name() + (bk ? "(n,k)" : "(k,n)") + ", " + init_what + ", " + type_name(acc_t);
        if (form == 0) {
            Func acc(fresh("acc")), host(fresh("mm"));
            if (!for_diet_) acc.compute_root();
            acc(args) = init.e;
            acc(args) += prod;
            Val out{acc(eargs), bound};
            Type host_t = maybe_other_type(acc_t, 0.2);
            const int post = rng_.uniform(0, 3);
            if (post == 1) out = unary(out);
            if (post == 2) out = {out.e * cast(acc_t, 2), out.bound * 2};
            out = fit_int(convert(out, host_t));
            host(args) = out.e;
            if (rng_.coin(0.15)) {  // acc also read by another stage: two consumers
                Node an = make_node(acc, {{acc(eargs), bound}}, ext);
                nodes_.push_back(an);
            }
            return accept(make_node(host, {out}, ext), desc + ", acc " + acc.name() + " + wrapper");
        }
        if (form == 1) {
            Func host(fresh("mm"));
            Val s{init_what == "zero init" ? sum(prod) : init.e + sum(prod), bound};
            if (rng_.coin(0.3)) s = unary(s);
            host(args) = fit_int(s).e;
            return accept(make_node(host, {fit_int(s)}, ext), desc + ", inline sum()");
        }
        Func f(fresh("mmr"));
        f(args) = init.e;
        f(args) += prod;
        return accept(make_node(f, {{f(eargs), bound}}, ext), desc + ", update on the Func itself");
    }

    bool add_reduce() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node src = nodes_[i];
        // The reduced dimensions: one, or two.
        std::vector<int> rd = {rng_.uniform(0, src.dims() - 1)};
        if (src.dims() >= 2 && rng_.coin(0.2)) {
            int d2 = rng_.uniform(0, src.dims() - 2);
            rd.push_back(d2 >= rd[0] ? d2 + 1 : d2);
        }
        std::vector<Var> args = vars(src.dims() - (int)rd.size());
        std::vector<Extent> ext;
        Region rbounds;
        for (int d : rd) rbounds.push_back(Range(0, src.ext[d].alg));
        RDom r(rbounds, "r");
        std::vector<Expr> sargs(src.dims());
        int64_t count = 1;
        {
            int k = 0;
            for (int d = 0; d < src.dims(); d++) {
                auto it = std::find(rd.begin(), rd.end(), d);
                if (it != rd.end()) {
                    sargs[d] = r[(int)(it - rd.begin())];
                    count *= at(src.ext[d].est, hi_);
                } else {
                    sargs[d] = args[k++];
                    ext.push_back(src.ext[d]);
                }
            }
        }
        std::string what;
        if (!args.empty() && rng_.coin(0.2)) {
            // Triangular: only r <= one of the pure variables (a causal mask).
            r.where(r[0] <= args[rng_.uniform(0, (int)args.size() - 1)]);
            what = "triangular ";
        }
        Val v = read(src, sargs);
        Type t = v.type();
        Type acc = t.is_float() ? maybe_other_type(t, 0.2) : rng_.pick(std::vector<Type>{t, Int(32), Float(32)});
        v = convert(v, acc);
        Func f(fresh("red"));
        const int form = rng_.uniform(0, 5);
        std::vector<Expr> eargs = exprs(args);
        if (form == 0 || form == 1) {  // sum, inline or explicit
            v = fit(v, acc.is_float() ? 10.0 : kIntLimit / (double)count);
            Val s{Expr(), v.bound * count};
            if (form == 0) {
                f(args) = sum(v.e);
            } else {
                f(args) = cast(acc, 0);
                f(args) += v.e;
            }
            s.e = f(eargs);
            return accept(make_node(f, {s}, ext), what + (form ? "explicit " : "inline ") + "sum over " + std::to_string(rd.size()) +
                                                       " dim(s) of " + src.f.name());
        }
        if (form == 2 || form == 3) {
            f(args) = form == 2 ? maximum(v.e) : minimum(v.e);
            return accept(make_node(f, {{f(eargs), v.bound}}, ext), what + (form == 2 ? "maximum" : "minimum") + " of " + src.f.name());
        }
        if (form == 4) {  // explicit max with an init from the first element
            f(args) = konst(acc, acc.is_float() ? -1e6 : acc.is_uint() ? 0 : -30000);
            f(args) = max(f(eargs), v.e);
            return accept(make_node(f, {{f(eargs), std::max(v.bound, 1e6 * acc.is_float() + 30000)}}, ext),
                          what + "explicit running max of " + src.f.name());
        }
        Tuple am = rng_.coin() ? argmax(r, v.e) : argmin(r, v.e);
        if (rng_.coin()) {
            f(args) = am;
            std::vector<Val> vals;
            for (size_t k = 0; k < am.size(); k++) vals.push_back({f(eargs)[k], k + 1 == am.size() ? v.bound : (double)kMaxExtent});
            return accept(make_node(f, vals, ext), what + "argmax/argmin (a Tuple) of " + src.f.name());
        }
        f(args) = am[0] + 1;
        return accept(make_node(f, {{f(eargs), (double)kMaxExtent + 1}}, ext), what + "argmax/argmin index of " + src.f.name());
    }

    bool add_scan() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node src = nodes_[i];
        auto args = vars(src.dims());
        int d = rng_.uniform(0, src.dims() - 1);
        Val v = read(src, exprs(args));
        const int64_t e = at(src.ext[d].est, hi_);
        v = fit(v, v.type().is_float() ? 10.0 : kIntLimit / (double)e);
        Func f(fresh("scan"));
        f(args) = v.e;
        RDom r(1, src.ext[d].alg - 1, "s");
        std::vector<Expr> here = exprs(args), prev = exprs(args);
        here[d] = r;
        prev[d] = r - 1;
        const bool use_max = rng_.coin(0.3);
        f(here) = use_max ? max(f(here), f(prev)) : f(here) + f(prev);
        return accept(make_node(f, {{f(exprs(args)), use_max ? v.bound : v.bound * e}}, src.ext),
                      std::string(use_max ? "running max" : "prefix sum") + " along dim " + std::to_string(d) + " of " +
                          src.f.name());
    }

    bool add_histogram() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node src = nodes_[i];
        Region rb;
        int64_t count = 1;
        for (const Extent &e : src.ext) {
            rb.push_back(Range(0, e.alg));
            count *= at(e.est, hi_);
        }
        RDom r(rb, "h");
        std::vector<Expr> sargs;
        for (int d = 0; d < src.dims(); d++) sargs.push_back(r[d]);
        Val v = read(src, sargs);
        Extent bins = rng_.coin(0.7) ? Extent{Expr(rng_.pick(std::vector<int>{4, 16, 37})), Expr()} : Extent{T_ + 3, T_ + 3};
        if (!bins.est.defined()) bins.est = bins.alg;
        Expr idx;
        if (v.type().is_float()) {
            idx = cast<int>(floor(clamp(v.e * cast(v.type(), 4), cast(v.type(), -1000), cast(v.type(), 1000))));
        } else {
            idx = cast<int>(v.e);
        }
        idx = clamp(idx % bins.alg, 0, bins.alg - 1);
        Var x("x");
        Func h(fresh("hist"));
        const bool weighted = rng_.coin(0.4);
        Type t = weighted && v.type().is_float() ? v.type() : Int(32);
        h(x) = cast(t, 0);
        Val w = weighted ? fit(convert(v, t), t.is_float() ? 10.0 : 1000.0) : Val{cast(t, 1), 1};
        h(idx) += w.e;
        return accept(make_node(h, {{h(x), w.bound * count}}, {bins}),
                      std::string(weighted ? "weighted " : "") + "histogram of " + src.f.name());
    }

    // g(..., x_d, ...) = a(..., clamp(idx(...), 0, extent - 1), ...)
    bool add_gather() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node A = nodes_[i];
        int j = pick_node([&](const Node &n) { return n.dims() == A.dims(); });
        const Node I = nodes_[j];
        int d = rng_.uniform(0, A.dims() - 1);
        auto args = vars(A.dims());
        std::vector<Extent> ext;
        for (int k = 0; k < A.dims(); k++) ext.push_back(k == d ? I.ext[k] : ext_min(A.ext[k], I.ext[k]));
        Val iv = convert(read(I, exprs(args)), Int(32));
        std::vector<Expr> aargs = exprs(args);
        aargs[d] = clamp(iv.e, 0, A.ext[d].alg - 1);
        return accept(define("gather", args, read(A, aargs), ext),
                      "gather from " + A.f.name() + " along dim " + std::to_string(d) + " at indices " + I.f.name());
    }

    bool add_tuple() {
        int i = pick_node([](const Node &) { return true; });
        const Node a = nodes_[i];
        int j = pick_node([&](const Node &n) { return n.dims() == a.dims(); });
        const Node b = nodes_[j];
        auto args = vars(a.dims());
        std::vector<Extent> ext;
        for (int d = 0; d < a.dims(); d++) ext.push_back(ext_min(a.ext[d], b.ext[d]));
        Val va = fit_int(unary(read(a, exprs(args)))), vb = fit_int(read(b, exprs(args)));
        Func f(fresh("tup"));
        f(args) = Tuple(va.e, vb.e);
        return accept(make_node(f, {va, vb}, ext), "Tuple of " + a.f.name() + ", " + b.f.name());
    }

    // g = a; g = g op b (an update at the pure coordinates), or g(.., 0, ..) = c (an edge fix-up).
    bool add_pure_update() {
        int i = pick_node([](const Node &n) { return n.dims() >= 1; });
        if (i < 0) return false;
        const Node a = nodes_[i];
        auto args = vars(a.dims());
        std::vector<Extent> ext = a.ext;
        Val v = fit(read(a, exprs(args)), a.types[0].is_float() ? 1e3 : 4096);
        Func f(fresh("upd"));
        f(args) = v.e;
        std::string what;
        if (rng_.coin()) {
            int j = pick_node([&](const Node &n) { return n.dims() == a.dims(); });
            const Node b = nodes_[j];
            for (int d = 0; d < a.dims(); d++) ext[d] = ext_min(ext[d], b.ext[d]);
            Val u = binary({f(exprs(args)), v.bound}, read(b, exprs(args)));
            u = fit_int(convert(u, v.type()));
            f(args) = u.e;
            v = u;
            what = "pure update with " + b.f.name() + " of " + a.f.name();
        } else {
            int d = rng_.uniform(0, a.dims() - 1);
            std::vector<Expr> edge = exprs(args);
            edge[d] = 0;
            f(edge) = cast(v.type(), 7);
            v.bound = std::max(v.bound, 7.0);
            what = "edge fix-up along dim " + std::to_string(d) + " of " + a.f.name();
        }
        return accept(make_node(f, {{f(exprs(args)), v.bound}}, ext), what);
    }
};

// ---- describing a pipeline ---------------------------------------------------------------------

std::string describe_funcs(const std::vector<Func> &outputs) {
    std::vector<Internal::Function> fs;
    for (const Func &f : outputs) fs.push_back(f.function());
    std::map<std::string, Internal::Function> env;
    for (const Internal::Function &f : fs) {
        auto more = Internal::find_transitive_calls(f);
        env.insert(more.begin(), more.end());
        env.emplace(f.name(), f);
    }
    std::ostringstream o;
    auto values = [&](const std::vector<Expr> &v) {
        std::ostringstream s;
        if (v.size() > 1) s << "{";
        for (size_t i = 0; i < v.size(); i++) s << (i ? ", " : "") << v[i];
        if (v.size() > 1) s << "}";
        return s.str();
    };
    for (const std::string &name : Internal::topological_order(fs, env)) {
        const Internal::Function &f = env.at(name);
        if (!f.has_pure_definition()) continue;
        o << "    " << name << "(";
        for (size_t i = 0; i < f.args().size(); i++) o << (i ? ", " : "") << f.args()[i];
        o << ") = " << values(f.values()) << "\n";
        for (const Internal::Definition &u : f.updates()) {
            o << "    " << name << "(";
            for (size_t i = 0; i < u.args().size(); i++) o << (i ? ", " : "") << u.args()[i];
            o << ") = " << values(u.values());
            for (const Internal::ReductionVariable &rv : u.schedule().rvars()) {
                o << "  [" << rv.var << " in " << rv.min << " .. " << rv.min << " + " << rv.extent << ")";
            }
            if (u.predicate().defined() && !Internal::is_const_one(u.predicate())) o << "  where " << u.predicate();
            o << "\n";
        }
    }
    return o.str();
}

// ---- running and comparing ---------------------------------------------------------------------

struct Outcome {
    bool ok = true;
    bool matmul_kernel = false;   // Diet chose a micro-kernel for some stage
    std::string message;
};

Outcome run_one(uint32_t seed, bool verbose) {
    g_current_seed = (sig_atomic_t)seed;
    Rng rng(seed);
    const int lo = rng.pick(std::vector<int>{1, 1, 2, 3});
    const int hi = lo + rng.pick(std::vector<int>{0, 1, 3, 7, 15, 31});
    const int est = rng.uniform(lo, hi);
    const int parallelism = rng.pick(std::vector<int>{1, 2, 2, 4, 16});
    const uint32_t build_seed = (uint32_t)rng.g();
    std::vector<int> ts = {lo, hi};
    if (hi - lo > 1) ts.push_back(rng.uniform(lo + 1, hi - 1));
    ts.erase(std::unique(ts.begin(), ts.end()), ts.end());

    Param<int> T("T", est, lo, hi);
    Generator diet_gen(build_seed, T, lo, hi, true), ref_gen(build_seed, T, lo, hi, false);
    g_phase = "building";
    diet_gen.build();
    ref_gen.build();

    // The target Diet schedules for: its vector width sets the lanes and the micro-kernel sizes.
    // Mostly narrower than the host: the JIT compile time of a matmul's chain of unrolled tile
    // variants grows quickly with AVX-512's register tiles (seconds each).
    bool has_matmul = false;
    for (const std::string &s : ref_gen.stages) has_matmul |= s.find("matmul") != std::string::npos;
    const char *st = getenv("DIET_FUZZ_TARGET");
    const std::string sched_target = st && *st ? std::string(st) : [&] {
        switch (rng.weighted(has_matmul ? std::vector<int>{6, 3, 1} : std::vector<int>{4, 4, 2})) {
        case 0: return std::string("x86-64-linux-sse41");
        case 1: return std::string("x86-64-linux-avx-avx2-f16c-fma-sse41");
        default: return std::string("host");
        }
    }();

    std::ostringstream head;
    head << "seed " << seed << " (reproduce: DIET_FUZZ_SEED=" << seed << " DIET_FUZZ_COUNT=1): T in [" << lo << ", " << hi
         << "], estimate " << est << ", parallelism " << parallelism << ", scheduled for " << sched_target << "\n  inputs:";
    for (size_t i = 0; i < ref_gen.inputs.size(); i++) {
        head << " " << ref_gen.inputs[i].name() << ":" << type_name(ref_gen.inputs[i].type()) << "[";
        for (size_t d = 0; d < ref_gen.input_ext[i].size(); d++) head << (d ? ", " : "") << ref_gen.input_ext[i][d].est;
        head << "]";
    }
    head << "\n  stages:\n";
    for (const std::string &s : ref_gen.stages) head << "    " << s << "\n";
    head << "  outputs:";
    for (const Func &f : ref_gen.outputs) head << " " << f.name();
    head << "\n  definitions:\n" << describe_funcs(ref_gen.outputs);

    Outcome out;
    if (verbose) std::cout << "---- " << head.str() << std::flush;
    if (env_int("DIET_FUZZ_DRY", 0)) return out;  // only generate and print (with DIET_FUZZ_VERBOSE=1)
    auto fail = [&](const std::string &what, const std::string &log, const std::string &schedule) {
        out.ok = false;
        out.message = what + "\n" + head.str() + (log.empty() ? "" : "  Diet's log:\n" + log) +
                      (schedule.empty() ? "" : "  Diet's schedule:\n" + schedule);
        return out;
    };

    Pipeline p(diet_gen.outputs), ref(ref_gen.outputs);
    std::string log, schedule;
    {
        g_phase = "scheduling (Diet)";
        StderrCapture cap(verbose);
        try {
            Target t = sched_target == "host" ? diet::runnable_host_target() : Target(sched_target);
            AutoSchedulerResults r = p.auto_schedule("Diet", t, MachineParams(parallelism, 1 << 20, 40));
            schedule = r.schedule_source;
        } catch (const std::exception &e) {
            log = cap.finish();
            return fail(std::string("Diet threw: ") + e.what(), log, "");
        }
        log = cap.finish();
    }
    out.matmul_kernel = log.find("heuristic picks") != std::string::npos;

    const Target target = get_jit_target_from_environment().with_feature(Target::StrictFloat);
    using Clock = std::chrono::steady_clock;
    auto secs_since = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    double t_compile = 0, t_ref_compile = 0, t_run = 0, t_ref_run = 0;
    try {
        g_phase = "compiling (Diet's schedule)";
        StderrCapture cap(verbose);
        auto t0 = Clock::now();
        p.compile_jit(target);
        t_compile = secs_since(t0);
        // DIET_FUZZ_STMT=<file>: also write the lowered statement of Diet's schedule (debugging).
        if (const char *stmt = getenv("DIET_FUZZ_STMT")) p.compile_to_lowered_stmt(stmt, p.infer_arguments(), Text, target);
        log += cap.finish();
    } catch (const std::exception &e) {
        return fail(std::string("Diet's schedule failed to compile: ") + e.what(), log, schedule);
    }
    try {
        g_phase = "compiling (reference)";
        auto t0 = Clock::now();
        ref.compile_jit(target);
        t_ref_compile = secs_since(t0);
    } catch (const std::exception &e) {
        return fail(std::string("the reference failed to compile (a fuzzer bug): ") + e.what(), log, schedule);
    }
    for (int t : ts) {
        T.set(t);
        for (size_t i = 0; i < diet_gen.inputs.size(); i++) {
            std::vector<int> sizes;
            for (const Extent &e : diet_gen.input_ext[i]) sizes.push_back((int)Generator::at(e.est, t));
            Buffer<> b = random_input(diet_gen.inputs[i].type(), sizes, seed * 7919u + (uint32_t)t * 31u + (uint32_t)i, -2, 2);
            diet_gen.inputs[i].set(b);
            ref_gen.inputs[i].set(b);
        }
        auto outputs_at = [&](const std::vector<Node> &nodes) {
            std::vector<Buffer<>> bufs;
            for (const Node &n : nodes) {
                std::vector<int> sizes;
                for (const Extent &e : n.ext) sizes.push_back((int)Generator::at(e.est, t));
                for (const Type &ty : n.types) bufs.emplace_back(ty, sizes);
            }
            return bufs;
        };
        std::vector<Buffer<>> got = outputs_at(diet_gen.output_nodes), want = outputs_at(ref_gen.output_nodes);
        const std::string at_t = " at T=" + std::to_string(t);
        try {
            g_phase = "compiling or running (Diet's schedule)";
            StderrCapture cap(verbose);
            Realization rg(got);
            auto t0 = Clock::now();
            p.realize(rg, target);
            t_run += secs_since(t0);
            log += cap.finish();
        } catch (const std::exception &e) {
            return fail("Diet's schedule failed to compile or run" + at_t + ": " + e.what(), log, schedule);
        }
        try {
            g_phase = "compiling or running (reference)";
            Realization rw(want);
            auto t0 = Clock::now();
            ref.realize(rw, target);
            t_ref_run += secs_since(t0);
        } catch (const std::exception &e) {
            // Not Diet's fault: the generated algorithm itself is wrong.
            return fail("the reference failed" + at_t + " (a fuzzer bug): " + e.what(), log, schedule);
        }
        for (size_t k = 0; k < got.size(); k++) {
            std::string diff = compare(got[k], want[k]);
            if (!diff.empty()) return fail("wrong result" + at_t + " in output buffer " + std::to_string(k) + ": " + diff, log, schedule);
        }
    }
    g_phase = "between";
    if (verbose) {
        std::cout << "  compile " << t_compile << " s (reference " << t_ref_compile << " s), run " << t_run
                  << " s (reference " << t_ref_run << " s)\n";
    }
    return out;
}

}  // namespace

TEST_CASE("Diet schedules random pipelines correctly", "[fuzz]") {
    load_diet();
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    signal(SIGABRT, on_crash);
    signal(SIGILL, on_crash);
    const int count = env_int("DIET_FUZZ_COUNT", kDefaultCount);
    const uint32_t seed0 = (uint32_t)env_int("DIET_FUZZ_SEED", (int)kDefaultSeed);
    const bool verbose = env_int("DIET_FUZZ_VERBOSE", 0) != 0;
    const auto start = std::chrono::steady_clock::now();
    int failures = 0, kernels = 0;
    std::vector<std::pair<double, uint32_t>> slowest;
    for (int i = 0; i < count; i++) {
        const auto t0 = std::chrono::steady_clock::now();
        Outcome o = run_one(seed0 + (uint32_t)i, verbose);
        slowest.push_back({std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), seed0 + (uint32_t)i});
        kernels += o.matmul_kernel;
        if (!o.ok) {
            failures++;
            FAIL_CHECK(o.message);
        }
        if ((i + 1) % 50 == 0 && i + 1 < count) {  // progress for long runs (DIET_FUZZ_COUNT)
            const double done = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::fprintf(stderr, "test_fuzz: %d/%d pipelines, %d failure(s), ETA %.0f s\n", i + 1, count, failures,
                         done / (i + 1) * (count - i - 1));
        }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "test_fuzz: " << count << " pipeline(s) from seed " << seed0 << " in " << secs << " s; " << failures
              << " failure(s); Diet chose a matmul micro-kernel in " << kernels << "\n";
    std::sort(slowest.rbegin(), slowest.rend());
    std::cout << "test_fuzz: slowest seeds:";
    for (size_t i = 0; i < slowest.size() && i < 5; i++) std::cout << " " << slowest[i].second << " (" << slowest[i].first << " s)";
    std::cout << "\n";
    CHECK(failures == 0);
}
