// Probe: one form scheduled two ways, timed interleaved per T. A: base_model=$A_MODEL (unset: the
// shipped model), B: base_model=$B_MODEL (unset: none, the heuristic; empty: the shipped model).
// With a second form (`p3 <form A> <form B> <T,...>`, added 2026-11-29) B schedules that form
// instead: two forms compared under the same options (B_MODEL= for the shipped model on both).
// Build: g++ -O2 -std=c++17 -isystem /usr/include/halide14 -Isrc -Igenerators p3.cpp -o p3 build/libdiet_core.a
//        build/libdiet_host_cpu.a -lHalide14 -lxgboost -lpthread -ldl; run: TGT=$(build/diet_target) ./p3 <form> [<form B>] <T,T,...>
#include "Halide.h"
#include "contraction_forms.h"
#include "plugin/Diet.h"
#include <chrono>
#include <cstdio>
#include <sstream>
using namespace Halide;
static std::map<std::string, std::string> model_option(const char *env, const char *fallback) {
    const char *v = getenv(env);
    const std::string m = v ? v : fallback;
    if (m.empty()) return {};
    return {{"base_model", m}};
}
int main(int argc, char **argv) {
    const bool two_forms = argc > 3;
    std::string name = argv[1], name_b = two_forms ? argv[2] : name, family = name.substr(0, name.find('/'));
    if (family == "layout") family = "dense";
    Target tgt(getenv("TGT"));
    auto s = contraction_forms::benchmark_sizes(family);
    if (getenv("P3_TMIN")) s.t_min = atoi(getenv("P3_TMIN"));
    std::vector<int> ts;
    { std::stringstream ss(argv[two_forms ? 3 : 2]); std::string x; while (std::getline(ss, x, ',')) ts.push_back(std::stoi(x)); }
    auto a = contraction_forms::make_form(name, s, true), b = contraction_forms::make_form(name_b, s, true);
    diet::autoschedule(Pipeline(a.out), tgt, 2, 0, diet::Options::from_map(model_option("A_MODEL", "")));
    if (getenv("B_ENV")) putenv(getenv("B_ENV"));
    diet::autoschedule(Pipeline(b.out), tgt, 2, 0, diet::Options::from_map(model_option("B_MODEL", "none")));
    a.out.compile_jit(tgt);
    b.out.compile_jit(tgt);
    if (two_forms) printf("A %s, B %s: T, A us, B us, B speedup\n", name.c_str(), name_b.c_str());
    else printf("%s: T, A us, B us, B speedup\n", name.c_str());
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
