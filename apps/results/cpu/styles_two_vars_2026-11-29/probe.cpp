// Another style: numpy-order attention scores with two shape variables (heads H and length T),
// an explicit RDom over the head dimension, the update written on the output, plus a scale.
#include "Halide.h"
#include "plugin/Diet.h"
#include <cstdio>
#include <sstream>
using namespace Halide;
int main() {
    Target tgt(getenv("TGT"));
    ImageParam q(Float(32), 3, "q"), k(Float(32), 3, "k");  // q[h][i][d] as q(h, i, d): heads innermost
    Param<int> H("H"), T("T");
    H.set_range(getenv("HMIN") ? atoi(getenv("HMIN")) : 4, 48); H.set_estimate(16);
    T.set_range(1, 96); T.set_estimate(32);
    Var h("h"), i("i"), j("j");
    RDom d(0, 64, "d");
    Func s("s"), acc("acc");
    if (getenv("ACC")) {
        acc(h, i, j) = 0.f;
        acc(h, i, j) += q(h, i, d) * k(h, j, d) * 0.125f;
        s(h, i, j) = acc(h, i, j);
    } else {
        s(h, i, j) = 0.f;
        s(h, i, j) += q(h, i, d) * k(h, j, d) * 0.125f;
    }
    q.set_estimates({{0, H}, {0, T}, {0, 64}});
    k.set_estimates({{0, H}, {0, T}, {0, 64}});
    s.set_estimates({{0, H}, {0, T}, {0, T}});
    Func ref("ref");
    ref(h, i, j) = 0.f;
    ref(h, i, j) += q(h, i, d) * k(h, j, d) * 0.125f;
    { auto r = diet::autoschedule(Pipeline(s), tgt, 2, 0, diet::Options{}); if (getenv("SRC")) fprintf(stderr, "%s\n", r.schedule_source.c_str()); }
    if (getenv("STMT")) s.compile_to_lowered_stmt(getenv("STMT"), {q, k, H, T}, Halide::Text, tgt);
    s.compile_jit(tgt);
    int bad = 0;
    std::vector<std::pair<int, int>> cases = {{4, 1}, {5, 2}, {16, 7}, {20, 33}, {48, 96}, {3, 100}};
    if (getenv("HMIN")) cases = {{16, 1}, {17, 2}, {20, 7}, {20, 33}, {48, 96}};
    if (getenv("CASES")) { cases.clear(); std::stringstream ss(getenv("CASES")); int a, b; char c; while (ss >> a >> c >> b) { cases.push_back({a, b}); ss >> c; } }
    for (auto [hh, tt] : cases) {
        Buffer<float> qb(hh, tt, 64), kb(hh, tt, 64);
        qb.for_each_element([&](int a, int b, int c) { qb(a, b, c) = ((a * 7 + b * 3 + c) % 13) * 0.1f - 0.6f; });
        kb.for_each_element([&](int a, int b, int c) { kb(a, b, c) = ((a * 5 + b * 11 + c) % 17) * 0.1f - 0.8f; });
        q.set(qb); k.set(kb); H.set(hh); T.set(tt);
        Buffer<float> got = s.realize({hh, tt, tt}, tgt), want = ref.realize({hh, tt, tt});
        double err = 0;
        got.for_each_element([&](int a, int b, int c) { err = std::max(err, (double)std::abs(got(a, b, c) - want(a, b, c))); });
        printf("H=%d T=%d max err %.2e\n", hh, tt, err);
        bad += err > 1e-3;
    }
    printf("%s\n", bad ? "WRONG" : "all correct");
    return bad;
}
