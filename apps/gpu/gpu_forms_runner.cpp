// gpu_forms_runner: runs every contraction form Diet built for CUDA (apps/gpu/gpu_forms_build.cpp,
// in the bundle's forms/ folder) on the GPU at each T of the build's list, checks each output
// against the same algorithm run on the CPU (gr_<i>, unscheduled but for one parallel loop), and
// times it; the float32 forms of the dense and attention families are timed against cuBLAS on the
// same problem (apps/gpu/gpu_common.h). Needs no Halide: the bundle's libraries, Halide's runtime
// headers, the CUDA runtime, cuBLAS and the driver.
//
//   gpu_forms_runner [--reps 9] [--tol 1e-4] [--csv FILE] [--forms substring]
//
// Inputs are fresh random values per (form, T): floats in [-1, 1), uint8 in [0, 255], int8 in
// [-128, 127], int16 in [-1000, 1000] (no int32 overflow over K = 768 products). The GPU output is
// poisoned (0xff bytes: NaN for floats) before the checked call. Floats pass at relative error
// <= --tol of the largest reference magnitude, integers only when exact.
//
// Timing: CUDA events on the stream Halide's runtime is given (the primary context's, shared with
// cuBLAS, as in diet_gpu_runner), warm L2, several back-to-back calls per sample, median of --reps
// samples, Diet and cuBLAS alternating sample by sample. A Diet call's time includes its host work.
//
// A form whose pipeline returns an error (a launch the device refuses, say) is reported FAILED in
// the CSV (correct = 0, no time) and the rest of its T are skipped; the other forms still run.
// (Halide's default error handler aborts the process: this one prints the message and returns.)
//
// Exit status: 0 every form correct at every T; 1 some output wrong or some form failed; 3 a CUDA
// call of the runner itself failed.
#include "halide_cuda_share.h"

#include "gpu_forms_table.h"

#include <cstring>
#include <map>
#include <memory>
#include <sstream>

using namespace gpu;

namespace {

void print_halide_error(void *, const char *msg) { std::fprintf(stderr, "Halide error: %s\n", msg); }

size_t elements(const std::vector<int> &e) {
    size_t n = 1;
    for (int x : e) n *= (size_t)x;
    return n;
}

// One dense innermost-first buffer with a host copy and (for the GPU side) a device copy.
struct Tensor {
    halide_buffer_t buf{};
    halide_dimension_t dims[4]{};
    std::vector<uint8_t> host;
    void *device = nullptr;
    std::vector<int> extents;
    gpu_forms::TypeCode type;

    Tensor(const std::vector<int> &e, gpu_forms::TypeCode t, bool on_device) : extents(e), type(t) {
        int stride = 1;
        for (size_t d = 0; d < e.size(); d++) {
            dims[d] = halide_dimension_t(0, e[d], stride);
            stride *= e[d];
        }
        host.resize(elements(e) * (size_t)(t.bits / 8));
        buf.host = host.data();
        buf.type = halide_type_t(t.code, (uint8_t)t.bits, 1);
        buf.dimensions = (int)e.size();
        buf.dim = dims;
        if (on_device) {
            GPU_CHECK_CUDA(cudaMalloc(&device, std::max<size_t>(host.size(), 4)));
            const int r = halide_cuda_wrap_device_ptr(nullptr, &buf, (uint64_t)(uintptr_t)device);
            if (r) {
                std::fprintf(stderr, "halide_cuda_wrap_device_ptr failed: %d\n", r);
                std::exit(3);
            }
        }
    }
    ~Tensor() {
        if (device) {
            halide_cuda_detach_device_ptr(nullptr, &buf);
            cudaFree(device);
        }
    }
    Tensor(const Tensor &) = delete;
    Tensor &operator=(const Tensor &) = delete;

    void upload() { GPU_CHECK_CUDA(cudaMemcpy(device, host.data(), host.size(), cudaMemcpyHostToDevice)); }
    void download() { GPU_CHECK_CUDA(cudaMemcpy(host.data(), device, host.size(), cudaMemcpyDeviceToHost)); }

    double at(size_t i) const {
        const uint8_t *p = host.data();
        if (type.code == halide_type_float && type.bits == 32) return ((const float *)p)[i];
        if (type.code == halide_type_float && type.bits == 64) return ((const double *)p)[i];
        if (type.code == halide_type_int && type.bits == 32) return ((const int32_t *)p)[i];
        if (type.code == halide_type_int && type.bits == 16) return ((const int16_t *)p)[i];
        if (type.code == halide_type_int && type.bits == 8) return ((const int8_t *)p)[i];
        if (type.code == halide_type_uint && type.bits == 8) return p[i];
        std::fprintf(stderr, "gpu_forms_runner: no reader for type code %d bits %d\n", (int)type.code, type.bits);
        std::exit(3);
    }
};

// IEEE half from a float in [-1, 1) with at most 11 significant bits (exact: no rounding needed).
uint16_t to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if ((x & 0x7fffffffu) == 0 || exp <= 0) return (uint16_t)sign;  // zero (and tiny values flush)
    return (uint16_t)(sign | ((uint32_t)exp << 10) | ((x >> 13) & 0x3ffu));
}

