// The random pipeline generator: the pipeline's skeleton, inputs, producers and pointwise,
// stencil, resampling and transposing stages (random_pipeline.h).
#include "random_pipeline.h"
#include "random_pipeline_values.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace random_pipeline {

using namespace Halide;

void Generator::build() {
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

int64_t Generator::at(const Expr &est, int t) {
    Expr s = Internal::simplify(Internal::substitute("T", Expr(t), est));
    const int64_t *v = Internal::as_const_int(s);
    if (!v) throw std::runtime_error("test_fuzz: extent " + [&] { std::ostringstream o; o << est; return o.str(); }() +
                                     " is not constant at T=" + std::to_string(t));
    return *v;
}

const std::vector<int> &Generator::kind_weights() {
    static const std::vector<int> w = {8, 8, 5, 12, 8, 5, 9, 10, 4, 4, 4, 3, 4};
    return w;
}

std::vector<Var> Generator::vars(int n) {
    static const char *names[] = {"x", "y", "z", "w"};
    std::vector<Var> v;
    for (int i = 0; i < n; i++) v.push_back(Var(names[i]));
    return v;
}

Extent Generator::ext_min(const Extent &a, const Extent &b) {
    if (Internal::equal(a.est, b.est)) return a;
    return {min(a.alg, b.alg), min(a.est, b.est)};
}

bool Generator::fits(const std::vector<Extent> &region) {
    int64_t elems = 1;
    for (const Extent &e : region) {
        int64_t l = at(e.est, lo_), h = at(e.est, hi_);
        if (l < 1 || h > limits_.max_extent) return false;
        elems *= h;
    }
    return elems <= limits_.max_elements;
}

void Generator::make_input(int i) {
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
            if (at(est, hi_) > limits_.max_extent) continue;
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

int Generator::pick_node(const std::function<bool(const Node &)> &ok) {
    std::vector<int> c;
    for (int i = 0; i < (int)nodes_.size(); i++) {
        if (ok(nodes_[i])) c.push_back(i);
    }
    if (c.empty()) return -1;
    if (ok(nodes_.back()) && rng_.coin(0.5)) return (int)nodes_.size() - 1;
    return rng_.pick(c);
}

Val Generator::read(const Node &n, const std::vector<Expr> &args) {
    if (n.tuple()) {
        int c = rng_.uniform(0, (int)n.types.size() - 1);
        return {n.f(args)[c], n.bound[c]};
    }
    return {n.f(args), n.bound[0]};
}

Node Generator::make_node(Func f, const std::vector<Val> &values, std::vector<Extent> ext) {
    Node n;
    n.f = f;
    for (const Val &v : values) {
        n.types.push_back(v.type());
        n.bound.push_back(v.bound);
    }
    n.ext = std::move(ext);
    return n;
}

Node Generator::define(const std::string &kind, const std::vector<Var> &args, Val v, const std::vector<Extent> &ext) {
    Func f(fresh(kind));
    v = fit_int(v);
    f(args) = v.e;
    return make_node(f, {v}, ext);
}

Val Generator::unary(Val v) {
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

Val Generator::binary(Val a, Val b) {
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

bool Generator::add_stage(int kind) {
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

bool Generator::accept(Node n, const std::string &what) {
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

bool Generator::add_unary() {
    int i = pick_node([](const Node &) { return true; });
    const Node src = nodes_[i];
    auto args = vars(src.dims());
    Val v = read(src, exprs(args));
    Type t = maybe_other_type(v.type(), 0.4);
    v = unary(convert(v, maybe_other_type(v.type(), 0.2)));
    v = convert(v, t);
    return accept(define("pw", args, v, src.ext), "unary/cast of " + src.f.name());
}

Generator::SameShapePair Generator::pick_same_shape_pair() {
    SameShapePair p;
    p.a = nodes_[pick_node([](const Node &) { return true; })];
    p.b = nodes_[pick_node([&](const Node &n) { return n.dims() == p.a.dims(); })];
    p.args = vars(p.a.dims());
    for (int d = 0; d < p.a.dims(); d++) p.ext.push_back(ext_min(p.a.ext[d], p.b.ext[d]));
    return p;
}

bool Generator::add_binary() {
    const auto [a, b, args, ext] = pick_same_shape_pair();
    Val va = read(a, exprs(args)), vb = read(b, exprs(args));
    Val v = rng_.coin() ? binary(va, vb) : binary(vb, va);
    return accept(define("bin", args, v, ext), "binary of " + a.f.name() + ", " + b.f.name());
}

bool Generator::add_broadcast() {
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

bool Generator::add_stencil() {
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

bool Generator::add_resample() {
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

bool Generator::add_transpose() {
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

}  // namespace random_pipeline
