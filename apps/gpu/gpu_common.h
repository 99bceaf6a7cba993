// Shared by apps/gpu/cublas_bench.cu and apps/gpu/diet_gpu_runner.cpp: the three workloads in
// Diet's layouts, the cuBLAS call that computes each of them, checked CUDA/cuBLAS calls, timing
// with CUDA events, the L2 flush and a tiny CPU reference. Header-only, CUDA runtime API + cuBLAS,
// so nvcc and g++ both compile it (no kernels of our own).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gpu {

// Every CUDA and cuBLAS return code is checked: a benchmark that silently timed a failed launch
// would report a fantasy.
#define GPU_CHECK_CUDA(call)                                                                             \
    do {                                                                                                 \
        cudaError_t e_ = (call);                                                                         \
        if (e_ != cudaSuccess) {                                                                         \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(3);                                                                                \
        }                                                                                                \
    } while (0)

#define GPU_CHECK_CUBLAS(call)                                                                           \
    do {                                                                                                 \
        cublasStatus_t s_ = (call);                                                                      \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                               \
            std::fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_); \
            std::exit(3);                                                                                \
        }                                                                                                \
    } while (0)

// The BERT shapes of the project's generators (generators/dense.cpp, generators/batch_matmul.cpp).
constexpr int kDenseK = 768, kDenseN = 2304, kHeads = 192, kHeadDim = 64;

enum class Workload { Dense, BmmNT, BmmNN };

inline const char *name_of(Workload w) {
    return w == Workload::Dense ? "dense" : w == Workload::BmmNT ? "bmm_nt" : "bmm_nn";
}

inline bool parse_workload(const std::string &s, Workload *w) {
    if (s == "dense") *w = Workload::Dense;
    else if (s == "bmm_nt") *w = Workload::BmmNT;
    else if (s == "bmm_nn") *w = Workload::BmmNN;
    else return false;
    return true;
}

// Extents of the two inputs and the output, innermost first, exactly as Diet's generators see them:
//   dense : x (K, 16T), w (K, N), y (N, 16T)             y(n,m) = sum_k x(k,m) w(k,n)
//   bmm_nt: a (D, T, B), bt (D, T, B), out (T, T, B)     out(j,i,b) = sum_k a(k,i,b) bt(k,j,b)
//   bmm_nn: a (T, T, B), bn (D, T, B), out (D, T, B)     out(j,i,b) = sum_k a(k,i,b) bn(j,k,b)
struct Shape {
    std::vector<int> in0, in1, out;
    double flops = 0;
};

inline size_t count(const std::vector<int> &e) {
    size_t n = 1;
    for (int x : e) n *= (size_t)x;
    return n;
}

inline Shape shape_of(Workload w, int T) {
    Shape s;
    const int K = kDenseK, N = kDenseN, B = kHeads, D = kHeadDim, M = 16 * T;
    switch (w) {
    case Workload::Dense:
        s.in0 = {K, M}, s.in1 = {K, N}, s.out = {N, M};
        s.flops = 2.0 * M * N * K;
        break;
    case Workload::BmmNT:
        s.in0 = {D, T, B}, s.in1 = {D, T, B}, s.out = {T, T, B};
        s.flops = 2.0 * B * T * T * D;
        break;
    case Workload::BmmNN:
        s.in0 = {T, T, B}, s.in1 = {D, T, B}, s.out = {D, T, B};
        s.flops = 2.0 * B * T * D * T;
        break;
    }
    return s;
}

// cuBLAS is column-major; Diet's buffers are innermost-first, i.e. a (inner, outer) buffer is a
// column-major inner x outer matrix with leading dimension `inner`. So:
//   dense : Y (N x M) = W^T (N x K) * X (K x M)                     -> gemm(T, N)
//   bmm_nt: OUT_b (T x T, rows j) = BT_b^T (T x D) * A_b (D x T)      -> strided gemm(T, N)
//   bmm_nn: OUT_b (D x T, rows j) = BN_b (D x T) * A_b (T x T, rows k) -> strided gemm(N, N)
inline void cublas_run(cublasHandle_t h, Workload w, int T, const float *in0, const float *in1, float *out) {
    const float one = 1.0f, zero = 0.0f;
    const int K = kDenseK, N = kDenseN, B = kHeads, D = kHeadDim, M = 16 * T;
    switch (w) {
    case Workload::Dense:
        GPU_CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, in1, K, in0, K, &zero, out, N));
        break;
    case Workload::BmmNT:
        GPU_CHECK_CUBLAS(cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, D, &one, in1, D,
                                                   (long long)D * T, in0, D, (long long)D * T, &zero, out, T,
                                                   (long long)T * T, B));
        break;
    case Workload::BmmNN:
        GPU_CHECK_CUBLAS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, D, T, T, &one, in1, D,
                                                   (long long)D * T, in0, T, (long long)T * T, &zero, out, D,
                                                   (long long)D * T, B));
        break;
    }
}

