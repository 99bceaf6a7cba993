// forms_bench (issue 13): the same contractions written the ways other people write them
// (generators/contraction_forms.h), each scheduled by Diet with default options (no measurement)
// and optionally tuned, against the canonical form and the faster of OpenBLAS / oneDNN, at every T.
//
//   families   dense   BERT dense_qkv: y[16T, 2304] = x[16T, 768] · w[2304, 768]ᵀ in 8 spellings
//                      (the two with a GELU epilogue against the references plus a GELU pass in C++)
//              bmm     attention scores s[192, T, T] and context o[192, T, 64], 3 spellings each,
//                      against a loop of 192 vendor sgemm calls
//              int     the dense product with uint8 x int8 -> int32 and int16 -> int32 operands
//                      against the same contraction written in float32
//              mlp     BERT's feed-forward block on T tokens: relu(x w1ᵀ) w2ᵀ, 768 -> 3072 -> 768, in
//                      4 spellings, against two vendor sgemm calls with a ReLU pass between
//              attn    softmax(q kᵀ / 8) v for 12 heads of 64, T tokens, in 2 spellings, against a
//                      loop of 12 x (sgemm, softmax in C++, sgemm)
//   output     <out-dir>/forms_<family>.csv (median seconds per T and system), .md (per-form geomean
//              and worst ratios), .png (gnuplot, when installed)
//
// Interleaved: at each T every system runs once per repeat, in turn; the median of --reps repeats.
// Every output is checked (at --check-ts) against the same form's unscheduled algorithm (float:
// relative error ≤ 1e-4 of the largest magnitude; integers: exact).
#include "Halide.h"
#include "bench_common.h"
#include "contraction_forms.h"
#include "options/Options.h"
#include "plugin/Diet.h"
#include "space/HostCpu.h"

#include <CLI/CLI.hpp>
#include <cblas.h>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <regex>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

using namespace Halide;
using contraction_forms::Form;

namespace {

struct Config {
    std::vector<std::string> families = {"dense", "bmm", "int"};
    std::string tuned_forms = "dense/canonical,dense/inline_sum,dense/update_on_output";
    int t_step = 1, reps = 3, trials = 0;
    std::vector<int> check_ts = {1, 7, 64};
    double min_time = 0.05;
    std::string out_dir = "apps/results/cpu";
    Target target;
    int threads = 2;
    std::map<std::string, std::string> options;  // --option key=value: more Diet options for every form
    // Each T's inputs copied into buffers of exactly that size (a caller's own arrays), instead of
    // crops of the largest T's (views into buffers sized for T = 128: a cache of keys and values).
    bool dense_inputs = false;
    std::string stmt_dir;  // where each Diet form's lowered Stmt goes (empty: nowhere)
};

// One runnable system at a given T: a Diet-scheduled form, or a vendor loop.
struct System {
    std::string name, note;
    std::function<void(int t)> run;
    std::function<Buffer<>(int t)> result;  // the last run's output (for the check)
};


// Inputs filled once at the largest T; each T uses a crop (the same values in every system), or with
// --dense-inputs a dense copy of it (made on the first call at that T, time_call's warm-up, whose
// time counts only for calls of 50 ms or more; one T's copies kept at a time).
Buffer<> input_for(const Type &t, const std::vector<int> &sizes, uint32_t seed) {
    Buffer<> b(t, sizes);
    uint32_t s = seed * 2654435761u + 1;
    auto next = [&s] { return (s = s * 1103515245u + 12345u) >> 8; };
    if (t == Float(32)) b.as<float>().for_each_value([&](float &v) { v = (float)(next() % 4096) / 2048.f - 1.f; });
    else if (t == UInt(8)) b.as<uint8_t>().for_each_value([&](uint8_t &v) { v = (uint8_t)(next() % 256); });
    else if (t == Int(8)) b.as<int8_t>().for_each_value([&](int8_t &v) { v = (int8_t)(next() % 256 - 128); });
    else if (t == Int(16)) b.as<int16_t>().for_each_value([&](int16_t &v) { v = (int16_t)(next() % 2001 - 1000); });
    else throw std::runtime_error("forms_bench: no filler for " + (std::ostringstream() << t).str());
    return b;
}

// A form scheduled by Diet (trials 0: the heuristic; else tuned with a fresh log) and JIT-compiled.
struct DietForm {
    Form form;
    contraction_forms::Sizes sizes;
    std::vector<Buffer<>> full_inputs;
    std::map<int, std::vector<Buffer<>>> dense_inputs;  // per T, with --dense-inputs
    bool dense = false;
    Buffer<> out;
    double tuning_seconds = 0;

