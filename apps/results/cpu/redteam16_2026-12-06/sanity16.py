"""sanity of round-16 references (compute_root 'ref' builds, no scheduler) against numpy. Prints max errors / equality.
usage: /usr/bin/python3 sanity16.py [prefix...]"""
import sys, os, math, zlib, base64, numpy as np, halide as hl
here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here)
import pipes16
sys.modules['pipes11'] = pipes16
sys.path.insert(1, os.path.join(here, "..", "redteam11_2026-12-02"))
import run11
ro = run11.run_one
N = list(pipes16.SPECS)
only = sys.argv[1:]


def ref(prefix, v):
    name = [k for k in N if k.startswith(prefix)][0]
    spec = pipes16.SPECS[name]; T = hl.Target(pipes16.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    data, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    return data, [np.asarray(b).copy() for b in bufs]


def err(a, b): return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def show(prefix, *msg): print("%-22s" % prefix, *msg, flush=True)


def want(prefix):
    return not only or any(prefix.startswith(o) for o in only)


def sympad(a, p):  # mirror_image = numpy 'symmetric'
    return np.pad(a, p, mode='symmetric')


if want("richardson"):
    W, H, K = 13, 11, 4; hk = K // 2
    d, o = ref("richardson", dict(W=W, H=H, K=K)); obs, psf = [a.astype(np.float64) for a in d]
    est = obs.copy(); P = K + 2
    for it in range(3):
        ep = sympad(est, P); conv = np.zeros_like(est)
        for i in range(K):
            for j in range(K):
                conv += psf[i, j] * ep[P + i - hk:P + i - hk + W, P + j - hk:P + j - hk + H]
        ratio = obs / np.maximum(conv, 1e-6); rp = sympad(ratio, P); corr = np.zeros_like(est)
        for i in range(K):
            for j in range(K):
                corr += psf[i, j] * rp[P - i + hk:P - i + hk + W, P - j + hk:P - j + hk + H]
        est = est * corr
    show("richardson", "err", err(est, o[0]))

if want("dehaze"):
    W, H, R, OM = 17, 12, 2, 900
    d, o = ref("dehaze", dict(W=W, H=H, R=R, OM=OM)); im = d[0].astype(np.float64)
    dmin = im.min(0); dp = np.pad(dmin, R, mode='edge')
    dark = np.min([dp[R + i:R + i + W, R + j:R + j + H] for i in range(-R, R + 1) for j in range(-R, R + 1)], 0)
    flat = dark.T.ravel(); k = int(np.argmax(flat)); ay, ax = divmod(k, W)  # first in x-inner raster order
    A = np.maximum(im[:, ax, ay], 1.0)
    dn = (im / A[:, None, None]).astype(np.float32).min(0).astype(np.float64); dnp = np.pad(dn, R, mode='edge')
    mn = np.min([dnp[R + i:R + i + W, R + j:R + j + H] for i in range(-R, R + 1) for j in range(-R, R + 1)], 0)
    t = np.maximum(1 - OM * 0.001 * mn, 0.1)
    J = np.clip(np.floor((im - A[:, None, None]) / t[None] + A[:, None, None] + 0.5), 0, 255)
    show("dehaze", "A err", err(A, o[1]), "J max|diff|", err(J, o[0]), "n diff", int((J != o[0]).sum()), "of", J.size)

if want("floyd"):
    W, H = 21, 9
    d, o = ref("floyd", dict(W=W, H=H)); im = d[0].astype(np.int64)
    e = np.zeros((W, H), np.int64); q = np.zeros((W, H), np.int64)
    def E(a, b): return e[a, b] if (0 <= a < W and b >= 0) else 0
    for yy in range(H):
        for xx in range(W):
            v = im[xx, yy] + (7 * E(xx - 1, yy) + 3 * E(xx + 1, yy - 1) + 5 * E(xx, yy - 1) + E(xx - 1, yy - 1)) // 16
            q[xx, yy] = 255 if v >= 128 else 0; e[xx, yy] = v - q[xx, yy]
    bits = np.zeros((((W + 7) // 8) * 8, H), np.uint8); bits[:W] = q >> 7
    packed = np.packbits(bits.T, axis=1).T  # MSB first
    show("floyd", "dither equal", np.array_equal(q, o[0]), "packed equal", np.array_equal(packed, o[1]))

if want("rotate"):
    W, H, ANG = 23, 17, 30
    d, o = ref("rotate", dict(W=W, H=H, ANG=ANG)); im = d[0].astype(np.float32)
    f32 = np.float32; th = f32(ANG) * f32(math.pi / 180.0); a = -np.tan(th * f32(0.5)); b = np.sin(th)
    cx, cy = f32(W) * f32(0.5), f32(H) * f32(0.5)
    def samp(src, ix, iy):
        ok = (ix >= 0) & (ix < W) & (iy >= 0) & (iy < H)
        return np.where(ok, src[np.clip(ix, 0, W - 1), np.clip(iy, 0, H - 1)], f32(0))
    X, Y = np.meshgrid(np.arange(W), np.arange(H), indexing='ij')
    def xs(src):
        sx = X.astype(f32) + a * (Y.astype(f32) + f32(0.5) - cy); fx = np.floor(sx); ix = fx.astype(int); w = sx - fx
        return samp(src, ix, Y) * (1 - w) + samp(src, ix + 1, Y) * w
    def ys(src):
        sy = Y.astype(f32) + b * (X.astype(f32) + f32(0.5) - cx); fy = np.floor(sy); iy = fy.astype(int); w = sy - fy
        return samp(src, X, iy) * (1 - w) + samp(src, X, iy + 1) * w
    r = xs(ys(xs(im)))
    show("rotate", "err", err(r, o[0]), "n>1e-4", int((np.abs(r - o[0]) > 1e-4).sum()))

if want("lut3d"):
    W, H, LN = 19, 13, 9
    d, o = ref("lut3d", dict(W=W, H=H, LN=LN)); im, L = d[0].astype(np.float64), d[1].astype(np.float64)
    out = np.zeros((3, W, H))
    for xx in range(W):
        for yy in range(H):
            f = im[:, xx, yy] * (LN - 1) / 255.0; i = np.minimum(f.astype(int), LN - 2); dl = f - i
            order = sorted(range(3), key=lambda k: (-dl[k], k))  # stable: ties keep r, g, b order
            # case rules of the spec: on ties the spec prefers r over g, g over b, r over b
            p = i.copy(); val = L[:, p[0], p[1], p[2]].copy(); prev = val.copy(); acc = val.copy()
            for k in order:
                p[k] += 1; cur = L[:, p[0], p[1], p[2]]; acc += dl[k] * (cur - prev); prev = cur
            out[:, xx, yy] = acc
    ref8 = np.floor(np.clip(out, 0, 1) * 255 + 0.5)
    show("lut3d", "max|u8 diff|", err(ref8, o[0]), "n diff", int((ref8 != o[0]).sum()), "of", ref8.size)

if want("gabor"):
    W, H, NO, R = 15, 12, 3, 2
    d, o = ref("gabor", dict(W=W, H=H, NO=NO, R=R)); im = d[0].astype(np.float64)
    sig = R * 0.5 + 0.5; ip = np.pad(im, R, mode='reflect'); resp = np.zeros((W, H, NO))
    for oo in range(NO):
        th = oo * math.pi / NO
        for i in range(-R, R + 1):
            for j in range(-R, R + 1):
                xp = i * math.cos(th) + j * math.sin(th); yp = -i * math.sin(th) + j * math.cos(th)
                k = math.exp(-(xp * xp + 0.25 * yp * yp) / (2 * sig * sig)) * math.cos(xp * 2 * math.pi / 4)
                resp[:, :, oo] += k * ip[R + i:R + i + W, R + j:R + j + H]
    show("gabor", "err resp", err(resp, o[0]), "err maxabs", err(np.abs(resp).max(2), o[1]))

if want("box4"):
    W, H, R = 29, 14, 3
    d, o = ref("box4", dict(W=W, H=H, R=R)); a = d[0].astype(np.int64)
    def box(a, axis):
        p = np.pad(a, [(R, R) if k == axis else (0, 0) for k in range(2)], mode='edge')
        n = a.shape[axis]
        return sum(np.take(p, range(k, k + n), axis=axis) for k in range(2 * R + 1))
    v = box(box(box(box(a, 0), 0), 1), 1); n4 = (2 * R + 1) ** 4
    show("box4", "equal", np.array_equal((v + n4 // 2) // n4, o[0]))

if want("sgm"):
    W, H, ND, P1, P2 = 23, 4, 6, 7, 40
    d, o = ref("sgm", dict(W=W, H=H, ND=ND, P1=P1, P2=P2)); Lm, Rm = [a.astype(np.int64) for a in d]
    disp = np.zeros((W, H), np.int64)
    for yy in range(H):
        cost = np.array([[abs(Lm[xx, yy] - Rm[max(xx - dd, 0), yy]) for dd in range(ND)] for xx in range(W)])
        Lr = np.zeros_like(cost); Lr[0] = cost[0]
        for xx in range(1, W):
            pv = Lr[xx - 1]; mp = pv.min()
            for dd in range(ND):
                c = [pv[dd], mp + P2]
                if dd > 0: c.append(pv[dd - 1] + P1)
                if dd < ND - 1: c.append(pv[dd + 1] + P1)
                Lr[xx, dd] = cost[xx, dd] + min(c) - mp
        disp[:, yy] = Lr.argmin(1)
    show("sgm", "equal", np.array_equal(disp, o[0]))

if want("hu_"):
    W, H = 37, 29
    d, o = ref("hu_", dict(W=W, H=H)); im = d[0].astype(np.float64)
    X, Y = np.meshgrid(np.arange(W), np.arange(H), indexing='ij')
    m = lambda p, q: (im * X ** p * Y ** q).sum()
    m00 = m(0, 0); xb, yb = m(1, 0) / m00, m(0, 1) / m00
    mu = lambda p, q: (im * (X - xb) ** p * (Y - yb) ** q).sum()
    n = lambda p, q: mu(p, q) / m00 ** (1 + (p + q) / 2)
    n20, n11, n02, n30, n21, n12, n03 = n(2, 0), n(1, 1), n(0, 2), n(3, 0), n(2, 1), n(1, 2), n(0, 3)
    a, b = n30 + n12, n21 + n03
    h = [n20 + n02, (n20 - n02) ** 2 + 4 * n11 ** 2, (n30 - 3 * n12) ** 2 + (3 * n21 - n03) ** 2, a * a + b * b,
         (n30 - 3 * n12) * a * (a * a - 3 * b * b) + (3 * n21 - n03) * b * (3 * a * a - b * b),
         (n20 - n02) * (a * a - b * b) + 4 * n11 * a * b, (3 * n21 - n03) * a * (a * a - 3 * b * b) - (n30 - 3 * n12) * b * (3 * a * a - b * b)]
    show("hu_", "hu rel err", err(np.array(h), o[0]) / max(abs(np.array(h)).max(), 1e-300), "centroid err", err([xb, yb], o[1]))

if want("video"):
    W, H, T, AL, TH = 9, 7, 6, 77, 10
    d, o = ref("video", dict(W=W, H=H, T=T, AL=AL, TH=TH)); fr = d[0].astype(np.int64)
    ema = np.zeros_like(fr); ema[:, :, 0] = fr[:, :, 0] << 8
    for t in range(1, T):
        ema[:, :, t] = ema[:, :, t - 1] + ((((fr[:, :, t] << 8) - ema[:, :, t - 1]) * AL) >> 8)
    mask = np.zeros_like(fr)
    for t in range(1, T):
        mask[:, :, t] = np.where(np.abs((fr[:, :, t] << 8) - ema[:, :, t - 1]) > TH * 256, 255, 0)
    show("video", "mask equal", np.array_equal(mask, o[0]), "bg equal", np.array_equal((ema[:, :, T - 1] + 128) >> 8, o[1]))

if want("base64"):
    NB, R = 10, 3
    d, o = ref("base64", dict(NB=NB, R=R)); data = d[0]
    enc = np.array([list(base64.b64encode(bytes(data[:, r]))) for r in range(R)]).T
    show("base64", "enc equal", np.array_equal(enc, o[0]), "dec equal", np.array_equal(data, o[1]))

if want("crc32"):
    NN, R = 37, 5
    d, o = ref("crc32", dict(N=NN, R=R)); data = d[0]
    show("crc32", "crc equal", all(zlib.crc32(bytes(data[:, r])) == int(o[0][r]) for r in range(R)),
         "adler equal", all(zlib.adler32(bytes(data[:, r])) == int(o[1][r]) for r in range(R)))

if want("q4_0"):
    NN, G, T = 7, 3, 2
    d, o = ref("q4_0", dict(N=NN, G=G, T=T)); wq, sc, x = d
    nib = np.zeros((32 * G, NN)); nib[0::2] = (wq & 15).astype(int) - 8; nib[1::2] = (wq >> 4).astype(int) - 8
    sce = np.repeat(sc.astype(np.float64), 32, axis=0)
    show("q4_0", "err", err((nib * sce).T @ x.astype(np.float64), o[0]))

if want("winograd"):
    TW, TH, CI, CO = 3, 2, 4, 5
    d, o = ref("winograd", dict(TW=TW, TH=TH, CI=CI, CO=CO)); x, w = [a.astype(np.float64) for a in d]
    out = np.zeros((2 * TW, 2 * TH, CO))
    for a in range(3):
        for b in range(3):
            out += np.einsum('xyc,cd->xyd', x[a:a + 2 * TW, b:b + 2 * TH], w[a, b])
    show("winograd", "err vs direct conv", err(out, o[0]))

if want("flownet"):
    C, W, H, DM = 5, 9, 7, 2
    d, o = ref("flownet", dict(C=C, W=W, H=H, DM=DM)); f1, f2 = [a.astype(np.float64) for a in d]
    s = 2 * DM + 1; P = DM; f2p = np.pad(f2, [(0, 0), (P, P), (P, P)]); out = np.zeros((s * s, W, H))
    for dd in range(s * s):
        dx, dy = dd % s - DM, dd // s - DM
        out[dd] = (f1 * f2p[:, P + dx:P + dx + W, P + dy:P + dy + H]).sum(0) / C
    show("flownet", "err", err(out, o[0]), "max err", err(out.max(0), o[1]))

if want("rbf"):
    NN, M, DD, GM = 13, 7, 5, 300
    d, o = ref("rbf", dict(N=NN, M=M, DD=DD, GM=GM)); X, Z, al = [a.astype(np.float64) for a in d]
    K = np.exp(-GM * 0.001 * ((X[:, :, None] - Z[:, None, :]) ** 2).sum(0))
    show("rbf", "err", err(al @ K, o[0]))

if want("shufflenet"):
    W, H, G, CPG = 6, 5, 3, 2; C = G * CPG
    d, o = ref("shufflenet", dict(W=W, H=H, G=G, CPG=CPG)); x, w1, wd, w2, b1 = [a.astype(np.float64) for a in d]
    p1 = np.zeros((C, W, H))
    for c in range(C):
        g = c // CPG
        p1[c] = np.maximum(b1[c] + np.einsum('j,jxy->xy', w1[:, c], x[g * CPG:(g + 1) * CPG]), 0)
    sh = np.array([p1[(c % G) * CPG + c // G] for c in range(C)])
    sp = np.pad(sh, [(0, 0), (1, 1), (1, 1)]); dw = np.zeros_like(sh)
    for i in range(3):
        for j in range(3):
            dw += wd[:, i, j][:, None, None] * sp[:, i:i + W, j:j + H]
    out = x.copy()
    for c in range(C):
        g = c // CPG
        out[c] += np.einsum('j,jxy->xy', w2[:, c], dw[g * CPG:(g + 1) * CPG])
    show("shufflenet", "err", err(out, o[0]))

if want("complex"):
    M, NN, K = 5, 6, 7
    d, o = ref("complex", dict(M=M, N=NN, K=K)); A, B = [a.astype(np.float64) for a in d]
    Ac = A[0] + 1j * A[1]; Bc = B[0] + 1j * B[1]  # Ac[k, m], Bc[n, k]
    C = Bc @ Ac  # [n, m]
    show("complex", "err", max(err(C.real, o[0][0]), err(C.imag, o[0][1])))

if want("levenshtein"):
    LA, LB, NB = 7, 9, 6
    d, o = ref("levenshtein", dict(LA=LA, LB=LB, NB=NB)); a, b = d
    def ed(s, t):
        D = np.zeros((len(s) + 1, len(t) + 1), int); D[:, 0] = range(len(s) + 1); D[0] = range(len(t) + 1)
        for i in range(1, len(s) + 1):
            for j in range(1, len(t) + 1):
                D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + (s[i - 1] != t[j - 1]))
        return D[-1, -1]
    dd = np.array([ed(a[:, p], b[:, p]) for p in range(NB)])
    show("levenshtein", "dist equal", np.array_equal(dd, o[0]), "sim err", err(1 - dd / max(LA, LB), o[1]))

if want("black"):
    NN, RATE, VOL = 50, 30, 25
    d, o = ref("black", dict(N=NN, RATE=RATE, VOL=VOL)); Sp, K, T = d[0].astype(np.float64)
    from math import erf
    cnd = np.vectorize(lambda z: 0.5 * (1 + erf(z / math.sqrt(2))))
    r, v = RATE * 0.001, VOL * 0.01
    d1 = (np.log(Sp / K) + (r + 0.5 * v * v) * T) / (v * np.sqrt(T)); d2 = d1 - v * np.sqrt(T)
    call = Sp * cnd(d1) - K * np.exp(-r * T) * cnd(d2); put = K * np.exp(-r * T) * cnd(-d2) - Sp * cnd(-d1)
    show("black", "call err", err(call, o[0]), "put err", err(put, o[1]))

if want("elementary"):
    W, T, RULE = 31, 12, 110
    d, o = ref("elementary", dict(W=W, T=T, RULE=RULE)); st = np.zeros((W, T), np.int64); st[:, 0] = d[0] & 1
    for t in range(1, T):
        l, c, r = np.roll(st[:, t - 1], 1), st[:, t - 1], np.roll(st[:, t - 1], -1)
        st[:, t] = (RULE >> (l * 4 + c * 2 + r)) & 1
    show("elementary", "diagram equal", np.array_equal(st, o[0]), "pop equal", int(st[:, -1].sum()) == int(o[1]))

if want("stream"):
    NN, TH = 40, 300
    d, o = ref("stream", dict(N=NN, TH=TH)); x = d[0]
    keep = x[x > np.float32(TH * 0.001)]; want_ = np.zeros(NN, np.float32); want_[:len(keep)] = keep
    show("stream", "out equal", np.array_equal(want_, o[0]), "count equal", len(keep) == int(o[1]))

if want("multigrid"):
    CW, CH = 6, 5; W, H = 2 * CW, 2 * CH
    d, o = ref("multigrid", dict(CW=CW, CH=CH)); f = d[0].astype(np.float64)
    def nb(u):
        p = np.pad(u, 1); return p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
    def jac(u, rhs, hh): return 0.2 * u + 0.8 * 0.25 * (nb(u) + hh * rhs)
    u = jac(jac(np.zeros((W, H)), f, 1), f, 1)
    res = f - (4 * u - nb(u)); rc = 0.25 * (res[0::2, 0::2] + res[1::2, 0::2] + res[0::2, 1::2] + res[1::2, 1::2])
    e = np.zeros((CW, CH))
    for k in range(4): e = jac(e, rc, 4)
    ep = np.pad(e, 1); pr = np.zeros((W, H))
    for x in range(W):
        for y in range(H):
            X, Y = x // 2, y // 2; sx = -1 if x % 2 == 0 else 1; sy = -1 if y % 2 == 0 else 1
            g = lambda a, b: ep[a + 1, b + 1]
            pr[x, y] = 9 / 16 * g(X, Y) + 3 / 16 * g(X + sx, Y) + 3 / 16 * g(X, Y + sy) + 1 / 16 * g(X + sx, Y + sy)
    u4 = jac(u + pr, f, 1); r4 = f - (4 * u4 - nb(u4))
    show("multigrid", "u err", err(u4, o[0]), "norm err", err(np.sqrt((r4 ** 2).sum()), o[1]))

if want("kde"):
    NN, GW, GH, BW = 30, 8, 6, 20
    d, o = ref("kde", dict(N=NN, GW=GW, GH=GH, BW=BW)); p = d[0].astype(np.float64); h = BW * 0.01
    gx = (np.arange(GW) + 0.5) / GW; gy = (np.arange(GH) + 0.5) / GH
    dd = (gx[:, None, None] - p[0][None, None]) ** 2 + (gy[None, :, None] - p[1][None, None]) ** 2
    dens = np.exp(-dd / (2 * h * h)).sum(2) / (NN * 2 * math.pi * h * h)
    show("kde", "dens err (rel)", err(dens, o[0]) / dens.max(), "mass err", err(dens.mean(), o[1]))
