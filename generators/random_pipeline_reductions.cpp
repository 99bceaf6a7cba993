// The random pipeline generator's reductions and other stateful stages: matmul-like products,
// general reductions, scans, histograms, gathers, Tuples and pure updates (random_pipeline.h).
#include "random_pipeline.h"
#include "random_pipeline_values.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace random_pipeline {

using namespace Halide;

bool Generator::add_matmul() {
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
    if (at(N.est, hi_) * at(M.est, hi_) * at(K.est, hi_) * (batch ? at(ext[2].est, hi_) : 1) > limits_.max_macs) return false;
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

bool Generator::add_reduce() {
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
        for (size_t k = 0; k < am.size(); k++) vals.push_back({f(eargs)[k], k + 1 == am.size() ? v.bound : (double)limits_.max_extent});
        return accept(make_node(f, vals, ext), what + "argmax/argmin (a Tuple) of " + src.f.name());
    }
    f(args) = am[0] + 1;
    return accept(make_node(f, {{f(eargs), (double)limits_.max_extent + 1}}, ext), what + "argmax/argmin index of " + src.f.name());
}

bool Generator::add_scan() {
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

bool Generator::add_histogram() {
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

bool Generator::add_gather() {
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

bool Generator::add_tuple() {
    const auto [a, b, args, ext] = pick_same_shape_pair();
    Val va = fit_int(unary(read(a, exprs(args)))), vb = fit_int(read(b, exprs(args)));
    Func f(fresh("tup"));
    f(args) = Tuple(va.e, vb.e);
    return accept(make_node(f, {va, vb}, ext), "Tuple of " + a.f.name() + ", " + b.f.name());
}

bool Generator::add_pure_update() {
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

}  // namespace random_pipeline
