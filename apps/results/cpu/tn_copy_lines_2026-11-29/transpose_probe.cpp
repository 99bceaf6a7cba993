#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    Target tgt(getenv("TGT"));
    const int M = atoi(argv[1]), K = 768;
    ImageParam a(Float(32), 2, "a");  // a(m, k): m innermost
    Buffer<float> ab(M, K);
    ab.for_each_element([&](int m, int k) { ab(m, k) = m * 0.5f + k; });
    a.set(ab);
    for (int variant = 0; variant < 5; variant++) {
        Func c("c");
        Var m("m"), k("k"), mo, mi, ko, ki, kio, kii, mio, mii, t;
        c(k, m) = a(m, k);  // dst k innermost
        if (variant == 0) {  // Diet now: 8x8 blocks, m blocks inner, k blocks parallel
            c.split(k, ko, ki, 8).split(m, mo, mi, 8).reorder(mi, ki, mo, ko).vectorize(mi).vectorize(ki).parallel(ko);
        } else if (variant == 1) {  // dst 16 x src 8
            c.split(k, ko, ki, 16).split(ki, kio, kii, 8).split(m, mo, mi, 8).reorder(mi, kii, kio, mo, ko).vectorize(mi).vectorize(kii).unroll(kio).parallel(ko);
        } else if (variant == 2) {  // 8x8, k blocks inner, m blocks outer parallel
            c.split(k, ko, ki, 8).split(m, mo, mi, 8).reorder(mi, ki, ko, mo).vectorize(mi).vectorize(ki).parallel(mo);
        } else if (variant == 3) {  // dst-vectorized only: vectors along k (gathers of a)
            c.split(k, ko, ki, 8).reorder(ki, m, ko).vectorize(ki).parallel(ko);
        } else {  // 16x16 blocks (2x2 of 8x8), m blocks inner
            c.split(k, ko, ki, 16).split(ki, kio, kii, 8).split(m, mo, mi, 16).split(mi, mio, mii, 8)
             .reorder(mii, kii, mio, kio, mo, ko).vectorize(mii).vectorize(kii).unroll(mio).unroll(kio).parallel(ko);
        }
        c.compile_jit(tgt);
        Buffer<float> out(K, M);
        c.realize(out);
        double best = 1e9;
        for (int r = 0; r < 30; r++) {
            auto t0 = std::chrono::steady_clock::now();
            c.realize(out);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        bool ok = true;
        for (int mm = 0; mm < M; mm += 37) for (int kk = 0; kk < K; kk += 13) ok &= out(kk, mm) == ab(mm, kk);
        printf("M=%d variant %d: %.3f ms %s (%.2f GB/s moved)\n", M, variant, best * 1e3, ok ? "ok" : "WRONG", 2.0 * M * K * 4 / best / 1e9);
    }
}
