"""numpy checks of the round-21 unscheduled references (compute_root 'ref') at small odd shapes.
usage: rt21.py r11 ../redteam21_2026-12-07/sanity21.py [name-prefix ...]  (chk() as round 20's sanity20.chk).
Boundary conditions are modelled by index functions (clip = repeat_edge, mirror-interior reflection, masks for
constant_exterior); stages are written as functions of integer coordinate arrays. The local Laplacian, the bilateral
grid and the interpolate pyramid have no numpy model (not checked here)."""
import sys
import numpy as np
import run11
ro = run11.run_one
P = run11.pipes11


def chk(name, v, fn, tol=0.0):
    spec = [s for n, s in P.SPECS.items() if n.startswith(name)][0]
    import halide as hl
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
        sc = 1 + float(np.max(np.abs(w.astype(np.float64)))) if w.size else 1
        good = err <= tol * sc
        ok &= good
        msgs.append("out%d err %.3g" % (k, err))
    print("%s %s %s %s" % ("OK " if ok else "BAD", name, v, "; ".join(msgs)), flush=True)


I = lambda a: np.asarray(a).astype(np.int64)
D = lambda a: np.asarray(a).astype(np.float64)


def clip(i, n):
    return np.clip(i, 0, n - 1)


def mirror_int(i, n):
    if n == 1:
        return np.zeros_like(i)
    m = np.mod(i, 2 * n - 2)
    return np.where(m < n, m, 2 * n - 2 - m)


def XY(W, H):
    return np.arange(W)[:, None], np.arange(H)[None, :]


def camera(v, raw, ccm):
    W, H = v['W'], v['H']; X, Y = XY(W, H)
    raw = np.minimum(I(raw), 1023); ccm = I(ccm)
    r = lambda dx, dy: raw[clip(X + dx, W), clip(Y + dy, H)]
    cross = (r(-1, 0) + r(1, 0) + r(0, -1) + r(0, 1) + 2) // 4
    diag = (r(-1, -1) + r(1, -1) + r(-1, 1) + r(1, 1) + 2) // 4
    hz = (r(-1, 0) + r(1, 0) + 1) // 2; vt = (r(0, -1) + r(0, 1) + 1) // 2
    ph = X % 2 + 2 * (Y % 2)
    c0 = r(0, 0)
    sel = lambda L: np.choose(np.broadcast_to(ph, (W, H)), [np.broadcast_to(a, (W, H)) for a in L])
    dm = [sel([c0, hz, vt, diag]), sel([cross, c0, c0, cross]), sel([diag, vt, hz, c0])]
    out = np.zeros((3, W, H), np.int64)
    for c in range(3):
        cc = np.clip((sum(np.clip(ccm[k, c], -1024, 1024) * dm[k] for k in range(3)) + 128) >> 8, 0, 1023)
        out[c] = (cc * (2046 - cc)) // 4105
    return [out]


def harris(v, img):
    W, H = v['W'], v['H']; X, Y = XY(W, H)
    img = I(img)
    gray = (77 * img[0] + 150 * img[1] + 29 * img[2] + 128) >> 8
    g = lambda x, y: gray[clip(x, W), clip(y, H)]
    sy = lambda x, y: g(x, y - 1) + 2 * g(x, y) + g(x, y + 1)
    sx = lambda x, y: g(x - 1, y) + 2 * g(x, y) + g(x + 1, y)
    ix = lambda x, y: sy(x + 1, y) - sy(x - 1, y)
    iy = lambda x, y: sx(x, y + 1) - sx(x, y - 1)
    st = lambda x, y: (ix(x, y) ** 2, iy(x, y) ** 2, ix(x, y) * iy(x, y))
    def box(x, y):
        acc = [0, 0, 0]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                s = st(x + dx, y + dy)
                acc = [a + b for a, b in zip(acc, s)]
        return acc
    def resp(x, y):
        sxx, syy, sxy = box(x, y)
        return 100 * (sxx * syy - sxy * sxy) - v['KQ'] * (sxx + syy) ** 2
    R = resp(X, Y)
    lm = np.full((W, H), np.iinfo(np.int64).min)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            lm = np.maximum(lm, resp(mirror_int(X + dx, W), mirror_int(Y + dy, H)))
    mask = np.where((R > v['TH'] * 1000000) & (R == lm), 255, 0)
    return [R, mask]


