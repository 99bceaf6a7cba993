#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
// batch-innermost NN: o(b,i,d) = sum_j p(b,i,j) v(b,j,d)
int main(int argc, char **argv) {
    const int B = 192, T = atoi(argv[1]), D = 64;
    int variant = atoi(argv[2]);
    int RI = argc > 3 ? atoi(argv[3]) : 5, RD = argc > 4 ? atoi(argv[4]) : 5, KC = argc > 5 ? atoi(argv[5]) : 0;
    Target tgt(getenv("TGT"));
    Buffer<float> P(B, T, T), V(B, T, D);
    P.for_each_element([&](int b, int i, int j) { P(b, i, j) = ((b * 3 + i * 7 + j) % 13) * 0.1f; });
    V.for_each_element([&](int b, int j, int d) { V(b, j, d) = ((b + j * 5 + d * 3) % 11) * 0.1f; });
    ImageParam p(Float(32), 3, "p"), v(Float(32), 3, "v");
    Var b("b"), i("i"), d("d"), bo("bo"), bi("bi"), io("io"), ii("ii"), dd("dd"), di("di");
    RDom r(0, T, "r");
    Func acc("acc"), out("out");
    acc(b, i, d) = 0.f;
    acc(b, i, d) += p(b, i, r) * v(b, r, d);
    out(b, i, d) = acc(b, i, d);
    out.split(b, bo, bi, 16).split(i, io, ii, RI, TailStrategy::ShiftInwards).split(d, dd, di, RD, TailStrategy::ShiftInwards);
    if (variant == 0) {  // i tile outer, d tile inner, in place
        out.reorder(bi, ii, di, dd, io, bo).vectorize(bi).parallel(bo);
        acc.compute_at(out, dd).vectorize(b).unroll(i).unroll(d);
        acc.update().reorder(b, i, d, r).vectorize(b).unroll(i).unroll(d);
    } else if (variant == 1) {  // d tile outer, i tile inner
        out.reorder(bi, ii, di, io, dd, bo).vectorize(bi).parallel(bo);
        acc.compute_at(out, io).vectorize(b).unroll(i).unroll(d);
        acc.update().reorder(b, i, d, r).vectorize(b).unroll(i).unroll(d);
    } else if (variant == 2 || variant == 3) {  // copy p (b16, all i, all j) as [b, j, i] per slice, v per slice
        out.reorder(bi, ii, di, dd, io, bo).vectorize(bi).parallel(bo);
        acc.compute_at(out, dd).vectorize(b).unroll(i).unroll(d);
        acc.update().reorder(b, i, d, r).vectorize(b).unroll(i).unroll(d);
        Func pc = p.in(acc), vc = v.in(acc);
        Var x = pc.args()[0], y = pc.args()[1], z = pc.args()[2];
        pc.compute_at(out, variant == 2 ? bo : io).reorder_storage(x, z, y).vectorize(x, 16);
        pc.reorder(x, z, y);
        if (variant == 2) { Var x2 = vc.args()[0]; vc.compute_at(out, bo).vectorize(x2, 16); }
    } else if (variant == 4) { // p per i-tile copied [b, j, i], v in place
        out.reorder(bi, ii, di, dd, io, bo).vectorize(bi).parallel(bo);
        acc.compute_at(out, dd).vectorize(b).unroll(i).unroll(d);
        acc.update().reorder(b, i, d, r).vectorize(b).unroll(i).unroll(d);
        Func pc = p.in(acc);
        Var x = pc.args()[0], y = pc.args()[1], z = pc.args()[2];
        pc.compute_at(out, io).reorder_storage(x, y, z).vectorize(x, 16).reorder(x, y, z);
    }
    if (getenv("ASM")) { out.compile_to_assembly("/tmp/hp/bi.s", {p, v}, tgt); return 0; }
    out.compile_jit(tgt);
    p.set(P); v.set(V);
    Buffer<float> O(B, T, D);
    out.realize(O);
    // check
    double maxerr = 0;
    for (int bb : {0, 17, 191}) for (int ii2 : {0, T / 2, T - 1}) for (int d2 : {0, 33, 63}) {
        double s = 0; for (int j = 0; j < T; j++) s += P(bb, ii2, j) * V(bb, j, d2);
        maxerr = std::max(maxerr, std::abs(s - O(bb, ii2, d2)));
    }
    std::vector<double> ts;
    for (int rep = 0; rep < 15; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        out.realize(O);
        ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    printf("T=%d variant=%d RI=%d RD=%d: %.3f ms  (%.1f GFLOP/s) err %.2g\n", T, variant, RI, RD, ts[7] * 1e3,
           2.0 * B * T * T * D / ts[7] * 1e-9, maxerr);
}
