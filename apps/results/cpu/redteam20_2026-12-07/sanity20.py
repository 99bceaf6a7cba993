"""numpy checks of the round-20 unscheduled references (compute_root 'ref') at one small odd shape per pipeline.
usage: rt20.py r11 ../redteam20_2026-12-07/sanity20.py [name-prefix ...]  (chk() is round 18's sanity18.chk)"""
import sys, math
import numpy as np, halide as hl
import run11
ro = run11.run_one
P = run11.pipes11


def chk(name, v, fn, tol=0.0):
    spec = [s for n, s in P.SPECS.items() if n.startswith(name)][0]
    T = hl.Target(P.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    _, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    got = [np.asarray(b).copy() for b in bufs]
    data = spec['data'](v, np.random.default_rng(7))
    want = fn(v, *[np.asarray(d) for d in data])
    msgs, ok = [], True
    for k, (g, w) in enumerate(zip(got, want)):
        if w is None:
            continue
        w = np.asarray(w)
        if g.shape != w.shape:
            ok = False; msgs.append("out%d shape %s vs %s" % (k, g.shape, w.shape)); continue
        err = float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))) if g.size else 0.0
        sc = 1 + float(np.max(np.abs(w))) if w.size else 1
        good = err <= tol * sc
        ok &= good
        msgs.append("out%d err %.3g" % (k, err))
    print("%s %s %s %s" % ("OK " if ok else "BAD", name, v, "; ".join(msgs)), flush=True)




E = np.einsum
I64 = lambda a: np.asarray(a).astype(np.int64)


def gemm_nn(v, A, B, bias):
    return [bias[:, None] + E('ki,jk->ji', A.astype(np.float64), B)]


def gemm_nt(v, A, Bt):
    return [E('ki,kj->ji', I64(A), I64(Bt))]


def gemm_tn(v, At, B):
    return [1000 + E('ik,jk->ji', I64(At), I64(B))]


def bmm_tt(v, A, B):
    return [E('ikb,kjb->jib', A.astype(np.float64), B)]


def gemm_beta(v, C, A, B):
    o = (v['BE'] / 4 - 1) * C + (v['AL'] / 4) * E('kib,jkb->jib', A, B)
    return [o, np.sqrt((o * o).sum(0))]


def bmm_np(v, A, B):
    return [E('bik,bkj->bij', A.astype(np.float64), B)]


def conv(v, inp, w, bias):
    W, H, KS = v['W'], v['H'], v['KS']
    o = np.zeros((W, H, v['CO'])) + bias[None, None, :]
    for kx in range(KS):
        for ky in range(KS):
            o += E('xyc,cd->xyd', inp[kx:kx + W, ky:ky + H, :].astype(np.float64), w[kx, ky])
    return [o]


def qconv(v, inp, w, bias):
    W, H, KS = v['W'], v['H'], v['KS']
    o = np.zeros((v['CO'], W, H), np.int64) + I64(bias)[:, None, None]
    x = I64(inp) - v['ZP']
    for kx in range(KS):
        for ky in range(KS):
            o += E('cxy,cd->dxy', x[:, kx:kx + W, ky:ky + H], I64(w[:, kx, ky, :]))
    return [o]


def causal_pv(v, P, Vv):
    T = v['T']
    m = (np.arange(T)[:, None] <= np.arange(T)[None, :] + v['OFF'])  # [k, i]
    return [E('ki,dk->di', np.where(m, P, 0).astype(np.float64), Vv)]


def rnn(v, X, Wx, Hh, Wh, b):
    return [b[:, None] + E('ki,jk->ji', X.astype(np.float64), Wx) + E('ki,jk->ji', Hh.astype(np.float64), Wh)]


def cgemm(v, Ar, Ai, Br, Bi):
    A = (Ar + 1j * Ai).astype(np.complex128); B = (Br + 1j * Bi).astype(np.complex128)
    o = E('ki,jk->ji', A, B)
    return [o.real, o.imag]


def minmax(v, A, B):
    A = I64(A); B = I64(B)
    d = np.minimum((A[:, None, :] + B.T[:, :, None]).min(0), 1 << 28)  # [k, j, i]
    bn = np.maximum(np.minimum(A[:, None, :], B.T[:, :, None]).max(0), -(1 << 28))
    return [d, bn]


def logits(v, X, W):
    lg = E('ki,jk->ji', X.astype(np.float64), W)
    ex = np.exp(lg - lg.max(0)[None])
    return [lg, ex / ex.sum(0)[None]]


def bilinear(v, x, W, y):
    return [E('ib,ijo,jb->ob', x.astype(np.float64), W, y)]


def einsum4(v, A, B):
    return [E('pqrsi,pqrsj->ij', I64(A), I64(B))]


def polyfir(v, x, h):
    N, D, T = v['N'], v['D'], v['T']
    acc = np.array([sum(int(h[r]) * int(x[n * D + r]) for r in range(T)) for n in range(N)], np.int64)
    return [acc, np.clip(acc >> v['SH'], -32768, 32767)]


def autocorr(v, x):
    T, L = v['T'], v['L']
    x = I64(x)
    return [np.array([[(x[:T - l, b] * x[l:T, b]).sum() if l < T else 0 for b in range(x.shape[1])] for l in range(L)])]