void fill(Tensor &t, uint64_t seed) {
    uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    auto next = [&x] { return (x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
    const size_t n = elements(t.extents);
    uint8_t *p = t.host.data();
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = next();
        if (t.type.code == halide_type_float && t.type.bits == 32) ((float *)p)[i] = (float)(r % 4096) / 2048.f - 1.f;
        else if (t.type.code == halide_type_float && t.type.bits == 16)
            ((uint16_t *)p)[i] = to_half((float)(r % 2048) / 1024.f - 1.f);
        else if (t.type.code == halide_type_uint && t.type.bits == 8) p[i] = (uint8_t)(r % 256);
        else if (t.type.code == halide_type_int && t.type.bits == 8) ((int8_t *)p)[i] = (int8_t)((int)(r % 256) - 128);
        else if (t.type.code == halide_type_int && t.type.bits == 16) ((int16_t *)p)[i] = (int16_t)((int)(r % 2001) - 1000);
        else {
            std::fprintf(stderr, "gpu_forms_runner: no filler for type code %d bits %d\n", (int)t.type.code, t.type.bits);
            std::exit(3);
        }
    }
}

// max |got - ref| / max |ref| (integers: the count of differing elements instead); NaN counts as wrong.
struct Check {
    double error = 0;
    size_t wrong = 0;
};
Check compare(const Tensor &got, const Tensor &ref, double tol, bool exact) {
    const size_t n = elements(ref.extents);
    double max_ref = 0;
    for (size_t i = 0; i < n; i++) max_ref = std::max(max_ref, std::fabs(ref.at(i)));
    Check c;
    double max_diff = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = std::fabs(got.at(i) - ref.at(i));
        if (!(d <= max_diff)) max_diff = std::isnan(d) ? INFINITY : d;
        if (exact ? !(d == 0) : !(d <= tol * max_ref)) c.wrong++;
    }
    c.error = max_ref > 0 ? max_diff / max_ref : max_diff;
    return c;
}

