// Correctness of the Diet-scheduled pipelines against the references in
// reference.h.
//
// Tolerances.  For the products, the float32 result of a length-K dot product
// computed in ANY summation order (blocked, vectorized, rfactor'ed, with or
// without FMA) differs from the exact value by at most about
// K * u * sum_k |a_k b_k| (u = FLT_EPSILON / 2), and sum_k |a_k b_k| <=
// ||a|| * ||b|| by Cauchy-Schwarz.  The tests use K * FLT_EPSILON * ||a|| *
// ||b||, twice that bound: no false alarms, yet a lost or doubled term (or any
// wrong index) is far outside it.  The other pipelines use small relative
// tolerances with a little absolute slack.
//
// Every output buffer is filled with NaN before the call, so outputs the
// schedule forgets to write are reported as mismatches.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntime.h"

#include "reference.h"

#include "test_batch_matmul_nn.h"
#include "test_batch_matmul_nt.h"
#include "test_dense.h"
#include "test_dense_small.h"
#include "test_layernorm.h"
#include "test_softmax.h"
#include "test_unsharp.h"

namespace {

using Halide::Runtime::Buffer;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---------------------------------------------------------------------------
// Halide runtime errors are captured instead of printed, and reported with
// the failing case.
// ---------------------------------------------------------------------------
std::string &halide_errors() {
    static std::string errors;
    return errors;
}

void capture_halide_error(void * /*user_context*/, const char *msg) {
    halide_errors() += msg;
}

struct InstallErrorHandler {
    InstallErrorHandler() {
        halide_set_error_handler(capture_halide_error);
    }
} install_error_handler;

// Runs a pipeline call; on failure records a Catch2 failure naming `what`
// and returns false.
template<typename Call>
bool run_pipeline(const std::string &what, Call call) {
    halide_errors().clear();
    const int rc = call();
    if (rc != 0) {
        FAIL_CHECK(what << ": the pipeline returned " << rc << ": " << halide_errors());
        return false;
    }
    return true;
}

std::vector<float> random_vector(size_t n, uint32_t seed, float lo, float hi) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float &f : v) {
        f = dist(rng);
    }
    return v;
}

// Euclidean norms of the `count` contiguous rows of length `len` of `v`.
std::vector<double> row_norms(const std::vector<float> &v, size_t len, size_t count) {
    std::vector<double> norms(count);
    for (size_t r = 0; r < count; r++) {
        double s = 0.0;
        for (size_t i = 0; i < len; i++) {
            const double e = v[r * len + i];
            s += e * e;
        }
        norms[r] = std::sqrt(s);
    }
    return norms;
}

template<typename T>
Buffer<T> copy_to_buffer(const std::vector<T> &v, const std::vector<int> &extents) {
    Buffer<T> buf(extents);
    REQUIRE((size_t)buf.number_of_elements() == v.size());
    std::copy(v.begin(), v.end(), buf.data());
    return buf;
}

// Accumulates the comparison of one output buffer against its reference.
class Comparison {
public:
    explicit Comparison(std::vector<std::string> dim_names)
        : names_(std::move(dim_names)) {
    }

    void add(float got, double want, double tol, int c0, int c1 = 0, int c2 = 0) {
        checked_++;
        const double err = std::fabs((double)got - want);
        // Fast path: a passing value that does not beat the worst so far
        // (err / tol <= worst_err / worst_tol, without the divisions).
        if (err <= tol && have_worst_ &&
            (worst_failed_ || err * worst_tol_ <= worst_err_ * tol)) {
            return;
        }
        record(got, want, err, tol, c0, c1, c2);
    }

    bool ok() const {
        return bad_ == 0 && checked_ > 0;
    }

    std::string describe() const {
        std::ostringstream s;
        s.precision(9);
        s << bad_ << " of " << checked_ << " outputs out of tolerance";
        if (checked_ > 0) {
            s << "; worst at (";
            for (size_t i = 0; i < names_.size() && i < 3; i++) {
                s << (i ? ", " : "") << names_[i] << "=" << worst_at_[i];
            }
            s << "): got " << worst_got_ << ", want " << worst_want_
              << ", |err| " << worst_err_ << ", tol " << worst_tol_;
        }
        return s.str();
    }

private:
    void record(float got, double want, double err, double tol, int c0, int c1, int c2) {
        const bool ok = err <= tol;  // false for NaN
        double ratio;
        if (std::isnan(err)) {
            ratio = std::numeric_limits<double>::infinity();
        } else if (tol > 0) {
            ratio = err / tol;
        } else {
            ratio = err > 0 ? std::numeric_limits<double>::infinity() : 0.0;
        }
        if (!ok) {
            bad_++;
        }
        if (!have_worst_ || ratio > worst_ratio_) {
            have_worst_ = true;
            worst_failed_ = worst_failed_ || !ok;
            worst_ratio_ = ratio;
            worst_got_ = got;
            worst_want_ = want;
            worst_err_ = err;
            worst_tol_ = tol;
            worst_at_[0] = c0;
            worst_at_[1] = c1;
            worst_at_[2] = c2;
        }
    }

