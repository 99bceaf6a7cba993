// gpu_forms_build (issue 13 on the GPU, issue 16): every contraction form of
// generators/contraction_forms.h scheduled by Diet for a CUDA target, as AOT libraries a GPU machine
// without Halide can run (apps/gpu/gpu_forms_runner.cpp, through scripts/gpu_eval.sh), each with a
// CPU reference library of the same algorithm, unscheduled except for one parallel loop.
//
//   gpu_forms_build <out-dir> [--target T] [--sms N] [--l2 BYTES] [--forms a,b,...]
//
// Writes into <out-dir>: gf_<i>.{a,h} (Diet, CUDA, no runtime), gr_<i>.{a,h} (reference, host, no
// runtime), forms_runtime.a (Halide's runtime for the CUDA target), gpu_forms_table.h (the forms,
// their element types and every input and output extent at each T the runner checks), diet_<i>.log
// (what Diet recognized and chose). A form Diet fails to schedule is a build failure (exit 1), not a
// skipped row: on the GPU every form must get a kernel.
//
// Sizes are the benchmarks' (apps/forms_bench.cpp): the dense-shaped families are BERT's dense_qkv
// (K = 768, N = 2304, 16 rows per token), the attention products 192 heads of 64; T in 1..128.
#include "Halide.h"
#include "contraction_forms.h"
#include "options/Options.h"
#include "plugin/Diet.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace Halide;
using contraction_forms::Form;

namespace {

// The T at which the runner checks and times every form: the ends of the range, the small T where
// tile variants change, and values that are not multiples of any tile.
const std::vector<int> kTs = {1, 2, 3, 5, 8, 16, 17, 31, 32, 33, 64, 100, 127, 128};


std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

// The reference schedule: Halide's default (every reduction computed where it is used), with the
// output's outermost dimension parallel in every definition that has it as a pure variable, so the
// unscheduled algorithm checks BERT-sized outputs in seconds on the GPU machine's cores. Reductions
// read by other reductions (a chain: an MLP's first layer, attention's scores and softmax) are
// computed at root when there are several, or the default would recompute them at every point
// that reads them.
void schedule_reference(Func out) {
    contraction_forms::compute_chain_reductions_at_root(out);
    const std::string outer = out.args().back().name();
    out.compute_root().parallel(Var(outer));
    for (int u = 0; u < out.num_update_definitions(); u++) {
        const std::vector<Expr> args = out.update_args(u);
        const Internal::Variable *v = args.back().as<Internal::Variable>();
        if (v && v->name == outer) out.update(u).parallel(Var(outer));
    }
}

std::vector<Argument> arguments_of(const Form &f) {
    std::vector<Argument> args;
    for (const ImageParam &in : f.inputs) args.emplace_back(in);
    args.emplace_back(f.T);
    return args;
}

std::string type_literal(const Type &t) {
    const char *code = t.is_float() ? "halide_type_float" : t.is_uint() ? "halide_type_uint" : "halide_type_int";
    return std::string("{") + code + ", " + std::to_string(t.bits()) + "}";
}

// Diet's messages for one form, to its log file: stderr is redirected around the call.
struct StderrToFile {
    int saved = -1;
    explicit StderrToFile(const std::string &path) {
        std::fflush(stderr);
        saved = dup(2);
        FILE *f = std::fopen(path.c_str(), "w");
        if (f) {
            dup2(fileno(f), 2);
            std::fclose(f);
        }
    }
    ~StderrToFile() {
        std::fflush(stderr);
        if (saved >= 0) {
            dup2(saved, 2);
            close(saved);
        }
    }
};

std::string slurp(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

int main(int argc, char **argv) {
    std::string out_dir, target_str = "x86-64-linux-avx-avx2-f16c-fma-sse41-cuda-cuda_capability_80";
    std::string forms_arg;
    int sms = 132;
    int64_t l2 = 52428800;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "gpu_forms_build: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--target") target_str = value();
        else if (a == "--sms") sms = std::stoi(value());
        else if (a == "--l2") l2 = std::stoll(value());
        else if (a == "--forms") forms_arg = value();
        else if (!a.empty() && a[0] != '-' && out_dir.empty()) out_dir = a;
        else {
            std::cerr << "usage: gpu_forms_build <out-dir> [--target T] [--sms N] [--l2 BYTES] [--forms a,b]\n";
            return 2;
        }
    }
    if (out_dir.empty()) {
        std::cerr << "usage: gpu_forms_build <out-dir> [--target T] [--sms N] [--l2 BYTES] [--forms a,b]\n";
        return 2;
    }
    const Target gpu_target(target_str);
    if (!gpu_target.has_gpu_feature()) {
        std::cerr << "gpu_forms_build: target " << target_str << " has no GPU feature\n";
        return 2;
    }
    const Target gpu_lib_target = gpu_target.with_feature(Target::NoRuntime);
    // The references run on the host part of the target only.
    const Target ref_target = gpu_target.without_feature(Target::CUDA).with_feature(Target::NoRuntime);
    const std::vector<std::string> names = forms_arg.empty() ? contraction_forms::form_names() : split(forms_arg);