// The cuBLAS problem with the same shape, for the float32 forms whose family has one.
bool cublas_workload(const gpu_forms::Entry &f, Workload *w) {
    if (f.out_type.code != halide_type_float || f.out_type.bits != 32 || f.in_type[0].bits != 32) return false;
    const std::string fam = f.family;
    if (fam == "dense" || fam == "layout" || fam == "int") *w = Workload::Dense;
    else if (fam == "bmm_nt") *w = Workload::BmmNT;
    else if (fam == "bmm_nn") *w = Workload::BmmNN;
    else return false;
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    int reps = 9;
    double tol = 1e-4;
    std::string csv_path, only;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--reps") reps = std::atoi(value().c_str());
        else if (a == "--tol") tol = std::atof(value().c_str());
        else if (a == "--csv") csv_path = value();
        else if (a == "--forms") only = value();
        else {
            std::fprintf(stderr, "usage: gpu_forms_runner [--reps N] [--tol X] [--csv FILE] [--forms substring]\n");
            return 2;
        }
    }
    const cudaStream_t g_stream = share_cuda_with_halide(0);
    halide_set_error_handler(print_halide_error);
    cublasHandle_t h;
    GPU_CHECK_CUBLAS(cublasCreate(&h));
    GPU_CHECK_CUBLAS(cublasSetStream(h, g_stream));
    set_fp32_math(h, false);
    cudaEvent_t start, stop;
    GPU_CHECK_CUDA(cudaEventCreate(&start));
    GPU_CHECK_CUDA(cudaEventCreate(&stop));

    FILE *csv = csv_path.empty() ? nullptr : std::fopen(csv_path.c_str(), "w");
    if (csv) std::fprintf(csv, "form,family,T,diet_us,cublas_us,rel_error,wrong_elements,correct\n");
    int failures = 0;
    std::printf("%-30s %5s %10s %10s %8s %10s %s\n", "form", "T", "diet_us", "cublas_us", "ratio", "error", "check");
    for (const gpu_forms::Entry &f : gpu_forms::kForms) {
        if (!only.empty() && std::string(f.name).find(only) == std::string::npos) continue;
        Workload w;
        const bool has_cublas = cublas_workload(f, &w);
        const bool exact = f.out_type.code != halide_type_float;
        const int *sz = f.sizes;
        for (int ti = 0; ti < gpu_forms::kNumTs; ti++) {
            const int T = gpu_forms::kTs[ti];
            std::vector<std::unique_ptr<Tensor>> gin, rin;
            for (int k = 0; k < f.inputs; k++) {
                std::vector<int> e(sz, sz + f.in_dims[k]);
                sz += f.in_dims[k];
                gin.emplace_back(new Tensor(e, f.in_type[k], true));
                fill(*gin.back(), 1000003ULL * (uint64_t)(ti + 1) + (uint64_t)k);
                gin.back()->upload();
                rin.emplace_back(new Tensor(e, f.in_type[k], false));
                rin.back()->host = gin.back()->host;
                rin.back()->buf.host = rin.back()->host.data();
            }
            const std::vector<int> oe(sz, sz + f.out_dims);
            sz += f.out_dims;
            Tensor gout(oe, f.out_type, true), rout(oe, f.out_type, false);

            int32_t t_arg = T;
            std::vector<void *> gargs, rargs;
            for (int k = 0; k < f.inputs; k++) {
                gargs.push_back(&gin[k]->buf);
                rargs.push_back(&rin[k]->buf);
            }
            gargs.push_back(&t_arg);
            rargs.push_back(&t_arg);
            gargs.push_back(&gout.buf);
            rargs.push_back(&rout.buf);

            // A failed call: recorded, and the form's other T skipped.
            auto failed = [&](const char *what, int r) {
                std::fprintf(stderr, "%s T=%d: %s failed with %d; the form's other T are skipped\n", f.name, T, what, r);
                std::printf("%-30s %5d %10s %10s %8s %10s %s\n", f.name, T, "-", "-", "-", "-", "FAILED");
                if (csv) std::fprintf(csv, "%s,%s,%d,,,,,0\n", f.name, f.family, T), std::fflush(csv);
                failures++;
            };
            int r = f.ref(rargs.data());
            if (r) {
                failed("the CPU reference", r);
                break;
            }
            GPU_CHECK_CUDA(cudaMemset(gout.device, 0xff, gout.host.size()));
            GPU_CHECK_CUDA(cudaDeviceSynchronize());
            r = f.diet(gargs.data());
            if (r) {
                failed("Diet's CUDA pipeline", r);
                break;
            }
            GPU_CHECK_CUDA(cudaStreamSynchronize(g_stream));
            GPU_CHECK_CUDA(cudaGetLastError());
            gout.download();
            const Check c = compare(gout, rout, tol, exact);
            const bool ok = c.wrong == 0;
            failures += !ok;

            // Timing: one call to size the samples, then Diet and cuBLAS alternating.
            auto diet_call = [&] {
                if (f.diet(gargs.data())) {
                    std::fprintf(stderr, "%s T=%d: Diet's CUDA pipeline failed\n", f.name, T);
                    std::exit(3);
                }
            };
            Shape s = has_cublas ? shape_of(w, T) : Shape{};
            float *c0 = nullptr, *c1 = nullptr, *c2 = nullptr;
            if (has_cublas) {
                GPU_CHECK_CUDA(cudaMalloc(&c0, count(s.in0) * 4));
                GPU_CHECK_CUDA(cudaMalloc(&c1, count(s.in1) * 4));
                GPU_CHECK_CUDA(cudaMalloc(&c2, count(s.out) * 4));
                GPU_CHECK_CUDA(cudaMemcpy(c0, gin[0]->device, count(s.in0) * 4, cudaMemcpyDeviceToDevice));
                GPU_CHECK_CUDA(cudaMemcpy(c1, gin[1]->device, count(s.in1) * 4, cudaMemcpyDeviceToDevice));
            }
            auto cublas_call = [&] { cublas_run(h, w, T, c0, c1, c2); };
            const int inner_d = inner_for(time_sample(g_stream, start, stop, 1, nullptr, diet_call), 200);
            const int inner_c = has_cublas ? inner_for(time_sample(g_stream, start, stop, 1, nullptr, cublas_call), 200) : 0;
            std::vector<double> td, tc;
            for (int rep = 0; rep < reps; rep++) {
                const bool diet_first = rep % 2 == 0;
                for (int k = 0; k < 2; k++) {
                    if ((k == 0) == diet_first) td.push_back(time_sample(g_stream, start, stop, inner_d, nullptr, diet_call));
                    else if (has_cublas) tc.push_back(time_sample(g_stream, start, stop, inner_c, nullptr, cublas_call));
                }
            }
            if (has_cublas) {
                cudaFree(c0);
                cudaFree(c1);
                cudaFree(c2);
            }
            const double md = median(td), mc = has_cublas ? median(tc) : NAN;
            std::printf("%-30s %5d %10.2f %10.2f %8.3f %10.2e %s\n", f.name, T, md, mc, mc / md, c.error,
                        ok ? "ok" : "WRONG");
            std::fflush(stdout);
            if (!ok) std::fprintf(stderr, "%s T=%d: %zu elements differ (max rel error %g)\n", f.name, T, c.wrong, c.error);
            if (csv) {
                std::fprintf(csv, "%s,%s,%d,%.3f,%s,%.3e,%zu,%d\n", f.name, f.family, T, md,
                             has_cublas ? std::to_string(mc).c_str() : "", c.error, c.wrong, ok ? 1 : 0);
                std::fflush(csv);
            }
        }
    }
    if (csv) std::fclose(csv);
    std::printf("# %s\n", failures ? "SOME FORMS WRONG" : "every form correct at every T");
    return failures ? 1 : 0;
}
