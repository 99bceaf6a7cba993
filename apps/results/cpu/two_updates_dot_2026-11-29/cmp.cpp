// Probe: two forms (argv[1], argv[2]) scheduled with Diet's default options (the shipped model of
// this target class from diet_models/ beside the binary), timed interleaved per T (argv[3]):
// median of 9 rounds of the best of 5 calls. Prints T, A us, B us, A/B (B's speed relative to A).
#include "Halide.h"
#include "contraction_forms.h"
#include "plugin/Diet.h"
#include <chrono>
#include <cstdio>
#include <sstream>
using namespace Halide;
int main(int argc, char **argv) {
    std::string na = argv[1], nb = argv[2], family = na.substr(0, na.find('/'));
    if (family == "layout") family = "dense";
    Target tgt(getenv("TGT"));
    auto s = contraction_forms::benchmark_sizes(family);
    std::vector<int> ts;
    { std::stringstream ss(argv[3]); std::string x; while (std::getline(ss, x, ',')) ts.push_back(std::stoi(x)); }
    auto a = contraction_forms::make_form(na, s, true), b = contraction_forms::make_form(nb, s, true);
    diet::autoschedule(Pipeline(a.out), tgt, 2, 0, diet::Options::from_map({}));
    diet::autoschedule(Pipeline(b.out), tgt, 2, 0, diet::Options::from_map({}));
    a.out.compile_jit(tgt);
    b.out.compile_jit(tgt);
    printf("A %s, B %s: T, A us, B us, A/B\n", na.c_str(), nb.c_str());
    for (int T : ts) {
        for (auto *f : {&a, &b}) {
            for (size_t i = 0; i < f->inputs.size(); i++) {
                Buffer<> buf(f->inputs[i].type(), f->in_sizes[i](T));
                if (buf.type() == Float(32)) buf.as<float>().fill(0.5f);
                f->inputs[i].set(buf);
            }
            f->T.set(T);
        }
        Buffer<> oa(a.out.output_types()[0], a.out_sizes(T)), ob(b.out.output_types()[0], b.out_sizes(T));
        std::vector<double> ta, tb;
        for (int rep = 0; rep < 9; rep++) {
            for (int w = 0; w < 2; w++) {
                auto &f = w ? b : a; auto &o = w ? ob : oa;
                double best = 1e9;
                for (int i = 0; i < 5; i++) {
                    auto t0 = std::chrono::steady_clock::now();
                    f.out.realize(o);
                    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                }
                (w ? tb : ta).push_back(best);
            }
        }
        std::sort(ta.begin(), ta.end()); std::sort(tb.begin(), tb.end());
        printf("%d %.1f %.1f %.3f\n", T, ta[4] * 1e6, tb[4] * 1e6, ta[4] / tb[4]);
        fflush(stdout);
    }
}
