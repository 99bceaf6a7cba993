"""numpy checks of the round-19 unscheduled references (compute_root 'ref') at one small odd shape per pipeline.
usage: rt19.py r11 ../redteam19_2026-12-07/sanity19.py [name-prefix ...]  (chk() is round 18's sanity18.chk)"""
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


def minplus(v, d):
    d = d.astype(np.int64)
    mp = lambda a: np.min(a[:, :, None] + a[None, :, :], axis=1)  # [i,k] + [k,j]
    d4 = np.minimum(mp(mp(d)), 1 << 20)
    return [d4, np.array((d4 < (1 << 20)).sum())]


def bignum(v, a, b):
    NA, NN = a.shape
    limbs = np.zeros((2 * NA, NN), np.int64); top = np.zeros(NN, np.int64)
    for n in range(NN):
        A = sum(int(a[i, n]) << (16 * i) for i in range(NA)); B = sum(int(b[i, n]) << (16 * i) for i in range(NA))
        Pm = A * B
        for k in range(2 * NA):
            limbs[k, n] = (Pm >> (16 * k)) & 0xFFFF
        nz = np.nonzero(limbs[:, n])[0]
        top[n] = nz[-1] + 1 if len(nz) else 0
    return [limbs, top]


def sieve(v, w):
    N = v['N']
    sg = np.zeros(N + 1, np.int64); ws = np.zeros(N + 1, np.int64); ct = np.zeros(N + 1, np.int64)
    for d in range(1, N + 1):
        for m in range(d, N + 1, d):
            sg[m] += d; ws[m] += w[d]; ct[m] += 1
    s = sg - np.arange(N + 1)
    cl = np.where(np.arange(N + 1) < 1, 0, np.where(s < np.arange(N + 1), 0, np.where(s == np.arange(N + 1), 1, 2)))
    return [sg, ws, ct, cl]


def trsv(v, L, rhs):
    B, N = rhs.shape
    x = np.zeros((B, N))
    for b in range(B):
        x[b] = np.linalg.solve(np.tril(L[b]), rhs[b])
    return [x, np.sum(np.log(np.abs(np.diagonal(L, axis1=1, axis2=2))), 1)]


def raycast(v, sp, col):
    W, H = v['W'], v['H']
    ids = -np.ones((W, H), np.int64); dep = np.full((W, H), 1 << 30, np.int64)
    X, Y = np.meshgrid(np.arange(W), np.arange(H), indexing='ij')
    for s in range(sp.shape[1]):
        cx, cy, cz, r = [int(t) for t in sp[:, s]]
        d2 = (X - cx) ** 2 + (Y - cy) ** 2
        key = cz * 256 - (np.sqrt(np.maximum(r * r - d2, 0).astype(np.float32)) * np.float32(256)).astype(np.int64)
        better = (d2 <= r * r) & (key < dep)
        dep = np.where(better, key, dep); ids = np.where(better, s, ids)
    return [ids, dep, None]


def chacha_np(v, key, nonce, msg):
    NB = msg.shape[1]
    M = 0xFFFFFFFF
    rotl = lambda x, k: ((x << k) | (x >> (32 - k))) & M
    ks = np.zeros((16, NB), np.int64)
    import pipes19
    for b in range(NB):
        s0 = pipes19.CH_C + [int(k) for k in key] + [(b + v['CTR']) & M] + [int(n) for n in nonce]
        st = list(s0)

        class W(int):
            pass
        st2 = st[:]
        # plain-int version of the same round structure
        def qr(a, bb, c, d):
            st2[a] = (st2[a] + st2[bb]) & M; st2[d] = rotl(st2[d] ^ st2[a], 16)
            st2[c] = (st2[c] + st2[d]) & M; st2[bb] = rotl(st2[bb] ^ st2[c], 12)
            st2[a] = (st2[a] + st2[bb]) & M; st2[d] = rotl(st2[d] ^ st2[a], 8)
            st2[c] = (st2[c] + st2[d]) & M; st2[bb] = rotl(st2[bb] ^ st2[c], 7)
        for rnd in range(8):
            quads = ([(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15)] if rnd % 2 == 0 else
                     [(0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)])
            for q in quads:
                qr(*q)
        ks[:, b] = [(st2[i] + s0[i]) & M for i in range(16)]
    return [ks, ks ^ msg.astype(np.int64)]


def kmer(v, seq):
    N, K = v['N'], v['K']
    code = np.full(N, 4); 
    for c, k in zip(b"ACGT", range(4)):
        code[seq == c] = k
    km = np.zeros(N - K + 1, np.int64); bad = np.zeros(N - K + 1, bool)
    for r in range(K):
        km += (code[r:r + N - K + 1] & 3) << (2 * (K - 1 - r)); bad |= code[r:r + N - K + 1] == 4
    h = np.bincount(km[~bad], minlength=4 ** K)
    return [np.where(bad, -1, km), h, np.array((h > 0).sum())]