def unsharp(v, inp):
    W, H = v['W'], v['H']
    f = D(inp.astype(np.float32))
    sg = v['SG'] / 10.0; R = (3 * v['SG'] + 9) // 10
    k = np.exp(-np.arange(-R, R + 1) ** 2 / (2 * sg * sg)); k /= k.sum()
    xs = np.arange(W); ys = np.arange(H)
    bx = sum(k[i + R] * f[clip(xs + i, W)] for i in range(-R, R + 1))
    by = sum(k[i + R] * bx[:, clip(ys + i, H)] for i in range(-R, R + 1))
    return [np.clip(f + v['AM'] / 10 * (f - by), 0, 1)]


def histeq(v, img, mask):
    SH = v['SH']; NB = 4096 >> SH
    b = I(img) >> SH
    hist = np.bincount(b[mask != 0], minlength=NB)[:NB]
    cdf = np.cumsum(hist); total = cdf[-1]
    lut = (cdf * 4095 + total // 2) // max(total, 1) if total > 0 else np.arange(NB) << SH
    return [lut[b], cdf]


def maxf(v, img):
    W, H, R = v['W'], v['H'], v['R']; xs = np.arange(W); ys = np.arange(H)
    img = I(img)
    h = np.max([img[clip(xs + d, W)] for d in range(-R, R + 1)], axis=0)
    o = np.max([h[:, clip(ys + d, H)] for d in range(-R, R + 1)], axis=0)
    return [o, h]


def srgb(v, img):
    i = np.arange(256) / 255.0
    dec = np.where(i <= 0.04045, i / 12.92, ((i + 0.055) / 1.055) ** 2.4).astype(np.float32)
    l = np.arange(4096) / 4095.0
    enc = np.clip(255.0 * np.where(l <= 0.0031308, 12.92 * l, 1.055 * l ** (1 / 2.4) - 0.055) + 0.5, 0, 255).astype(np.int64)
    img = I(img)
    q = lambda dx, dy: img[:, dx::2, dy::2]
    avg = (dec[q(0, 0)].astype(np.float64) + dec[q(1, 0)] + dec[q(0, 1)] + dec[q(1, 1)]) * 0.25
    out = enc[np.clip((avg * 4095 + 0.5).astype(np.int64), 0, 4095)]
    out[3] = (q(0, 0)[3] + q(1, 0)[3] + q(0, 1)[3] + q(1, 1)[3] + 2) >> 2
    return [out]


def sobel(v, img):
    W, H = v['W'], v['H']; X, Y = XY(W, H)
    img = I(img)
    p = lambda dx, dy: img[clip(X + dx, W), clip(Y + dy, H)]
    gx = np.abs((p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1)))
    gy = np.abs((p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1)))
    mag = np.minimum(gx + gy, 255)
    return [np.where(mag > v['TH'], mag, 0), (mag > v['TH']).sum((0, 1))]


