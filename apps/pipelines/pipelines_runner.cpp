// pipelines_runner: issue 14's benchmark runner. For one pipeline and a list of shapes, it runs
// every system's variant (a module plm_<pipeline>_<system>.so built by apps/pipelines/CMakeLists.txt)
// on the same deterministic random inputs, each in its own child process, interleaved round-robin,
// checks every output against the hand schedule's output, and appends one CSV row per
// (shape, system) to --csv.
//
//   pipelines_runner --pipeline unsharp --systems hand,diet_default,adams2019 \
//       --shapes estimate|dynamic|small|<W>x<H>,... --rounds 5 --threads 2 --csv out.csv --tag estimate
//
// A variant that is missing, fails to load, returns a Halide error (e.g. an allocation over 2^31
// bytes), crashes, exceeds the memory cap or the per-run timeout is recorded as failed with the
// reason; the runner itself goes on.
#include "HalideRuntime.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifndef DIET_PIPELINES_MODULE_DIR
#define DIET_PIPELINES_MODULE_DIR "."
#endif

namespace {

constexpr int W = -1, H = -2;  // placeholders in buffer extents: the shape's width / height

struct BufSpec {
    std::string name;
    std::vector<int> extents;
    char type = 'f';             // 'f': float32, 'b': uint8, 'h': uint16
    float lo = 0.0f, hi = 1.0f;  // float inputs are uniform in [lo, hi)
    bool smooth = false;         // float inputs: a smooth pattern plus 20% noise instead
};

struct Shape {
    int w, h;
};

struct PipelineSpec {
    std::string name;
    std::vector<BufSpec> buffers;  // inputs and the output, by argument name
    Shape estimate;
    std::vector<Shape> dynamic;
    double float_rtol = 1e-3;  // float outputs: |a - b| <= rtol * (|b| + mean |ref|)
    int int_atol = 0;          // integer outputs: max |a - b| (0: bit-exact)
};

const std::vector<Shape> kImageShapes = {{256, 256}, {640, 480}, {1536, 1024}, {2560, 1536}, {4000, 3000}};

std::vector<PipelineSpec> specs() {
    const Shape est{1536, 2560};
    return {
        {"unsharp", {{"input", {W, H, 3}}, {"output", {W, H, 3}}}, est, kImageShapes},
        {"harris", {{"input", {W, H, 3}}, {"output", {W, H}}}, est, kImageShapes},
        {"stencil_chain", {{"input", {W, H}, 'h'}, {"output", {W, H}, 'h'}}, est, kImageShapes},
        // White noise would make the maximum over a 2100-pixel disc ~1 everywhere.
        {"max_filter", {{"input", {W, H, 3}, 'f', 0.0f, 1.0f, true}, {"output", {W, H, 3}}}, est, kImageShapes},
        {"iir_blur", {{"input", {W, H, 3}}, {"output", {W, H, 3}}}, est, kImageShapes},
        {"hist_eq", {{"input", {W, H, 3}, 'b'}, {"output", {W, H, 3}, 'b'}}, est, kImageShapes},
        {"bilateral_grid", {{"input", {W, H}}, {"output", {W, H}}}, est, kImageShapes},
        {"camera_pipe", {{"input", {W, H}, 'h'}, {"output", {W, H, 3}, 'b'}}, est, kImageShapes},
        // Float arithmetic inside, uint16 out: a different fusion of multiply-adds may move a
        // value across a rounding boundary, so allow 1 (of 65535).
        {"local_laplacian", {{"input", {W, H, 3}, 'h'}, {"output", {W, H, 3}, 'h'}}, est, kImageShapes, 1e-3, 1},
        {"interpolate", {{"input", {W, H, 4}}, {"output", {W, H, 3}}}, est, kImageShapes},
        {"nl_means", {{"input", {W, H, 3}}, {"output", {W, H, 3}}}, est, kImageShapes},
        {"conv_layer",
         {{"input", {W, H, 64, 4}}, {"filter", {3, 3, 64, 64}, 'f', -0.5f, 0.5f}, {"bias", {64}, 'f', -1.0f, 1.0f},
          {"output", {W, H, 64, 4}}},
         {128, 128},
         {{32, 32}, {48, 40}, {64, 64}, {128, 128}, {256, 256}}},
    };
}

// ---------------------------------------------------------------------------------------------
// Buffers in shared memory (the children write their outputs there, the parent compares).
// ---------------------------------------------------------------------------------------------
struct SharedBuffer {
    halide_buffer_t buf{};
    std::vector<halide_dimension_t> dims;
    size_t bytes = 0;