    std::vector<std::string> names_;
    bool have_worst_ = false, worst_failed_ = false;
    size_t checked_ = 0, bad_ = 0;
    double worst_ratio_ = -1.0;
    double worst_got_ = 0, worst_want_ = 0, worst_err_ = 0, worst_tol_ = 0;
    int worst_at_[3] = {0, 0, 0};
};

// ---------------------------------------------------------------------------
// dense
// ---------------------------------------------------------------------------
using DenseFn = int (*)(halide_buffer_t *, halide_buffer_t *, int32_t, halide_buffer_t *);

// Runs `fn` for every T in 1..128 and checks every output.  The x for a given
// T is the first 16*T rows of one random 16*128-row matrix, so one reference
// product (rows do not depend on T) serves all T; each call still gets a
// freshly allocated, exactly sized x.
void check_dense_all_T(DenseFn fn, const char *name, int K, int N) {
    const int T_max = 128, M_max = 16 * T_max;
    const std::vector<float> x_all = random_vector((size_t)K * M_max, 1001, -1.0f, 1.0f);
    const std::vector<float> w = random_vector((size_t)K * N, 1002, -1.0f, 1.0f);
    const std::vector<double> ref = diet_ref::dense(x_all, w, K, N, M_max);
    const std::vector<double> x_norm = row_norms(x_all, K, M_max);
    const std::vector<double> w_norm = row_norms(w, K, N);
    const double tol_scale = (double)K * FLT_EPSILON;

    Buffer<float> wb = copy_to_buffer(w, {K, N});
    for (int T = 1; T <= T_max; T++) {
        const int M = 16 * T;
        Buffer<float> xb(K, M);
        std::copy(x_all.begin(), x_all.begin() + (size_t)K * M, xb.data());
        Buffer<float> yb(N, M);
        yb.fill(kNaN);

        std::ostringstream what;
        what << name << " (K=" << K << ", N=" << N << ") T=" << T;
        if (!run_pipeline(what.str(), [&] { return fn(xb, wb, T, yb); })) {
            continue;
        }

        Comparison cmp({"n", "m"});
        const float *y = yb.data();
        for (int m = 0; m < M; m++) {
            for (int n = 0; n < N; n++) {
                const size_t idx = (size_t)m * N + n;
                cmp.add(y[idx], ref[idx], tol_scale * x_norm[m] * w_norm[n], n, m);
            }
        }
        INFO(what.str() << ": " << cmp.describe());
        CHECK(cmp.ok());
    }
}

TEST_CASE("dense K=768 N=2304 matches the reference for every T in 1..128", "[dense]") {
    check_dense_all_T(test_dense, "dense", 768, 2304);
}

TEST_CASE("dense K=40 N=200 matches the reference for every T in 1..128", "[dense]") {
    check_dense_all_T(test_dense_small, "dense_small", 40, 200);
}

// ---------------------------------------------------------------------------
// batch_matmul
// ---------------------------------------------------------------------------
constexpr int kHead = 64;      // D
constexpr int kBatches = 192;  // B
constexpr int kTMax = 128;

// Copies the sub-block [0, e0) x [0, e1) x [0, e2) of a dense 3-D array with
// extents (E0, E1, e2) into a dense array with extents (e0, e1, e2).
std::vector<float> sub_block(const std::vector<float> &v, int E0, int E1,
                             int e0, int e1, int e2) {
    std::vector<float> out((size_t)e0 * e1 * e2);
    for (int i2 = 0; i2 < e2; i2++) {
        for (int i1 = 0; i1 < e1; i1++) {
            const float *src = &v[((size_t)i2 * E1 + i1) * E0];
            std::copy(src, src + e0, &out[((size_t)i2 * e1 + i1) * e0]);
        }
    }
    return out;
}

