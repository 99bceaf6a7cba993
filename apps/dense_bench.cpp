// dense_bench: the BERT dense layer y[16T, 2304] = x[16T, 768] * w[2304, 768]^T,
// scheduled by Diet, against OpenBLAS's cblas_sgemm (and, when built, the same
// algorithm scheduled by Halide's Mullapudi2016 autoscheduler).
//
// For each T the programs run interleaved (one call of each per round) after a
// warm-up, until each has at least --min-reps calls and --min-time seconds of
// measured time; the table shows the medians.  Diet's output is checked
// against OpenBLAS's: the program exits non-zero if any T mismatches.
// OpenBLAS runs with OPENBLAS_THREAD_TIMEOUT=4 (see main()), so that its idle
// threads do not spin through the Halide calls, and with the kernels it picks
// for the CPU unless OPENBLAS_CORETYPE says otherwise.
//
//   dense_bench [--t 1,5,128 | --all] [--min-time 0.2] [--min-reps 5]
//               [--threads N] [--no-mullapudi] [--csv FILE]
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "dense_diet.h"
#if DIET_BENCH_WITH_MULLAPUDI
#include "dense_mullapudi.h"
#endif

#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int K = 768;   // hidden size (the reduction)
constexpr int N = 2304;  // 3 * 768: the fused QKV projection
constexpr int T_MAX = 128;
constexpr double TOLERANCE = 1e-4;

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

struct Options {
    std::vector<int> ts{1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128};
    double min_time = 0.2;
    int min_reps = 5;
    int threads = DIET_BENCH_THREADS;
    bool mullapudi = DIET_BENCH_WITH_MULLAPUDI != 0;
    std::string csv;
};

[[noreturn]] void usage(const char *argv0, const std::string &error) {
    if (!error.empty()) std::fprintf(stderr, "error: %s\n\n", error.c_str());
    std::fprintf(stderr,
                 "usage: %s [options]\n"
                 "  --t LIST        comma-separated T values in [1, %d] (rows = 16*T)\n"
                 "                  (default 1,2,4,8,16,24,32,48,64,96,128)\n"
                 "  --all           every T in 1..%d\n"
                 "  --min-time S    measure each program at least S seconds per T (default 0.2)\n"
                 "  --min-reps R    and at least R calls per T (default 5)\n"
                 "  --threads N     threads for Halide and OpenBLAS (default %d, the\n"
                 "                  parallelism the pipelines were scheduled for)\n"
                 "  --no-mullapudi  skip the Mullapudi2016 baseline\n"
                 "  --csv FILE      also write the raw rows to FILE\n",
                 argv0, T_MAX, T_MAX, DIET_BENCH_THREADS);
    std::exit(error.empty() ? 0 : 2);
}

int parse_int(const char *argv0, const std::string &s, const char *what) {
    char *end = nullptr;
    errno = 0;
    long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) {
        usage(argv0, std::string("bad ") + what + ": '" + s + "'");
    }
    return (int)v;
}

Options parse_options(int argc, char **argv) {
    Options o;
    auto value = [&](int &i) -> std::string {
        if (i + 1 >= argc) usage(argv[0], std::string(argv[i]) + " needs a value");
        return argv[++i];
    };
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        // Accept --opt=value as well as --opt value.
        std::string inline_value;
        bool has_inline = false;
        if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
            inline_value = a.substr(a.find('=') + 1);
            a = a.substr(0, a.find('='));
            has_inline = true;
        }
        auto get = [&]() { return has_inline ? inline_value : value(i); };
        if (a == "--help" || a == "-h") {
            usage(argv[0], "");
        } else if (a == "--t") {
            o.ts.clear();
            std::stringstream ss(get());
            std::string item;
            while (std::getline(ss, item, ',')) {
                int t = parse_int(argv[0], item, "T");
                if (t < 1 || t > T_MAX) usage(argv[0], "T must be in [1, 128], got " + item);
                o.ts.push_back(t);
            }
            if (o.ts.empty()) usage(argv[0], "--t needs at least one value");
        } else if (a == "--all") {
            o.ts.clear();
            for (int t = 1; t <= T_MAX; t++) o.ts.push_back(t);
        } else if (a == "--min-time") {
            std::string s = get();
            char *end = nullptr;
            o.min_time = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !(o.min_time >= 0)) usage(argv[0], "bad --min-time: '" + s + "'");
        } else if (a == "--min-reps") {
            o.min_reps = parse_int(argv[0], get(), "--min-reps");
            if (o.min_reps < 1) usage(argv[0], "--min-reps must be at least 1");
        } else if (a == "--threads") {
            o.threads = parse_int(argv[0], get(), "--threads");
            if (o.threads < 1) usage(argv[0], "--threads must be at least 1");
        } else if (a == "--no-mullapudi") {
            o.mullapudi = false;
        } else if (a == "--csv") {
            o.csv = get();
        } else {
            usage(argv[0], "unknown argument '" + std::string(argv[i]) + "'");
        }
    }
    return o;
}

