"""Standalone repro for two round-18 slow rows: the same math with only the order of the output's pure dims changed.
  chol:  batched 4x4 Cholesky solve (f64, AVX2): solution sol[i, b] / L[i, j, b] (the spec: the 4-valued component
         index i innermost, chosen by hl.mux / a select chain) vs sol[b, i] / L[b, i, j] (batch innermost)
  band:  banded matvec (f32, AVX-512): y[b, i] (the spec: NRHS b innermost, where() over RDom(-KL..KU)) vs y[i, b]
Each variant is scheduled by Diet and also built unscheduled (compute_root, serial 'ref'); both are timed (median of 15
realizes) and compared. usage: DIET_PLUGIN=/tmp/rt18/libautoschedule_diet.so HL_NUM_PASSES=1 nice -n 10 /usr/bin/python3 repro_layout18.py [chol] [band]"""
import os, sys, time
import numpy as np
import halide as hl

hl.load_plugin(os.environ.get("DIET_PLUGIN", "/tmp/rt18/libautoschedule_diet.so"))
TA = hl.Target("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41")
TB = hl.Target("x86-64-linux-avx-avx2-f16c-fma-sse41")


def P(n, lo, hi):
    p = hl.Param(hl.Int(32), n, hi); p.set_range(lo, hi); return p


def timeit(p, bufs, T):
    p.realize(bufs, T); ts = []
    for _ in range(15):
        a = time.perf_counter(); p.realize(bufs, T); ts.append(time.perf_counter() - a)
    return 1e3 * float(np.median(ts))


def chol(batch_inner, sched, with_L=True):
    B = P("B", 1, 16384)
    A = hl.ImageParam(hl.Float(64), 3, "A"); rhs = hl.ImageParam(hl.Float(64), 2, "rhs")  # A[i, j, b], rhs[i, b] (inputs as in the spec)
    b, i, j = hl.Var("b"), hl.Var("i"), hl.Var("j")
    fs, L = [], {}
    for ii in range(4):
        for jj in range(ii + 1):
            s = A[ii, jj, b]
            for k in range(jj):
                s = s - L[(ii, k)][b] * L[(jj, k)][b]
            f = hl.Func("l%d%d" % (ii, jj)); f[b] = hl.sqrt(s) if ii == jj else s / L[(jj, jj)][b]; L[(ii, jj)] = f; fs.append(f)
    z = []
    for ii in range(4):
        s = rhs[ii, b]
        for k in range(ii):
            s = s - L[(ii, k)][b] * z[k][b]
        f = hl.Func("z%d" % ii); f[b] = s / L[(ii, ii)][b]; z.append(f); fs.append(f)
    xs = [None] * 4
    for ii in (3, 2, 1, 0):
        s = z[ii][b]
        for k in range(ii + 1, 4):
            s = s - L[(k, ii)][b] * xs[k][b]
        f = hl.Func("x%d" % ii); f[b] = s / L[(ii, ii)][b]; xs[ii] = f; fs.append(f)
    if sched != "Diet":
        B = 16384  # (Param estimates break a build that is not auto-scheduled; the Param itself is unused below)
    args = []
    for ii in range(4):
        for jj in range(ii + 1):
            args += [(i == ii) & (j == jj), L[(ii, jj)][b]]
    sol = hl.Func("sol"); Lo = hl.Func("Lout")
    if batch_inner:
        sol[b, i] = hl.mux(i, [xs[k][b] for k in range(4)]); Lo[b, i, j] = hl.select(*args, hl.f64(0))
        sol.set_estimate(b, 0, B).set_estimate(i, 0, 4); Lo.set_estimate(b, 0, B).set_estimate(i, 0, 4).set_estimate(j, 0, 4)
    else:
        sol[i, b] = hl.mux(i, [xs[k][b] for k in range(4)]); Lo[i, j, b] = hl.select(*args, hl.f64(0))
        sol.set_estimate(i, 0, 4).set_estimate(b, 0, B); Lo.set_estimate(i, 0, 4).set_estimate(j, 0, 4).set_estimate(b, 0, B)
    A.dim(0).set_estimate(0, 4); A.dim(1).set_estimate(0, 4); A.dim(2).set_estimate(0, B)
    rhs.dim(0).set_estimate(0, 4); rhs.dim(1).set_estimate(0, B)
    p = hl.Pipeline([sol, Lo] if with_L else [sol])
    if sched == "Diet":
        p.auto_schedule("Diet", TB, hl.MachineParams(2, 1 << 20, 40))
    else:
        for f in fs:
            f.compute_root()
    p.compile_jit(TB)
    n = 16384; r = np.random.default_rng(3)
    M = r.standard_normal((n, 4, 4)); Am = np.einsum('bik,bjk->bij', M, M) + 4 * np.eye(4)
    ab = hl.Buffer(hl.Float(64), [4, 4, n]); np.asarray(ab)[...] = np.transpose(Am, (1, 2, 0)); A.set(ab)
    rb = hl.Buffer(hl.Float(64), [4, n]); np.asarray(rb)[...] = r.standard_normal((4, n)); rhs.set(rb)
    bufs = [hl.Buffer(hl.Float(64), [n, 4] if batch_inner else [4, n]), hl.Buffer(hl.Float(64), [n, 4, 4] if batch_inner else [4, 4, n])][:2 if with_L else 1]
    ms = timeit(p, bufs, TB)
    out = np.asarray(bufs[0]); out = out.T if batch_inner else out
    return ms, out