    SharedBuffer(halide_type_t type, const std::vector<int> &extents) : dims(extents.size()) {
        int64_t stride = 1;
        for (size_t i = 0; i < extents.size(); i++) {
            dims[i] = halide_dimension_t(0, extents[i], (int32_t)stride);
            stride *= extents[i];
        }
        bytes = (size_t)stride * type.bytes();
        void *p = mmap(nullptr, std::max<size_t>(bytes, 1), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            perror("mmap");
            exit(2);
        }
        buf.host = (uint8_t *)p;
        buf.type = type;
        buf.dimensions = (int32_t)dims.size();
        buf.dim = dims.data();
    }
    SharedBuffer(const SharedBuffer &) = delete;
    ~SharedBuffer() { munmap(buf.host, std::max<size_t>(bytes, 1)); }
    size_t elements() const { return bytes / buf.type.bytes(); }
};

void fill(SharedBuffer &b, const BufSpec &spec, uint64_t seed) {
    std::mt19937_64 rng(seed);
    size_t n = b.elements();
    const halide_type_t t = b.buf.type;
    if (t.code == halide_type_float && t.bits == 32) {
        std::uniform_real_distribution<float> d(spec.lo, spec.hi);
        float *p = (float *)b.buf.host;
        const size_t e0 = b.dims[0].extent, e1 = b.dims.size() > 1 ? b.dims[1].extent : 1;
        for (size_t i = 0; i < n; i++) {
            if (spec.smooth) {
                double x = (double)(i % e0), y = (double)((i / e0) % e1), c = (double)(i / (e0 * e1));
                double v = 0.4 + 0.3 * std::sin(0.031 * x + 0.7 * c) * std::cos(0.023 * y + 0.3 * c);
                p[i] = (float)(spec.lo + (spec.hi - spec.lo) * (v + 0.2 * (d(rng) - spec.lo) / (spec.hi - spec.lo)));
            } else {
                p[i] = d(rng);
            }
        }
    } else if (t.code == halide_type_uint && t.bits == 8) {
        for (size_t i = 0; i < n; i++) b.buf.host[i] = (uint8_t)(rng() >> 56);
    } else if (t.code == halide_type_uint && t.bits == 16) {
        uint16_t *p = (uint16_t *)b.buf.host;
        for (size_t i = 0; i < n; i++) p[i] = (uint16_t)(rng() >> 48);
    } else {
        fprintf(stderr, "unsupported input type (code %d, %d bits) for %s\n", t.code, t.bits, spec.name.c_str());
        exit(2);
    }
}

double as_double(const SharedBuffer &b, size_t i) {
    const halide_type_t t = b.buf.type;
    if (t.code == halide_type_float) return ((const float *)b.buf.host)[i];
    if (t.bits == 8) return b.buf.host[i];
    if (t.bits == 16) return ((const uint16_t *)b.buf.host)[i];
    return ((const uint32_t *)b.buf.host)[i];
}

// ---------------------------------------------------------------------------------------------
// Workers: one child process per system, running its module on request.
// ---------------------------------------------------------------------------------------------
struct Reply {
    int32_t rc;  // 0: ok; otherwise the Halide error code or a negative load failure
    double ms;
    char msg[600];
};

char g_error[600];
void on_halide_error(void *, const char *msg) {
    strncpy(g_error, msg, sizeof(g_error) - 1);
}

typedef int (*ArgvFn)(void **);
typedef const halide_filter_metadata_t *(*MetaFn)();

struct Worker {
    std::string system;
    pid_t pid = -1;
    int to_child = -1, from_child = -1;
    bool alive = false;
    std::string failure;
    std::vector<double> times;
    std::unique_ptr<SharedBuffer> output;
};

[[noreturn]] void child_main(int in_fd, int out_fd, const std::string &module, const std::string &pipeline,
                             const Shape &shape, std::map<std::string, SharedBuffer *> buffers, int threads,
                             double mem_gb, int reps) {
    if (mem_gb > 0) {
        rlimit rl{};
        rl.rlim_cur = rl.rlim_max = (rlim_t)(mem_gb * 1024.0 * 1024.0 * 1024.0);
        setrlimit(RLIMIT_AS, &rl);
    }
    setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
    halide_set_num_threads(threads);
    halide_set_error_handler(on_halide_error);
    Reply r{};
    void *h = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    ArgvFn argv_fn = nullptr;
    MetaFn meta_fn = nullptr;
    std::string load_error;
    if (!h) {
        load_error = std::string("dlopen: ") + dlerror();
    } else {
        argv_fn = (ArgvFn)dlsym(h, "diet_pipeline_argv");
        meta_fn = (MetaFn)dlsym(h, "diet_pipeline_metadata");
        if (!argv_fn || !meta_fn) load_error = "module lacks diet_pipeline_argv/metadata";
    }
    // Arguments in the pipeline's order, by name: buffers from the spec, scalars from their defaults
    // (width/height: the shape).
    std::vector<void *> args;
    std::vector<halide_scalar_value_t> scalars(64);
    if (load_error.empty()) {
        const halide_filter_metadata_t *md = meta_fn();
        for (int i = 0; i < md->num_arguments && load_error.empty(); i++) {
            const halide_filter_argument_t &a = md->arguments[i];
            if (a.kind == halide_argument_kind_input_scalar) {
                halide_scalar_value_t &v = scalars[i];
                if (a.scalar_def) v = *a.scalar_def;
                if (!strcmp(a.name, "width")) v.u.i32 = shape.w;
                if (!strcmp(a.name, "height")) v.u.i32 = shape.h;
                args.push_back(&v);
            } else {
                std::string name = a.kind == halide_argument_kind_output_buffer ? "output" : a.name;
                auto it = buffers.find(name);
                if (it == buffers.end()) {
                    load_error = "no buffer spec for argument '" + std::string(a.name) + "' of " + pipeline;
                } else if (it->second->buf.dimensions != a.dimensions ||
                           it->second->buf.type.code != a.type.code || it->second->buf.type.bits != a.type.bits) {
                    load_error = "argument '" + std::string(a.name) + "': type or dimensions differ from the spec";
                } else {
                    args.push_back(&it->second->buf);
                }
            }
        }
    }
    char cmd;
    while (read(in_fd, &cmd, 1) == 1 && cmd == 'R') {
        r = Reply{};
        if (!load_error.empty()) {
            r.rc = -1000;
            snprintf(r.msg, sizeof(r.msg), "%s", load_error.c_str());
        } else {
            double best = 1e300;
            for (int k = 0; k < reps && r.rc == 0; k++) {
                g_error[0] = 0;
                auto t0 = std::chrono::steady_clock::now();
                r.rc = argv_fn(args.data());
                auto t1 = std::chrono::steady_clock::now();
                best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            r.ms = best;
            if (r.rc != 0) snprintf(r.msg, sizeof(r.msg), "halide error %d: %s", r.rc, g_error);
        }
        if (write(out_fd, &r, sizeof(r)) != (ssize_t)sizeof(r)) break;
    }
    _exit(0);
}

std::string describe_exit(pid_t pid) {
    int st = 0;
    if (waitpid(pid, &st, 0) < 0) return "lost";
    if (WIFSIGNALED(st)) {
        int s = WTERMSIG(st);
        return std::string("killed by signal ") + std::to_string(s) + " (" + strsignal(s) + ")";
    }
    return "exited with status " + std::to_string(WEXITSTATUS(st));
}

// Asks a worker for one (timed) run; false (and the worker marked failed) on any failure.
bool request(Worker &w, double timeout_s, double *ms) {
    if (!w.alive) return false;
    char c = 'R';
    if (write(w.to_child, &c, 1) != 1) {
        w.failure = "failed: worker gone";
        w.alive = false;
        return false;
    }
    pollfd pfd{w.from_child, POLLIN, 0};
    int pr = poll(&pfd, 1, (int)(timeout_s * 1000));
    if (pr == 0) {
        kill(w.pid, SIGKILL);
        describe_exit(w.pid);
        w.failure = "failed: timeout (" + std::to_string((int)timeout_s) + " s per run)";
        w.alive = false;
        return false;
    }
    Reply r{};
    ssize_t got = read(w.from_child, &r, sizeof(r));
    if (got != (ssize_t)sizeof(r)) {
        w.failure = "failed: " + describe_exit(w.pid);
        w.alive = false;
        return false;
    }
    if (r.rc != 0) {
        std::string m = r.msg;
        for (char &ch : m) if (ch == '\n' || ch == ',' || ch == '"') ch = ' ';
        while (!m.empty() && m.back() == ' ') m.pop_back();
        w.failure = "failed: " + m;
        kill(w.pid, SIGKILL);
        describe_exit(w.pid);
        w.alive = false;
        return false;
    }
    *ms = r.ms;
    return true;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep)) if (!item.empty()) out.push_back(item);
    return out;
}

