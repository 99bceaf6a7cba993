// Kernel probe: one form with given micro-kernels forced (and Diet's default), timed interleaved.
// usage: TGT=... ./kprobe <form> <T,T,..> [kernel string]...   ("list" as kernel: print the space)
#include "Halide.h"
#include "contraction_forms.h"
#include "plugin/Diet.h"
#include "analysis/FunctionDAG.h"
#include "analysis/ShapeFamily.h"
#include "schedule/ApplySchedule.h"
#include "schedule/ScheduleWriter.h"
#include "space/Hardware.h"
#include "space/MicroKernel.h"
#include "options/Options.h"
#include <chrono>
#include <cstdio>
#include <sstream>
using namespace Halide;
using namespace diet;
int main(int argc, char **argv) {
    std::string name = argv[1], family = name.substr(0, name.find('/'));
    if (family == "layout") family = "dense";
    Target tgt(getenv("TGT"));
    auto s = contraction_forms::benchmark_sizes(family);
    std::vector<int> ts;
    { std::stringstream ss(argv[2]); std::string x; while (std::getline(ss, x, ',')) ts.push_back(std::stoi(x)); }
    std::vector<contraction_forms::Form> forms;
    std::vector<std::string> labels;
    forms.push_back(contraction_forms::make_form(name, s, true));
    labels.push_back("diet");
    diet::autoschedule(Pipeline(forms[0].out), tgt, 2, 0, diet::Options{});
    forms[0].out.compile_jit(tgt);
    for (int a = 3; a < argc; a++) {
        auto f = contraction_forms::make_form(name, s, true);
        std::vector<Internal::Function> outs{f.out.function()};
        FunctionDAG dag(outs);
        Options opts;
        ShapeFamily fam = read_shape_family(outs, opts);
        const CpuLimits cpu = CpuLimits::for_target(tgt, 2, 0);
        const MatmulPattern &p = dag.matmuls().at(0);
        MatmulExtents ext = matmul_extents(p, fam, fam.training_shapes(8, 0));
        std::vector<MicroKernel> space = enumerate_cpu_kernels(p, ext, cpu);
        if (std::string(argv[a]) == "list") { for (auto &k : space) printf("%s\n", k.to_string().c_str()); return 0; }
        const MicroKernel *found = nullptr;
        for (auto &k : space) if (k.to_string() == argv[a]) found = &k;
        if (!found) { fprintf(stderr, "no kernel %s\n", argv[a]); return 1; }
        KernelChoice kc{p, *found};
        ScheduleWriter w(false);
        apply_schedule(dag, {kc}, tgt, cpu, w);
        concretize_estimates(outs, fam.representative());
        f.out.compile_jit(tgt);
        forms.push_back(f);
        labels.push_back(argv[a]);
    }
    printf("T");
    for (auto &l : labels) printf(" | %s", l.c_str());
    printf("\n");
    for (int T : ts) {
        std::vector<Buffer<>> outs;
        for (auto &f : forms) {
            for (size_t i = 0; i < f.inputs.size(); i++) {
                Buffer<> buf(f.inputs[i].type(), f.in_sizes[i](T));
                if (buf.type() == Float(32)) buf.as<float>().fill(0.5f);
                f.inputs[i].set(buf);
            }
            f.T.set(T);
            outs.emplace_back(f.out.output_types()[0], f.out_sizes(T));
        }
        std::vector<std::vector<double>> t(forms.size());
        for (int rep = 0; rep < 7; rep++) {
            for (size_t w = 0; w < forms.size(); w++) {
                double best = 1e9;
                for (int i = 0; i < 5; i++) {
                    auto t0 = std::chrono::steady_clock::now();
                    forms[w].out.realize(outs[w]);
                    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                }
                t[w].push_back(best);
            }
        }
        printf("%d", T);
        for (auto &v : t) { std::sort(v.begin(), v.end()); printf(" %.1f", v[3] * 1e6); }
        printf("\n");
        fflush(stdout);
    }
}
