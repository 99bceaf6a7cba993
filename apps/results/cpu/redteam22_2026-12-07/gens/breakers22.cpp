// Round 22, added at 15:59: C++-only idioms that the first 20 generators did not cover.
#include "Halide.h"
#include <map>
#include <set>
using namespace Halide;
namespace {
#define RT22_COMMON                                                                    \
    GeneratorParam<bool> sym{"sym", true};                                             \
    GeneratorParam<bool> root_all{"root_all", false};                                  \
    GeneratorParam<bool> est_small{"est_small", false};                                \
    Expr E(const Input<int> &p, int hi) {                                              \
        if (sym && auto_schedule) return Expr(p);                                      \
        return est_small ? Expr(hi / 8 + 1) : Expr(hi);                               \
    }                                                                                  \
    void rootify(std::vector<Func> outs, std::set<std::string> skip = {}) {           \
        if (auto_schedule || !root_all) return;                                        \
        std::map<std::string, Internal::Function> env;                                 \
        for (auto &f : outs) {                                                         \
            auto m = Internal::find_transitive_calls(f.function());                    \
            env.insert(m.begin(), m.end());                                            \
        }                                                                              \
        for (auto &kv : env)                                                           \
            if (!skip.count(kv.first)) Func(kv.second).compute_root();                 \
    }
Var x{"x"}, y{"y"}, c{"c"}, i{"i"};

// interleaved RGB u8 in and out (dim(0) stride 3, dim(2) stride 1, 3 channels): 3x3 blur + colour matrix
class InterleavedIO : public Generator<InterleavedIO> {
public:
    RT22_COMMON
    Input<Buffer<uint8_t>> in{"in", 3};
    Input<Buffer<float>> m{"m", 2};  // [3, 3]
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 768};
    Output<Buffer<uint8_t>> out{"out", 3};
    void generate() {
        Func cl = BoundaryConditions::repeat_edge(in, {{0, in.dim(0).extent()}, {0, in.dim(1).extent()}});
        Func bx("bx"), by("by");
        bx(x, y, c) = cast<uint16_t>(cl(x - 1, y, c)) + 2 * cast<uint16_t>(cl(x, y, c)) + cl(x + 1, y, c);
        by(x, y, c) = bx(x, y - 1, c) + 2 * bx(x, y, c) + bx(x, y + 1, c);
        Func f("f");
        f(x, y, c) = cast<float>(by(x, y, c)) / 16.0f;
        Expr v = m(0, c) * f(x, y, 0) + m(1, c) * f(x, y, 1) + m(2, c) * f(x, y, 2);
        out(x, y, c) = cast<uint8_t>(clamp(v + 0.5f, 0.0f, 255.0f));
        in.dim(0).set_stride(3);
        in.dim(2).set_stride(1);
        in.dim(2).set_bounds(0, 3);
        out.dim(0).set_stride(3);
        out.dim(2).set_stride(1);
        out.dim(2).set_bounds(0, 3);
        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 768));
        in.dim(2).set_estimate(0, 3);
        m.set_estimates({{0, 3}, {0, 3}});
        W.set_estimate(1024); H.set_estimate(768);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 768)}, {0, 3}});
        rootify({out});
    }
};

// Sobel whose padded Func is read only through two per-consumer wrappers pad.in(gx), pad.in(gy) (round 21's S1 idiom, in C++),
// plus a global wrapper of the input buffer in.in()
class SobelWrappers : public Generator<SobelWrappers> {
public:
    RT22_COMMON
    Input<Buffer<uint8_t>> in{"in", 2};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<uint8_t>> out{"out", 2};
    void generate() {
        Func src = in.in();
        Func pad("pad");
        Expr xc = clamp(x, 0, in.dim(0).extent() - 1), yc = clamp(y, 0, in.dim(1).extent() - 1);
        pad(x, y) = cast<int16_t>(src(xc, yc));
        Func gx("gx"), gy("gy");
        Func px = pad.in(gx), py = pad.in(gy);
        gx(x, y) = (px(x + 1, y - 1) + 2 * px(x + 1, y) + px(x + 1, y + 1)) - (px(x - 1, y - 1) + 2 * px(x - 1, y) + px(x - 1, y + 1));
        gy(x, y) = (py(x - 1, y + 1) + 2 * py(x, y + 1) + py(x + 1, y + 1)) - (py(x - 1, y - 1) + 2 * py(x, y - 1) + py(x + 1, y - 1));
        out(x, y) = cast<uint8_t>(min(abs(gx(x, y)) + abs(gy(x, y)), 255));
        in.dim(0).set_estimate(0, E(W, 1024));
        in.dim(1).set_estimate(0, E(H, 1024));
        W.set_estimate(1024); H.set_estimate(1024);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}});
        rootify({out});
    }
};

