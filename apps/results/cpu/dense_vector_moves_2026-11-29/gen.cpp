// gen <form> <name> <dir>: Diet schedules the form (shipped model) and writes a static library + header.
#include "Halide.h"
#include "contraction_forms.h"
#include "plugin/Diet.h"
using namespace Halide;
int main(int argc, char **argv) {
    std::string name = argv[1], family = name.substr(0, name.find('/'));
    Target tgt(getenv("TGT"));
    auto s = contraction_forms::benchmark_sizes(family);
    auto a = contraction_forms::make_form(name, s, true);
    diet::autoschedule(Pipeline(a.out), tgt, 2, 0, diet::Options::from_map({}));
    std::vector<Argument> args;
    for (auto &i : a.inputs) args.push_back(i);
    args.push_back(a.T);
    a.out.compile_to_static_library(std::string(argv[3]) + "/" + argv[2], args, argv[2], tgt);
}