    compile_standalone_runtime(out_dir + "/forms_runtime.a", gpu_target);

    std::ostringstream decls, entries, sizes;
    int failures = 0;
    for (size_t i = 0; i < names.size(); i++) {
        const std::string &name = names[i], family = name.substr(0, name.find('/'));
        const std::string gf = "gf_" + std::to_string(i), gr = "gr_" + std::to_string(i);
        const contraction_forms::Sizes s = contraction_forms::benchmark_sizes(family);
        std::cerr << "gpu_forms_build: [" << i + 1 << "/" << names.size() << "] " << name << "\n";
        Form diet_form = contraction_forms::make_form(name, s, true);
        Form ref_form = contraction_forms::make_form(name, s, false);
        const std::string log_path = out_dir + "/diet_" + std::to_string(i) + ".log";
        try {
            StderrToFile redirect(log_path);
            diet::autoschedule(Pipeline(diet_form.out), gpu_target, sms, l2, diet::Options::from_map(diet::Options::environment_map()));
            diet_form.out.compile_to_static_library(out_dir + "/" + gf, arguments_of(diet_form), gf, gpu_lib_target);
        } catch (const Halide::Error &e) {
            std::cerr << "gpu_forms_build: " << name << ": Diet's CUDA build FAILED: " << e.what() << "\n";
            failures++;
            continue;
        }
        std::string log = slurp(log_path);
        std::cerr << log;
        schedule_reference(ref_form.out);
        ref_form.out.compile_to_static_library(out_dir + "/" + gr, arguments_of(ref_form), gr, ref_target);

        decls << "int " << gf << "_argv(void **args);\nint " << gr << "_argv(void **args);\n";
        // Per T: each input's extents, then the output's.
        sizes << "static const int sizes_" << i << "[] = {";
        for (int t : kTs) {
            for (const auto &in_sizes : diet_form.in_sizes) {
                for (int e : in_sizes(t)) sizes << e << ",";
            }
            for (int e : diet_form.out_sizes(t)) sizes << e << ",";
        }
        sizes << "};\n";
        entries << "    {\"" << name << "\", \"" << family << "\", " << gf << "_argv, " << gr << "_argv, "
                << diet_form.inputs.size() << ", {";
        for (const ImageParam &in : diet_form.inputs) entries << type_literal(in.type()) << ", ";
        entries << "}, {";
        for (const ImageParam &in : diet_form.inputs) entries << in.dimensions() << ", ";
        entries << "}, " << type_literal(diet_form.out.output_types()[0]) << ", " << diet_form.out.dimensions()
                << ", sizes_" << i << "},\n";
    }

    std::ofstream h(out_dir + "/gpu_forms_table.h");
    h << "// Generated by gpu_forms_build: the contraction forms Diet built for " << target_str << ".\n"
      << "#pragma once\n#include \"HalideRuntime.h\"\n\nextern \"C\" {\n"
      << decls.str() << "}\n\nnamespace gpu_forms {\n\n";
    h << "static const int kTs[] = {";
    for (int t : kTs) h << t << ", ";
    h << "};\nstatic const int kNumTs = " << kTs.size() << ";\n\n" << sizes.str() << "\n";
    h << "struct TypeCode { halide_type_code_t code; int bits; };\n"
      << "struct Entry {\n    const char *name, *family;\n    int (*diet)(void **);\n    int (*ref)(void **);\n"
      << "    int inputs;\n    TypeCode in_type[4];\n    int in_dims[4];\n    TypeCode out_type;\n    int out_dims;\n"
      << "    const int *sizes;  // per T in kTs: each input's extents, then the output's\n};\n\n"
      << "static const Entry kForms[] = {\n" << entries.str() << "};\n\n}  // namespace gpu_forms\n";
    h.close();
    if (!h) {
        std::cerr << "gpu_forms_build: could not write " << out_dir << "/gpu_forms_table.h\n";
        return 1;
    }
    std::cerr << "gpu_forms_build: " << names.size() - failures << " of " << names.size() << " forms built in "
              << out_dir << "\n";
    return failures ? 1 : 0;
}