def band(i_inner, sched, use_where=True):
    N, KL, KU, NR = P("N", 1, 65536), P("KL", 0, 8), P("KU", 0, 8), P("NRHS", 1, 8)
    ab = hl.ImageParam(hl.Float(32), 2, "ab"); X = hl.ImageParam(hl.Float(32), 2, "x")  # ab[KU+i-j, j]; x[b, j] or x[j, b]
    b, i = hl.Var("b"), hl.Var("i")
    r = hl.RDom([hl.Range(-KL, KL + KU + 1)], "rk")
    valid = (i + r.x >= 0) & (i + r.x < N)
    if use_where:
        r.where(valid)
    jj = hl.clamp(i + r.x, 0, N - 1)
    y = hl.Func("y")
    Ps = (N, KL, KU, NR)
    if sched != "Diet":
        N_, KL_, KU_, NR = 65536, 8, 8, 8
    else:
        N_, KL_, KU_ = N, KL, KU
    if i_inner:
        y[i, b] = hl.f32(0); y[i, b] += (ab[hl.clamp(KU - r.x, 0, KL + KU), jj] * X[jj, b] if use_where else hl.select(valid, ab[hl.clamp(KU - r.x, 0, KL + KU), jj] * X[jj, b], 0.0))
        y.set_estimate(i, 0, N_).set_estimate(b, 0, NR); X.dim(0).set_estimate(0, N_); X.dim(1).set_estimate(0, NR)
    else:
        y[b, i] = hl.f32(0); y[b, i] += (ab[hl.clamp(KU - r.x, 0, KL + KU), jj] * X[b, jj] if use_where else hl.select(valid, ab[hl.clamp(KU - r.x, 0, KL + KU), jj] * X[b, jj], 0.0))
        y.set_estimate(b, 0, NR).set_estimate(i, 0, N_); X.dim(0).set_estimate(0, NR); X.dim(1).set_estimate(0, N_)
    ab.dim(0).set_estimate(0, KL_ + KU_ + 1); ab.dim(1).set_estimate(0, N_)
    p = hl.Pipeline(y)
    if sched == "Diet":
        p.auto_schedule("Diet", TA, hl.MachineParams(2, 1 << 20, 40))
    p.compile_jit(TA)
    n, kl, ku, nr = 65536, 8, 8, 8
    rg = np.random.default_rng(3)
    abb = hl.Buffer(hl.Float(32), [kl + ku + 1, n]); np.asarray(abb)[...] = rg.standard_normal((kl + ku + 1, n)); ab.set(abb)
    xv = rg.standard_normal((nr, n)).astype(np.float32)
    xb = hl.Buffer(hl.Float(32), [n, nr] if i_inner else [nr, n]); np.asarray(xb)[...] = xv.T if i_inner else xv; X.set(xb)
    for prm, val in zip(Ps, (n, kl, ku, nr)):
        prm.set(val)
    ob = hl.Buffer(hl.Float(32), [n, nr] if i_inner else [nr, n])
    ms = timeit(p, [ob], TA)
    out = np.asarray(ob); out = out.T if i_inner else out
    return ms, out


which = sys.argv[1:] or ["chol", "band", "chol_solonly", "band_select"]
if "chol" in which:
    for bi in (False, True):
        md, od = chol(bi, "Diet"); mr, orf = chol(bi, "ref")
        print("chol  %-28s Diet %.3f ms  ref %.3f ms  Diet/ref %.2f  max|Diet-ref| %.2g" % ("sol[b,i], L[b,i,j] (b inner)" if bi else "sol[i,b], L[i,j,b] (spec)", md, mr, md / mr, np.max(np.abs(od - orf))), flush=True)
if "band" in which:
    for ii in (False, True):
        md, od = band(ii, "Diet"); mr, orf = band(ii, "ref")
        print("band  %-28s Diet %.3f ms  ref %.3f ms  Diet/ref %.2f  max|Diet-ref| %.2g" % ("y[i,b], x[j,b] (i inner)" if ii else "y[b,i], x[b,j] (spec)", md, mr, md / mr, np.max(np.abs(od - orf))), flush=True)
if "chol_solonly" in which:
    md, od = chol(False, "Diet", False); mr, orf = chol(False, "ref", False)
    print("chol  %-28s Diet %.3f ms  ref %.3f ms  Diet/ref %.2f  max|Diet-ref| %.2g" % ("sol[i,b] only (no L output)", md, mr, md / mr, np.max(np.abs(od - orf))), flush=True)
if "band_select" in which:
    for ii in (False, True):
        md, od = band(ii, "Diet", False); mr, orf = band(ii, "ref", False)
        print("band  %-28s Diet %.3f ms  ref %.3f ms  Diet/ref %.2f  max|Diet-ref| %.2g" % (("y[i,b]" if ii else "y[b,i]") + " select, no where()", md, mr, md / mr, np.max(np.abs(od - orf))), flush=True)
