// Runs the dense layer built from the committed schedule (apps/frozen/dense.schedule.h, no plugin)
// at every T in 1..128 and at T = 200, checking sampled rows against a double-precision dot product.
#include "HalideBuffer.h"
#include "dense_frozen.h"

#include <cmath>
#include <cstdio>

int main() {
    const int K = 768, N = 2304;
    for (int t = 1; t <= 129; t++) {
        const int T = t == 129 ? 200 : t, M = 16 * T;
        Halide::Runtime::Buffer<float> x(K, M), w(K, N), y(N, M);
        x.for_each_element([&](int k, int m) { x(k, m) = (float)((k * 7 + m * 3) % 13) / 13.f - 0.5f; });
        w.for_each_element([&](int k, int n) { w(k, n) = (float)((k * 5 + n) % 11) / 11.f - 0.5f; });
        if (int err = dense_frozen(x, w, T, y)) {
            std::printf("FAIL: dense_frozen returned %d at T=%d\n", err, T);
            return 1;
        }
        for (int m : {0, M / 2, M - 1}) {
            for (int n = 0; n < N; n++) {
                double s = 0;
                for (int k = 0; k < K; k++) s += (double)x(k, m) * w(k, n);
                if (std::abs(y(n, m) - s) > 1e-3 * (1 + std::abs(s))) {
                    std::printf("FAIL: T=%d y(%d, %d) = %f, want %f\n", T, n, m, y(n, m), s);
                    return 1;
                }
            }
        }
    }
    std::printf("PASS: the frozen dense schedule is correct at T = 1..128 and 200\n");
    return 0;
}
