// diet_gpu_runner: times Diet's CUDA libraries (built by scripts/gpu_bundle.sh: diet_dense,
// diet_batch_matmul_nt, diet_batch_matmul_nn) against cuBLAS in one process, for every T in
// [tmin, tmax], and checks every Diet output against cuBLAS's. Needs no Halide: only the bundle's
// static libraries (Halide's runtime is in diet_dense.a), Halide's runtime headers, the CUDA
// runtime, cuBLAS and the driver.
//
//   diet_gpu_runner [--tmin 1] [--tmax 128] [--ts 1,2,4,...] [--reps 15] [--workloads dense,bmm_nt,bmm_nn]
//                   [--modes warm,cold] [--pedantic] [--tol 1e-4] [--csv out.csv]
// (--ts: only these T, in [tmin, tmax]; the forced-kernel sweep of gpu_eval.sh uses it.)
//
// How the two share the GPU: Halide's CUDA runtime normally creates a context of its own, and
// device memory of one context is not valid in another, so its context hook is pointed at the
// CUDA runtime's primary context (the one cuBLAS and cudaMalloc use) and its stream hook at the
// stream cuBLAS runs on. Every buffer is allocated once per workload with cudaMalloc (sized for
// tmax) and wrapped into halide_buffer_t's with halide_cuda_wrap_device_ptr, so a timed Diet call
// does no allocation and no copy: inputs are marked clean on both sides.
//
// Timing (apps/gpu/gpu_common.h): CUDA events on that stream; per (workload, T, mode) the two
// implementations take turns sample by sample (order alternating), so drift of clocks or
// temperature hits both alike; warm = several back-to-back calls per sample on the same buffers,
// cold = the L2 flushed before each single timed call. A Diet call's time includes its host-side
// work (argument checks, context push/pop, launch), as an application would see it.
//
// Exit status: 0 when every check passed, 1 when a Diet output differs from cuBLAS by more than
// --tol (relative to max |cuBLAS|) or cuBLAS differs from the CPU reference (checked at a few T);
// the CSV is complete either way. 3: a CUDA/cuBLAS/Halide call failed.
#include "halide_cuda_share.h"

#include "diet_batch_matmul_nn.h"
#include "diet_batch_matmul_nt.h"
#include "diet_dense.h"

#include <chrono>
#include <sstream>

using namespace gpu;

namespace {

using DietFn = int (*)(halide_buffer_t *, halide_buffer_t *, int32_t, halide_buffer_t *);

DietFn diet_fn(Workload w) {
    return w == Workload::Dense ? diet_dense : w == Workload::BmmNT ? diet_batch_matmul_nt : diet_batch_matmul_nn;
}

// A dense innermost-first float buffer whose host side is a std::vector and whose device side
// is a cudaMalloc'ed pointer. The host pointer is real, so a pipeline that touched an input on
// the host would still be correct (Halide refuses null host pointers of buffers used on the host).
struct Wrapped {
    halide_buffer_t buf{};
    halide_dimension_t dims[3]{};
    Wrapped(const std::vector<int> &extents, float *host, float *device) {
        int stride = 1;
        for (size_t d = 0; d < extents.size(); d++) {
            dims[d] = halide_dimension_t(0, extents[d], stride);
            stride *= extents[d];
        }
        buf.host = (uint8_t *)host;
        buf.type = halide_type_t(halide_type_float, 32, 1);
        buf.dimensions = (int)extents.size();
        buf.dim = dims;
        int e = halide_cuda_wrap_device_ptr(nullptr, &buf, (uint64_t)(uintptr_t)device);
        if (e) {
            std::fprintf(stderr, "halide_cuda_wrap_device_ptr failed: %d\n", e);
            std::exit(3);
        }
    }
    ~Wrapped() { halide_cuda_detach_device_ptr(nullptr, &buf); }
    Wrapped(const Wrapped &) = delete;
    Wrapped &operator=(const Wrapped &) = delete;
};

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

// Where a result differs: how many elements, NaN on which side (0xff bytes: never written), and
// the first few coordinates (innermost first), to tell a skipped tile from wrong arithmetic.
void describe_mismatch(const std::vector<float> &got, const std::vector<float> &ref, const std::vector<int> &extents,
                       double tol) {
    double max_ref = 0;
    for (float r : ref) max_ref = std::max(max_ref, (double)std::fabs(r));
    size_t wrong = 0, nan_got = 0, nan_ref = 0, shown = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        nan_got += std::isnan(got[i]);
        nan_ref += std::isnan(ref[i]);
        const double d = std::fabs((double)got[i] - (double)ref[i]);
        if (!(d <= tol * max_ref)) {
            wrong++;
            if (shown++ < 4) {
                std::fprintf(stderr, "  at (");
                size_t rest = i;
                for (size_t k = 0; k < extents.size(); k++) {
                    std::fprintf(stderr, "%s%zu", k ? ", " : "", rest % (size_t)extents[k]);
                    rest /= (size_t)extents[k];
                }
                std::fprintf(stderr, "): Diet %g, cuBLAS %g\n", got[i], ref[i]);
            }
        }
    }
    std::fprintf(stderr, "  %zu of %zu elements differ; NaN in Diet's output: %zu, in cuBLAS's: %zu\n", wrong,
                 ref.size(), nan_got, nan_ref);
}