    DietForm(const std::string &name, const contraction_forms::Sizes &s, const Config &cfg, int trials)
        : sizes(s), dense(cfg.dense_inputs) {
        form = contraction_forms::make_form(name, s, true);
        std::map<std::string, std::string> kv = cfg.options;
        kv["trials"] = std::to_string(trials);
        if (trials > 0) {
            const std::string stem = cfg.out_dir + "/logs/forms_" + std::regex_replace(name, std::regex("/"), "_") +
                                     "_" + std::to_string(trials);
            std::remove((stem + ".log").c_str());
            kv["log"] = stem + ".log";
            kv["report"] = stem + ".json";
            kv["training"] = "T=1,2,5,16,43,81,119,128";
        }
        const auto t0 = bench::Clock::now();
        diet::autoschedule(Pipeline(form.out), cfg.target, cfg.threads, 0, diet::Options::from_map(kv));
        tuning_seconds = bench::seconds_since(t0);
        if (!cfg.stmt_dir.empty()) {
            std::vector<Argument> args;
            for (const ImageParam &in : form.inputs) args.push_back(in);
            args.push_back(form.T);
            const std::string file = cfg.stmt_dir + "/" + std::regex_replace(name, std::regex("/"), "_") +
                                     (trials > 0 ? "_tuned" : "") + ".stmt";
            form.out.compile_to_lowered_stmt(file, args, Text, cfg.target);
        }
        form.out.compile_jit(cfg.target);
        for (size_t i = 0; i < form.inputs.size(); i++) {
            full_inputs.push_back(input_for(form.inputs[i].type(), form.in_sizes[i](s.t_max), 11 + (uint32_t)i));
        }
    }
    void bind(int t) {
        if (dense && !dense_inputs.count(t)) dense_inputs.clear();  // one T's copies at a time
        const bool copied = dense && dense_inputs.count(t);
        for (size_t i = 0; i < form.inputs.size(); i++) {
            if (copied) {
                form.inputs[i].set(dense_inputs[t][i]);
                continue;
            }
            // A view of the first rows of the full input: a Runtime::Buffer of its own shape (a
            // copy of a Halide::Buffer shares the shape too, so cropping that copy had cropped the
            // full input itself, and the GELU pass then read products of the last checked T only).
            const std::vector<int> sz = form.in_sizes[i](t);
            Runtime::Buffer<void> view = *full_inputs[i].get();
            for (size_t d = 0; d < sz.size(); d++) view.crop((int)d, 0, sz[d]);
            Buffer<> crop(std::move(view));
            if (dense) {
                Buffer<> own(crop.type(), sz);
                own.copy_from(crop);
                dense_inputs[t].push_back(own);
                form.inputs[i].set(own);
            } else {
                form.inputs[i].set(crop);
            }
        }
        form.T.set(t);
    }
    void run(int t) {
        bind(t);
        const std::vector<int> sz = form.out_sizes(t);
        if (!out.defined() || out.dimensions() != (int)sz.size() || out.dim(0).extent() != sz[0] ||
            out.dim(1).extent() != sz[1]) {
            out = Buffer<>(form.out.output_types()[0], sz);
        }
        form.out.realize(out);
    }
};

// The vendor loop on the canonical math of a family (float32 only).
System vendor_system(const std::string &family, const std::string &name, bench::Sgemm sgemm, DietForm &shapes_from) {
    System v;
    v.name = name;
    auto a = std::make_shared<Buffer<float>>(), b = std::make_shared<Buffer<float>>(), c = std::make_shared<Buffer<float>>();
    DietForm *src = &shapes_from;  // for the operand values (the canonical form's)
    v.note = family == "dense" ? "sgemm NT"
             : family == "mlp" ? "2 sgemm NT + ReLU pass"
             : family == "attn" ? "a loop of 12 x (sgemm NT, softmax, sgemm NN)"
                                : "a loop of 192 sgemm calls";
    auto h = std::make_shared<Buffer<float>>();
    v.run = [=](int t) {
        src->bind(t);
        if (family == "mlp") {  // h[m][j] = relu(sum_k x[m][k] w1[j][k]); y[m][n] = sum_j h[m][j] w2[n][j]
            Buffer<float> x = src->form.inputs[0].get(), w1 = src->form.inputs[1].get(), w2 = src->form.inputs[2].get();
            const int rows = x.dim(1).extent(), D = x.dim(0).extent(), H = w1.dim(1).extent();
            if (!h->defined() || h->dim(1).extent() != rows) *h = Buffer<float>(H, rows), *c = Buffer<float>(D, rows);
            sgemm('N', 'T', rows, H, D, x.data(), x.dim(1).stride(), w1.data(), w1.dim(1).stride(), h->data(), H);
            for (float &e : *h) e = std::max(e, 0.f);
            sgemm('N', 'T', rows, D, H, h->data(), H, w2.data(), w2.dim(1).stride(), c->data(), D);
            return;
        }
        if (family == "attn") {
            Buffer<float> q = src->form.inputs[0].get(), k = src->form.inputs[1].get(), vv = src->form.inputs[2].get();
            const int D = q.dim(0).extent(), heads = q.dim(2).extent();
            if (!h->defined() || h->dim(0).extent() != t) *h = Buffer<float>(t, t), *c = Buffer<float>(D, t, heads);
            for (int b = 0; b < heads; b++) {
                sgemm('N', 'T', t, t, D, &q(0, 0, b), q.dim(1).stride(), &k(0, 0, b), k.dim(1).stride(), h->data(), t);
                for (int i = 0; i < t; i++) {
                    float *row = &(*h)(0, i), top = row[0], total = 0;
                    for (int j = 0; j < t; j++) top = std::max(top, row[j] * 0.125f);
                    for (int j = 0; j < t; j++) total += row[j] = std::exp(row[j] * 0.125f - top);
                    for (int j = 0; j < t; j++) row[j] /= total;
                }
                sgemm('N', 'N', t, D, t, h->data(), t, &vv(0, 0, b), vv.dim(1).stride(), &(*c)(0, 0, b), c->dim(1).stride());
            }
            return;
        }
        Buffer<float> A = src->form.inputs[0].get(), B = src->form.inputs[1].get();
        const std::vector<int> sz = src->form.out_sizes(t);
        if (!c->defined() || c->dim(0).extent() != sz[0] || c->dim(1).extent() != sz[1]) *c = Buffer<float>(sz);
        if (family == "dense") {  // y[m][n] = sum_k x[m][k] w[n][k]
            sgemm('N', 'T', sz[1], sz[0], A.dim(0).extent(), A.data(), A.dim(1).stride(), B.data(), B.dim(1).stride(),
                  c->data(), c->dim(1).stride());
            return;
        }
        const bool nt = src->form.name.rfind("bmm_nt", 0) == 0;
        // A left operand stored rows innermost (lhs_transposed: q(i, d, b), p(i, j, b)) is the
        // vendor's transposed A, read in place with its own pitch.
        const bool ta = src->form.name.find("/lhs_transposed") != std::string::npos;
        const int K = ta ? A.dim(1).extent() : A.dim(0).extent();
        for (int bh = 0; bh < sz[2]; bh++) {
            const float *pa = &A(0, 0, bh), *pb = &B(0, 0, bh);
            float *pc = &(*c)(0, 0, bh);
            if (nt) sgemm(ta ? 'T' : 'N', 'T', t, t, K, pa, A.dim(1).stride(), pb, B.dim(1).stride(), pc, c->dim(1).stride());
            else sgemm(ta ? 'T' : 'N', 'N', t, sz[0], t, pa, A.dim(1).stride(), pb, B.dim(1).stride(), pc, c->dim(1).stride());
        }
    };
    v.result = [c](int) { return Buffer<>(*c); };
    return v;
}

// The name suffix of the vendor loops on a transposed-operand form's own operands ("" for other
// forms): "_own_layout", "_nn_own_layout" for the NN product.
std::string own_layout_suffix(const std::string &form) {
    if (form.find("/lhs_transposed") == std::string::npos) return "";
    return std::string(form.rfind("bmm_nn", 0) == 0 ? "_nn" : "") + "_own_layout";
}

// The dense forms whose epilogue applies GELU (contraction_forms.h): its scalar tanhf costs about as
// much as the product at every T (18 ns per element on one core of the AVX2 guest, 4.7 M elements
// at T = 128), so their references are a system plus this pass, not the bare product.
bool has_gelu_epilogue(const std::string &form) {
    return form == "dense/epilogue_chain" || form == "dense/rows_innermost_epilogue";
}

// The epilogue a user of a vendor sgemm writes after it: y = gelu(c + bias) over the product,
// std::tanh (tanhf, what Halide 14's tanh calls too), rows split over `threads` std::threads.
// tanhf's time depends on its argument (large ones return early), so the pass reads the true
// products of the canonical form's operands (the GELU forms get the same operand values; every T
// reads the first rows of the largest T's product, as the forms read crops of the largest T's
// inputs) and the bias values the GELU forms get (input_for's seed 13: their third input).
System gelu_pass_system(DietForm &canonical, int threads) {
    System g;
    g.name = "gelu_pass";
    g.note = "y = gelu(c + bias) in C++ (std::tanh), " + std::to_string(threads) + " threads";
    Buffer<float> x = canonical.full_inputs[0], w = canonical.full_inputs[1];  // x(k, m), w(k, n)
    const int K = x.dim(0).extent(), rows = x.dim(1).extent(), N = w.dim(1).extent();
    auto c = std::make_shared<Buffer<float>>(N, rows), y = std::make_shared<Buffer<float>>(N, rows);
    auto bias = std::make_shared<Buffer<float>>(input_for(Float(32), {N}, 13));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, N, K, 1.f, x.data(), x.dim(1).stride(), w.data(),
                w.dim(1).stride(), 0.f, c->data(), N);
    DietForm *src = &canonical;
    g.run = [=](int t) {
        const std::vector<int> sz = src->form.out_sizes(t);  // {N, rows at T}
        auto rows = [&](int first, int last) {
            for (int m = first; m < last; m++) {
                const float *in = &(*c)(0, m), *b = bias->data();
                float *out = &(*y)(0, m);
                for (int n = 0; n < sz[0]; n++) out[n] = 0.5f * contraction_forms::gelu_value(in[n] + b[n]);
            }
        };
        std::vector<std::thread> helpers;
        const int per = (sz[1] + threads - 1) / threads;
        for (int i = 1; i < threads; i++) helpers.emplace_back(rows, std::min(sz[1], i * per), std::min(sz[1], (i + 1) * per));
        rows(0, std::min(sz[1], per));
        for (std::thread &h : helpers) h.join();
    };
    return g;
}

