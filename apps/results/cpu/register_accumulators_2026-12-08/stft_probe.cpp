#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
int main(int argc, char **argv) {
    int variant = atoi(argv[1]);
    int GX = argc > 2 ? atoi(argv[2]) : 16, GY = argc > 3 ? atoi(argv[3]) : 4;
    const int F = 1024, win = 64, hop = 32, K = 33;
    Target t(getenv("TGT") ? getenv("TGT") : "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    ImageParam sig(Float(32), 1, "sig");
    Var n("n"), tt("t"), k("k");
    const float pi = 3.14159265358979f;
    Func hann("hann"), frame("frame"), tw("tw"), dft("dft"), mag("mag");
    hann(n) = 0.5f - 0.5f * cos(2.0f * pi * cast<float>(n) / (float)win);
    frame(n, tt) = sig(tt * hop + n) * hann(n);
    Expr ang = -2.0f * pi * cast<float>((k * n) % win) / (float)win;
    tw(k, n) = Tuple(cos(ang), sin(ang));
    RDom r(0, win, "r");
    dft(k, tt) = Tuple(0.0f, 0.0f);
    dft(k, tt) = Tuple(dft(k, tt)[0] + frame(r, tt) * tw(k, r)[0], dft(k, tt)[1] + frame(r, tt) * tw(k, r)[1]);
    mag(k, tt) = sqrt(dft(k, tt)[0] * dft(k, tt)[0] + dft(k, tt)[1] * dft(k, tt)[1]);
    Var ko("ko"), ki("ki"), to("to"), ti("ti"), g("g"), gi("gi"), gy("gy"), gyi("gyi");
    int L = t.has_feature(Target::AVX512_Skylake) ? 16 : 8;
    hann.compute_root();
    tw.compute_root().vectorize(k, L, TailStrategy::RoundUp);
    mag.split(tt, to, ti, 64, TailStrategy::GuardWithIf).split(k, ko, ki, L, TailStrategy::ShiftInwards).vectorize(ki)
        .reorder(ki, ko, ti, to).parallel(to);
    frame.compute_at(mag, to).vectorize(n, L);
    if (variant == 0) {
        // Diet-like: dft per tile, rows inside steps, 64 wide steps rounded up
        dft.compute_at(mag, to).vectorize(k, L, TailStrategy::RoundUp);
        Var kvo("kvo"), kvi("kvi");
        dft.update().split(k, kvo, kvi, 4 * L, TailStrategy::RoundUp).vectorize(kvi).reorder(kvi, tt, r, kvo);
    } else if (variant == 1) {
        // wrapper with 2-D groups GX x GY, dft per group
        Func w = dft.in();
        w.compute_at(mag, to).split(k, g, gi, GX, TailStrategy::ShiftInwards).split(tt, gy, gyi, GY, TailStrategy::ShiftInwards)
            .vectorize(gi).reorder(gi, gyi, g, gy);
        dft.compute_at(w, g).vectorize(k, GX).unroll(tt);
        dft.update().vectorize(k, GX).unroll(tt).reorder(k, tt, r);
    } else if (variant == 2) {
        // Adams-like: mag t split by GY unrolled, dft at mag's ko
        Func m2 = mag;
        mag.split(ti, ti, gyi, GY, TailStrategy::ShiftInwards).unroll(gyi).reorder(ki, gyi, ko, ti, to);
        dft.compute_at(mag, ko).vectorize(k, L).unroll(tt);
        dft.update().vectorize(k, L).unroll(tt).reorder(k, tt, r);
    }
    sig.dim(0).set_bounds(0, F * hop + win - hop);
    Buffer<float> sb(F * hop + win - hop), ob(K, F);
    for (int i = 0; i < sb.width(); i++) sb(i) = ((i * 7919) % 1000) / 1000.0f;
    sig.set(sb);
    mag.compile_jit(t);
    std::vector<double> ts;
    for (int i = 0; i < 41; i++) {
        auto t0 = std::chrono::steady_clock::now();
        mag.realize(ob);
        auto t1 = std::chrono::steady_clock::now();
        ts.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("variant %d GX %d GY %d: median %.4f ms  min %.4f  checksum %f\n", variant, GX, GY, ts[20], ts[0], ob(3, 100) + ob(32, 1000));
}
