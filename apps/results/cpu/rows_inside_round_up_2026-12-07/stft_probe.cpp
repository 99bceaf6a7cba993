#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    const char *plugin = argv[1];
    int F = atoi(argv[2]), bins = atoi(argv[3]);
    Target tgt(getenv("TGT"));
    load_plugin(plugin);
    const int win = 64, hop = 32;
    ImageParam sig(Float(32), 1, "sig");
    Param<int> Fp("F", 64, 1, 1024);
    Var n("n"), t("t"), k("k");
    const float pi = 3.14159265358979f;
    Func hann("hann"); hann(n) = 0.5f - 0.5f * cos(2.0f * pi * cast<float>(n) / (float)win);
    Func frame("frame"); frame(n, t) = sig(t * hop + n) * hann(n);
    Func tw("tw"); Expr ang = -2.0f * pi * cast<float>((k * n) % win) / (float)win;
    tw(k, n) = Tuple(cos(ang), sin(ang));
    RDom r(0, win, "r");
    Func dft("dft"); dft(k, t) = Tuple(0.0f, 0.0f);
    dft(k, t) = Tuple(dft(k, t)[0] + frame(r, t) * tw(k, r)[0], dft(k, t)[1] + frame(r, t) * tw(k, r)[1]);
    Func mag("mag"); mag(k, t) = sqrt(dft(k, t)[0] * dft(k, t)[0] + dft(k, t)[1] * dft(k, t)[1]);
    sig.dim(0).set_estimate(0, 1024 * hop + win - hop);
    Fp.set_estimate(1024);
    mag.set_estimates({{0, win / 2 + 1}, {0, 1024}});
    Pipeline p(mag);
    int mode = atoi(argv[4]); int VW = argc > 5 ? atoi(argv[5]) : 32, ROWS = argc > 6 ? atoi(argv[6]) : 8;
    if (mode == 0) p.auto_schedule("Diet", tgt, MachineParams(2, 1048576, 40));
    else {
        Var k_vi("k_vi"), k_vo("k_vo"), n_vi("n_vi"), n_vo("n_vo"), n_i("n_i"), n_o("n_o"), t_i("t_i"), t_o("t_o"), t_ri("t_ri"), t_ro("t_ro");
        hann.compute_root().split(n, n_vo, n_vi, 16, TailStrategy::ShiftInwards).vectorize(n_vi);
        tw.compute_root().split(k, k_vo, k_vi, 16, TailStrategy::ShiftInwards).vectorize(k_vi).split(n, n_o, n_i, 32, TailStrategy::GuardWithIf).reorder(k_vi, k_vo, n_i, n_o).parallel(n_o);
        mag.split(k, k_vo, k_vi, 16, TailStrategy::ShiftInwards).vectorize(k_vi).split(t, t_o, t_i, 64, TailStrategy::GuardWithIf).reorder(k_vi, k_vo, t_i, t_o).parallel(t_o);
        frame.compute_at(mag, t_o).split(n, n_vo, n_vi, 16, TailStrategy::ShiftInwards).vectorize(n_vi);
        dft.compute_at(mag, t_o).split(k, k_vo, k_vi, 16, TailStrategy::ShiftInwards).vectorize(k_vi);
        TailStrategy ts = mode == 1 ? TailStrategy::GuardWithIf : TailStrategy::RoundUp;
        dft.update(0).split(k, k_vo, k_vi, VW, ts).vectorize(k_vi, 16).split(t, t_ro, t_ri, ROWS, TailStrategy::GuardWithIf);
        if (mode == 3) dft.update(0).unroll(t_ri);
        dft.update(0).reorder(k_vi, t_ri, r.x, k_vo, t_ro);
    }
    p.compile_jit(tgt);
    Buffer<float> S(F * hop + win - hop);
    S.for_each_element([&](int i) { S(i) = sinf(i * 0.37f) + 0.1f * (i % 7); });
    sig.set(S); Fp.set(F);
    Buffer<float> M(bins, F);
    p.realize(M);
    std::vector<double> ts;
    for (int rep = 0; rep < 41; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        p.realize(M);
        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    double ref = 0; { int tt = F - 1, kk = bins - 1; double re = 0, im = 0; for (int j = 0; j < win; j++) { double fr = S(tt * hop + j) * (0.5 - 0.5 * cos(2 * M_PI * j / win)); double a = -2 * M_PI * ((kk * j) % win) / win; re += fr * cos(a); im += fr * sin(a);} ref = sqrt(re*re+im*im); }
    printf("F=%d bins=%d: %.4f ms  check %.5g vs %.5g\n", F, bins, ts[20] * 1e3, M(bins - 1, F - 1), ref);
}
