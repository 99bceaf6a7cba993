// What several tests share: loading the plugin as GenGen does, scratch directories, random
// inputs of Halide's scalar types, and comparing a scheduled pipeline's outputs with a reference.
#pragma once

#include <catch2/catch.hpp>

#include "Halide.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace diet_test {

#ifdef DIET_PLUGIN_PATH
// dlopens the plugin once per process, like `-p libautoschedule_diet.so`.
inline void load_diet() {
    static bool loaded = [] {
        Halide::load_plugin(DIET_PLUGIN_PATH);
        return true;
    }();
    (void)loaded;
}
#endif

// A scratch directory ($TMPDIR or /tmp, `<prefix>-XXXXXX`), removed with its files at the end.
struct TempDir {
    std::string path;
    explicit TempDir(const std::string &prefix) {
        const char *tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back(0);
        REQUIRE(mkdtemp(buf.data()) != nullptr);
        path = buf.data();
    }
    ~TempDir() {
        std::string cmd = "rm -rf '" + path + "'";  // only this test's own mkdtemp directory
        if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", path.c_str());
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
};

// Everything written to file descriptor 2 (Diet's "[diet]" lines, Halide's warnings) while alive,
// for checking messages or for a failure report instead of flooding the CI log; `passthrough`:
// capture nothing (also when no temporary file can be made).
class StderrCapture {
public:
    explicit StderrCapture(bool passthrough) : on_(!passthrough) {
        if (!on_) return;
        fflush(stderr);
        file_ = tmpfile();
        saved_ = dup(2);
        if (!file_ || saved_ < 0) {
            on_ = false;
            return;
        }
        dup2(fileno(file_), 2);
    }
    ~StderrCapture() { finish(); }
    std::string finish() {
        if (!on_) return text_;
        on_ = false;
        std::cerr.flush();
        fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        rewind(file_);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, file_)) > 0) text_.append(buf, n);
        fclose(file_);
        return text_;
    }

private:
    bool on_;
    FILE *file_ = nullptr;
    int saved_ = -1;
    std::string text_;
};

// Calls f((T *)nullptr) with T the C++ type of `t`; false for a type none of the tests use.
template<typename F>
bool with_scalar_type(const Halide::Type &t, F &&f) {
    using Halide::Float;
    using Halide::Int;
    using Halide::UInt;
    if (t == UInt(8)) f((uint8_t *)nullptr);
    else if (t == UInt(16)) f((uint16_t *)nullptr);
    else if (t == Int(16)) f((int16_t *)nullptr);
    else if (t == Int(32)) f((int32_t *)nullptr);
    else if (t == Int(64)) f((int64_t *)nullptr);
    else if (t == Float(32)) f((float *)nullptr);
    else if (t == Float(64)) f((double *)nullptr);
    else return false;
    return true;
}

// A buffer of type `t` with values drawn from `seed`: integers over their type's range (int32:
// [-1000, 1000], int64 likewise), floats uniform in [float_lo, float_hi).
inline Halide::Buffer<> random_input(const Halide::Type &t, const std::vector<int> &sizes, uint32_t seed,
                                     double float_lo = 0, double float_hi = 1) {
    Halide::Buffer<> b(t, sizes);
    std::mt19937 rng(seed);
    const bool known = with_scalar_type(t, [&](auto *tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        double lo = float_lo, hi = float_hi;
        if (std::is_integral<T>::value) {
            const bool narrow = sizeof(T) <= 2;
            lo = narrow ? (double)std::numeric_limits<T>::min() : -1000;
            hi = narrow ? (double)std::numeric_limits<T>::max() + 1 : 1001;
        }
        std::uniform_real_distribution<double> u(lo, hi);
        Halide::Buffer<T> tb = b.as<T>();
        tb.for_each_value([&](T &v) { v = std::is_integral<T>::value ? (T)std::floor(u(rng)) : (T)u(rng); });
    });
    if (!known) FAIL("random_input: unsupported type " << t);
    return b;
}

// "" when equal (integers) or close (floats: 1e-4 relative to the largest reference magnitude),
// else the first difference and how many elements differ.
inline std::string compare(const Halide::Buffer<> &got, const Halide::Buffer<> &want) {
    std::ostringstream o;
    const bool known = with_scalar_type(want.type(), [&](auto *tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        Halide::Buffer<T> g = got.as<T>(), w = want.as<T>();
        double scale = 0;
        w.for_each_value([&](T v) { scale = std::max(scale, std::abs((double)v)); });
        const double tol = std::is_floating_point<T>::value ? 1e-4 * (1 + scale) : 0;
        int64_t bad = 0;
        w.for_each_element([&](const int *pos) {
            double a = (double)g(pos), b = (double)w(pos);
            if (!(std::abs(a - b) <= tol)) {
                if (bad++ == 0) {
                    o << "at (";
                    for (int d = 0; d < w.dimensions(); d++) o << (d ? ", " : "") << pos[d];
                    o << ") Diet's " << a << " vs reference " << b;
                }
            }
        });
        if (bad) o << "; " << bad << " of " << w.number_of_elements() << " element(s) differ (tolerance " << tol << ")";
    });
    if (!known) o << "compare: unsupported type " << want.type();
    return o.str();
}

// Tasks the thread pool runs: every parallel loop's iterations, counted by a do_par_for that runs
// them in order on the calling thread (set as a Pipeline's jit_handlers().custom_do_par_for).
inline std::atomic<int64_t> g_tasks{0};
inline int count_tasks(Halide::JITUserContext *ctx, int (*f)(Halide::JITUserContext *, int, uint8_t *), int min,
                       int extent, uint8_t *closure) {
    g_tasks += extent;
    for (int i = min; i < min + extent; i++) {
        if (int rc = f(ctx, i, closure)) return rc;
    }
    return 0;
}

}  // namespace diet_test