struct Options {
    std::string pipeline, systems = "hand", shapes = "estimate", csv, tag = "run";
    std::string module_dir = DIET_PIPELINES_MODULE_DIR;
    int rounds = 5, threads = 2, reps = 1;
    double timeout_s = 300, mem_gb = 16;
};

void usage() {
    fprintf(stderr,
            "usage: pipelines_runner --pipeline NAME [--systems a,b,...] [--shapes estimate|dynamic|small|WxH,...]\n"
            "         [--rounds N] [--reps N] [--threads N] [--timeout S] [--mem-gb G] [--csv FILE] [--tag TAG]\n"
            "         [--module-dir DIR]     (pipelines: unsharp harris stencil_chain max_filter iir_blur hist_eq\n"
            "          bilateral_grid camera_pipe local_laplacian interpolate nl_means conv_layer)\n");
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { usage(); exit(2); }
            return argv[++i];
        };
        if (a == "--pipeline") o.pipeline = next();
        else if (a == "--systems") o.systems = next();
        else if (a == "--shapes") o.shapes = next();
        else if (a == "--rounds") o.rounds = std::stoi(next());
        else if (a == "--reps") o.reps = std::stoi(next());
        else if (a == "--threads") o.threads = std::stoi(next());
        else if (a == "--timeout") o.timeout_s = std::stod(next());
        else if (a == "--mem-gb") o.mem_gb = std::stod(next());
        else if (a == "--csv") o.csv = next();
        else if (a == "--tag") o.tag = next();
        else if (a == "--module-dir") o.module_dir = next();
        else { usage(); return 2; }
    }
    const PipelineSpec *spec = nullptr;
    std::vector<PipelineSpec> all = specs();
    for (auto &s : all) if (s.name == o.pipeline) spec = &s;
    if (!spec) { usage(); return 2; }
    std::vector<Shape> shapes;
    for (auto &s : split(o.shapes, ',')) {
        int w = 0, h = 0;
        if (s == "estimate") shapes.push_back(spec->estimate);
        else if (s == "dynamic") shapes.insert(shapes.end(), spec->dynamic.begin(), spec->dynamic.end());
        else if (s == "small") shapes.push_back(spec->dynamic.front());
        else if (sscanf(s.c_str(), "%dx%d", &w, &h) == 2 && w > 0 && h > 0) shapes.push_back({w, h});
        else { usage(); return 2; }
    }
    std::vector<std::string> systems = split(o.systems, ',');
    signal(SIGPIPE, SIG_IGN);

    FILE *csv = nullptr;
    if (!o.csv.empty()) {
        bool fresh = access(o.csv.c_str(), F_OK) != 0;
        csv = fopen(o.csv.c_str(), "a");
        if (!csv) { perror(o.csv.c_str()); return 2; }
        if (fresh) fprintf(csv, "tag,pipeline,width,height,system,status,median_ms,min_ms,rounds,max_err,detail\n");
    }

    for (const Shape &shape : shapes) {
        auto type_of = [&](const std::string &buf) -> halide_type_t {
            for (const BufSpec &b : spec->buffers) {
                if (b.name != buf) continue;
                if (b.type == 'b') return halide_type_t(halide_type_uint, 8);
                if (b.type == 'h') return halide_type_t(halide_type_uint, 16);
            }
            return halide_type_t(halide_type_float, 32);
        };
        std::vector<std::unique_ptr<SharedBuffer>> inputs;
        std::map<std::string, SharedBuffer *> input_map;
        const BufSpec *out_spec = nullptr;
        uint64_t seed = 0x5eed0000u + (uint64_t)shape.w * 7919u + (uint64_t)shape.h;
        for (const BufSpec &b : spec->buffers) {
            std::vector<int> ext;
            for (int e : b.extents) ext.push_back(e == W ? shape.w : e == H ? shape.h : e);
            if (b.name == "output") { out_spec = &b; continue; }
            inputs.emplace_back(new SharedBuffer(type_of(b.name), ext));
            fill(*inputs.back(), b, seed++);
            input_map[b.name] = inputs.back().get();
        }
        std::vector<int> out_ext;
        for (int e : out_spec->extents) out_ext.push_back(e == W ? shape.w : e == H ? shape.h : e);

        // Start the workers.
        std::vector<Worker> workers(systems.size());
        for (size_t i = 0; i < systems.size(); i++) {
            Worker &w = workers[i];
            w.system = systems[i];
            w.output.reset(new SharedBuffer(type_of("output"), out_ext));
            std::string module = o.module_dir + "/plm_" + spec->name + "_" + w.system + ".so";
            if (access(module.c_str(), R_OK) != 0) {
                w.failure = "not built";
                continue;
            }
            int p2c[2], c2p[2];
            if (pipe(p2c) || pipe(c2p)) { perror("pipe"); return 2; }
            fflush(nullptr);
            pid_t pid = fork();
            if (pid == 0) {
                close(p2c[1]);
                close(c2p[0]);
                for (size_t j = 0; j < i; j++) {
                    if (workers[j].to_child >= 0) close(workers[j].to_child);
                    if (workers[j].from_child >= 0) close(workers[j].from_child);
                }
                std::map<std::string, SharedBuffer *> bufs = input_map;
                bufs["output"] = w.output.get();
                child_main(p2c[0], c2p[1], module, spec->name, shape, bufs, o.threads, o.mem_gb, o.reps);
            }
            close(p2c[0]);
            close(c2p[1]);
            w.pid = pid;
            w.to_child = p2c[1];
            w.from_child = c2p[0];
            w.alive = true;
        }

        // Warm-up run (also the run whose output is checked), then the timed rounds, interleaved.
        for (Worker &w : workers) {
            double ms;
            request(w, o.timeout_s, &ms);
        }
        const Worker *ref = nullptr;
        for (const Worker &w : workers) if (w.system == "hand" && w.alive) ref = &w;
        std::vector<double> max_err(workers.size(), 0.0);
        std::vector<std::string> check(workers.size(), ref ? "" : "no reference");
        if (ref) {
            const SharedBuffer &rb = *ref->output;
            size_t n = rb.elements();
            bool is_float = rb.buf.type.code == halide_type_float;
            double scale = 0, lo = INFINITY, hi = -INFINITY, mean = 0;
            for (size_t k = 0; k < n; k++) {
                double v = as_double(rb, k);
                scale += std::fabs(v);
                mean += v;
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            scale = n ? scale / n : 0;
            mean = n ? mean / n : 0;
            printf("%-16s %5dx%-5d hand output: min %.6g, mean %.6g, max %.6g\n", spec->name.c_str(), shape.w,
                   shape.h, lo, mean, hi);
            for (size_t i = 0; i < workers.size(); i++) {
                if (!workers[i].alive || &workers[i] == ref) continue;
                const SharedBuffer &b = *workers[i].output;
                double worst = 0;
                size_t bad = 0;
                for (size_t k = 0; k < n; k++) {
                    double a = as_double(b, k), e = as_double(rb, k);
                    double err;
                    if (is_float) {
                        err = (std::isnan(a) || std::isnan(e)) ? (std::isnan(a) && std::isnan(e) ? 0 : INFINITY)
                                                               : std::fabs(a - e) / (std::fabs(e) + scale);
                        if (!(err <= spec->float_rtol)) bad++;
                    } else {
                        err = std::fabs(a - e);
                        if (err > spec->int_atol) bad++;
                    }
                    worst = std::max(worst, err);
                }
                max_err[i] = worst;
                if (bad) check[i] = "mismatch: " + std::to_string(bad) + " of " + std::to_string(n) + " values";
            }
        }
        for (int round = 0; round < o.rounds; round++) {
            for (size_t k = 0; k < workers.size(); k++) {
                Worker &w = workers[(k + round) % workers.size()];
                double ms;
                if (request(w, o.timeout_s, &ms)) w.times.push_back(ms);
            }
        }
        for (size_t i = 0; i < workers.size(); i++) {
            Worker &w = workers[i];
            if (w.alive) {
                close(w.to_child);  // EOF: the child exits
                describe_exit(w.pid);
                close(w.from_child);
            }
            std::string status = !w.failure.empty() ? w.failure : !check[i].empty() && check[i] != "no reference" ? "mismatch" : "ok";
            std::vector<double> t = w.times;
            std::sort(t.begin(), t.end());
            double med = t.empty() ? NAN : (t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]));
            double mn = t.empty() ? NAN : t.front();
            if (!w.failure.empty()) med = mn = NAN;
            printf("%-16s %5dx%-5d %-14s %10.3f ms  max_err %.3g  %s%s%s\n", spec->name.c_str(), shape.w, shape.h,
                   w.system.c_str(), med, max_err[i], status.c_str(), check[i].empty() ? "" : "  ", check[i].c_str());
            if (csv) {
                fprintf(csv, "%s,%s,%d,%d,%s,%s,%.4f,%.4f,%zu,%.4g,%s\n", o.tag.c_str(), spec->name.c_str(), shape.w,
                        shape.h, w.system.c_str(), status.c_str(), med, mn, t.size(), max_err[i], check[i].c_str());
                fflush(csv);
            }
        }
        fflush(stdout);
    }
    if (csv) fclose(csv);
    return 0;
}
