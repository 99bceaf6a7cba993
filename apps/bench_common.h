// What the CPU benchmarks share (anchors_bench, forms_bench): timing one call robustly, medians,
// the vendor sgemm calls (row-major) and a one-line description of the machine.
#pragma once

#include <cblas.h>
#include <dnnl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

namespace bench {

// OpenBLAS's and OpenMP's (oneDNN's) idle threads spin for milliseconds after a call; on a 2-core
// machine they take a core from whatever system is timed next (measured in forms_bench: the Diet
// form timed right after the vendor calls ran 1.05-1.3x slower than the same Stmt timed later, and
// oneDNN's own time at T = 1 was 8 ms instead of 0.68 ms). Both libraries read these variables only at start-up, so the process restarts itself once
// with them set, unless the caller chose values.
inline void restart_with_quiet_vendor_threads(char **argv) {
    if (std::getenv("OPENBLAS_THREAD_TIMEOUT") && std::getenv("OMP_WAIT_POLICY")) return;
    setenv("OPENBLAS_THREAD_TIMEOUT", "4", 0);
    setenv("OMP_WAIT_POLICY", "passive", 0);
    execv("/proc/self/exe", argv);
    std::fprintf(stderr, "warning: could not restart with OPENBLAS_THREAD_TIMEOUT and OMP_WAIT_POLICY (%s)\n",
                 std::strerror(errno));
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// NaN (a run that failed) anywhere gives NaN.
inline double median(std::vector<double> v) {
    for (double x : v) {
        if (std::isnan(x)) return NAN;
    }
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One call; if it took 50 ms or more, its time (a warm-up would not change such a call, and
// the slow systems would double the run's length). Otherwise that call was the warm-up: calls until
// `min_time` seconds have passed, and their mean.
inline double time_call(const std::function<void()> &call, double min_time) {
    const auto first = Clock::now();
    call();
    const double once = seconds_since(first);
    if (once >= 0.05) return once;
    int reps = 0;
    const auto t0 = Clock::now();
    double elapsed = 0;
    do {
        call();
        reps++;
        elapsed = seconds_since(t0);
    } while (elapsed < min_time);
    return elapsed / reps;
}

// The vendor libraries, row-major: a Halide buffer (x innermost) is a row-major matrix.
using Sgemm = std::function<void(char ta, char tb, int M, int N, int K, const float *A, int lda, const float *B,
                                 int ldb, float *C, int ldc)>;

inline Sgemm openblas_sgemm() {
    return [](char ta, char tb, int M, int N, int K, const float *A, int lda, const float *B, int ldb, float *C,
              int ldc) {
        cblas_sgemm(CblasRowMajor, ta == 'T' ? CblasTrans : CblasNoTrans, tb == 'T' ? CblasTrans : CblasNoTrans, M, N,
                    K, 1.f, A, lda, B, ldb, 0.f, C, ldc);
    };
}

inline Sgemm onednn_sgemm() {
    return [](char ta, char tb, int M, int N, int K, const float *A, int lda, const float *B, int ldb, float *C,
              int ldc) {
        dnnl_status_t s = dnnl_sgemm(ta, tb, M, N, K, 1.f, A, lda, B, ldb, 0.f, C, ldc);
        if (s != dnnl_success) {
            std::fprintf(stderr, "dnnl_sgemm failed (status %d)\n", (int)s);
            std::exit(1);
        }
    };
}

// "AMD EPYC, 2 logical CPUs" from /proc/cpuinfo.
inline std::string cpu_description() {
    std::ifstream f("/proc/cpuinfo");
    std::string line, cpu = "unknown CPU";
    int logical = 0;
    while (std::getline(f, line)) {
        if (line.rfind("processor", 0) == 0) logical++;
        if (line.rfind("model name", 0) == 0 && cpu == "unknown CPU") cpu = line.substr(line.find(':') + 2);
    }
    return cpu + ", " + std::to_string(logical) + " logical CPUs";
}

}  // namespace bench