def bloom(v, keys, qs):
    M = 0xFFFFFFFF; NB = 32 * v['NW']
    def hk(key, k):
        h = ((key ^ ((k * 0x3c6ef372) & M)) * 0x27d4eb2d) & M
        h ^= h >> 15; h = (h * 0x165667b1) & M; h ^= h >> 13
        return h % NB
    bits = np.zeros(v['NW'], np.int64)
    for key in keys.astype(np.int64):
        for k in range(v['K']):
            b = hk(int(key), k); bits[b // 32] |= 1 << (b % 32)
    mem = [min((bits[hk(int(q), k) // 32] >> (hk(int(q), k) % 32)) & 1 for k in range(v['K'])) for q in qs.astype(np.int64)]
    return [bits, np.array(mem), np.array(sum(bin(int(b)).count("1") for b in bits))]


def chamfer(v, im):
    W, H = im.shape; BIG = 1 << 20
    d = np.full((W + 2, H + 2), BIG, np.int64)
    d[1:-1, 1:-1] = np.where(im > 0, 0, BIG)
    for y in range(1, H + 1):
        for x in range(1, W + 1):
            d[x, y] = min(d[x, y], d[x - 1, y] + 3, d[x - 1, y - 1] + 4, d[x, y - 1] + 3, d[x + 1, y - 1] + 4)
    for y in range(H, 0, -1):
        for x in range(W, 0, -1):
            d[x, y] = min(d[x, y], d[x + 1, y] + 3, d[x + 1, y + 1] + 4, d[x, y + 1] + 3, d[x - 1, y + 1] + 4)
    o = np.minimum(d[1:-1, 1:-1], BIG)
    return [o, np.array(o.max())]


def cordic(v, xi, yi, at):
    x = xi.astype(np.int64); y = yi.astype(np.int64)
    import pipes19
    neg = x < 0
    z = np.where(neg, np.where(y >= 0, pipes19.PI_Q16, -pipes19.PI_Q16), 0)
    x, y = np.where(neg, -x, x), np.where(neg, -y, y)
    for r in range(v['NIT']):
        up = y >= 0
        x, y, z = np.where(up, x + (y >> r), x - (y >> r)), np.where(up, y - (x >> r), y + (x >> r)), np.where(up, z + at[r], z - at[r])
    return [(x * 39797) >> 16, z]


def zigzag(v, x):
    x = x.astype(np.int64)
    d = x.copy(); d[1:] -= x[:-1]
    zz = ((d << 1) ^ (d >> 31)) & 0xFFFFFFFF
    nb = np.array([[1 + (max(int(z), 1).bit_length() - 1) // 7 for z in row] for row in zz])
    off = np.zeros_like(nb); off[1:] = np.cumsum(nb[:-1], 0)
    return [zz, nb, off, nb.sum(0)]


def sampen(v, x):
    T, S = x.shape; M, RT = v['M'], v['RT']; NT = T - M
    def cnt(m):
        out = []
        for s in range(S):
            c = 0
            for i in range(NT):
                for j in range(NT):
                    if i != j and max(abs(int(x[i + k, s]) - int(x[j + k, s])) for k in range(m)) <= RT:
                        c += 1
            out.append(c)
        return np.array(out)
    A, B = cnt(M + 1), cnt(M)
    se = np.where((A > 0) & (B > 0), -np.log(np.maximum(A, 1) / np.maximum(B, 1)), -1)
    return [A, B, se]


def binomial(v, s0, k, sg):
    NS = v['NS']; dt = 1 / NS; r = 0.03
    out = []
    for b in range(len(s0)):
        u = math.exp(sg[b] * math.sqrt(dt)); d = 1 / u; p = (math.exp(r * dt) - d) / (u - d); disc = math.exp(-r * dt)
        pay = lambda i, L: max(k[b] - s0[b] * math.exp(sg[b] * math.sqrt(dt) * (2 * i - L)), 0.0)
        V = [pay(i, NS) for i in range(NS + 1)]
        for L in range(NS - 1, -1, -1):
            V = [max(disc * (p * V[i + 1] + (1 - p) * V[i]), pay(i, L)) for i in range(L + 1)]
        out.append(V[0])
    out = np.array(out)
    return [out, np.array((out - np.maximum(k - s0, 0)).max())]


def tmatch(v, im, tp):
    W, H = im.shape; TW, TH = tp.shape; OW, OH = W - TW + 1, H - TH + 1
    I = im.astype(np.int64); T = tp.astype(np.int64)
    ssd = np.zeros((OW, OH), np.int64)
    for a in range(TW):
        for b in range(TH):
            ssd += (I[a:a + OW, b:b + OH] - T[a, b]) ** 2
    flat = np.argmin(ssd.T.ravel())  # first in (x inner, y outer) order
    return [ssd, None, np.array(flat % OW), np.array(flat // OW)]


def paged(v, q, kc, vc, bt, sl):
    DH, H, B = q.shape; PS, MP = v['PS'], v['MP']; T = PS * MP
    out = np.zeros((DH, H, B)); lse = np.zeros((H, B))
    for b in range(B):
        t = np.arange(T); pg = bt[t // PS, b]
        K = kc[:, t % PS, pg, :]; Vv = vc[:, t % PS, pg, :]  # [d, t, h]
        sc = np.einsum('dh,dth->th', q[:, :, b], K) / math.sqrt(DH)
        sc[t >= sl[b]] = -1e30
        m = sc.max(0); e = np.exp(sc - m); den = e.sum(0)
        out[:, :, b] = np.einsum('th,dth->dh', e, Vv) / den; lse[:, b] = m + np.log(den)
    return [out, lse]


def pshuffle(v, inp, w, bias):
    W, H, CI, N = inp.shape; R = v['R']; CO = v['CO']
    pad = np.zeros((W + 2, H + 2, CI, N)); pad[1:-1, 1:-1] = inp
    cv = np.zeros((W, H, CO * R * R, N)) + bias[None, None, :, None]
    for a in range(3):
        for b in range(3):
            cv += np.einsum('xycn,ck->xykn', pad[a:a + W, b:b + H], w[a, b])
    X, Y = np.meshgrid(np.arange(W * R), np.arange(H * R), indexing='ij')
    out = np.zeros((W * R, H * R, CO, N))
    for c in range(CO):
        out[:, :, c, :] = cv[X // R, Y // R, c * R * R + (Y % R) * R + X % R, :]
    return [np.maximum(out, 0)]


def mamba(v, x, dtr, z, A, Bm, Cm, Dk, dtb):
    DI, T, B = x.shape
    dl = np.log1p(np.exp(dtr + dtb[:, None, None]))
    h = np.zeros((A.shape[0], DI, B)); y = np.zeros((DI, T, B))
    for t in range(T):
        h = (np.exp(dl[None, :, t, :] * A[:, :, None]) * h if t else 0) + dl[None, :, t, :] * Bm[:, None, t, :] * x[None, :, t, :]
        y[:, t, :] = (np.einsum('nb,ndb->db', Cm[:, t, :], h) + Dk[:, None] * x[:, t, :]) * (z[:, t, :] / (1 + np.exp(-z[:, t, :])))
    return [y, h]


CHECKS = [("minplus", dict(N=23), minplus, 0), ("bignum", dict(NA=5, NN=7), bignum, 0), ("divisor_sieve", dict(N=97), sieve, 0),
          ("trsv", dict(B=5, N=9), trsv, 1e-10), ("ray_cast", dict(W=41, H=31, NS=7), raycast, 0),
          ("chacha8", dict(NB=3, CTR=5), chacha_np, 0), ("kmer", dict(N=300, K=3), kmer, 0), ("bloom", dict(N=50, Q=40, NW=7, K=3), bloom, 0),
          ("chamfer", dict(W=23, H=17), chamfer, 0), ("cordic", dict(N=101, NIT=16), cordic, 0), ("zigzag", dict(T=57, S=3), zigzag, 0),
          ("sample_entropy", dict(T=40, S=2, M=2, RT=15), sampen, 1e-5), ("binomial", dict(NO=5, NS=13), binomial, 1e-10),
          ("template_match", dict(W=23, H=19, TW=3, TH=2), tmatch, 0), ("template_match", dict(W=23, H=19, TW=1, TH=1), tmatch, 0),
          ("paged_attention", dict(DH=5, H=2, B=3, PS=3, MP=4), paged, 1e-5),
          ("pixel_shuffle", dict(W=5, H=4, CI=3, CO=2, R=3, N=2), pshuffle, 1e-5), ("mamba", dict(DI=5, NS=3, T=9, B=2), mamba, 1e-5)]
sel = sys.argv[1:]
for name, v, fn, tol in CHECKS:
    if sel and not any(name.startswith(s) for s in sel):
        continue
    try:
        chk(name, v, fn, tol)
    except Exception as e:
        import traceback; traceback.print_exc()
        print("EXC", name, str(e)[-300:], flush=True)