TEST_CASE("batch_matmul_nt matches the reference for every T in 1..128", "[batch_matmul]") {
    const int D = kHead, B = kBatches;
    const std::vector<float> a_all = random_vector((size_t)D * kTMax * B, 2001, -1.0f, 1.0f);
    const std::vector<float> bt_all = random_vector((size_t)D * kTMax * B, 2002, -1.0f, 1.0f);
    // out(j, i, b) only involves row i of a and row j of bt, so the reference
    // at T = 128 contains the answer for every smaller T, when the inputs
    // for T are the leading sub-blocks.
    const std::vector<double> ref = diet_ref::batch_matmul_nt(a_all, bt_all, D, kTMax, B);
    const std::vector<double> a_norm = row_norms(a_all, D, (size_t)kTMax * B);
    const std::vector<double> bt_norm = row_norms(bt_all, D, (size_t)kTMax * B);
    const double tol_scale = (double)D * FLT_EPSILON;

    for (int T = 1; T <= kTMax; T++) {
        Buffer<float> ab = copy_to_buffer(sub_block(a_all, D, kTMax, D, T, B), {D, T, B});
        Buffer<float> btb = copy_to_buffer(sub_block(bt_all, D, kTMax, D, T, B), {D, T, B});
        Buffer<float> ob(T, T, B);
        ob.fill(kNaN);

        const std::string what = "batch_matmul_nt T=" + std::to_string(T);
        if (!run_pipeline(what, [&] { return test_batch_matmul_nt(ab, btb, T, ob); })) {
            continue;
        }

        Comparison cmp({"j", "i", "b"});
        for (int b = 0; b < B; b++) {
            for (int i = 0; i < T; i++) {
                for (int j = 0; j < T; j++) {
                    const double want = ref[((size_t)b * kTMax + i) * kTMax + j];
                    const double tol = tol_scale * a_norm[(size_t)b * kTMax + i] *
                                       bt_norm[(size_t)b * kTMax + j];
                    cmp.add(ob(j, i, b), want, tol, j, i, b);
                }
            }
        }
        INFO(what << ": " << cmp.describe());
        CHECK(cmp.ok());
    }
}

TEST_CASE("batch_matmul_nn matches the reference for every T in 1..128", "[batch_matmul]") {
    const int D = kHead, B = kBatches;
    const std::vector<float> a_all = random_vector((size_t)kTMax * kTMax * B, 3001, -1.0f, 1.0f);
    const std::vector<float> bn_all = random_vector((size_t)D * kTMax * B, 3002, -1.0f, 1.0f);

    // The reduction runs over T, so the reference is recomputed per T, on a
    // subset of the batches: every 7th and the last one.
    std::vector<int> batches;
    for (int b = 0; b < B; b += 7) {
        batches.push_back(b);
    }
    if (batches.back() != B - 1) {
        batches.push_back(B - 1);
    }

    for (int T = 1; T <= kTMax; T++) {
        const std::vector<float> a = sub_block(a_all, kTMax, kTMax, T, T, B);
        const std::vector<float> bn = sub_block(bn_all, D, kTMax, D, T, B);
        Buffer<float> ab = copy_to_buffer(a, {T, T, B});
        Buffer<float> bnb = copy_to_buffer(bn, {D, T, B});
        Buffer<float> ob(D, T, B);
        ob.fill(kNaN);

        const std::string what = "batch_matmul_nn T=" + std::to_string(T);
        if (!run_pipeline(what, [&] { return test_batch_matmul_nn(ab, bnb, T, ob); })) {
            continue;
        }

        const std::vector<double> ref = diet_ref::batch_matmul_nn(a, bn, D, T, B, batches);
        const std::vector<double> a_norm = row_norms(a, T, (size_t)T * B);
        const double tol_scale = (double)T * FLT_EPSILON;

        Comparison cmp({"j", "i", "b"});
        std::vector<double> bn_col_norm(D);
        for (int b : batches) {
            for (int j = 0; j < D; j++) {
                double s = 0.0;
                for (int k = 0; k < T; k++) {
                    const double e = bn[((size_t)b * T + k) * D + j];
                    s += e * e;
                }
                bn_col_norm[j] = std::sqrt(s);
            }
            for (int i = 0; i < T; i++) {
                for (int j = 0; j < D; j++) {
                    const double want = ref[((size_t)b * T + i) * D + j];
                    const double tol = tol_scale * a_norm[(size_t)b * T + i] * bn_col_norm[j];
                    cmp.add(ob(j, i, b), want, tol, j, i, b);
                }
            }
        }
        INFO(what << ": " << cmp.describe());
        CHECK(cmp.ok());
    }
}