def gray_scott(v, u, w):
    u = u.astype(np.float32); w = w.astype(np.float32)
    f = np.float32(v['FE'] / 1000); k = np.float32(v['KL'] / 1000)
    lap = lambda a: np.roll(a, 1, 0) + np.roll(a, -1, 0) + np.roll(a, 1, 1) + np.roll(a, -1, 1) - 4 * a
    for s in range(3):
        uvv = u * w * w
        u, w = u + (0.16 * lap(u) - uvv + f * (1 - u)), w + (0.08 * lap(w) + uvv - (f + k) * w)
    return [u, w]


def lrn(v, x):
    R = v['R']; C = x.shape[2]
    x = x.astype(np.float64)
    pad = np.zeros(x.shape[:2] + (C + 2 * R,) + x.shape[3:]); pad[:, :, R:R + C] = x
    s = sum(pad[:, :, d:d + C] ** 2 for d in range(2 * R + 1))
    return [x / (2 + 1e-4 / (2 * R + 1) * s) ** 0.75]


def palette(v, img, pal):
    d = ((I64(img)[:, :, :, None] - I64(pal)[:, None, None, :]) ** 2).sum(0)  # [x, y, p]
    idx = d.argmin(2)
    return [idx, pal[:, idx]]


def dob(v, img):
    W, H, R, TH = v['W'], v['H'], v['R'], v['TH']
    def mir(i, n):  # Halide mirror_image
        i = np.mod(i, 2 * n)
        return np.where(i < n, i, 2 * n - 1 - i)
    im = I64(img)
    g = lambda dx, dy: im[mir(np.arange(W) + dx, W)][:, mir(np.arange(H) + dy, H)]
    b3 = sum(g(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    br = sum(g(dx, dy) for dx in range(-R, R + 1) for dy in range(-R, R + 1))
    n2 = (2 * R + 1) ** 2
    d = (9 * br - n2 * b3) // (9 * n2)
    return [np.where(d < -TH, 0, np.where(d > TH, 255, 128 + (127 * d) // TH))]


def lbm(v, f):
    import pipes20
    c = np.array(pipes20.LBM_C); wq = np.array(pipes20.LBM_W)
    f = f.astype(np.float64)
    rho = f.sum(0); ux = (f * c[:, 0, None, None]).sum(0) / rho; uy = (f * c[:, 1, None, None]).sum(0) / rho
    cu = 3 * (c[:, 0, None, None] * ux + c[:, 1, None, None] * uy)
    feq = wq[:, None, None] * rho * (1 + cu + 0.5 * cu * cu - 1.5 * (ux * ux + uy * uy))
    post = f + v['OM'] / 10 * (feq - f)
    out = np.stack([np.roll(np.roll(post[q], c[q, 0], 0), c[q, 1], 1) for q in range(9)])
    return [out, rho]


CHECKS = [("gemm_nn", dict(M=7, N=9, K=11), gemm_nn, 1e-5), ("gemm_nt", dict(M=7, N=9, K=13), gemm_nt, 0),
          ("gemm_tn", dict(M=5, N=11, K=17), gemm_tn, 0), ("bmm_tt", dict(NB=3, M=5, N=7, K=9), bmm_tt, 1e-5),
          ("gemm_beta", dict(NB=2, M=5, N=7, K=9, AL=3, BE=1), gemm_beta, 1e-10), ("bmm_numpy", dict(NB=3, M=5, N=7, K=9), bmm_np, 1e-5),
          ("conv2d_valid", dict(W=7, H=5, CI=3, CO=4, KS=3), conv, 1e-5), ("qconv", dict(W=7, H=5, CI=3, CO=4, KS=3, ZP=77), qconv, 0),
          ("causal_pv", dict(T=11, D=5, OFF=2), causal_pv, 1e-5), ("rnn_pre", dict(M=5, N=7, KX=3, KH=9), rnn, 1e-5),
          ("complex_gemm", dict(M=5, N=7, K=9), cgemm, 1e-5), ("minplus_and", dict(M=5, N=7, K=9), minmax, 0),
          ("logits", dict(M=5, N=7, K=9), logits, 1e-5), ("bilinear", dict(NB=3, I=5, J=7, O=4), bilinear, 1e-5),
          ("einsum_pqrs", dict(P=2, Q=3, R=1, S=3, M=5, N=7), einsum4, 0), ("polyphase", dict(N=37, D=3, T=7, SH=5), polyfir, 0),
          ("autocorr", dict(T=13, L=17, NB=3), autocorr, 0), ("gray_scott", dict(W=9, H=7, FE=37, KL=61), gray_scott, 1e-5),
          ("lrn", dict(W=5, H=3, C=7, NB=2, R=2), lrn, 1e-5), ("palette", dict(W=9, H=7, P=5), palette, 0),
          ("difference_of_boxes", dict(W=11, H=9, R=2, TH=7), dob, 0), ("difference_of_boxes", dict(W=3, H=2, R=4, TH=1), dob, 0),
          ("lattice", dict(W=7, H=5, OM=13), lbm, 1e-5)]
sel = sys.argv[1:]
for name, v, fn, tol in CHECKS:
    if sel and not any(name.startswith(s) for s in sel):
        continue
    try:
        chk(name, v, fn, tol)
    except Exception as e:
        import traceback; traceback.print_exc()
        print("EXC", name, str(e)[-300:], flush=True)
