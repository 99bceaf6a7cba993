// Prints the lowered Stmt of one form scheduled by Diet with default options (+ env options).
#include "Halide.h"
#include "contraction_forms.h"
#include "plugin/Diet.h"
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    std::string name = argv[1], family = name.substr(0, name.find('/'));
    if (family == "layout") family = "dense";
    Target tgt(getenv("TGT"));
    auto s = contraction_forms::benchmark_sizes(family);
    auto a = contraction_forms::make_form(name, s, true);
    std::map<std::string, std::string> opts;
    if (getenv("BM")) opts["base_model"] = getenv("BM");
    diet::autoschedule(Pipeline(a.out), tgt, 2, 0, diet::Options::from_map(opts));
    if (getenv("ASM")) a.out.compile_to_assembly(argv[2], a.out.infer_arguments(), tgt.with_feature(Target::NoRuntime));
    else a.out.compile_to_lowered_stmt(argv[2], a.out.infer_arguments(), Text, tgt);
}
