// Halide 14 segfaults in bounds_inference compiling this (no Diet involved): an output whose
// definition simplifies to one that reads nothing (select(t < t, t, t - t)), specialized, while a
// producer computed at root reads another output. Build: g++ -std=c++17 this.cpp -I/usr/include/halide14
// -lHalide14; run: ./a.out 0 s (crashes, rc 139), ./a.out 0 (no specialization: fine), ./a.out 1 s (fine).
// Found by test_fuzz seed 20269208; Diet's answer: analysis/VanishingReads.h.
#include "Halide.h"
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    int variant = atoi(argv[1]);
    ImageParam in0(UInt(8), 2, "in0");
    Var x("x"), y("y");
    Func a("a"), p("p"), out("out");
    a(x, y) = in0(y, x) + 1;      // second output
    p(x, y) = a(y, x);
    Expr t = p(x, y);
    if (variant == 0) out(x, y) = select(t < t, t, t - t);
    else out(x, y) = t + 1;
    p.compute_root();
    if (argc > 2) out.specialize(out.output_buffer().dim(0).extent() >= 16);
    Pipeline pl({out, a});
    pl.compile_to_lowered_stmt("/tmp/r208/m.stmt", {in0}, Text, Target("x86-64-linux-sse41"));
    printf("ok\n");
}