// "" when the Diet output equals the unscheduled algorithm's at T. In a chain (an MLP, attention)
// the reductions are computed at root, or Halide's default recomputes the first layer at every
// point of the second.
std::string check(DietForm &d, int t) {
    Form ref = contraction_forms::make_form(d.form.name, d.sizes, false);
    contraction_forms::compute_chain_reductions_at_root(ref.out);
    d.bind(t);
    for (size_t i = 0; i < ref.inputs.size(); i++) ref.inputs[i].set(d.form.inputs[i].get());
    ref.T.set(t);
    d.run(t);
    Buffer<> want = ref.out.realize(d.form.out_sizes(t), diet::runnable_host_target());
    double peak = 0, err = 0;
    const Type ty = want.type();
    Buffer<> got = d.out;
    auto value = [&](const Buffer<> &b, const int *pos) -> double {
        if (ty == Float(32)) return b.as<float>()(pos);
        if (ty == Float(64)) return b.as<double>()(pos);
        return b.as<int32_t>()(pos);
    };
    want.for_each_element([&](const int *pos) {
        peak = std::max(peak, std::abs(value(want, pos)));
        err = std::max(err, std::abs(value(got, pos) - value(want, pos)));
    });
    const bool ok = ty.is_float() ? err <= 1e-4 * std::max(1.0, peak) : err == 0;
    return ok ? "" : d.form.name + " at T=" + std::to_string(t) + ": max error " + std::to_string(err) +
                         " (largest value " + std::to_string(peak) + ")";
}

