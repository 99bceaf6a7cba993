#include "Halide.h"
#include "plugin/Diet.h"
#include "contraction_forms.h"
#include <chrono>
using namespace Halide;
int main(int argc, char **argv) {
    std::string name = argv[1];
    Target tgt(getenv("TGT"));
    contraction_forms::Sizes s = argc > 2 ? contraction_forms::benchmark_sizes(argv[2]) : contraction_forms::Sizes{};
    auto a = contraction_forms::make_form(name, s, true);
    auto t0 = std::chrono::steady_clock::now();
    diet::autoschedule(Pipeline(a.out), tgt, 2, 0, diet::Options{});
    auto t1 = std::chrono::steady_clock::now();
    a.out.compile_jit(tgt);
    auto t2 = std::chrono::steady_clock::now();
    printf("%s: schedule %.2f s, compile %.2f s\n", name.c_str(), std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
}
