// diet_target: prints the Halide target that runs on this CPU (Halide's `host` minus the features
// this CPU lacks; see src/space/HostCpu.h). Scripts, benchmarks and CMake use it instead of a
// literal `host`, which Halide 14 resolves to `avx512_sapphirerapids` on AVX-512 CPUs without
// AVX512-FP16 (AMD Zen 4), whose code then dies with SIGILL.
//
//   diet_target                   x86-64-linux-avx-avx2-...-avx512_cannonlake-...
//   diet_target host-cuda         the same with -cuda (a "host" prefix resolves as above)
//   diet_target --explain         Halide's host target, this CPU's extensions, what was removed
//   diet_target --check TARGET    exit status 1 (and the reason) if TARGET cannot run here
#include "space/HostCpu.h"

#include <cstring>
#include <iostream>

int main(int argc, char **argv) {
    using namespace diet;
    if (argc >= 2 && std::strcmp(argv[1], "--explain") == 0) {
        const Halide::Target host = Halide::get_host_target();
        std::cout << "Halide host target:   " << host.to_string() << "\n";
        std::cout << "CPU extensions:       ";
        for (const std::string &e : read_host_cpu_features()) std::cout << e << " ";
        std::cout << "\nnot runnable here:    " << describe(features_missing_on(host, read_host_cpu_features()))
                  << "\nrunnable host target: " << runnable_host_target().to_string() << "\n";
        return 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "--check") == 0) {
        const auto missing = features_missing_on(Halide::Target(argv[2]), read_host_cpu_features());
        if (missing.empty()) return 0;
        std::cerr << argv[2] << " cannot run on this CPU: " << describe(missing) << "; use "
                  << runnable_host_target().to_string() << "\n";
        return 1;
    }
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        std::cerr << "usage: diet_target [TARGET | --explain | --check TARGET]\n";
        return 2;
    }
    try {
        std::cout << runnable_target_from_string(argc == 2 ? argv[1] : "host").to_string() << "\n";
    } catch (const Halide::Error &e) {
        std::cerr << "diet_target: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