std::vector<std::string> forms_of(const std::string &family) {
    if (family == "dense") {
        return {"dense/canonical", "dense/inline_sum", "dense/update_on_output", "dense/bias_init", "dense/epilogue_chain",
                "dense/bias_relu_chain", "dense/split_reduction", "dense/product_func", "dense/transpose_func",
                "dense/scaled_operand", "dense/flat_1d", "dense/symbolic_k", "dense/sum_of_halves", "dense/two_updates",
                "layout/NN", "layout/TN", "layout/TT", "dense/rows_innermost", "dense/rows_innermost_update",
                "dense/rows_innermost_epilogue"};
    }
    if (family == "bmm") {
        return {"bmm_nt/canonical", "bmm_nt/inline_sum", "bmm_nt/update_on_output",
                "bmm_nn/canonical", "bmm_nn/inline_sum", "bmm_nn/update_on_output", "bmm_nt/batch_innermost",
                "bmm_nn/batch_innermost", "bmm_nt/lhs_transposed", "bmm_nn/lhs_transposed"};
    }
    if (family == "mlp") return {"mlp/canonical", "mlp/inline_sum", "mlp/relu_in_operand", "mlp/update_read"};
    if (family == "attn") return {"attn/canonical", "attn/inline_sum"};
    return {"int/f32", "int/u8i8", "int/i16", "int/f32_nn", "int/u8i8_nn", "int/i16_nn"};
}