// ---------------------------------------------------------------------------
// unsharp
// ---------------------------------------------------------------------------
TEST_CASE("unsharp matches the reference on assorted image sizes", "[unsharp]") {
    const float amount = 1.5f;
    const std::vector<std::pair<int, int>> sizes = {
        {1, 1}, {1, 19}, {19, 1}, {2, 3}, {7, 5}, {37, 29}, {130, 67}, {1536, 1024}, {1531, 1021}};

    uint32_t seed = 4001;
    for (const auto &size : sizes) {
        const int W = size.first, H = size.second;
        const std::vector<float> in = random_vector((size_t)W * H, seed++, 0.0f, 1.0f);
        const std::vector<double> ref = diet_ref::unsharp(in, W, H, amount);

        Buffer<float> ib = copy_to_buffer(in, {W, H});
        Buffer<float> ob(W, H);
        ob.fill(kNaN);

        const std::string what = "unsharp " + std::to_string(W) + "x" + std::to_string(H);
        if (!run_pipeline(what, [&] { return test_unsharp(ib, amount, W, H, ob); })) {
            continue;
        }

        Comparison cmp({"x", "y"});
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                const double want = ref[(size_t)y * W + x];
                cmp.add(ob(x, y), want, 1e-5 * (1.0 + std::fabs(want)), x, y);
            }
        }
        INFO(what << ": " << cmp.describe());
        CHECK(cmp.ok());
    }
}

// ---------------------------------------------------------------------------
// layernorm and softmax
// ---------------------------------------------------------------------------
const std::vector<int> kRowTs = {1, 3, 7, 64, 128};

TEST_CASE("layernorm matches the reference", "[layernorm]") {
    const int C = 768;
    const double eps = (double)1e-5f;  // the generator's default epsilon
    const std::vector<float> gamma = random_vector(C, 5001, 0.5f, 1.5f);
    const std::vector<float> beta = random_vector(C, 5002, -0.5f, 0.5f);
    Buffer<float> gb = copy_to_buffer(gamma, {C});
    Buffer<float> bb = copy_to_buffer(beta, {C});

    for (int T : kRowTs) {
        const int M = 16 * T;
        // Rows with a non-zero mean, so that centering matters.
        const std::vector<float> x = random_vector((size_t)C * M, 5100 + T, -1.5f, 2.5f);
        const std::vector<double> ref = diet_ref::layernorm(x, gamma, beta, C, M, eps);

        Buffer<float> xb = copy_to_buffer(x, {C, M});
        Buffer<float> ob(C, M);
        ob.fill(kNaN);

        const std::string what = "layernorm T=" + std::to_string(T);
        if (!run_pipeline(what, [&] { return test_layernorm(xb, gb, bb, T, ob); })) {
            continue;
        }

        Comparison cmp({"c", "m"});
        for (int m = 0; m < M; m++) {
            for (int c = 0; c < C; c++) {
                const double want = ref[(size_t)m * C + c];
                cmp.add(ob(c, m), want, 2e-4 * (1.0 + std::fabs(want)), c, m);
            }
        }
        INFO(what << ": " << cmp.describe());
        CHECK(cmp.ok());
    }
}

TEST_CASE("softmax matches the reference", "[softmax]") {
    const int L = 128;
    for (int T : kRowTs) {
        const int M = 16 * T;
        const std::vector<float> x = random_vector((size_t)L * M, 6100 + T, -4.0f, 4.0f);
        const std::vector<double> ref = diet_ref::softmax(x, L, M);

        Buffer<float> xb = copy_to_buffer(x, {L, M});
        Buffer<float> ob(L, M);
        ob.fill(kNaN);

        const std::string what = "softmax T=" + std::to_string(T);
        if (!run_pipeline(what, [&] { return test_softmax(xb, T, ob); })) {
            continue;
        }

        Comparison cmp({"l", "m"});
        for (int m = 0; m < M; m++) {
            for (int l = 0; l < L; l++) {
                const double want = ref[(size_t)m * L + l];
                cmp.add(ob(l, m), want, 1e-4 * std::fabs(want) + 1e-9, l, m);
            }
        }
        INFO(what << ": " << cmp.describe());
        CHECK(cmp.ok());
    }
}

}  // namespace
