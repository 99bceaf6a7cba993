// Plain C++ reference implementations of the pipelines in generators/.
//
// Conventions: every array is a flat std::vector<float> in Halide's layout,
// i.e. the FIRST Halide dimension is the fastest-varying one.  A buffer with
// Halide dims (d0, d1, d2) and extents (E0, E1, E2) stores element
// (i0, i1, i2) at index i0 + E0 * (i1 + E1 * i2).
//
// The results are returned in double precision (products are formed from the
// float inputs exactly, sums are accumulated in double), so they can serve as
// the "exact" answer when judging the float32 pipelines.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace diet_ref {

// dense: y(n, m) = sum_k x(k, m) * w(k, n).
//   x: (K, M), w: (K, N)  ->  y: (N, M)
// Each y(n, m) is summed in order k = 0, 1, ..., K-1.  The loops run over a
// transposed copy of w so that the inner loop is an independent axpy over n
// (fast, and the summation order is unchanged).
inline std::vector<double> dense(const std::vector<float> &x, const std::vector<float> &w,
                                 int K, int N, int M) {
    std::vector<double> wt((size_t)K * N);
    for (int n = 0; n < N; n++) {
        for (int k = 0; k < K; k++) {
            wt[(size_t)k * N + n] = w[(size_t)n * K + k];
        }
    }
    std::vector<double> y((size_t)N * M, 0.0);
    for (int m = 0; m < M; m++) {
        double *row = &y[(size_t)m * N];
        for (int k = 0; k < K; k++) {
            const double xv = x[(size_t)m * K + k];
            const double *wrow = &wt[(size_t)k * N];
            for (int n = 0; n < N; n++) {
                row[n] += xv * wrow[n];
            }
        }
    }
    return y;
}

// batch_matmul_nt: out(j, i, b) = sum_k a(k, i, b) * bt(k, j, b).
//   a: (D, T, B), bt: (D, T, B)  ->  out: (T, T, B)
inline std::vector<double> batch_matmul_nt(const std::vector<float> &a, const std::vector<float> &bt,
                                           int D, int T, int B) {
    std::vector<double> out((size_t)T * T * B);
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < T; i++) {
            const float *arow = &a[((size_t)b * T + i) * D];
            for (int j = 0; j < T; j++) {
                const float *brow = &bt[((size_t)b * T + j) * D];
                double s = 0.0;
                for (int k = 0; k < D; k++) {
                    s += (double)arow[k] * (double)brow[k];
                }
                out[((size_t)b * T + i) * T + j] = s;
            }
        }
    }
    return out;
}

// batch_matmul_nn: out(j, i, b) = sum_k a(k, i, b) * bn(j, k, b), k in [0, T).
//   a: (T, T, B), bn: (D, T, B)  ->  out: (D, T, B)
// If `batches` is non-empty only those batches are computed; the others are
// left as NaN.
inline std::vector<double> batch_matmul_nn(const std::vector<float> &a, const std::vector<float> &bn,
                                           int D, int T, int B,
                                           const std::vector<int> &batches = {}) {
    std::vector<double> out((size_t)D * T * B, std::numeric_limits<double>::quiet_NaN());
    std::vector<int> bs = batches;
    if (bs.empty()) {
        for (int b = 0; b < B; b++) {
            bs.push_back(b);
        }
    }
    for (int b : bs) {
        for (int i = 0; i < T; i++) {
            double *orow = &out[((size_t)b * T + i) * D];
            std::fill(orow, orow + D, 0.0);
            for (int k = 0; k < T; k++) {
                const double av = a[((size_t)b * T + i) * T + k];
                const float *brow = &bn[((size_t)b * T + k) * D];
                for (int j = 0; j < D; j++) {
                    orow[j] += av * (double)brow[j];
                }
            }
        }
    }
    return out;
}

// unsharp: 5-tap [1 4 6 4 1]/16 separable blur with clamp-to-edge boundary,
// then out = in + amount * (in - blur).
//   in: (W, H)  ->  out: (W, H)
inline std::vector<double> unsharp(const std::vector<float> &in, int W, int H, float amount) {
    auto at = [&](int x, int y) -> double {
        x = std::min(std::max(x, 0), W - 1);
        y = std::min(std::max(y, 0), H - 1);
        return in[(size_t)y * W + x];
    };
    const double taps[5] = {1, 4, 6, 4, 1};
    // Only the input is clamped; blur_x is evaluated at rows outside [0, H)
    // exactly as the pipeline does.
    auto blur_x = [&](int x, int y) -> double {
        double s = 0.0;
        for (int d = -2; d <= 2; d++) {
            s += taps[d + 2] * at(x + d, y);
        }
        return s / 16.0;
    };
    std::vector<double> out((size_t)W * H);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double s = 0.0;
            for (int d = -2; d <= 2; d++) {
                s += taps[d + 2] * blur_x(x, y + d);
            }
            const double blur = s / 16.0;
            const double v = at(x, y);
            out[(size_t)y * W + x] = v + (double)amount * (v - blur);
        }
    }
    return out;
}

// layernorm over rows: x: (C, M), gamma: (C), beta: (C)  ->  out: (C, M)
//   out(c, m) = (x(c, m) - mean(m)) / sqrt(var(m) + eps) * gamma(c) + beta(c)
// with the biased variance (divide by C), as in BERT.
inline std::vector<double> layernorm(const std::vector<float> &x, const std::vector<float> &gamma,
                                     const std::vector<float> &beta, int C, int M, double eps) {
    std::vector<double> out((size_t)C * M);
    for (int m = 0; m < M; m++) {
        const float *row = &x[(size_t)m * C];
        double mean = 0.0;
        for (int c = 0; c < C; c++) {
            mean += row[c];
        }
        mean /= C;
        double var = 0.0;
        for (int c = 0; c < C; c++) {
            const double d = row[c] - mean;
            var += d * d;
        }
        var /= C;
        const double inv_std = 1.0 / std::sqrt(var + eps);
        for (int c = 0; c < C; c++) {
            out[(size_t)m * C + c] = (row[c] - mean) * inv_std * gamma[c] + beta[c];
        }
    }
    return out;
}

// softmax over rows: x: (L, M)  ->  out: (L, M)
inline std::vector<double> softmax(const std::vector<float> &x, int L, int M) {
    std::vector<double> out((size_t)L * M);
    for (int m = 0; m < M; m++) {
        const float *row = &x[(size_t)m * L];
        double mx = -std::numeric_limits<double>::infinity();
        for (int l = 0; l < L; l++) {
            mx = std::max(mx, (double)row[l]);
        }
        double sum = 0.0;
        for (int l = 0; l < L; l++) {
            sum += std::exp(row[l] - mx);
        }
        for (int l = 0; l < L; l++) {
            out[(size_t)m * L + l] = std::exp(row[l] - mx) / sum;
        }
    }
    return out;
}

}  // namespace diet_ref
