"""numpy checks of the round-18 unscheduled references (compute_root 'ref') at one small odd shape per pipeline.
usage: rt18.py r11 ../redteam18_2026-12-06/sanity18.py [name-prefix ...]"""
import sys
import numpy as np, halide as hl
import run11
ro, run6 = run11.run_one, run11.run9.run6
P = run11.pipes11


def chk(name, v, fn, tol=0.0):
    spec = [s for n, s in P.SPECS.items() if n.startswith(name)][0]
    T = hl.Target(P.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    _, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    got = [np.asarray(b).copy() for b in bufs]
    data = spec['data'](v, np.random.default_rng(7))
    want = fn(v, *[np.asarray(d) for d in data])
    msgs = []
    ok = True
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        if w is None:
            continue
        if g.shape != w.shape:
            ok = False; msgs.append("out%d shape %s vs %s" % (k, g.shape, w.shape)); continue
        err = float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))) if g.size else 0.0
        sc = 1 + float(np.max(np.abs(w))) if w.size else 1
        good = err <= tol * sc
        ok &= good
        msgs.append("out%d err %.3g" % (k, err))
    print("%s %s %s %s" % ("OK " if ok else "BAD", name, v, "; ".join(msgs)), flush=True)


def dct(v, im, cb):
    W, H = im.shape
    s = im.astype(np.int64) - 128; cb = cb.astype(np.int64)
    rows = np.zeros((W, H), np.int64); cols = np.zeros((W, H), np.int64)
    for x in range(W):
        rows[x] = (sum(cb[x % 8, k] * s[(x // 8) * 8 + k] for k in range(8)) + 2048) >> 12
    for y in range(H):
        cols[:, y] = (2048 + sum(cb[y % 8, k] * rows[:, (y // 8) * 8 + k] for k in range(8))) >> 12
    q = 1 + (np.arange(W)[:, None] % 8 + np.arange(H)[None] % 8) * v['Q']
    out = np.where(cols >= 0, (cols + q // 2) // q, -((-cols + q // 2) // q))
    return [out]


def census(v, L, R):
    W, H = L.shape
    def cen(a):
        e = np.pad(a.astype(np.int32), 2, mode='reflect'); c = np.zeros((W, H), np.uint64)
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if dx or dy:
                    c = (c << np.uint64(1)) | (e[2 + dx:2 + dx + W, 2 + dy:2 + dy + H] < a).astype(np.uint64)
        return c.astype(np.uint32)
    cl, cr = cen(L), cen(R)
    pc = np.vectorize(lambda z: bin(int(z)).count("1"))
    cost = np.stack([pc(cl ^ cr[np.clip(np.arange(W) - d, 0, W - 1)]) for d in range(v['ND'])], 0)
    return [np.argmin(cost, 0), cl]


def nv12(v, Y, UV):
    W, H = Y.shape
    C = 298 * (Y.astype(np.int32) - 16)
    xs = (np.arange(W) // 2) * 2; ys = np.arange(H) // 2
    Dd = UV[xs][:, ys].astype(np.int32) - 128; Ee = UV[xs + 1][:, ys].astype(np.int32) - 128
    return [np.clip(np.stack([(C + 409 * Ee + 128) >> 8, (C - 100 * Dd - 208 * Ee + 128) >> 8, (C + 516 * Dd + 128) >> 8], 2), 0, 255)]


def ycc(v, im):
    a = im.astype(np.int32)
    Y = ((66 * a[..., 0] + 129 * a[..., 1] + 25 * a[..., 2] + 128) >> 8) + 16
    b = a[0::2, 0::2] + a[1::2, 0::2] + a[0::2, 1::2] + a[1::2, 1::2]
    R_, G_, B_ = b[..., 0], b[..., 1], b[..., 2]
    return [Y, np.clip(((-38 * R_ - 74 * G_ + 112 * B_ + 512) >> 10) + 128, 0, 255), np.clip(((112 * R_ - 94 * G_ - 18 * B_ + 512) >> 10) + 128, 0, 255)]


def yin(v, sig):
    N, HOP, TM, NF = v['N'], v['HOP'], v['TMAX'], v['NF']
    x = sig.astype(np.float64)
    d = np.array([[np.sum((x[f * HOP:f * HOP + N] - x[f * HOP + t:f * HOP + t + N]) ** 2) for f in range(NF)] for t in range(TM)])
    cs = np.cumsum(d, 0)
    tau = np.arange(TM)[:, None]
    dn = np.where(tau == 0, 1.0, d * tau / np.maximum(cs, 1e-6)).astype(np.float32)
    thr = np.float32(v['THR']) * np.float32(0.01)
    per = np.array([min([t for t in range(2, TM) if dn[t, f] < thr] + [TM]) for f in range(NF)])
    return [dn, per]


def lif(v, I):
    N, T = I.shape
    vv = np.zeros((N, T), np.int64); vv[:, 0] = I[:, 0]
    for t in range(1, T):
        p = vv[:, t - 1]; vv[:, t] = np.where(p >= v['THR'], 0, ((p * v['DECAY']) >> 8) + I[:, t])
    sp = (vv >= v['THR']).astype(np.uint8)
    return [sp, sp.sum(1)]


def ola(v, fr):
    N, Fn = fr.shape; HOP = v['HOP']
    w = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N) / N))
    L = (Fn - 1) * HOP + N; num = np.zeros(L); den = np.zeros(L)
    for f in range(Fn):
        num[f * HOP:f * HOP + N] += fr[:, f] * w; den[f * HOP:f * HOP + N] += w * w
    return [num / np.maximum(den, 1e-3)]


def emax(v, px):
    T, NS = px.shape
    def ema(P):
        a = 65536 // (P + 1); e = np.zeros((T, NS), np.int64); e[0] = px[0].astype(np.int64) << 15
        for t in range(1, T):
            e[t] = e[t - 1] + (((px[t].astype(np.int64) << 15) - e[t - 1]) >> 15) * a
        return e
    sg = (ema(v['FAST']) > ema(v['SLOW'])).astype(np.uint8)
    return [sg, (sg[1:] != sg[:-1]).sum(0)]


def mdd(v, p):
    cm = np.maximum.accumulate(p, 1)
    dd = (cm - p) / cm
    return [dd, np.argmax(dd, 1), dd.max(1)]


def gru(v, x, h, W, U, bx, bh):
    H = v['H']; gx = W @ x + bx[:, None]; gh = U @ h + bh[:, None]
    sg = lambda e: 1 / (1 + np.exp(-e))
    r = sg(gx[:H] + gh[:H]); z = sg(gx[H:2 * H] + gh[H:2 * H]); n = np.tanh(gx[2 * H:] + r * gh[2 * H:])
    return [(1 - z) * n + z * h]


def maxpool(v, im):
    C, W2, H2, N = im.shape; OW, OH = W2 // 2, H2 // 2
    blk = im.reshape(C, OW, 2, OH, 2, N).transpose(0, 1, 3, 5, 4, 2).reshape(C, OW, OH, N, 4)  # tap = dy*2+dx
    a = np.argmax(blk, -1); dy, dx = a // 2, a % 2
    xs = np.arange(OW)[None, :, None, None]; ys = np.arange(OH)[None, None, :, None]
    return [blk.max(-1), (2 * ys + dy) * (2 * OW) + 2 * xs + dx]


def inv3(v, A):
    return [np.linalg.inv(A), np.linalg.det(A)]


def bandmv(v, ab, x):
    KL, KU = v['KL'], v['KU']; N = ab.shape[1]
    A = np.zeros((N, N))
    for i in range(N):
        for j in range(max(0, i - KL), min(N, i + KU + 1)):
            A[i, j] = ab[KU + i - j, j]
    return [(A @ x.T).T]


def horner(v, t, c):
    P = np.polynomial.polynomial
    return [P.polyval(t, c), P.polyval(t, P.polyder(c))]


def chol(v, A, rhs):
    Am = np.transpose(A, (2, 0, 1)); L = np.linalg.cholesky(Am)
    return [np.linalg.solve(Am, rhs.T[..., None])[..., 0].T, np.transpose(L, (1, 2, 0))]


def power(v, A, v0):
    M = A.T.astype(np.float64); x = v0.astype(np.float64)
    for _ in range(3):
        w = M @ x; x = w / np.linalg.norm(w)
    return [x, x @ M @ x]


def zscore(v, X):
    m = X.mean(0); sd = X.std(0)
    z = np.clip((X - m) / sd, -4, 4).astype(np.float32)
    return [z, np.round(z * np.float32(31.75))]


def bucket(v, vals, edges):
    K = v['K']; b = np.searchsorted(edges, vals, side='right')
    cnt = np.bincount(b, minlength=K + 1); s = np.bincount(b, weights=vals, minlength=K + 1)
    return [b, cnt, np.where(cnt > 0, s / np.maximum(cnt, 1), 0)]


def bitplane(v, im):
    g = im ^ (im >> 1); NB = v['NB']
    pl = np.stack([((g >> (15 - b)) & 1) * 255 for b in range(NB)], 2)
    pc = np.vectorize(lambda z: bin(int(z)).count("1"))
    return [pl, (pl > 0).sum((0, 1)), pc(im).sum(0)]


def jhist(v, im):
    NB = v['NB']; b = (im.astype(np.int32) * NB) >> 8
    h = np.zeros((NB, NB, NB), np.int64); np.add.at(h, (b[0].ravel(), b[1].ravel(), b[2].ravel()), 1)
    p = h[h > 0] / (im.shape[1] * im.shape[2])
    return [h, -(p * np.log2(p)).sum()]


def attnpool(v, x, w):
    s = np.einsum('dtb,d->tb', x, w) / np.sqrt(v['D']); e = np.exp(s - s.max(0)); p = e / e.sum(0)
    return [np.einsum('tb,dtb->db', p, x), p]


def gridsample(v, im, th):
    W, H, C, N = im.shape; out = np.zeros_like(im, dtype=np.float64)
    xn = (2 * np.arange(W)[:, None] + 1) / W - 1; yn = (2 * np.arange(H)[None] + 1) / H - 1
    for n in range(N):
        gx = th[0, n] * xn + th[1, n] * yn + th[2, n]; gy = th[3, n] * xn + th[4, n] * yn + th[5, n]
        px = ((gx + 1) * W - 1) / 2; py = ((gy + 1) * H - 1) / 2
        x0 = np.floor(px).astype(int); y0 = np.floor(py).astype(int); fx = px - x0; fy = py - y0
        for ddx, ddy, wt in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
            xi, yi = x0 + ddx, y0 + ddy; ok = (xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)
            out[:, :, :, n] += (np.where(ok, wt, 0)[..., None] * im[np.clip(xi, 0, W - 1), np.clip(yi, 0, H - 1), :, n])
    return [out]


def lcn(v, im):
    W, H, C = im.shape; R = v['R']; sg = R * 0.5 + 0.5
    w = np.exp(-np.arange(-R, R + 1) ** 2 / (2 * sg * sg)); w /= w.sum()
    def conv(a):  # sum over c and the separable gaussian, zero padded
        P = np.pad(a.sum(2), R); t = sum(w[i] * P[i:i + W, :] for i in range(2 * R + 1)); return sum(w[i] * t[:, i:i + H] for i in range(2 * R + 1))
    m = conv(im) / C; vv = im - m[..., None]; sig = np.sqrt(conv(vv * vv))
    return [vv / np.maximum(np.maximum(sig.mean(), sig), 1e-4)[..., None]]


CHECKS = [("dct8x8", dict(BX=3, BY=2, Q=5), dct, 0), ("census5x5", dict(W=23, H=11, ND=9), census, 0), ("nv12", dict(CW=7, CH=5), nv12, 0),
          ("rgb_planar_to_ycbcr420", dict(CW=7, CH=5), ycc, 0), ("yin", dict(NF=5, N=40, TMAX=20, HOP=17, THR=30), yin, 1e-6),
          ("lif", dict(N=33, T=50, DECAY=200, THR=100), lif, 0), ("istft", dict(N=32, F=5, HOP=12), ola, 1e-5),
          ("ema_crossover", dict(T=200, NS=3, FAST=5, SLOW=20), emax, 0), ("max_drawdown", dict(NS=5, T=100), mdd, 1e-6),
          ("gru", dict(I=13, H=9, B=3), gru, 1e-5), ("maxpool2x2", dict(C=3, OW=5, OH=4, N=2), maxpool, 0),
          ("inverse3x3", dict(B=17), inv3, 1e-10), ("banded_matvec", dict(N=37, KL=2, KU=3, NRHS=2), bandmv, 1e-5),
          ("horner", dict(N=50, DEG=7), horner, 1e-12), ("cholesky4x4", dict(B=9), chol, 1e-10), ("power_iteration", dict(N=31), power, 1e-4),
          ("column_zscore", dict(R=101, C=3), zscore, 1e-5), ("bucketize", dict(N=300, K=7), bucket, 1e-5),
          ("bitplane", dict(W=13, H=7, NB=5), bitplane, 0), ("joint_rgb", dict(W=13, H=7, NB=5), jhist, 1e-5),
          ("attention_pooling", dict(D=9, T=11, B=2), attnpool, 1e-5), ("grid_sample", dict(W=11, H=7, C=2, N=2), gridsample, 1e-4),
          ("local_contrast", dict(W=13, H=9, C=3, R=2), lcn, 1e-4)]
sel = sys.argv[1:]
for name, v, fn, tol in CHECKS:
    if sel and not any(name.startswith(s) for s in sel):
        continue
    try:
        chk(name, v, fn, tol)
    except Exception as e:
        print("EXC", name, str(e)[-300:], flush=True)
