// Probe: one batched contraction written in many argument orders and forms (other users' styles).
// out(perm of n, m, b) = sum_k A(layout of k, m, b) * W(layout of k, n, b), T and batch ranged.
#include "Halide.h"
#include "plugin/Diet.h"
#include <cstdio>
#include <random>
#include <chrono>
#include <algorithm>
using namespace Halide;
static Expr at(Func f, int layout, Expr k, Expr x, Expr b) {
    switch (layout) {
    case 0: return f(k, x, b);
    case 1: return f(x, k, b);
    case 2: return f(b, x, k);
    default: return f(x, b, k);
    }
}
int main(int argc, char **argv) {
    Target tgt(getenv("TGT"));
    int first = argc > 1 ? atoi(argv[1]) : 0, last = argc > 2 ? atoi(argv[2]) : 1000;
    int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int bad = 0, n_cases = 0;
    for (int c = first; c < last && c < 6 * 4 * 4 * 3; c++) {
        int perm = c % 6, la = (c / 6) % 4, lw = (c / 24) % 4, form = c / 96;
        Param<int> T("T"), NB("NB");
        const int TMAX = getenv("TMAX") ? atoi(getenv("TMAX")) : 64;
        T.set_range(1, TMAX); T.set_estimate(24);
        NB.set_range(1, getenv("TMAX") ? 16 : 12); NB.set_estimate(6);
        const int K = 32;
        Var n("n"), m("m"), b("b");
        Var vs[3] = {n, m, b};
        std::vector<Var> args = {vs[perms[perm][0]], vs[perms[perm][1]], vs[perms[perm][2]]};
        ImageParam A(Float(32), 3, "A"), W(Float(32), 3, "W");
        Func a("a"), w("w");
        a(_) = A(_); w(_) = W(_);
        RDom r(0, K, "r");
        Func out("out"), acc("acc"), ref("ref");
        Expr prod = at(a, la, r, m, b) * at(w, lw, r, n, b);
        if (form == 0) { out(args) = 0.f; out(args) += prod; }
        else if (form == 1) { acc(args) = 0.f; acc(args) += prod; out(args) = acc(args) * 0.5f; }
        else { out(args) = sum(prod) * 0.5f; }
        ref(args) = sum(at(A, la, r, m, b) * at(W, lw, r, n, b)) * (form == 0 ? 1.f : 0.5f);
        auto ext = [&](Var v) { Expr e = v.same_as(b) ? Expr(NB) : Expr(T); return e; };
        auto dims = [&](int layout, Var x) -> std::vector<Expr> {
            switch (layout) {
            case 0: return {K, ext(x), NB};
            case 1: return {ext(x), K, NB};
            case 2: return {NB, ext(x), K};
            default: return {ext(x), NB, K};
            }
        };
        auto da = dims(la, m), dw = dims(lw, n);
        A.set_estimates({{0, da[0]}, {0, da[1]}, {0, da[2]}});
        W.set_estimates({{0, dw[0]}, {0, dw[1]}, {0, dw[2]}});
        out.set_estimates({{0, ext(args[0])}, {0, ext(args[1])}, {0, ext(args[2])}});
        char name[64]; snprintf(name, 64, "case %d perm %d A%d W%d form %d", c, perm, la, lw, form);
        try {
            diet::autoschedule(Pipeline(out), tgt, 2, 0, diet::Options{});
            out.compile_jit(tgt);
            int wrong = 0;
            std::vector<std::pair<int, int>> shapes = {{1, 1}, {3, 2}, {17, 5}, {64, 12}, {9, 1}, {70, 3}};
            if (getenv("TIME")) shapes = {{128, 16}, {8, 16}};
            for (auto [tt, bb] : shapes) {
                std::vector<int> sa, sw, so;
                auto val = [&](Expr e) { return (int)*as_const_int(Internal::simplify(Internal::substitute(T.name(), tt, Internal::substitute(NB.name(), bb, e)))); };
                for (auto &e : da) sa.push_back(val(e));
                for (auto &e : dw) sw.push_back(val(e));
                for (auto &v : args) so.push_back(val(ext(v)));
                Buffer<float> ab(sa), wb(sw);
                ab.for_each_element([&](const int *p) { ab(p) = ((p[0] * 7 + p[1] * 3 + p[2] * 5) % 13) * 0.1f - 0.6f; });
                wb.for_each_element([&](const int *p) { wb(p) = ((p[0] * 5 + p[1] * 11 + p[2] * 2) % 17) * 0.1f - 0.8f; });
                A.set(ab); W.set(wb); T.set(tt); NB.set(bb);
                Buffer<float> got(so);
                out.realize(got, tgt);
                Buffer<float> want = ref.realize(so);
                if (getenv("TIME")) {
                    std::vector<double> ts;
                    for (int rep = 0; rep < 25; rep++) {
                        auto t0 = std::chrono::steady_clock::now();
                        out.realize(got, tgt);
                        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                    }
                    std::sort(ts.begin(), ts.end());
                    printf("TIME %d %d %d %d T=%d NB=%d %.3f us\n", c, perm, la, lw * 10 + form, tt, bb, ts[12] * 1e6);
                }
                double err = 0;
                got.for_each_element([&](const int *p) { err = std::max(err, (double)std::abs(got(p) - want(p))); });
                if (err > 1e-3) { wrong++; printf("%s T=%d NB=%d err %.3g\n", name, tt, bb, err); }
            }
            if (wrong) bad++;
            else printf("%s ok\n", name);
        } catch (const std::exception &e) {
            printf("%s FAILED: %s\n", name, e.what());
            bad++;
        }
        fflush(stdout);
        n_cases++;
    }
    printf("%d of %d cases bad\n", bad, n_cases);
    return bad != 0;
}
