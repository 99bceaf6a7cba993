// cublas_bench: the vendor baseline of issue 16 on its own. For every T in [tmin, tmax] it times
// cublasSgemm on the BERT dense layer y[16T, 2304] = x[16T, 768] * w[2304, 768]^T and
// cublasSgemmStridedBatched on attention's batch_matmul NT (s[192, T, T] = q[192, T, 64] *
// k[192, T, 64]^T) and NN (o[192, T, 64] = p[192, T, T] * v[192, T, 64]), all in Diet's layouts
// (apps/gpu/gpu_common.h), float32 with TF32 off, in two L2 modes:
//   warm: the same buffers every call, several calls per event pair;
//   cold: the L2 is flushed (a memset of 2x its size, untimed) before every single timed call.
// Reports the median of --reps samples per (workload, T, mode) as CSV. At a few T the cuBLAS
// result is checked against a CPU reference (a layout mistake would otherwise go unnoticed).
//
//   cublas_bench [--tmin 1] [--tmax 128] [--reps 15] [--workloads dense,bmm_nt,bmm_nn]
//                [--modes warm,cold] [--pedantic] [--csv out.csv]
//
// diet_gpu_runner (same directory) runs these very calls interleaved with Diet's kernels; this
// program exists to give the cuBLAS numbers without Halide in the picture.
#include "gpu_common.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace gpu;

namespace {

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

void usage() {
    std::fprintf(stderr, "usage: cublas_bench [--tmin N] [--tmax N] [--reps N] [--workloads dense,bmm_nt,bmm_nn] "
                         "[--modes warm,cold] [--pedantic] [--csv FILE]\n");
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
    int tmin = 1, tmax = 128, reps = 15;
    bool pedantic = false;
    std::string workloads = "dense,bmm_nt,bmm_nn", modes = "warm,cold", csv_path;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (a == "--tmin") tmin = std::atoi(value().c_str());
        else if (a == "--tmax") tmax = std::atoi(value().c_str());
        else if (a == "--reps") reps = std::atoi(value().c_str());
        else if (a == "--workloads") workloads = value();
        else if (a == "--modes") modes = value();
        else if (a == "--csv") csv_path = value();
        else if (a == "--pedantic") pedantic = true;
        else usage();
    }
    if (tmin < 1 || tmax < tmin || reps < 1) usage();
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
    GPU_CHECK_CUDA(cudaSetDevice(device));
    print_device(device);
    cublasHandle_t h;
    GPU_CHECK_CUBLAS(cublasCreate(&h));
    cudaStream_t stream;
    GPU_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GPU_CHECK_CUBLAS(cublasSetStream(h, stream));
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
    std::fprintf(csv, "workload,T,mode,impl,median_us,min_us,samples,calls_per_sample,gflops\n");

    // The CPU reference is cheap at these T and catches a wrong transpose or leading dimension.
    const int check_ts[] = {1, 3, 16, 37};
    int failures = 0;
    for (Workload w : wl) {
        // Buffers for the largest T, reused for every smaller T (a prefix of each is the operand).
        Shape big = shape_of(w, tmax);
        float *d_in0, *d_in1, *d_out;
        GPU_CHECK_CUDA(cudaMalloc(&d_in0, count(big.in0) * sizeof(float)));
        GPU_CHECK_CUDA(cudaMalloc(&d_in1, count(big.in1) * sizeof(float)));
        GPU_CHECK_CUDA(cudaMalloc(&d_out, count(big.out) * sizeof(float)));
        for (int T = tmin; T <= tmax; T++) {
            Shape s = shape_of(w, T);
            std::vector<float> in0(count(s.in0)), in1(count(s.in1));
            fill_random(in0, 1000 * T + 1);
            fill_random(in1, 1000 * T + 2);
            GPU_CHECK_CUDA(cudaMemcpy(d_in0, in0.data(), in0.size() * sizeof(float), cudaMemcpyHostToDevice));
            GPU_CHECK_CUDA(cudaMemcpy(d_in1, in1.data(), in1.size() * sizeof(float), cudaMemcpyHostToDevice));
            auto call = [&]() { cublas_run(h, w, T, d_in0, d_in1, d_out); };
            call();  // warm-up: cuBLAS picks and loads its kernel on the first call of a shape
            GPU_CHECK_CUDA(cudaStreamSynchronize(stream));
            if (std::find(std::begin(check_ts), std::end(check_ts), T) != std::end(check_ts)) {
                std::vector<float> got(count(s.out));
                GPU_CHECK_CUDA(cudaMemcpy(got.data(), d_out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
                double err = relative_error(got, cpu_reference(w, T, in0, in1));
                std::printf("# check %s T=%d: cuBLAS vs CPU relative error %.3g%s\n", name_of(w), T, err,
                            err <= 1e-4 ? "" : "  WRONG");
                if (!(err <= 1e-4)) failures++;
            }
            for (const std::string &mode : md) {
                const bool cold = mode == "cold";
                double one = time_sample(stream, start, stop, 1, nullptr, call);
                int inner = cold ? 1 : inner_for(one, 200.0);
                std::vector<double> us;
                for (int r = 0; r < reps; r++) us.push_back(time_sample(stream, start, stop, inner, cold ? &flusher : nullptr, call));
                double med = median(us);
                std::fprintf(csv, "%s,%d,%s,cublas,%.3f,%.3f,%d,%d,%.1f\n", name_of(w), T, mode.c_str(), med,
                             *std::min_element(us.begin(), us.end()), reps, inner, s.flops / (med * 1e3));
            }
            std::fflush(csv);
        }
        GPU_CHECK_CUDA(cudaFree(d_in0));
        GPU_CHECK_CUDA(cudaFree(d_in1));
        GPU_CHECK_CUDA(cudaFree(d_out));
    }
    if (csv != stdout) std::fclose(csv);
    GPU_CHECK_CUDA(cudaEventDestroy(start));
    GPU_CHECK_CUDA(cudaEventDestroy(stop));
    GPU_CHECK_CUBLAS(cublasDestroy(h));
    GPU_CHECK_CUDA(cudaStreamDestroy(stream));
    if (failures) {
        std::fprintf(stderr, "cublas_bench: %d check(s) against the CPU reference FAILED\n", failures);
        return 1;
    }
    return 0;
}