double geomean(const std::vector<double> &v) {
    double s = 0;
    int n = 0;
    for (double x : v) {
        if (std::isfinite(x) && x > 0) s += std::log(x), n++;
    }
    return n ? std::exp(s / n) : NAN;
}

}  // namespace

int main(int argc, char **argv) {
    bench::restart_with_quiet_vendor_threads(argv);
    Config cfg;
    cfg.target = diet::runnable_host_target();
    std::string families = "dense,bmm,int,mlp,attn", check_ts = "1,7,64", only_ts, item;
    CLI::App app{"forms_bench: every way of writing a contraction, Diet against the canonical form and the vendors"};
    app.add_option("--families", families, "dense,bmm,int,mlp,attn");
    app.add_option("--t-step", cfg.t_step, "time every t_step-th T in 1..128 (1: every T)");
    app.add_option("--reps", cfg.reps, "interleaved repeats (median)");
    app.add_option("--ts", only_ts, "time only these T (comma-separated) instead of every t_step-th");
    app.add_option("--trials", cfg.trials, "also tune the --tuned-forms with this many measurements (0: defaults only)");
    app.add_option("--tuned-forms", cfg.tuned_forms, "comma-separated forms tuned when --trials > 0");
    app.add_option("--out-dir", cfg.out_dir, "where the CSV, Markdown and plots go");
    app.add_option("--check-ts", check_ts, "T at which every output is checked against the unscheduled algorithm");
    std::string only_forms;
    app.add_option("--forms", only_forms, "only these forms of the families (comma-separated names; default: all)");
    app.add_flag("--dense-inputs", cfg.dense_inputs,
                 "each T's inputs in buffers of exactly its size (default: crops of buffers sized for T = 128)");
    std::vector<std::string> diet_options;
    app.add_option("--stmt-dir", cfg.stmt_dir, "also write each Diet form's lowered Stmt there (<form>.stmt)");
    app.add_option("--option", diet_options, "a Diet option for every form, key=value (e.g. base_model=none)");
    std::string target_name;
    app.add_option("--target", target_name,
                   "Halide target Diet schedules and compiles for (default: this CPU's runnable host target); "
                   "must not use features this CPU lacks (e.g. the AVX2 target on an AVX-512 CPU)");
    CLI11_PARSE(app, argc, argv);
    if (!target_name.empty()) {
        if (!Target::validate_target_string(target_name)) {
            std::cerr << "forms_bench: --target '" << target_name << "' is not a Halide target\n";
            return 2;
        }
        cfg.target = Target(target_name);
        const Target host = diet::runnable_host_target();
        for (Target::Feature f : {Target::AVX, Target::AVX2, Target::FMA, Target::F16C, Target::SSE41, Target::AVX512,
                                  Target::AVX512_Skylake, Target::AVX512_Cannonlake, Target::AVX512_SapphireRapids}) {
            if (cfg.target.has_feature(f) && !host.has_feature(f)) {
                std::cerr << "forms_bench: --target " << target_name << " uses a feature this CPU's target "
                          << host.to_string() << " lacks\n";
                return 2;
            }
        }
    }
    for (const std::string &o : diet_options) {
        const size_t eq = o.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::cerr << "forms_bench: --option takes key=value, got '" << o << "'\n";
            return 2;
        }
        cfg.options[o.substr(0, eq)] = o.substr(eq + 1);
    }
    cfg.families.clear();
    for (std::stringstream ss(families); std::getline(ss, item, ',');) cfg.families.push_back(item);
    cfg.check_ts.clear();
    for (std::stringstream ss(check_ts); std::getline(ss, item, ',');) cfg.check_ts.push_back(std::stoi(item));
    std::system(("mkdir -p '" + cfg.out_dir + "/logs'").c_str());
    // OpenBLAS's kernels are named: OpenBLAS 0.3.21 runs its Prescott kernels on CPUs it does not
    // know (scripts/openblas_env.sh pins the strongest ones the CPU allows).
    const std::string machine = bench::cpu_description() + ", " + std::to_string(cfg.threads) + " threads, Halide target " +
                                cfg.target.to_string() + ", OpenBLAS kernels " + openblas_get_corename() +
                                (std::getenv("OPENBLAS_CORETYPE") ? " (OPENBLAS_CORETYPE)" : " (its own choice)");
    std::cerr << "forms_bench on " << machine << "\n";

    for (const std::string &family : cfg.families) {
        const contraction_forms::Sizes sz = contraction_forms::benchmark_sizes(family);
        std::vector<std::unique_ptr<DietForm>> diets;
        std::vector<System> systems;
        std::vector<std::string> wrong;
        for (const std::string &name : forms_of(family)) {
            if (!only_forms.empty() && ("," + only_forms + ",").find("," + name + ",") == std::string::npos) continue;
            for (int trials : {0, cfg.trials}) {
                if (trials > 0 && ("," + cfg.tuned_forms + ",").find("," + name + ",") == std::string::npos) continue;
                std::cerr << "  scheduling " << name << (trials ? " tuned (" + std::to_string(trials) + " trials)" : " (default)") << "\n";
                diets.push_back(std::make_unique<DietForm>(name, sz, cfg, trials));
                DietForm *d = diets.back().get();
                System s;
                s.name = name + (trials ? "@tuned" : "");
                s.note = trials ? std::to_string(trials) + " trials, tuning " + std::to_string((int)d->tuning_seconds) + " s"
                                : "default options";
                s.run = [d](int t) { d->run(t); };
                systems.push_back(s);
                for (int t : cfg.check_ts) {
                    const std::string w = check(*d, t);
                    if (!w.empty()) wrong.push_back(w), std::cerr << "WRONG: " << w << "\n";
                }
                if (cfg.trials == 0) break;
            }
        }
        if (family != "int") {
            // The vendor loops read the canonical forms' operands (their layouts are the vendor
            // calls'); a canonical form not among --forms gets no vendor loop.
            auto canonical = [&](const std::string &name) -> DietForm * {
                for (const auto &d : diets) {
                    if (d->form.name == name) return d.get();
                }
                std::cerr << "forms_bench: " << name << " is not among --forms: no vendor loop on its math\n";
                return nullptr;
            };
            const std::string math = family == "dense" || family == "mlp" || family == "attn" ? family : "bmm";
            // bmm: the NT loop on the scores' operands, the NN loop on the context's.
            const std::vector<std::pair<std::string, std::string>> loops =
                math == "bmm" ? std::vector<std::pair<std::string, std::string>>{{"bmm_nt/canonical", ""}, {"bmm_nn/canonical", "_nn"}}
                              : std::vector<std::pair<std::string, std::string>>{{family + "/canonical", ""}};
            for (const auto &[form, suffix] : loops) {
                DietForm *src = canonical(form);
                if (!src) continue;
                systems.push_back(vendor_system(math, "openblas" + suffix, bench::openblas_sgemm(), *src));
                systems.push_back(vendor_system(math, "onednn" + suffix, bench::onednn_sgemm(), *src));
            }
            // The transposed-operand forms read memory the canonical layout does not (at small T
            // with crops, one cache line per element of the transposed operand): the vendor loop
            // on the form's own operands (transposed A) is reported beside the reference.
            for (const auto &d : diets) {
                const std::string suffix = own_layout_suffix(d->form.name);
                if (math != "bmm" || suffix.empty()) continue;
                bool have = false;  // a tuned form shares the default form's operands
                for (const System &sy : systems) have |= sy.name == "openblas" + suffix;
                if (have) continue;
                systems.push_back(vendor_system(math, "openblas" + suffix, bench::openblas_sgemm(), *d));
                systems.push_back(vendor_system(math, "onednn" + suffix, bench::onednn_sgemm(), *d));
                for (int t : cfg.check_ts) {  // the transposed calls compute the form's math
                    d->run(t);
                    for (size_t v = systems.size() - 2; v < systems.size(); v++) {
                        systems[v].run(t);
                        Buffer<float> want = d->out, got = systems[v].result(t);
                        double err = 0;
                        want.for_each_element([&](const int *pos) { err = std::max(err, (double)std::abs(want(pos) - got(pos))); });
                        if (err > 1e-3) wrong.push_back(systems[v].name + " at T=" + std::to_string(t) + ": max error " + std::to_string(err));
                    }
                }
            }
            bool gelu = false;
            for (const auto &d : diets) gelu |= has_gelu_epilogue(d->form.name);
            DietForm *src = gelu ? canonical("dense/canonical") : nullptr;
            if (src) systems.push_back(gelu_pass_system(*src, cfg.threads));
        }
        std::vector<int> ts;
        for (std::stringstream ss(only_ts); std::getline(ss, item, ',');) ts.push_back(std::stoi(item));
        if (ts.empty()) {
            for (int t = 1; t <= 128; t += cfg.t_step) ts.push_back(t);
            if (ts.back() != 128) ts.push_back(128);
        }
        std::vector<std::vector<double>> med(systems.size(), std::vector<double>(ts.size(), NAN));
        const auto t0 = bench::Clock::now();
        for (size_t i = 0; i < ts.size(); i++) {
            std::vector<std::vector<double>> samples(systems.size());
            for (int r = 0; r < cfg.reps; r++) {
                for (size_t s = 0; s < systems.size(); s++) {
                    samples[s].push_back(bench::time_call([&] { systems[s].run(ts[i]); }, cfg.min_time));
                }
            }
            for (size_t s = 0; s < systems.size(); s++) med[s][i] = bench::median(samples[s]);
            const double el = bench::seconds_since(t0);
            std::cerr << "  " << family << ": T=" << ts[i] << " done (" << i + 1 << "/" << ts.size() << ", "
                      << (int)el << " s, ETA " << (int)(el / (i + 1) * (ts.size() - i - 1)) << " s)\n";
        }
        // CSV: T, then each system's median seconds.
        const std::string stem = cfg.out_dir + "/forms_" + family;
        std::ofstream csv(stem + ".csv");
        csv << "T";
        for (const System &s : systems) csv << "," << s.name;
        csv << "\n";
        for (size_t i = 0; i < ts.size(); i++) {
            csv << ts[i];
            for (size_t s = 0; s < systems.size(); s++) csv << "," << med[s][i];
            csv << "\n";
        }
        csv.close();
        // Markdown: each Diet system against its family's canonical form and the faster vendor.
        auto index_of = [&](const std::string &n) {
            for (size_t s = 0; s < systems.size(); s++) {
                if (systems[s].name == n) return (int)s;
            }
            return -1;
        };
        std::ofstream md(stem + ".md");
        md << "# forms_bench: " << family << "\n\nMachine: " << machine << ". Medians of " << cfg.reps
           << " interleaved repeats at " << ts.size() << " values of T in " << ts.front() << ".." << ts.back() << ". Inputs: "
           << (cfg.dense_inputs ? "each T's in buffers of exactly its size" : "crops of buffers sized for T = 128")
           << ". Speed ratio = reference time / form time "
           << "(above 1: the form is faster). Outputs checked at T = " << check_ts << ": "
           << (wrong.empty() ? "all correct" : std::to_string(wrong.size()) + " WRONG") << ".\n\n";
        md << "| form | note | vs canonical: geomean | min (at T) | vs faster vendor: geomean | min (at T) |\n|---|---|---:|---:|---:|---:|\n";
        for (size_t s = 0; s < systems.size(); s++) {
            if (systems[s].name.find('/') == std::string::npos) continue;
            const std::string base = systems[s].name.substr(0, systems[s].name.find('/'));
            // Integer forms against float32 in the same layout (int/f32, int/f32_nn).
            const std::string form = systems[s].name.substr(0, systems[s].name.find('@'));
            const bool int_nn = form.size() > 3 && form.compare(form.size() - 3, 3, "_nn") == 0;
            const std::string canon = family == "int" ? (int_nn ? "int/f32_nn" : "int/f32") : base + "/canonical";
            const int c = index_of(family == "dense" ? "dense/canonical" : canon);
            const bool nn = base == "bmm_nn";
            const int v1 = index_of(nn ? "openblas_nn" : "openblas"), v2 = index_of(nn ? "onednn_nn" : "onednn");
            // A GELU epilogue's references are the canonical form's and the vendors' times plus the
            // same epilogue as a pass of its own (the bare product would leave its tanhf uncounted).
            const int pass = has_gelu_epilogue(systems[s].name.substr(0, systems[s].name.find('@'))) ? index_of("gelu_pass") : -1;
            std::vector<double> rc, rv;
            double min_c = INFINITY, min_v = INFINITY;
            int at_c = 0, at_v = 0;
            for (size_t i = 0; i < ts.size(); i++) {
                const double extra = pass >= 0 ? med[pass][i] : 0;
                if (c >= 0) {
                    rc.push_back((med[c][i] + extra) / med[s][i]);
                    if (rc.back() < min_c) min_c = rc.back(), at_c = ts[i];
                }
                if (v1 >= 0 && family != "int") {
                    rv.push_back((std::min(med[v1][i], med[v2][i]) + extra) / med[s][i]);
                    if (rv.back() < min_v) min_v = rv.back(), at_v = ts[i];
                }
            }
            auto f2 = [](double x) { return std::isfinite(x) ? (std::ostringstream() << std::fixed << std::setprecision(3) << x).str() : std::string("–"); };
            md << "| " << systems[s].name << " | " << systems[s].note << (pass >= 0 ? " (references + gelu_pass)" : "") << " | " << f2(geomean(rc)) << " | " << f2(min_c) << " ("
               << at_c << ") | " << f2(geomean(rv)) << " | " << f2(min_v) << " (" << at_v << ") |\n";
        }
        for (size_t s = 0; s < systems.size(); s++) {  // transposed-operand forms against vendors in their layout
            const std::string &f = systems[s].name, suffix = own_layout_suffix(f);
            if (suffix.empty()) continue;
            const int v1 = index_of("openblas" + suffix), v2 = index_of("onednn" + suffix);
            if (v1 < 0 || v2 < 0) continue;
            std::vector<double> rv;
            md << "\n" << f << " against the faster vendor loop on its own operands (transposed A):";
            for (size_t i = 0; i < ts.size(); i++) {
                rv.push_back(std::min(med[v1][i], med[v2][i]) / med[s][i]);
                md << " T=" << ts[i] << " " << std::fixed << std::setprecision(3) << rv.back();
            }
            md << "; geomean " << geomean(rv) << "\n";
        }
        for (const std::string &w : wrong) md << "\n**WRONG:** " << w << "\n";
        md.close();
        // Plot: time per T (log scale).
        std::ofstream gp(stem + ".gp");
        gp << "set terminal pngcairo noenhanced size 1100,700 font 'sans,10'\nset output '" << stem << ".png'\n"
           << "set datafile separator ','\nset key outside right top\nset grid\nset logscale y\n"
           << "set title 'forms_bench " << family << ": median time per T'\nset xlabel 'T'\nset ylabel 'seconds (log)'\nplot ";
        for (size_t s = 0; s < systems.size(); s++) {
            gp << (s ? ", " : "") << "'" << stem << ".csv' using 1:" << s + 2 << " with lines lw "
               << (systems[s].name.find('/') == std::string::npos ? 3 : 1.5) << " title '" << systems[s].name << "'";
        }
        gp << "\n";
        gp.close();
        if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
            if (std::system(("gnuplot '" + stem + ".gp'").c_str()) != 0) std::cerr << "gnuplot failed\n";
        }
        std::ifstream back(stem + ".md");
        std::cout << back.rdbuf() << "\n";
    }
    return 0;
}
