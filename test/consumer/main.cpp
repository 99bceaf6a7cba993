#include "HalideBuffer.h"
#include "matvec.h"

#include <cmath>
#include <cstdio>

int main() {
    for (int R = 1; R <= 32; R++) {
        Halide::Runtime::Buffer<float> a(24, 2 * R), b(24, 20), out(20, 2 * R);
        a.for_each_element([&](int k, int i) { a(k, i) = (float)((k * 7 + i * 3) % 11) - 5.f; });
        b.for_each_element([&](int k, int j) { b(k, j) = (float)((k * 5 + j) % 7) - 3.f; });
        if (matvec(a, b, R, out) != 0) return 1;
        for (int i = 0; i < 2 * R; i++) {
            for (int j = 0; j < 20; j++) {
                float s = 0;
                for (int k = 0; k < 24; k++) s += a(k, i) * b(k, j);
                if (std::abs(s - out(j, i)) > 1e-3f) {
                    std::printf("mismatch at R=%d (%d, %d): %f vs %f\n", R, j, i, out(j, i), s);
                    return 1;
                }
            }
        }
    }
    std::printf("consumer: all shapes correct\n");
    return 0;
}