// a Tuple-valued output (float, int32): per-row min value and its column, over a ranged width
class TupleOutput : public Generator<TupleOutput> {
public:
    RT22_COMMON
    Input<Buffer<float>> in{"in", 2};
    Input<int> W{"W", 256, 1, 4096};
    Input<int> H{"H", 64, 1, 512};
    Output<Buffer<>> out{"out", {Float(32), Int(32)}, 1};
    void generate() {
        RDom r(0, in.dim(0).extent(), "r");
        Func best("best");
        best(y) = Tuple(std::numeric_limits<float>::infinity(), 0);
        Expr better = in(r, y) < best(y)[0];
        best(y) = Tuple(select(better, in(r, y), best(y)[0]), select(better, r, best(y)[1]));
        out(y) = best(y);
        in.dim(0).set_estimate(0, E(W, 4096));
        in.dim(1).set_estimate(0, E(H, 512));
        W.set_estimate(4096); H.set_estimate(512);
        out.set_estimates({{0, E(H, 512)}});
        rootify({out});
    }
};

// an input buffer without estimates (only the output has them): what does each scheduler say?
class NoInputEstimates : public Generator<NoInputEstimates> {
public:
    RT22_COMMON
    Input<Buffer<float>> in{"in", 2};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<float>> out{"out", 2};
    void generate() {
        Func cl = BoundaryConditions::repeat_edge(in);
        Func b("b");
        b(x, y) = (cl(x - 1, y) + cl(x, y) + cl(x + 1, y)) / 3.0f;
        out(x, y) = (b(x, y - 1) + b(x, y) + b(x, y + 1)) / 3.0f;
        W.set_estimate(1024); H.set_estimate(1024);
        out.set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}});
        rootify({out});
    }
};
// arrays of inputs and outputs (Input<Buffer<float>[]>, Output<Buffer<float>[]>; Halide 14 sizes them by the
// generator args ins.size=3 outs.size=3, which must equal the GeneratorParam count),
// an RDom built from a buffer (RDom(in)), and a 0-d Output<double> mean
class ArrayIO : public Generator<ArrayIO> {
public:
    RT22_COMMON
    GeneratorParam<int> count{"count", 3};
    Input<Buffer<float>[]> ins{"ins", 2};
    Input<int> W{"W", 256, 1, 1024};
    Input<int> H{"H", 256, 1, 1024};
    Output<Buffer<float>[]> outs{"outs", 2};
    Output<double> mean{"mean"};
    void generate() {
        std::vector<Func> cl;
        for (int k = 0; k < (int)count; k++)
            cl.push_back(BoundaryConditions::mirror_image(ins[k]));
        std::vector<Func> all;
        for (int k = 0; k < (int)count; k++) {
            Func a = cl[k], b = cl[(k + 1) % (int)count];
            outs[k](x, y) = a(x - 1, y) + a(x + 1, y) - 2.0f * b(x, y) + a(x, y - k) * b(x, y + k);
            all.push_back(outs[k]);
        }
        RDom r(ins[0]);
        mean() = sum(cast<double>(ins[0](r.x, r.y))) / cast<double>(ins[0].dim(0).extent() * ins[0].dim(1).extent());
        all.push_back(mean);
        for (int k = 0; k < (int)count; k++) {
            ins[k].dim(0).set_estimate(0, E(W, 1024));
            ins[k].dim(1).set_estimate(0, E(H, 1024));
            outs[k].set_estimates({{0, E(W, 1024)}, {0, E(H, 1024)}});
        }
        W.set_estimate(1024); H.set_estimate(1024);
        rootify(all);
    }
};
}  // namespace
HALIDE_REGISTER_GENERATOR(InterleavedIO, interleaved_io)
HALIDE_REGISTER_GENERATOR(SobelWrappers, sobel_wrappers)
HALIDE_REGISTER_GENERATOR(TupleOutput, tuple_output)
HALIDE_REGISTER_GENERATOR(NoInputEstimates, no_input_estimates)
HALIDE_REGISTER_GENERATOR(ArrayIO, array_io)