// ---------------------------------------------------------------------------
// Machine description
// ---------------------------------------------------------------------------

struct Machine {
    std::string cpu = "unknown CPU";
    int logical = 0;
    int physical = 0;
};

Machine describe_machine() {
    Machine m;
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
    std::string phys = "0";
    auto value_of = [](const std::string &l) {
        size_t c = l.find(':');
        if (c == std::string::npos) return std::string();
        size_t b = l.find_first_not_of(" \t", c + 1);
        return b == std::string::npos ? std::string() : l.substr(b);
    };
    while (std::getline(f, line)) {
        if (line.rfind("processor", 0) == 0) {
            m.logical++;
        } else if (line.rfind("model name", 0) == 0 && m.cpu == "unknown CPU") {
            m.cpu = value_of(line);
        } else if (line.rfind("physical id", 0) == 0) {
            phys = value_of(line);
        } else if (line.rfind("core id", 0) == 0) {
            cores.insert({phys, value_of(line)});
        }
    }
    m.physical = cores.empty() ? m.logical : (int)cores.size();
    return m;
}

// ---------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------

struct FreeDeleter {
    void operator()(float *p) const { std::free(p); }
};
using Floats = std::unique_ptr<float[], FreeDeleter>;

Floats alloc_floats(size_t n) {
    size_t bytes = ((n * sizeof(float) + 63) / 64) * 64;
    float *p = static_cast<float *>(std::aligned_alloc(64, bytes));
    if (!p) {
        std::fprintf(stderr, "out of memory\n");
        std::exit(1);
    }
    return Floats(p);
}

// Row-major [rows][K] activations viewed as the Halide buffer x(k, m).
Halide::Runtime::Buffer<float> view_x(float *p, int rows) { return Halide::Runtime::Buffer<float>(p, K, rows); }
// Row-major [N][K] weights viewed as w(k, n).
Halide::Runtime::Buffer<float> view_w(float *p) { return Halide::Runtime::Buffer<float>(p, K, N); }
// Row-major [rows][N] output viewed as y(n, m).
Halide::Runtime::Buffer<float> view_y(float *p, int rows) { return Halide::Runtime::Buffer<float>(p, N, rows); }

void run_openblas(const float *x, const float *w, float *y, int rows) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, N, K, 1.0f, x, K, w, K, 0.0f, y, N);
}

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------

struct Program {
    std::string name;
    std::function<void()> run;
    std::vector<double> samples{};  // seconds
    double total = 0;