def cgrade(v, img):
    img = I(img)
    gain = np.array([v['GR'], 256, v['GB']])[:, None, None, None]
    wb = (img * gain) >> 8
    BP, WP = v['BP'], v['WP']
    lv = np.where(wb <= BP, 0, np.where(wb >= WP, 1023, ((wb - BP) * 1023) // (WP - BP)))
    i = np.arange(1024); lut = (((i * (3 * 1023 - i)) // 2046) * 4095) // 1023
    lut = lut.astype(np.uint16).astype(np.int64)
    g = lut[lv]
    luma = (77 * g[0] + 150 * g[1] + 29 * g[2]) >> 8
    return [np.clip(luma[None] + (((g - luma[None]) * v['SA']) >> 8), 0, 65535)]


def vmed(v, vid):
    W, H, T = v['W'], v['H'], v['T']
    vid = I(vid); ts = np.arange(T)
    a, b, c = vid[:, :, clip(ts - 1, T)], vid, vid[:, :, clip(ts + 1, T)]
    med = np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
    xs, ys = np.arange(W), np.arange(H)
    box = sum(med[mirror_int(xs + dx, W)][:, mirror_int(ys + dy, H)] for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return [(box + 4) // 9]


def ln_outer(v, x, g, b):
    x = D(x); m = x.mean(2, keepdims=True); var = ((x - m) ** 2).mean(2, keepdims=True)
    return [(x - m) / np.sqrt(var + 1e-5) * g[None, None] + b[None, None]]


def ln_f16(v, x, g, b):
    x = D(x); m = x.mean(0, keepdims=True); var = ((x - m) ** 2).mean(0, keepdims=True)
    rstd = 1 / np.sqrt(var + 1e-5)
    return [(x - m) * rstd * D(g)[:, None] + D(b)[:, None], rstd[0]]


def gconv(v, inp, w, bias):
    W, H, G, CIG, COG, NB = (v[k] for k in ('W', 'H', 'G', 'CIG', 'COG', 'NB'))
    pad = np.zeros((W + 2, H + 2, G * CIG, NB)); pad[1:-1, 1:-1] = inp
    out = np.zeros((W, H, G * COG, NB)) + bias[None, None, :, None]
    for co in range(G * COG):
        g = co // COG
        for kx in range(3):
            for ky in range(3):
                for ci in range(CIG):
                    out[:, :, co] += w[kx, ky, ci, co] * pad[kx:kx + W, ky:ky + H, g * CIG + ci]
    return [out]


def qdw(v, inp, dw, pw, bias):
    C, W, H, ZP, MQ = v['C'], v['W'], v['H'], v['ZP'], v['MQ']
    pad = np.full((C, W + 2, H + 2), ZP, np.int64); pad[:, 1:-1, 1:-1] = inp
    acc = sum((pad[:, 1 + dx:1 + dx + W, 1 + dy:1 + dy + H] - ZP) * I(dw)[:, dx + 1, dy + 1, None, None] for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    dq = np.clip(np.maximum(((acc * MQ) >> 10) + ZP, ZP), 0, 255)
    pacc = bias[:, None, None] + np.einsum('cxy,co->oxy', dq - ZP, I(pw))
    return [np.clip(((pacc * MQ) >> 14) + 128, 0, 255)]


def alibi(v, q, k, vv, lens):
    NH, Dd, T, NB = v['NH'], v['D'], v['T'], v['NB']
    q, k, vv = D(q), D(k), D(vv)
    sl = 2.0 ** (-8.0 * (np.arange(NH) + 1) / NH)
    out = np.zeros((NH, Dd, T, NB))
    ii = np.arange(T)
    for b in range(NB):
        for h in range(NH):
            s = np.einsum('di,dj->ij', q[h, :, :, b], k[h, :, :, b]) / np.sqrt(Dd) - sl[h] * np.abs(ii[:, None] - ii[None, :])
            s[:, lens[b]:] = -1e30
            e = np.exp(s - s.max(1, keepdims=True))
            out[h, :, :, b] = (e @ vv[h, :, :, b].T).T / e.sum(1)[None]
    return [out]


def c1x1(v, x, w, b):
    x = D(x)
    return [np.einsum('oc,cxyn->oxyn', D(w), x) + D(b)[:, None, None, None] + x]


def lrnw(v, inp):
    C, W, H, NB, R = v['C'], v['W'], v['H'], v['NB'], v['R']
    x = D(inp); pad = np.zeros((C, W + 2 * R, H + 2 * R, NB)); pad[:, R:R + W, R:R + H] = x
    ssq = sum(pad[:, R + dx:R + dx + W, R + dy:R + dy + H] ** 2 for dx in range(-R, R + 1) for dy in range(-R, R + 1))
    n2 = (2 * R + 1) ** 2
    return [x / (1 + v['AL'] * 1e-4 / n2 * ssq) ** 0.75]


def inorm(v, x, g, b):
    x = D(x); m = x.mean((1, 2), keepdims=True); var = ((x - m) ** 2).mean((1, 2), keepdims=True)
    return [np.maximum((x - m) / np.sqrt(var + 1e-5) * g[:, None, None, None] + b[:, None, None, None], 0)]


def boxw(v, img):
    W, H, R = v['W'], v['H'], v['R']
    m = I(img); pad = np.zeros((W + 2 * R, H + 2 * R), np.int64); pad[R:R + W, R:R + H] = m
    box = sum(pad[R + dx:R + dx + W, R + dy:R + dy + H] for dx in range(-R, R + 1) for dy in range(-R, R + 1))
    n2 = (2 * R + 1) ** 2
    return [np.clip(2 * m - box // n2, 0, 65535), box]


def audio(v, x, h):
    C, N, K, L = v['C'], v['N'], v['K'], v['L']
    x = I(x); h = I(h)
    acc = np.zeros((C, N), np.int64)
    for k in range(K):
        idx = 2 * np.arange(N) - k
        acc += h[k] * np.where(idx >= 0, x[:, np.clip(idx, 0, None)], 0)
    y = np.clip((acc + (1 << 14)) >> 15, -32768, 32767)
    ss = np.cumsum(y * y, axis=1)
    prev = np.concatenate([np.zeros((C, L), np.int64), ss[:, :-L]], axis=1)[:, :N] if L < N else np.zeros((C, N), np.int64)
    return [y, np.sqrt((ss - prev).astype(np.float32) / np.float32(L))]


def mulaw_dec(i):
    u = (~np.asarray(i, np.int64)) & 0xFF
    sign = u & 0x80; ex = (u >> 4) & 7; mant = u & 0x0F
    mag = (((mant << 3) + 0x84) << ex) - 0x84
    return np.where(sign != 0, -mag, mag)


def mulaw(v, x, h):
    T, C, K = v['T'], v['C'], v['K']
    dec = mulaw_dec(I(x)); h = I(h)
    ts = np.arange(T)
    fir = sum(h[k] * dec[clip(ts + k - K // 2, T)] for k in range(K))
    y = np.clip(fir >> 10, -32768, 32767)
    sign = np.where(y < 0, 0x80, 0)
    mag = np.minimum(np.abs(y), 32635) + 0x84
    ex = np.select([mag >= 0x4000, mag >= 0x2000, mag >= 0x1000, mag >= 0x800, mag >= 0x400, mag >= 0x200, mag >= 0x100], [7, 6, 5, 4, 3, 2, 1], 0)
    mant = (mag >> (ex + 3)) & 0x0F
    return [(~(sign | (ex << 4) | mant)) & 0xFF]


CHECKS = [("camera_pipe", dict(W=11, H=7), camera, 0), ("camera_pipe", dict(W=1, H=2), camera, 0),
          ("harris", dict(W=13, H=9, KQ=6, TH=0), harris, 0), ("harris", dict(W=2, H=1, KQ=20, TH=0), harris, 0),
          ("unsharp_f16", dict(W=9, H=7, C=2, NB=2, SG=13, AM=15), unsharp, 3e-3),
          ("masked_histogram", dict(W=13, H=11, SH=2), histeq, 0), ("masked_histogram", dict(W=1, H=1, SH=0), histeq, 0),
          ("max_filter", dict(W=17, H=9, R=3), maxf, 0), ("max_filter", dict(W=2, H=3, R=5), maxf, 0),
          ("srgb_correct", dict(OW=7, OH=5), srgb, 0),
          ("sobel_l1", dict(W=11, H=7, NB=2, TH=40), sobel, 0), ("color_grade", dict(W=9, H=5, NB=2, GR=300, GB=200, BP=40, WP=3000, SA=400), cgrade, 0),
          ("video_temporal", dict(W=9, H=7, T=4), vmed, 0), ("video_temporal", dict(W=2, H=1, T=1), vmed, 0),
          ("layernorm_over_outermost", dict(T=7, NB=3, C=9), ln_outer, 1e-5), ("layernorm_innermost_dim_f16", dict(C=33, T=5), ln_f16, 4e-3),
          ("grouped_conv3x3", dict(W=7, H=5, G=3, CIG=2, COG=3, NB=2), gconv, 1e-5),
          ("quantized_depthwise", dict(W=7, H=5, C=6, CO=5, ZP=77, MQ=200), qdw, 0),
          ("bidirectional_alibi", dict(NH=3, D=5, T=9, NB=2), alibi, 1e-5),
          ("conv1x1_channels", dict(C=13, W=5, H=3, NB=2), c1x1, 4e-3),
          ("lrn_within", dict(C=3, W=7, H=5, NB=2, R=2, AL=77), lrnw, 1e-5),
          ("instance_norm", dict(C=5, W=7, H=6, NB=2), inorm, 1e-4),
          ("box_sum_hlsum_reading", dict(W=11, H=7, R=2), boxw, 0), ("box_sum_hlsum_reading", dict(W=2, H=1, R=4), boxw, 0),
          ("audio_interleaved", dict(C=3, N=37, K=7, L=5), audio, 1e-5), ("audio_interleaved", dict(C=1, N=3, K=9, L=7), audio, 1e-5),
          ("mulaw_u8", dict(T=101, C=2, K=9), mulaw, 0), ("mulaw_u8", dict(T=3, C=1, K=8), mulaw, 0)]
sel = sys.argv[1:]
for name, v, fn, tol in CHECKS:
    if sel and not any(name.startswith(s) for s in sel):
        continue
    try:
        chk(name, v, fn, tol)
    except Exception as e:
        import traceback; traceback.print_exc()
        print("EXC", name, str(e)[-300:], flush=True)
