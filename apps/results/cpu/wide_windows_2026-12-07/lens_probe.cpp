#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    const char *plugin = argv[1];
    int Wv = atoi(argv[2]), Hv = atoi(argv[3]), Rv = atoi(argv[4]);
    Target tgt(getenv("TGT"));
    load_plugin(plugin);
    ImageParam in(Float(32), 3, "in");
    Param<int> R("R", 4, 1, 8), W("W", 256, 1, 512), H("H", 256, 1, 512);
    Var x("x"), y("y"), c("c");
    Func cl = BoundaryConditions::repeat_edge(in);
    Func lum("lum"), wgt("wgt");
    lum(x, y) = 0.25f * cl(x, y, 0) + 0.5f * cl(x, y, 1) + 0.25f * cl(x, y, 2);
    wgt(x, y) = 1.0f + 8.0f * pow(lum(x, y), 4);
    RDom r(-R, 2 * R + 1, -R, 2 * R + 1, "disc");
    r.where(r.x * r.x + r.y * r.y <= R * R);
    Func acc("acc");
    acc(x, y, c) = Tuple(0.0f, 0.0f);
    Expr w = wgt(x + r.x, y + r.y);
    acc(x, y, c) = Tuple(acc(x, y, c)[0] + w * cl(x + r.x, y + r.y, c), acc(x, y, c)[1] + w);
    Func out("out");
    out(x, y, c) = acc(x, y, c)[0] / acc(x, y, c)[1];
    const bool sym = argc <= 5;
    in.dim(0).set_estimate(0, sym ? Expr(W) : Expr(512)); in.dim(1).set_estimate(0, sym ? Expr(H) : Expr(512)); in.dim(2).set_estimate(0, 3);
    R.set_estimate(8); W.set_estimate(512); H.set_estimate(512);
    out.set_estimates({{0, sym ? Expr(W) : Expr(512)}, {0, sym ? Expr(H) : Expr(512)}, {0, 3}});
    Pipeline p(out);
    const char *hand = getenv("HAND");
    if (hand) {
        int mode = atoi(hand), VW = getenv("VW") ? atoi(getenv("VW")) : 64;
        Var x_vi("x_vi"), x_vo("x_vo"), y_i("y_i"), y_o("y_o");
        out.split(x, x_vo, x_vi, 16, TailStrategy::ShiftInwards).vectorize(x_vi).split(y, y_o, y_i, 16, TailStrategy::GuardWithIf).reorder(x_vi, x_vo, y_i, c, y_o).parallel(y_o);
        Func re = cl;  // repeat_edge's Func
        re.compute_at(out, y_o);
        { Var a = re.args()[0], av("av"), ai("ai"); re.split(a, av, ai, 16, TailStrategy::RoundUp).vectorize(ai); }
        wgt.compute_at(out, y_o).split(x, x_vo, x_vi, 16, TailStrategy::RoundUp).vectorize(x_vi);
        acc.compute_at(out, y_o).split(x, x_vo, x_vi, 16, TailStrategy::RoundUp).vectorize(x_vi);
        acc.update(0).split(x, x_vo, x_vi, VW, TailStrategy::RoundUp).vectorize(x_vi, 16);
        if (mode == 0) acc.update(0).reorder(x_vi, r.x, r.y, x_vo, y, c);
        else if (mode == 1) acc.update(0).reorder(x_vi, c, r.x, r.y, x_vo, y);
        else if (mode == 2) acc.update(0).reorder(x_vi, c, r.x, r.y, x_vo, y).unroll(c, 3, TailStrategy::GuardWithIf);
    } else if (std::string(plugin) != "none") p.auto_schedule(argc > 5 ? argv[5] : "Diet", tgt, MachineParams(2, 1048576, 40));
    if (getenv("STMT")) p.compile_to_lowered_stmt(getenv("STMT"), p.infer_arguments(), Text, tgt);
    p.compile_jit(tgt);
    Buffer<float> I(Wv, Hv, 3);
    I.for_each_element([&](int a, int b, int ch) { I(a, b, ch) = ((a * 7 + b * 3 + ch) % 17) / 17.f; });
    in.set(I); R.set(Rv); W.set(Wv); H.set(Hv);
    Buffer<float> O(Wv, Hv, 3);
    p.realize(O);
    std::vector<double> ts;
    for (int rep = 0; rep < 11; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        p.realize(O);
        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("%dx%d R=%d: %.3f ms  out(3,5,1)=%.6f\n", Wv, Hv, Rv, ts[5] * 1e3, O(3, 5, 1));
}