    bool done(const Options &o) const { return (int)samples.size() >= o.min_reps && total >= o.min_time; }
    double median() const {
        std::vector<double> s = samples;
        std::sort(s.begin(), s.end());
        size_t n = s.size();
        return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
};

// Rounds of one call per unfinished program, in a fixed order, until all are done.
void measure(std::vector<Program *> &programs, const Options &o) {
    using clock = std::chrono::steady_clock;
    for (Program *p : programs) {
        p->samples.clear();
        p->total = 0;
    }
    for (int warm = 0; warm < 2; warm++) {
        for (Program *p : programs) p->run();
    }
    bool all_done = false;
    while (!all_done) {
        all_done = true;
        for (Program *p : programs) {
            if (p->done(o)) continue;
            auto t0 = clock::now();
            p->run();
            double s = std::chrono::duration<double>(clock::now() - t0).count();
            p->samples.push_back(s);
            p->total += s;
            all_done = all_done && p->done(o);
        }
    }
}

// ---------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------

// The error of `got` against the reference `ref` for every element y(n, m),
// relative to the size of the terms summed there, sum_k |x(k, m) * w(k, n)|
// (`scale`, computed by OpenBLAS from |x| and |w|).  That is the quantity
// floating-point summation error is proportional to, so the measure does not
// blow up where the result happens to cancel to near zero.  NaN counts as
// infinitely wrong.
double max_relative_error(const float *got, const float *ref, const float *scale, size_t count) {
    double worst = 0;
    for (size_t i = 0; i < count; i++) {
        double d = std::fabs((double)got[i] - (double)ref[i]);
        double s = std::max((double)scale[i], 1e-30);
        double e = d / s;
        if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
    }
    return worst;
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

struct Row {
    int t = 0, rows = 0;
    double diet_ms = 0, blas_ms = 0, mull_ms = NAN;
    int diet_reps = 0, blas_reps = 0, mull_reps = 0;
    double diet_err = 0, mull_err = NAN;
    bool diet_ok = false, mull_ok = true;
};

double gflops(int rows, double ms) { return 2.0 * rows * N * K / (ms * 1e-3) / 1e9; }

void check_halide(int rc, const char *what) {
    if (rc != 0) {
        std::fprintf(stderr, "error: %s returned %d\n", what, rc);
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char **argv) {
    Options o = parse_options(argc, argv);

    // OpenBLAS's idle worker threads keep spinning for 2^28 cycles after each
    // call by default, which in the interleaved runs steals a core from the
    // Halide call that follows (measured on 2 cores: Diet at T=8 went from
    // 5.4 to 9.6 ms).  OpenBLAS reads the timeout from the environment only
    // when it loads, so set the minimum (2^4 cycles) and start again, unless
    // the user chose a value.
    if (!std::getenv("OPENBLAS_THREAD_TIMEOUT")) {
        setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1);
        execv("/proc/self/exe", argv);
        std::fprintf(stderr, "warning: could not restart with OPENBLAS_THREAD_TIMEOUT=4 (%s); timings may suffer\n",
                     std::strerror(errno));
    }

    const Machine machine = describe_machine();

    halide_set_num_threads(o.threads);
    openblas_set_num_threads(o.threads);

    std::printf("Dense layer y[16T, %d] = x[16T, %d] * w[%d, %d]^T, float32\n", N, K, N, K);
    std::printf("Machine: %s, %d physical core(s), %d logical CPU(s)\n", machine.cpu.c_str(), machine.physical,
                machine.logical);
    std::printf("Threads: Halide %d, OpenBLAS %d (openblas_set_num_threads; pipelines scheduled for %d)\n",
                o.threads, openblas_get_num_threads(), DIET_BENCH_THREADS);
    auto env_or = [](const char *name, const char *fallback) {
        const char *v = std::getenv(name);
        return v ? v : fallback;
    };
    std::printf("OpenBLAS: %s\n", openblas_get_config());
    std::printf("OpenBLAS kernels: %s", openblas_get_corename());
    if (std::getenv("OPENBLAS_CORETYPE")) {
        // The environment overrides OpenBLAS's CPU detection (scripts/openblas_env.sh sets it to
        // the strongest kernels the CPU's flags allow: OpenBLAS 0.3.21 gives CPUs it does not know
        // its Prescott kernels): say so.
        std::printf(" (set by OPENBLAS_CORETYPE=%s in the environment; `env -u OPENBLAS_CORETYPE` lets "
                    "OpenBLAS choose)",
                    std::getenv("OPENBLAS_CORETYPE"));
    } else {
        std::printf(" (OpenBLAS's own choice)");
    }
    std::printf("; OPENBLAS_THREAD_TIMEOUT=%s\n", env_or("OPENBLAS_THREAD_TIMEOUT", "unset (default)"));
    {
        // Other work on the machine skews the timings: say so up front.
        double load1 = -1;
        if (FILE *f = std::fopen("/proc/loadavg", "r")) {
            if (std::fscanf(f, "%lf", &load1) != 1) load1 = -1;
            std::fclose(f);
        }
        if (load1 >= 0.5) {
            std::printf("Note: 1-minute load average is %.2f before starting; other processes may skew the "
                        "timings\n",
                        load1);
        }
    }
    std::printf("Timing: interleaved, 2 warm-up calls, then >= %d calls and >= %.3g s per program per T; "
                "medians shown\n",
                o.min_reps, o.min_time);
#if !DIET_BENCH_WITH_MULLAPUDI
    std::printf("Mullapudi2016 baseline: not built (DIET_BENCH_MULLAPUDI=OFF or Halide::Mullapudi2016 missing)\n");
#endif
    std::printf("\n");

    // Inputs: uniform in [-1, 1), fixed seed, allocated once for the largest T.
    const size_t max_rows = 16 * (size_t)T_MAX;
    Floats x = alloc_floats(max_rows * K), w = alloc_floats((size_t)N * K);
    Floats x_abs = alloc_floats(max_rows * K), w_abs = alloc_floats((size_t)N * K);
    Floats y_diet = alloc_floats(max_rows * N), y_blas = alloc_floats(max_rows * N);
    Floats y_mull = alloc_floats(max_rows * N), y_scale = alloc_floats(max_rows * N);
    {
        std::mt19937 rng(20240611);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (size_t i = 0; i < max_rows * K; i++) x[i] = dist(rng);
        for (size_t i = 0; i < (size_t)N * K; i++) w[i] = dist(rng);
        for (size_t i = 0; i < max_rows * K; i++) x_abs[i] = std::fabs(x[i]);
        for (size_t i = 0; i < (size_t)N * K; i++) w_abs[i] = std::fabs(w[i]);
    }

    std::printf("%5s %6s | %9s %8s | %9s %8s | %8s |", "T", "rows", "Diet ms", "GFLOP/s", "BLAS ms", "GFLOP/s",
                "speedup");
    if (o.mullapudi) std::printf(" %9s %8s |", "Mull. ms", "GFLOP/s");
    std::printf(" %s\n", "check (max rel. err)");
    std::string rule(o.mullapudi ? 106 : 86, '-');
    std::printf("%s\n", rule.c_str());

    std::vector<Row> rows;
    bool any_mismatch = false;
    for (int t : o.ts) {
        const int m = 16 * t;
        const size_t out = (size_t)m * N;
        Halide::Runtime::Buffer<float> bx = view_x(x.get(), m), bw = view_w(w.get());
        Halide::Runtime::Buffer<float> bd = view_y(y_diet.get(), m), bm = view_y(y_mull.get(), m);
        std::fill(y_diet.get(), y_diet.get() + out, NAN);
        std::fill(y_mull.get(), y_mull.get() + out, NAN);

        Program diet{"Diet", [&] { check_halide(dense_diet(bx, bw, t, bd), "dense_diet"); }};
        Program blas{"OpenBLAS", [&] { run_openblas(x.get(), w.get(), y_blas.get(), m); }};
#if DIET_BENCH_WITH_MULLAPUDI
        Program mull{"Mullapudi2016", [&] { check_halide(dense_mullapudi(bx, bw, t, bm), "dense_mullapudi"); }};
#else
        Program mull{"Mullapudi2016", [] {}};
#endif
        std::vector<Program *> programs{&diet, &blas};
        if (o.mullapudi) programs.push_back(&mull);
        measure(programs, o);

        Row r;
        r.t = t;
        r.rows = m;
        r.diet_ms = diet.median() * 1e3;
        r.blas_ms = blas.median() * 1e3;
        r.diet_reps = (int)diet.samples.size();
        r.blas_reps = (int)blas.samples.size();

        // Reference scale sum_k |x| |w| for the error measure.
        run_openblas(x_abs.get(), w_abs.get(), y_scale.get(), m);
        r.diet_err = max_relative_error(y_diet.get(), y_blas.get(), y_scale.get(), out);
        r.diet_ok = r.diet_err < TOLERANCE;
        any_mismatch = any_mismatch || !r.diet_ok;
        if (o.mullapudi) {
            r.mull_ms = mull.median() * 1e3;
            r.mull_reps = (int)mull.samples.size();
            r.mull_err = max_relative_error(y_mull.get(), y_blas.get(), y_scale.get(), out);
            r.mull_ok = r.mull_err < TOLERANCE;
        }
        rows.push_back(r);

        std::printf("%5d %6d | %9.3f %8.1f | %9.3f %8.1f | %7.2fx |", r.t, r.rows, r.diet_ms,
                    gflops(m, r.diet_ms), r.blas_ms, gflops(m, r.blas_ms), r.blas_ms / r.diet_ms);
        if (o.mullapudi) {
            std::printf(" %9.3f %8.1f%s|", r.mull_ms, gflops(m, r.mull_ms), r.mull_ok ? " " : "!");
        }
        std::printf(" %s (%.1e)\n", r.diet_ok ? "ok" : "MISMATCH", r.diet_err);
        std::fflush(stdout);
    }
    std::printf("%s\n", rule.c_str());

    double log_sum = 0;
    for (const Row &r : rows) log_sum += std::log(r.diet_ms / r.blas_ms);
    const double geomean = std::exp(log_sum / rows.size());
    std::printf("speedup = OpenBLAS time / Diet time (> 1: Diet is faster); GFLOP/s = 2*16T*%d*%d / time\n", N, K);
    std::printf("check: Diet vs OpenBLAS, max over y of |Diet - OpenBLAS| / sum_k |x*w|, must be < %.0e\n",
                TOLERANCE);
    if (o.mullapudi) {
        std::printf("Mullapudi2016 schedules the same algorithm with estimates fixed at T = 32 (Halide 14 cannot "
                    "compile its schedule with symbolic estimates)");
        bool mull_bad = false;
        for (const Row &r : rows) mull_bad = mull_bad || !r.mull_ok;
        std::printf("%s\n", mull_bad ? "; '!' marks a Mullapudi2016 result that did not match OpenBLAS" : "");
    }
    std::printf("\nGeomean Diet/OpenBLAS time ratio over %zu T value(s): %.3f (Diet %.2fx %s than OpenBLAS)\n",
                rows.size(), geomean, geomean <= 1 ? 1 / geomean : geomean, geomean <= 1 ? "faster" : "slower");
    std::printf("Machine: %s, %d physical core(s), %d logical CPU(s); %d thread(s) for Diet and OpenBLAS\n",
                machine.cpu.c_str(), machine.physical, machine.logical, o.threads);

    if (!o.csv.empty()) {
        std::ofstream csv(o.csv);
        if (!csv) {
            std::fprintf(stderr, "error: cannot write %s\n", o.csv.c_str());
            return 1;
        }
        csv << "T,rows,diet_ms,diet_gflops,diet_reps,openblas_ms,openblas_gflops,openblas_reps,"
               "speedup_vs_openblas,mullapudi_ms,mullapudi_gflops,mullapudi_reps,diet_max_rel_err,diet_ok,"
               "mullapudi_max_rel_err,mullapudi_ok,threads\n";
        csv.precision(6);
        for (const Row &r : rows) {
            csv << r.t << ',' << r.rows << ',' << r.diet_ms << ',' << gflops(r.rows, r.diet_ms) << ','
                << r.diet_reps << ',' << r.blas_ms << ',' << gflops(r.rows, r.blas_ms) << ',' << r.blas_reps << ','
                << r.blas_ms / r.diet_ms << ',';
            if (o.mullapudi) {
                csv << r.mull_ms << ',' << gflops(r.rows, r.mull_ms) << ',' << r.mull_reps << ',';
            } else {
                csv << ",,,";
            }
            csv << r.diet_err << ',' << (r.diet_ok ? 1 : 0) << ',';
            if (o.mullapudi) {
                csv << r.mull_err << ',' << (r.mull_ok ? 1 : 0);
            } else {
                csv << ',';
            }
            csv << ',' << o.threads << '\n';
        }
        std::printf("Raw rows written to %s\n", o.csv.c_str());
    }

    if (any_mismatch) {
        std::printf("\nFAILED: Diet's result did not match OpenBLAS for T =");
        for (const Row &r : rows)
            if (!r.diet_ok) std::printf(" %d", r.t);
        std::printf("\n");
        return 1;
    }
    return 0;
}
