// Seed 20276129 rebuilt by hand from test_fuzz's printed definitions, with Diet's printed schedule
// (sched.inc, editable) applied, against the unscheduled pipeline at T = 2.
#include "Halide.h"
#include <cstdio>
using namespace Halide;
#include <map>
struct P { ImageParam in0{Int(16), 2, "in0"}; Param<int> T{"T"}; Func out; std::map<std::string, Func> f; };
P build() {
    P p;
    Var _0("_0"), _1("_1"), n("n"), m("m"), x("x"), y("y");
    Expr T = p.T;
    Func acc0("acc0"), mm1("mm1"), scan2("scan2"), bin3("bin3"), gather4("gather4"), acc5("acc5"), mm6("mm6");
    RDom k(0, min(7, 16 * T + 2), "k");
    acc0(n, m) = 0;
    acc0(n, m) += ((cast<int>(p.in0(m, k.x)) & 1023) - 512) * ((cast<int>(p.in0(k.x, n)) & 1023) - 512);
    mm1(n, m) = acc0(n, m) * 2;
    scan2(x, y) = (mm1(x, y) & 1023) - 512;
    RDom s(1, 6, "s");
    scan2(s.x, y) = scan2(s.x, y) + scan2(s.x - 1, y);
    bin3(x, y) = cast<int16_t>(p.in0(x, y) - cast<int16_t>(scan2(x, y)));
    gather4(x, y) = bin3(x, max(min(scan2(x, y), min(16 * T + 2, 7) - 1), 0));
    RDom k2(0, min(min(7, 16 * T + 2), min(min(7, 16 * T + 2), 7)), "k");
    acc5(n, m) = 0;
    acc5(n, m) += ((cast<int>(bin3(k2.x, m)) & 1023) - 512) * ((cast<int>(gather4(k2.x, n)) & 1023) - 512);
    mm6(n, m) = cast<double>(((acc5(n, m) & 1023) - 512) ^ 85);
    p.out = mm6;
    p.f = {{"acc0", acc0}, {"mm1", mm1}, {"scan2", scan2}, {"bin3", bin3}, {"gather4", gather4}, {"acc5", acc5}, {"mm6", mm6}};
    return p;
}
int main() {
    const int Tv = 2;
    Buffer<int16_t> in(16 * Tv + 2, 7);
    uint32_t st = 12345;
    in.for_each_value([&](int16_t &v) { st = st * 1664525u + 1013904223u; v = (int16_t)(st >> 16); });
    P r = build(), d = build();
    Target t("x86-64-linux-avx-avx2-f16c-fma-sse41");
    if (getenv("VIA_PLUGIN")) {
        load_plugin("/work/main/build/libautoschedule_diet.so");
        d.T.set_range(2, 33); d.T.set_estimate(22);
        d.in0.set_estimates({{0, 16 * Expr(d.T) + 2}, {0, 7}});
        d.out.set_estimates({{0, 16 * Expr(d.T) + 2}, {0, min(16 * Expr(d.T) + 2, 7)}});
        auto res = Pipeline(d.out).auto_schedule("Diet", t, MachineParams(2, 16777216, 40));
        if (getenv("PRINT_SCHED")) printf("%s\n", res.schedule_source.c_str());
    } else {
        Pipeline pipeline(d.out);
#include "sched.inc"
    }
    r.in0.set(in); r.T.set(Tv); d.in0.set(in); d.T.set(Tv);
    Buffer<double> a = Pipeline(r.out).realize({16 * Tv + 2, 7}, t), b = Pipeline(d.out).realize({16 * Tv + 2, 7}, t);
    int bad = 0;
    for (int j = 0; j < 7; j++) for (int i = 0; i < 16 * Tv + 2; i++) bad += a(i, j) != b(i, j);
    printf("bad %d of %d; (0,0) ref %g diet %g\n", bad, (16 * Tv + 2) * 7, a(0, 0), b(0, 0));
    return 0;
}
