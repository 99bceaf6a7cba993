#include "Halide.h"
#include <cstdio>
using namespace Halide;
int main(int argc, char **argv) {
    int variant = argc > 1 ? atoi(argv[1]) : 0;
    ImageParam in(Float(32), 3, "in");
    Var x("x"), y("y"), z("z"), n_o, n_v, n_t, n_p, m_o, m_r, task("task"), task_o, task_i;
    Func p("p"), stg("stg"), out("out");
    p(x, y, z) = in(x, y, z) * 2.f;
    RDom r(0, min(in.dim(0).extent(), in.dim(1).extent()));
    Func acc("acc");
    acc(x, y, z) = 0.f;
    acc(x, y, z) += p(r, x, z) * p(y, r, z);
    out(x, y, z) = acc(x, y, z);
    auto tile = [&](Func f, Stage s, Expr grain, bool fuse_batch_inner) {
        s.split(x, n_o, n_v, 8, TailStrategy::ShiftInwards)
         .split(n_o, n_t, n_p, 16, TailStrategy::GuardWithIf)
         .split(y, m_o, m_r, 4, TailStrategy::ShiftInwards)
         .reorder(n_v, m_r, n_p, m_o, n_t, z);
        if (variant == 3 && f.name() == "p") { s.rename(n_t, task_i); s.parallel(z); return; }
        if (fuse_batch_inner) s.fuse(z, n_t, task); else s.fuse(n_t, z, task);
        s.split(task, task_o, task_i, grain, TailStrategy::GuardWithIf).parallel(task_o);
    };
    p.compute_root();
    Expr grain = max(min(8191 / (out.output_buffer().dim(1).extent()) , 4), 1);
    tile(p, p, variant == 2 ? Expr(1) : grain, variant == 1);
    tile(out, out, grain, false);
    acc.compute_at(out, n_p); p.in(acc).compute_at(out, task_i); if (variant == 3) in.in(p).compute_at(p, task_i);
    Target t(getenv("TGT"));
    Buffer<float> ib(16, 16, 4), ob(16, 16, 4);
    ib.fill(1.f);
    in.set(ib);
    if (getenv("STMT")) out.compile_to_lowered_stmt("/tmp/p54/out.stmt", {in}, Text, t);
    try { out.realize(ob, t); printf("ok %f\n", ob(0,0,0)); } catch (Halide::Error &e) { printf("ERR %s\n", e.what()); }
}
