#include "HalideBuffer.h"
#include "can.h"
#include "uoo.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
using Halide::Runtime::Buffer;
int main(int argc, char **argv) {
    int T = atoi(argv[1]), reps = atoi(argv[2]), which = atoi(argv[3]);
    Buffer<float> q(64, T, 192), k(64, T, 192), o(T, T, 192); Buffer<float> q2(192, T, 64), k2(192, T, 64), o2(192, T, T);
    q.fill(0.5f); k.fill(0.25f);
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; r++) {
        if (which == 0) can(q, k, T, o); else uoo(q2, k2, T, o2);
    }
    printf("%.2f us\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps * 1e6);
}
