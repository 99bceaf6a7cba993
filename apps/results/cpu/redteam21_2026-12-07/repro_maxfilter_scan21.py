"""Session repro (after round 21): the van Herk max filter of pipes21 (W, H, R ranged Params, or constants
for SCHED=Mullapudi2016 / Adams2019 with their plugin in $DIET_PLUGIN), ONLY=hmax|out times one output alone,
STMT=path writes the lowered Stmt, SRC=1 prints the schedule source; median of 20 realizes at 640 x 480, R = 8, AVX2."""
import os, sys, time
import numpy as np, halide as hl
T = "x86-64-linux-avx-avx2-f16c-fma-sse41" + os.environ.get("FEAT", "")
SCHED = os.environ.get("SCHED", "Diet")
hl.load_plugin(os.environ["DIET_PLUGIN"])
U8 = hl.UInt(8)
W0, H0, R0 = 640, 480, 8
S = {}
for n, (lo, hi) in {'W': (1, 640), 'H': (1, 480), 'R': (0, 8)}.items():
    if SCHED == "Diet":
        S[n] = hl.Param(hl.Int(32), n, hi); S[n].set_range(lo, hi)
    else:
        S[n] = hl.Expr({'W': W0, 'H': H0, 'R': R0}[n])
img = hl.ImageParam(U8, 2, "img")
x, y, p = hl.Var("x"), hl.Var("y"), hl.Var("p")
R = S['R']; K = 2 * R + 1; WP = S['W'] + 2 * R
e = hl.BoundaryConditions.repeat_edge(img, [(0, S['W']), (0, S['H'])])
pre = hl.Func("mf_prefix"); pre[p, y] = e[p - R, y]
rp = hl.RDom([hl.Range(1, WP - 1)], "rpre")
pre[rp, y] = hl.select(rp % K == 0, e[rp - R, y], hl.max(pre[rp - 1, y], e[rp - R, y]))
suf = hl.Func("mf_suffix"); suf[p, y] = e[p - R, y]
rs = hl.RDom([hl.Range(0, WP - 1)], "rsuf")
q = WP - 2 - rs
suf[q, y] = hl.select((q + 1) % K == 0, e[q - R, y], hl.max(suf[q + 1, y], e[q - R, y]))
hmax = hl.Func("mf_hmax"); hmax[x, y] = hl.max(suf[x, y], pre[x + 2 * R, y])
he = hl.BoundaryConditions.repeat_edge(hmax, [(0, S['W']), (0, S['H'])])
rv = hl.RDom([hl.Range(-R, K)], "rv")
out = hl.Func("mf_out"); out[x, y] = hl.maximum(he[x, y + rv])
E = {'W': W0, 'H': H0} if SCHED != "Diet" else S
img.dim(0).set_estimate(0, E['W']); img.dim(1).set_estimate(0, E['H'])
out.set_estimate(x, 0, E['W']).set_estimate(y, 0, E['H']); hmax.set_estimate(x, 0, E['W']).set_estimate(y, 0, E['H'])
ONLY = os.environ.get("ONLY", "")
outs = {"hmax": [hmax], "out": [out]}.get(ONLY, [out, hmax])
pl = hl.Pipeline(outs)
res = pl.auto_schedule(SCHED, hl.Target(T), hl.MachineParams(2, 1 << 20, 40))
if os.environ.get("SRC"): print(res.schedule_source)
if os.environ.get("STMT"): pl.compile_to_lowered_stmt(os.environ["STMT"], pl.infer_arguments(), hl.StmtOutputFormat.Text, hl.Target(T))
pl.compile_jit(hl.Target(T))
a = np.asfortranarray(np.random.default_rng(1).integers(0, 256, (W0, H0)).astype(np.uint8))
img.set(hl.Buffer(a))
if SCHED == "Diet": S['W'].set(W0); S['H'].set(H0); S['R'].set(R0)
bufs = [hl.Buffer(U8, [W0, H0]) for _ in outs]
pl.realize(bufs); ts = []
for _ in range(20):
    t0 = time.perf_counter(); pl.realize(bufs); ts.append(time.perf_counter() - t0)
print(SCHED, "median ms", np.median(ts) * 1e3)
