#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
// argmax over the dense dimension of logits[V, T]; modes: 0 Diet, 1 hand rfactor, 2 Diet on maximum only, 3 hand select-Tuple form w/ Diet
int main(int argc, char **argv) {
    const char *plugin = argv[1];
    int Vn = atoi(argv[2]), Tn = atoi(argv[3]), mode = atoi(argv[4]);
    Target tgt(getenv("TGT"));
    load_plugin(plugin);
    ImageParam logits(Float(32), 2, "logits");
    Param<int> Vp("V", 4096, 1, 4096), Tp("T", 128, 1, 128);
    Var t("t");
    RDom rv(0, logits.dim(0).extent(), "rv");
    Func am("am");
    if (mode == 2) am(t) = Tuple(cast<int>(0), maximum(logits(rv, t)));
    else if (mode == 3 || mode >= 4) {
        am(t) = Tuple(0, Float(32).min());
        Expr better = logits(rv, t) > am(t)[1];
        am(t) = Tuple(select(better, rv, am(t)[0]), select(better, logits(rv, t), am(t)[1]));
    } else am(t) = argmax(logits(rv, t));
    Func out("out"); out(t) = am(t)[1] + cast<float>(am(t)[0]);
    int VL = getenv("VL") ? atoi(getenv("VL")) : 16, CH = getenv("CH") ? atoi(getenv("CH")) : 64, TM = getenv("TM") ? atoi(getenv("TM")) : 0;
    if (mode >= 4) { logits.dim(0).set_estimate(0, 4096); logits.dim(1).set_estimate(0, 128); } else { logits.dim(0).set_estimate(0, Vp); logits.dim(1).set_estimate(0, Tp); }
    Vp.set_estimate(4096); Tp.set_estimate(128);
    if (mode >= 4) out.set_estimates({{0, 128}}); else out.set_estimates({{0, Tp}});
    Pipeline p(out);
    if (mode >= 4) {
        Var to("to"), ti("ti"); RVar ro("ro"), ri("ri");
        out.split(t, to, ti, VL, TailStrategy::ShiftInwards).vectorize(ti).parallel(to);
        am.compute_at(out, to).vectorize(t);
        am.update(0).split(rv.x, ro, ri, CH, TailStrategy::GuardWithIf).reorder(t, ri, ro).vectorize(t);
        if (mode >= 5) {
            Func lw = logits.in(am);
            Var a0 = lw.args()[0], a1 = lw.args()[1];
            lw.compute_at(am, ro).reorder_storage(a1, a0);
            if (TM == 0) lw.reorder(a1, a0).vectorize(a1);
            else if (TM == 1) lw.vectorize(a0, 16).reorder(a1, a0).vectorize(a1);
            else if (TM == 2) { Var a0o, a0i; lw.split(a0, a0o, a0i, 16).reorder(a1, a0i, a0o).vectorize(a1).unroll(a0i); }
            else if (TM == 3) { lw.vectorize(a0, 16).unroll(a1); }
        }
    } else if (mode != 1) p.auto_schedule("Diet", tgt, MachineParams(2, 1048576, 40));
    else {
        Var u("u"); RVar ro("ro"), ri("ri");
        Func intm = am.update(0).split(rv.x, ro, ri, 16).rfactor(ri, u);
        out.split(t, t, Var("ti"), 8).parallel(t);
        am.compute_at(out, t);
        intm.compute_at(out, t).vectorize(u); intm.update(0).vectorize(u);
    }
    if (getenv("STMT")) p.compile_to_lowered_stmt(getenv("STMT"), p.infer_arguments(), Text, tgt);
    p.compile_jit(tgt);
    Buffer<float> L(Vn, Tn);
    L.for_each_element([&](int v, int tt) { L(v, tt) = sinf(v * 0.37f + tt * 1.3f) + 0.001f * ((v * 7 + tt) % 1013); });
    logits.set(L); Vp.set(Vn); Tp.set(Tn);
    Buffer<float> O(Tn);
    p.realize(O);
    std::vector<double> ts;
    for (int rep = 0; rep < 41; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        p.realize(O);
        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    int tt = Tn - 1; int bi = 0; for (int v = 1; v < Vn; v++) if (L(v, tt) > L(bi, tt)) bi = v;
    float ref = L(bi, tt) + (mode == 2 ? 0 : bi);
    printf("mode %d V=%d T=%d: %.4f ms  check %.6g vs %.6g\n", mode, Vn, Tn, ts[20] * 1e3, O(tt), ref);
}
