"""sanity of round-17 references (compute_root 'ref' builds, no scheduler) against numpy. Prints max errors / equality.
usage: /usr/bin/python3 sanity17.py [prefix...]"""
import sys, os, math, numpy as np, halide as hl
here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here)
import pipes17
sys.modules['pipes11'] = pipes17
sys.path.insert(1, os.path.join(here, "..", "redteam11_2026-12-02"))
import run11
ro = run11.run_one
N = list(pipes17.SPECS)
only = sys.argv[1:]


def ref(prefix, v):
    name = [k for k in N if k.startswith(prefix)][0]
    spec = pipes17.SPECS[name]; T = hl.Target(pipes17.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    data, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    return data, [np.asarray(b).copy() for b in bufs]


def err(a, b): return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def rel(a, b): return err(a, b) / (1 + float(np.abs(np.asarray(a, np.float64)).max()))


def show(prefix, *msg): print("%-14s" % prefix, *msg, flush=True)


def want(prefix):
    return not only or any(prefix.startswith(o) for o in only)


if want("kuwahara"):
    W, H, R = 19, 13, 2
    d, o = ref("kuwahara", dict(W=W, H=H, R=R)); im = d[0].astype(np.int64)
    P = np.pad(im, R, mode='symmetric'); n = (R + 1) ** 2; out = np.zeros((W, H), np.int64)
    for x in range(W):
        for y in range(H):
            best = None
            for q in range(4):
                ox = (q % 2) * R - R; oy = (q // 2) * R - R
                blk = P[R + x + ox:R + x + ox + R + 1, R + y + oy:R + y + oy + R + 1]
                s = blk.sum(); s2 = (blk * blk).sum(); var = n * s2 - s * s
                if best is None or var < best[0]:
                    best = (var, s)
            out[x, y] = (best[1] + n // 2) // n
    show("kuwahara", "equal", np.array_equal(out, o[0]))

if want("perona"):
    W, H, KAP = 23, 17, 10
    d, o = ref("perona", dict(W=W, H=H, KAP=KAP)); u = d[0].astype(np.float64); k = KAP * 0.01
    for it in range(4):
        P = np.pad(u, 1, mode='edge')
        de = P[2:, 1:-1] - P[1:-1, 1:-1]; fe = np.exp(-(de / k) ** 2) * de
        ds = P[1:-1, 2:] - P[1:-1, 1:-1]; fs = np.exp(-(ds / k) ** 2) * ds
        fe_m = np.concatenate([np.zeros((1, H)), fe[:-1]], 0); fs_m = np.concatenate([np.zeros((W, 1)), fs[:, :-1]], 1)
        u = u + 0.2 * (fe - fe_m + fs - fs_m)
    show("perona", "err", err(u, o[0]))

if want("seam"):
    W, H = 21, 15
    d, o = ref("seam", dict(W=W, H=H)); im = d[0].astype(np.int64); P = np.pad(im, 1, mode='edge')
    en = np.abs(P[2:, 1:-1] - P[:-2, 1:-1]) + np.abs(P[1:-1, 2:] - P[1:-1, :-2])
    M = en.copy()
    for y in range(1, H):
        for x in range(W):
            M[x, y] = en[x, y] + min(M[max(x - 1, 0), y - 1], M[x, y - 1], M[min(x + 1, W - 1), y - 1])
    sm = np.zeros(H, np.int64); sm[H - 1] = int(np.argmin(M[:, H - 1]))
    for y in range(H - 2, -1, -1):
        p = sm[y + 1]; c = [max(p - 1, 0), p, min(p + 1, W - 1)]; m = [M[i, y] for i in c]
        sm[y] = c[0] if (m[0] <= m[1] and m[0] <= m[2]) else (c[1] if m[1] <= m[2] else c[2])
    show("seam", "M equal", np.array_equal(M, o[0]), "seam equal", np.array_equal(sm, o[1]))

if want("dog"):
    W, H, S0, THR = 60, 51, 12, 3
    d, o = ref("dog", dict(W=W, H=H, S0=S0, THR=THR)); im = d[0].astype(np.float64)
    P = np.pad(im, 6, mode='symmetric'); g = []
    for s in range(4):
        sig = S0 * 0.1 * 2 ** (s / 3.0); w = np.exp(-np.arange(-6, 7) ** 2 / (2 * sig * sig)); w /= w.sum()
        gx = sum(w[i] * P[i:i + W, :] for i in range(13)); g.append(sum(w[i] * gx[:, i:i + H] for i in range(13)))
    dog = [g[s + 1] - g[s] for s in range(3)]
    mask = np.zeros((W, H), np.uint8)
    for x in range(1, W - 1):
        for y in range(1, H - 1):
            v = dog[1][x, y]; nb = [dog[s][x + a, y + b] for s in range(3) for b in (-1, 0, 1) for a in (-1, 0, 1) if not (s == 1 and a == 0 and b == 0)]
            if (v > max(nb) or v < min(nb)) and abs(v) > THR * 0.001:
                mask[x, y] = 255
    show("dog", "mask ndiff", int((mask != o[0]).sum()), "count", int(o[1]), "np count", int((mask > 0).sum()))

if want("bilateral"):
    W, H, R, SR = 23, 17, 3, 20
    d, o = ref("bilateral", dict(W=W, H=H, R=R, SR=SR)); im = d[0].astype(np.float64)
    ss = R * 0.5; sr = SR * 0.01

    def bp(a, ax):
        P = np.pad(a, R, mode='symmetric'); num = np.zeros_like(a); den = np.zeros_like(a)
        c = P[R:R + W, R:R + H]
        for i in range(-R, R + 1):
            nbv = P[R + i:R + i + W, R:R + H] if ax == 0 else P[R:R + W, R + i:R + i + H]
            w = np.exp(-i * i / (2 * ss * ss) - (nbv - c) ** 2 / (2 * sr * sr)); num += w * nbv; den += w
        return num / den
    show("bilateral", "err", err(bp(bp(im, 0), 1), o[0]))

if want("ordered"):
    W, H, L = 19, 11, 5
    d, o = ref("ordered", dict(W=W, H=H, L=L)); im = d[0].astype(np.int64); B = pipes17.bayer8()
    b = B[np.arange(W)[:, None] & 7, np.arange(H)[None, :] & 7]
    q = np.minimum((im * (L - 1) * 128 + (2 * b[None] + 1) * 255) // (255 * 128), L - 1)
    out = (q * 255 + (L - 1) // 2) // (L - 1); idx = q[0] * L * L + q[1] * L + q[2]
    show("ordered", "out equal", np.array_equal(out, o[0]), "index equal", np.array_equal(idx, o[1]), "levels", sorted(set(out.ravel()))[:6])

if want("hough"):
    W, H, NT, THR = 37, 23, 30, 200
    d, o = ref("hough", dict(W=W, H=H, NT=NT, THR=THR)); im, trig = d[0], d[1].astype(np.int64)
    NR = 2 * (W + H) + 1; acc = np.zeros((NR, NT), np.int64)
    xs, ys = np.nonzero(im >= THR)
    for t in range(NT):
        rr = ((xs * trig[0, t] + ys * trig[1, t]) >> 10) + W + H
        np.add.at(acc[:, t], np.clip(rr, 0, NR - 1), 1)
    k = int(np.argmax(acc.T.ravel())); tt, rh = divmod(k, NR)
    show("hough", "acc equal", np.array_equal(acc, o[0]), "peak", list(o[1]), "np", [rh, tt, int(acc[rh, tt])], "edges", len(xs))

if want("exact_edt"):
    W, H = 29, 21
    d, o = ref("exact_edt", dict(W=W, H=H)); m = d[0]; INF = W + H
    g = np.where(m != 0, 0, INF).astype(np.int64)
    for y in range(1, H):
        g[:, y] = np.where(m[:, y] != 0, 0, g[:, y - 1] + 1)
    for y in range(H - 2, -1, -1):
        g[:, y] = np.minimum(g[:, y], g[:, y + 1] + 1)
    xs = np.arange(W)
    dt = np.min((xs[:, None, None] - xs[None, :, None]) ** 2 + g[None, :, :] ** 2, axis=1)
    # brute force true EDT where features exist
    fx, fy = np.nonzero(m)
    if len(fx):
        bf = np.min((xs[:, None, None] - fx[None, None, :]) ** 2 + (np.arange(H)[None, :, None] - fy[None, None, :]) ** 2, axis=2)
        show("exact_edt", "equal", np.array_equal(dt, o[0]), "== brute-force EDT", np.array_equal(bf, o[0]), "features", len(fx))
    else:
        show("exact_edt", "equal", np.array_equal(dt, o[0]))

if want("run_length"):
    W, H = 53, 7
    d, o = ref("run_length", dict(W=W, H=H)); c = d[0]
    rid = np.zeros((W, H), np.int64); ln = np.zeros((W, H), np.int64); nr = np.zeros(H, np.int64)
    for y in range(H):
        starts = [0] + [x for x in range(1, W) if c[x, y] != c[x - 1, y]]; ends = starts[1:] + [W]
        for k, (s, e) in enumerate(zip(starts, ends)):
            rid[s:e, y] = k + 1; ln[s:e, y] = e - s
        nr[y] = len(starts)
    show("run_length", "id", np.array_equal(rid, o[0]), "len", np.array_equal(ln, o[1]), "nruns", np.array_equal(nr, o[2]))

if want("lpc"):
    NF, Nn, HOP = 5, 64, 20
    d, o = ref("lpc", dict(NF=NF, N=Nn, HOP=HOP)); sig = d[0].astype(np.float64)
    win = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(Nn) / (Nn - 1)); A = np.zeros((9, NF)); Er = np.zeros(NF)
    for f in range(NF):
        xw = sig[f * HOP:f * HOP + Nn] * win; r = np.array([np.dot(xw[:Nn - k], xw[k:]) for k in range(9)])
        e = r[0] * (1 + 1e-9) + 1e-12; a = np.zeros(9); a[0] = 1
        for m in range(1, 9):
            k = -(r[m] + sum(a[j] * r[m - j] for j in range(1, m))) / e
            an = a.copy(); an[m] = k
            for i in range(1, m):
                an[i] = a[i] + k * a[m - i]
            a = an; e = e * (1 - k * k)
        A[:, f] = a; Er[f] = e
    # check: the LPC coefficients solve the normal equations (Toeplitz)
    show("lpc", "a err", err(A, o[0]), "err err", rel(Er, o[1]))

if want("compressor"):
    C, T, THR, RAT = 2, 3000, -20, 4
    d, o = ref("compressor", dict(C=C, T=T, THR=THR, RAT=RAT)); x = d[0].astype(np.float32)
    det = np.abs(x).max(0); env = np.zeros(T, np.float32); prev = np.float32(0)
    for t in range(T):
        a = np.float32(0.3) if det[t] > prev else np.float32(0.002)
        prev = np.float32(prev + a * (det[t] - prev)); env[t] = prev
    g = np.minimum(0, (THR - 20 * np.log10(np.maximum(env.astype(np.float64), 1e-6))) * (1 - 1.0 / RAT))
    out = x * 10 ** (g / 20)
    show("compressor", "err", err(out, o[0]), "min gain dB", float(g.min()))

if want("savitzky"):
    NB, T, M = 3, 50, 4
    d, o = ref("savitzky", dict(NB=NB, T=T, M=M)); x = d[0].astype(np.float64)
    i = np.arange(-M, M + 1); Vd = np.vander(i, 3, increasing=True); Pinv = np.linalg.pinv(Vd)  # rows: c0 (smooth), c1 (deriv)
    cs, cd = Pinv[0], Pinv[1]
    cs_f = 3 * (3 * M * M + 3 * M - 1 - 5 * i * i) / ((4 * M * M - 1) * (2 * M + 3)); cd_f = 3 * i / (M * (M + 1) * (2 * M + 1))
    P = np.pad(x, ((0, 0), (M, M)), mode='reflect')
    sm = sum(cs[k] * P[:, k:k + T] for k in range(2 * M + 1)); dv = sum(cd[k] * P[:, k:k + T] for k in range(2 * M + 1))
    show("savitzky", "closed form vs lstsq", err(cs, cs_f), err(cd, cd_f), "smooth err", err(sm, o[0]), "deriv err", err(dv, o[1]))

if want("linear_res"):
    NIN, C, NUM, DEN = 101, 2, 7, 3
    d, o = ref("linear_res", dict(NIN=NIN, C=C, NUM=NUM, DEN=DEN)); x = d[0].astype(np.int64)
    NO = ((NIN - 1) * NUM) // DEN + 1; n = np.arange(NO); p = n * DEN; i0 = np.clip(p // NUM, 0, NIN - 1); ph = p % NUM
    out = (x[:, i0] * (NUM - ph) + x[:, np.minimum(i0 + 1, NIN - 1)] * ph + NUM // 2) // NUM
    show("linear_res", "equal", np.array_equal(out, o[0]), "shape", o[0].shape)

if want("group_norm"):
    W, H, G, CPG, Nn = 7, 5, 3, 4, 2
    d, o = ref("group_norm", dict(W=W, H=H, G=G, CPG=CPG, N=Nn)); x, ga, be = [a.astype(np.float64) for a in d]
    xs = x.reshape(W, H, G, CPG, Nn, order='F') if False else None
    out = np.zeros_like(x)
    for g in range(G):
        for n in range(Nn):
            blk = x[:, :, g * CPG:(g + 1) * CPG, n]; mu = blk.mean(); var = blk.var()
            z = (blk - mu) / np.sqrt(var + 1e-5) * ga[g * CPG:(g + 1) * CPG] + be[g * CPG:(g + 1) * CPG]
            out[:, :, g * CPG:(g + 1) * CPG, n] = z / (1 + np.exp(-z))
    show("group_norm", "err", err(out, o[0]))

if want("sinkhorn"):
    Nn, M, EPS = 13, 9, 20
    d, o = ref("sinkhorn", dict(N=Nn, M=M, EPS=EPS)); Cc = d[0].astype(np.float64)
    K = np.exp(-Cc / (EPS * 0.01)); v = np.ones(M)
    for it in range(4):
        u = (1.0 / Nn) / (K @ v); v = (1.0 / M) / (K.T @ u)
    P = u[:, None] * K * v[None, :]
    show("sinkhorn", "plan err", err(P * Nn * M, o[0]), "cost", float(o[1]), "np", float((P * Cc).sum()), "col sums ok", err(P.sum(0), 1.0 / M))

if want("roi_align"):
    CH, FW, FH, NR, PB = 3, 11, 9, 4, 3
    d, o = ref("roi_align", dict(CH=CH, FW=FW, FH=FH, NR=NR, PB=PB)); f, rois = d[0].astype(np.float64), d[1].astype(np.float64)
    out = np.zeros((CH, PB, PB, NR))
    for r in range(NR):
        x0, y0, x1, y1 = rois[:, r]; bw = (x1 - x0) / PB; bh = (y1 - y0) / PB
        for bx in range(PB):
            for by in range(PB):
                acc = np.zeros(CH)
                for sx in range(2):
                    for sy in range(2):
                        px = min(max(x0 + (bx + (sx + 0.5) * 0.5) * bw, 0), FW - 1); py = min(max(y0 + (by + (sy + 0.5) * 0.5) * bh, 0), FH - 1)
                        ix, iy = int(np.floor(px)), int(np.floor(py)); ax, ay = px - ix, py - iy; ix1, iy1 = min(ix + 1, FW - 1), min(iy + 1, FH - 1)
                        acc += (f[:, ix, iy] * (1 - ax) + f[:, ix1, iy] * ax) * (1 - ay) + (f[:, ix, iy1] * (1 - ax) + f[:, ix1, iy1] * ax) * ay
                out[:, bx, by, r] = acc / 4
    show("roi_align", "err", err(out, o[0]))

if want("alibi"):
    Dd, T, NH = 8, 13, 3
    d, o = ref("alibi", dict(D=Dd, T=T, NH=NH)); q, k, v = [a.astype(np.float64) for a in d]
    out = np.zeros((Dd, T, NH))
    for h in range(NH):
        sl = 2.0 ** (-8.0 * (h + 1) / NH)
        s = q[:, :, h].T @ k[:, :, h] / np.sqrt(Dd) - sl * (np.arange(T)[:, None] - np.arange(T)[None, :])  # [i, j]
        s[np.arange(T)[None, :] > np.arange(T)[:, None]] = -np.inf
        p = np.exp(s - s.max(1, keepdims=True)); p /= p.sum(1, keepdims=True)
        out[:, :, h] = (p @ v[:, :, h].T).T
    show("alibi", "err", err(out, o[0]))

if want("weight_standardized"):
    W, H, CI, CO = 7, 6, 3, 4
    d, o = ref("weight_standardized", dict(W=W, H=H, CI=CI, CO=CO)); x, w = [a.astype(np.float64) for a in d]
    mu = w.mean((0, 1, 2)); var = w.var((0, 1, 2)); wn = (w - mu) / np.sqrt(var + 1e-5)
    P = np.pad(x, ((1, 1), (1, 1), (0, 0))); out = np.zeros((W, H, CO))
    for kx in range(3):
        for ky in range(3):
            out += np.einsum('xyc,co->xyo', P[kx:kx + W, ky:ky + H], wn[kx, ky])
    show("weight_standardized", "err", err(np.maximum(out, 0), o[0]))

if want("hashing"):
    L, B, NBK, Dd = 10, 3, 37, 5
    d, o = ref("hashing", dict(L=L, B=B, NBK=NBK, D=Dd)); txt, emb = d[0].astype(np.uint64), d[1].astype(np.float64)
    h = np.full((L - 2, B), 2166136261, np.uint64)
    for k in range(3):
        h = ((h ^ txt[k:k + L - 2]) * np.uint64(16777619)) & np.uint64(0xffffffff)
    bk = (h % np.uint64(NBK)).astype(np.int64)
    bag = np.stack([emb[:, bk[:, b]].sum(1) for b in range(B)], 1); out = bag / np.maximum(np.sqrt((bag ** 2).sum(0)), 1e-6)
    show("hashing", "buckets equal", np.array_equal(bk, o[0]), "bag err", err(out, o[1]))

if want("cosine"):
    Dd, Nn, M = 6, 11, 17
    d, o = ref("cosine", dict(D=Dd, N=Nn, M=M)); A, B = [a.astype(np.float32) for a in d]
    na = np.sqrt((A * A).sum(0)); nb = np.sqrt((B * B).sum(0))
    sim = (B.T @ A) / (nb[:, None] * na[None, :] + np.float32(1e-8))
    show("cosine", "sim err", err(sim, o[0]), "argmax equal", np.array_equal(np.argmax(o[0], 0), o[1]), "np argmax equal", np.array_equal(np.argmax(sim, 0), o[1]))

if want("nbody"):
    Nn, DT = 17, 10
    d, o = ref("nbody", dict(N=Nn, DT=DT)); p, v = [a.astype(np.float64) for a in d]; dt = DT * 0.001
    dx = p[:3, None, :] - p[:3, :, None]; r2 = (dx ** 2).sum(0) + 0.01; s = p[3][None, :] / (r2 * np.sqrt(r2))
    a = (dx * s[None]).sum(2); vn = v + dt * a; pn = p.copy(); pn[:3] += dt * vn
    show("nbody", "pos err", err(pn, o[0]), "vel err", err(vn, o[1]))

if want("red_black"):
    W, H = 9, 7
    d, o = ref("red_black", dict(W=W, H=H)); u, f = d[0].copy(), d[1]
    for hs in range(4):
        P = np.pad(u, 1); nb = P[:-2, 1:-1] + P[2:, 1:-1] + P[1:-1, :-2] + P[1:-1, 2:]
        par = (np.arange(W)[:, None] + np.arange(H)[None, :]) % 2 == hs % 2
        u = np.where(par, 0.25 * (nb + f), u)
    P = np.pad(u, 1); res = f + P[:-2, 1:-1] + P[2:, 1:-1] + P[1:-1, :-2] + P[1:-1, 2:] - 4 * u
    # a true Gauss-Seidel sweep in red-black order for comparison
    show("red_black", "u err", err(u, o[0]), "resid", float(o[1]), "np", float(np.abs(res).max()))

if want("game_of_life"):
    W, H = 17, 13
    d, o = ref("game_of_life", dict(W=W, H=H)); g = d[0].astype(np.int64)
    for it in range(4):
        n = sum(np.roll(np.roll(g, -dx, 0), -dy, 1) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
        g = ((n == 3) | ((g == 1) & (n == 2))).astype(np.int64)
    show("game_of_life", "equal", np.array_equal(g, o[0]), "pop", int(o[1]), "np", int(g.sum()))

if want("rk4"):
    B, T, DT = 5, 40, 10
    d, o = ref("rk4", dict(B=B, T=T, DT=DT)); s = d[0].copy(); dt = DT * 0.001
    def fl(X):
        return np.stack([10 * (X[1] - X[0]), X[0] * (28 - X[2]) - X[1], X[0] * X[1] - 8.0 / 3.0 * X[2]])
    tr = np.zeros((3, B, T)); tr[:, :, 0] = s
    for t in range(1, T):
        k1 = fl(s); k2 = fl(s + 0.5 * dt * k1); k3 = fl(s + 0.5 * dt * k2); k4 = fl(s + dt * k3)
        s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4); tr[:, :, t] = s
    show("rk4", "rel err", rel(tr, o[0]))
