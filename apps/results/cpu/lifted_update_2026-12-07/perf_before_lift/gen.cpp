#include "Halide.h"
#include "contraction_forms.h"
#include "options/Options.h"
#include "plugin/Diet.h"
using namespace Halide;
int main(int argc, char **argv) {
    std::string name = argv[1], fn = argv[2];
    Target t("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41");
    auto sz = contraction_forms::benchmark_sizes("bmm");
    auto form = contraction_forms::make_form(name, sz, true);
    std::map<std::string, std::string> kv; kv["trials"] = "0";
    if (std::string(argv[3]) == "diet") diet::autoschedule(Pipeline(form.out), t, 2, 0, diet::Options::from_map(kv));
    std::vector<Argument> args;
    for (auto &in : form.inputs) args.push_back(in);
    args.push_back(form.T);
    form.out.compile_to_static_library(fn, args, fn, t);
    form.out.compile_to_lowered_stmt(fn + ".stmt", args, Text, t);
}