// The same product on the CPU, straight from the definitions above (double accumulation): used
// at a few T to prove the cuBLAS mapping right, since Diet's outputs are checked against cuBLAS.
inline std::vector<float> cpu_reference(Workload w, int T, const std::vector<float> &in0,
                                        const std::vector<float> &in1) {
    Shape s = shape_of(w, T);
    std::vector<float> out(count(s.out));
    const int K = kDenseK, N = kDenseN, B = kHeads, D = kHeadDim, M = 16 * T;
    if (w == Workload::Dense) {
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                double acc = 0;
                for (int k = 0; k < K; k++) acc += (double)in0[(size_t)m * K + k] * in1[(size_t)n * K + k];
                out[(size_t)m * N + n] = (float)acc;
            }
    } else if (w == Workload::BmmNT) {
        for (int b = 0; b < B; b++)
            for (int i = 0; i < T; i++)
                for (int j = 0; j < T; j++) {
                    double acc = 0;
                    for (int k = 0; k < D; k++)
                        acc += (double)in0[((size_t)b * T + i) * D + k] * in1[((size_t)b * T + j) * D + k];
                    out[((size_t)b * T + i) * T + j] = (float)acc;
                }
    } else {
        for (int b = 0; b < B; b++)
            for (int i = 0; i < T; i++)
                for (int j = 0; j < D; j++) {
                    double acc = 0;
                    for (int k = 0; k < T; k++)
                        acc += (double)in0[((size_t)b * T + i) * T + k] * in1[((size_t)b * T + k) * D + j];
                    out[((size_t)b * T + i) * D + j] = (float)acc;
                }
    }
    return out;
}

// max |got - ref| / max |ref|: a scale-free error that a few near-zero reference entries cannot
// blow up (float32 sums of K <= 768 products in [-1, 1] stay well under 1e-4 of it).
inline double relative_error(const std::vector<float> &got, const std::vector<float> &ref) {
    double max_ref = 0, max_diff = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        max_ref = std::max(max_ref, (double)std::fabs(ref[i]));
        double d = std::fabs((double)got[i] - (double)ref[i]);
        if (!(d <= max_diff)) max_diff = std::isnan(d) ? INFINITY : d;  // NaN must count as wrong
    }
    return max_ref > 0 ? max_diff / max_ref : max_diff;
}

// Deterministic inputs in [-1, 1) (a 64-bit LCG: reproducible, no <random> distribution differences).
inline void fill_random(std::vector<float> &v, uint64_t seed) {
    uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (float &f : v) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        f = (float)((double)(x >> 40) / (double)(1ULL << 24) * 2.0 - 1.0);
    }
}

// Evicts L2 between timed runs: a memset of twice the L2 size touches more lines than L2 holds.
struct L2Flusher {
    void *buf = nullptr;
    size_t bytes = 0;
    explicit L2Flusher(int device) {
        int l2 = 0;
        GPU_CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        bytes = std::max<size_t>(2 * (size_t)l2, 8u << 20);
        GPU_CHECK_CUDA(cudaMalloc(&buf, bytes));
    }
    ~L2Flusher() { cudaFree(buf); }
    void flush(cudaStream_t s) { GPU_CHECK_CUDA(cudaMemsetAsync(buf, (int)(++round & 0xff), bytes, s)); }
    unsigned round = 0;
};

// Times one sample: `inner` back-to-back calls of fn between two events on stream s (the L2 is
// flushed before the start event when `flusher` is given, so it is not timed); microseconds per call.
template <typename Fn>
double time_sample(cudaStream_t s, cudaEvent_t start, cudaEvent_t stop, int inner, L2Flusher *flusher, Fn &&fn) {
    if (flusher) flusher->flush(s);
    GPU_CHECK_CUDA(cudaEventRecord(start, s));
    for (int i = 0; i < inner; i++) fn();
    GPU_CHECK_CUDA(cudaEventRecord(stop, s));
    GPU_CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    GPU_CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    return 1000.0 * ms / inner;
}

inline double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Calls per warm sample: enough that a sample lasts ~min_us, so event resolution (~0.5 us) and
// one launch's jitter do not dominate the microsecond-scale small-T kernels.
inline int inner_for(double one_call_us, double min_us) {
    if (!(one_call_us > 0)) return 1;
    return std::max(1, std::min(1000, (int)std::ceil(min_us / one_call_us)));
}

inline const char *math_mode_name(cublasMath_t m) {
    switch ((int)m) {
    case CUBLAS_DEFAULT_MATH: return "CUBLAS_DEFAULT_MATH (no TF32)";
    case CUBLAS_PEDANTIC_MATH: return "CUBLAS_PEDANTIC_MATH (no TF32)";
    case CUBLAS_TF32_TENSOR_OP_MATH: return "CUBLAS_TF32_TENSOR_OP_MATH (TF32!)";
    default: return "other";
    }
}

// Sets a non-TF32 math mode and prints it. NVIDIA_TF32_OVERRIDE=1 would let the library use TF32
// behind the mode's back, so that environment is refused.
inline void set_fp32_math(cublasHandle_t h, bool pedantic) {
    const char *ov = std::getenv("NVIDIA_TF32_OVERRIDE");
    if (ov && std::string(ov) != "0") {
        std::fprintf(stderr, "NVIDIA_TF32_OVERRIDE=%s would enable TF32; unset it\n", ov);
        std::exit(2);
    }
    GPU_CHECK_CUBLAS(cublasSetMathMode(h, pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH));
    cublasMath_t m;
    GPU_CHECK_CUBLAS(cublasGetMathMode(h, &m));
    std::printf("# cuBLAS math mode: %s\n", math_mode_name(m));
}

inline void print_device(int device) {
    cudaDeviceProp p;
    GPU_CHECK_CUDA(cudaGetDeviceProperties(&p, device));
    int driver = 0, runtime = 0, cublas = 0;
    GPU_CHECK_CUDA(cudaDriverGetVersion(&driver));
    GPU_CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
    GPU_CHECK_CUBLAS(cublasGetProperty(MAJOR_VERSION, &cublas));
    int minor = 0;
    GPU_CHECK_CUBLAS(cublasGetProperty(MINOR_VERSION, &minor));
    std::printf("# device %d: %s, sm_%d%d, %d SMs, L2 %d KiB; driver %d, runtime %d, cuBLAS %d.%d\n", device,
                p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize / 1024, driver, runtime, cublas, minor);
}

}  // namespace gpu