void usage() {
    std::fprintf(stderr, "usage: diet_gpu_runner [--tmin N] [--tmax N] [--ts T,T,...] [--reps N] [--workloads dense,bmm_nt,bmm_nn] "
                         "[--modes warm,cold] [--pedantic] [--tol X] [--csv FILE]\n");
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
    int tmin = 1, tmax = 128, reps = 15;
    bool pedantic = false;
    double tol = 1e-4;
    std::string workloads = "dense,bmm_nt,bmm_nn", modes = "warm,cold", csv_path, ts_list;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (a == "--tmin") tmin = std::atoi(value().c_str());
        else if (a == "--tmax") tmax = std::atoi(value().c_str());
        else if (a == "--ts") ts_list = value();
        else if (a == "--reps") reps = std::atoi(value().c_str());
        else if (a == "--workloads") workloads = value();
        else if (a == "--modes") modes = value();
        else if (a == "--csv") csv_path = value();
        else if (a == "--tol") tol = std::atof(value().c_str());
        else if (a == "--pedantic") pedantic = true;
        else usage();
    }
    if (tmin < 1 || tmax < tmin || tmax > 128 || reps < 1) usage();  // the libraries' T range is 1..128
    std::vector<int> ts;
    for (const std::string &t : split(ts_list)) {
        const int v = std::atoi(t.c_str());
        if (v < tmin || v > tmax) usage();
        ts.push_back(v);
    }
    if (ts.empty()) {
        for (int T = tmin; T <= tmax; T++) ts.push_back(T);
    }
    std::vector<Workload> wl;
    for (const std::string &s : split(workloads)) {
        Workload w;
        if (!parse_workload(s, &w)) usage();
        wl.push_back(w);
    }
    std::vector<std::string> md = split(modes);
    for (const std::string &m : md) {
        if (m != "warm" && m != "cold") usage();
    }

    const int device = 0;
    const cudaStream_t g_stream = share_cuda_with_halide(device);
    cublasHandle_t h;
    GPU_CHECK_CUBLAS(cublasCreate(&h));
    GPU_CHECK_CUBLAS(cublasSetStream(h, g_stream));
    set_fp32_math(h, pedantic);
    L2Flusher flusher(device);
    cudaEvent_t start, stop;
    GPU_CHECK_CUDA(cudaEventCreate(&start));
    GPU_CHECK_CUDA(cudaEventCreate(&stop));

    FILE *csv = csv_path.empty() ? stdout : std::fopen(csv_path.c_str(), "w");
    if (!csv) {
        std::fprintf(stderr, "cannot write %s\n", csv_path.c_str());
        return 2;
    }
    std::fprintf(csv, "workload,T,mode,impl,median_us,min_us,samples,calls_per_sample,gflops,rel_err\n");

    const int check_ts[] = {1, 3, 16, 37};
    int failures = 0;
    const auto t_begin = std::chrono::steady_clock::now();
    for (Workload w : wl) {
        Shape big = shape_of(w, tmax);
        float *d_in0, *d_in1, *d_diet, *d_ref;
        GPU_CHECK_CUDA(cudaMalloc(&d_in0, count(big.in0) * sizeof(float)));
        GPU_CHECK_CUDA(cudaMalloc(&d_in1, count(big.in1) * sizeof(float)));
        GPU_CHECK_CUDA(cudaMalloc(&d_diet, count(big.out) * sizeof(float)));
        GPU_CHECK_CUDA(cudaMalloc(&d_ref, count(big.out) * sizeof(float)));
        for (int T : ts) {
            Shape s = shape_of(w, T);
            std::vector<float> in0(count(s.in0)), in1(count(s.in1)), out(count(s.out)), ref(count(s.out));
            fill_random(in0, 1000 * T + 1);
            fill_random(in1, 1000 * T + 2);
            GPU_CHECK_CUDA(cudaMemcpy(d_in0, in0.data(), in0.size() * sizeof(float), cudaMemcpyHostToDevice));
            GPU_CHECK_CUDA(cudaMemcpy(d_in1, in1.data(), in1.size() * sizeof(float), cudaMemcpyHostToDevice));
            // NaN bytes in both outputs: a kernel that skipped a tile cannot pass by leftover data.
            GPU_CHECK_CUDA(cudaMemset(d_diet, 0xff, out.size() * sizeof(float)));
            GPU_CHECK_CUDA(cudaMemset(d_ref, 0xff, ref.size() * sizeof(float)));
            // The copies and memsets above run on the legacy default stream, which does not order
            // work on our non-blocking stream: without this, the NaN fill could land after the
            // kernels and fail a correct result (seen on an H100: right on a second call).
            GPU_CHECK_CUDA(cudaDeviceSynchronize());
            Wrapped b0(s.in0, in0.data(), d_in0), b1(s.in1, in1.data(), d_in1), bo(s.out, out.data(), d_diet);
            DietFn fn = diet_fn(w);
            auto diet = [&]() {
                int e = fn(&b0.buf, &b1.buf, T, &bo.buf);
                if (e) {
                    std::fprintf(stderr, "Diet's %s failed at T=%d: Halide error %d\n", name_of(w), T, e);
                    std::exit(3);
                }
            };
            auto vendor = [&]() { cublas_run(h, w, T, d_in0, d_in1, d_ref); };

            // First calls: Halide loads its CUDA module (PTX JIT for this GPU), cuBLAS picks its
            // kernel; both outputs are then compared.
            diet();
            vendor();
            GPU_CHECK_CUDA(cudaStreamSynchronize(g_stream));
            GPU_CHECK_CUDA(cudaMemcpy(out.data(), d_diet, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
            GPU_CHECK_CUDA(cudaMemcpy(ref.data(), d_ref, ref.size() * sizeof(float), cudaMemcpyDeviceToHost));
            const double err = relative_error(out, ref);
            if (!(err <= tol)) {
                std::fprintf(stderr, "WRONG: Diet's %s at T=%d differs from cuBLAS: relative error %.3g > %.3g\n",
                             name_of(w), T, err, tol);
                describe_mismatch(out, ref, s.out, tol);
                // Deterministic (a kernel bug) or an ordering problem (a race with the copy)?
                GPU_CHECK_CUDA(cudaDeviceSynchronize());
                diet();
                GPU_CHECK_CUDA(cudaDeviceSynchronize());
                GPU_CHECK_CUDA(cudaMemcpy(out.data(), d_diet, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
                std::fprintf(stderr, "  a second call, after a device synchronization: relative error %.3g\n",
                             relative_error(out, ref));
                failures++;
            }
            std::string ref_err;
            if (std::find(std::begin(check_ts), std::end(check_ts), T) != std::end(check_ts)) {
                double e = relative_error(ref, cpu_reference(w, T, in0, in1));
                ref_err = std::to_string(e);
                std::printf("# check %s T=%d: Diet vs cuBLAS %.3g, cuBLAS vs CPU %.3g\n", name_of(w), T, err, e);
                if (!(e <= tol)) {
                    std::fprintf(stderr, "WRONG: cuBLAS %s at T=%d differs from the CPU reference: %.3g\n",
                                 name_of(w), T, e);
                    failures++;
                }
            }

            for (const std::string &mode : md) {
                const bool cold = mode == "cold";
                const double one_diet = time_sample(g_stream, start, stop, 1, nullptr, diet);
                const double one_ref = time_sample(g_stream, start, stop, 1, nullptr, vendor);
                const int inner_diet = cold ? 1 : inner_for(one_diet, 200.0);
                const int inner_ref = cold ? 1 : inner_for(one_ref, 200.0);
                // A pathologically slow kernel must not eat the 10-minute budget: at most ~0.5 s
                // of samples per implementation here, but never fewer than 3 samples.
                const double per_sample = std::max(one_diet * inner_diet, one_ref * inner_ref);
                const int n = std::max(3, std::min(reps, (int)(5e5 / std::max(per_sample, 1.0))));
                std::vector<double> td, tr;
                for (int r = 0; r < n; r++) {
                    if (r % 2 == 0) {
                        td.push_back(time_sample(g_stream, start, stop, inner_diet, cold ? &flusher : nullptr, diet));
                        tr.push_back(time_sample(g_stream, start, stop, inner_ref, cold ? &flusher : nullptr, vendor));
                    } else {
                        tr.push_back(time_sample(g_stream, start, stop, inner_ref, cold ? &flusher : nullptr, vendor));
                        td.push_back(time_sample(g_stream, start, stop, inner_diet, cold ? &flusher : nullptr, diet));
                    }
                }
                const double md_d = median(td), md_r = median(tr);
                std::fprintf(csv, "%s,%d,%s,diet,%.3f,%.3f,%d,%d,%.1f,%.3g\n", name_of(w), T, mode.c_str(), md_d,
                             *std::min_element(td.begin(), td.end()), n, inner_diet, s.flops / (md_d * 1e3), err);
                std::fprintf(csv, "%s,%d,%s,cublas,%.3f,%.3f,%d,%d,%.1f,%s\n", name_of(w), T, mode.c_str(), md_r,
                             *std::min_element(tr.begin(), tr.end()), n, inner_ref, s.flops / (md_r * 1e3),
                             ref_err.c_str());
            }
            std::fflush(csv);
            if (T == ts.back() || T % 16 == 0) {
                double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_begin).count();
                std::fprintf(stderr, "[diet_gpu_runner] %s T=%d done (%.0f s so far)\n", name_of(w), T, el);
            }
        }
        GPU_CHECK_CUDA(cudaFree(d_in0));
        GPU_CHECK_CUDA(cudaFree(d_in1));
        GPU_CHECK_CUDA(cudaFree(d_diet));
        GPU_CHECK_CUDA(cudaFree(d_ref));
    }
    if (csv != stdout) std::fclose(csv);
    GPU_CHECK_CUBLAS(cublasDestroy(h));
    if (failures) {
        std::fprintf(stderr, "diet_gpu_runner: %d wrong result(s); see above\n", failures);
        return 1;
    }
    std::printf("# every Diet output matched cuBLAS (tolerance %.3g relative to max |cuBLAS|)\n", tol);
    return 0;
}
