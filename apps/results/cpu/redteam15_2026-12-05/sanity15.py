"""sanity of round-15 references (compute_root 'ref' builds, no scheduler) against numpy. Prints max errors / equality."""
import sys, os, math, numpy as np, halide as hl
from math import erf
here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here)
import pipes15
sys.modules['pipes11'] = pipes15
sys.path.insert(1, os.path.join(here, "..", "redteam11_2026-12-02"))
import run11
ro = run11.run_one
P = {k.split('_')[0] + str(i): k for i, k in enumerate(pipes15.SPECS)}
N = list(pipes15.SPECS)


def ref(idx, v):
    name = N[idx]; spec = pipes15.SPECS[name]; T = hl.Target(pipes15.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    data, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    return data, [np.asarray(b) for b in bufs]


def err(a, b): return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def show(idx, *msg): print("%-28s" % N[idx][:28], *msg, flush=True)


# 0 einsum
d, o = ref(0, dict(I=5, J=6, K=7, H=2, B=3)); A, B = d
show(0, "err", err(np.einsum('ikhb,kjbh->jihb', A, B), o[0]))
# 1 tcn
d, o = ref(1, dict(T=40, C=3)); x, w = [a.astype(np.float64) for a in d]; cur = x
for L, dl in enumerate((1, 2, 4)):
    acc = np.zeros_like(cur)
    for k in range(3):
        sh = np.zeros_like(cur); sh[dl * k:, :] = cur[:40 - dl * k, :] if dl * k < 40 else 0
        acc += sh @ w[k, :, :, L]
    cur = np.maximum(acc, 0) + cur
show(1, "err", err(cur, o[0]))
# 2 conv transpose: scatter form
d, o = ref(2, dict(CI=3, CO=4, W=5, H=4)); x, w, b = d
out = np.zeros((4, 2 * 5 + 1, 2 * 4 + 1)) + b[:, None, None]
for ix in range(5):
    for iy in range(4):
        for kx in range(3):
            for ky in range(3):
                out[:, 2 * ix + kx, 2 * iy + ky] += x[:, ix, iy] @ w[:, :, kx, ky]
show(2, "err (scatter form, crop pad 1)", err(out[:, 1:10, 1:8], o[0]))
# 3 LN + linear + GELU
d, o = ref(3, dict(D=17, FO=9, T=5)); x, g, be, w, bias = [a.astype(np.float64) for a in d]
ln = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5) * g[:, None] + be[:, None]; lin = w.T @ ln + bias[:, None]
show(3, "err", err(0.5 * lin * (1 + np.vectorize(erf)(lin / math.sqrt(2))), o[0]))
# 4 MHA head view
d, o = ref(4, dict(H=2, T=5, SL=7)); q, k, v = [a.astype(np.float64) for a in d]; want = np.zeros((64, 5))
for h in range(2):
    qs, ks, vs = q[32 * h:32 * h + 32], k[32 * h:32 * h + 32], v[32 * h:32 * h + 32]
    s = ks.T @ qs / math.sqrt(32); p = np.exp(s - s.max(0)); p /= p.sum(0); want[32 * h:32 * h + 32] = vs @ p
show(4, "err", err(want, o[0]))
# 5 swiglu tuple
d, o = ref(5, dict(D=9, FF=13, T=4)); x, wg, wu, wd = [a.astype(np.float64) for a in d]
gg = wg @ x; uu = wu @ x; h = gg / (1 + np.exp(-gg)) * uu; show(5, "err", err(wd @ h, o[0]))
# 6 lora
d, o = ref(6, dict(M=5, K=11, N=7, R=3, AL=8)); x, W, A, B = [a.astype(np.float64) for a in d]
show(6, "err", err(W @ x + 8 / 3 * (B @ (A @ x)), o[0]))
# 7 batched sandwich (spec: T[i,j] = sum_k A[k,i] B[j,k]; C[i,j] = sum_k T[k,i] A[k,j])
d, o = ref(7, dict(N=5)); A, B = [a.astype(np.float64) for a in d]
T = np.einsum('kin,jkn->ijn', A, B); show(7, "err", err(np.einsum('kin,kjn->ijn', T, A), o[0]))
# 8 gemv f16
d, o = ref(8, dict(N=33, K=70)); W, x, b = [a.astype(np.float32) for a in d]
acc = b + W.T @ x; show(8, "err (f16 out)", err((acc / (1 + np.exp(-acc))).astype(np.float16), o[0]))
# 9 qgemm i16
d, o = ref(9, dict(M=5, N=6, K=40, SH=7)); a, b, za, zb = [t.astype(np.int64) for t in d]
acc = (b - zb[:, None]) @ (a - za[None, :]); show(9, "equal", np.array_equal(np.clip(acc >> 7, -32768, 32767), o[0]))
# 15 integral histogram
d, o = ref(15, dict(W=13, H=9, R=2)); im = d[0].astype(int); bins = im >> 5; want = np.zeros((8, 13, 9))
for xx in range(13):
    for yy in range(9):
        win = bins[max(0, xx - 2):xx + 3, max(0, yy - 2):yy + 3]
        want[:, xx, yy] = np.bincount(win.ravel(), minlength=8) / win.size
show(15, "err", err(want, o[0]))
# 17 unsharp u16
d, o = ref(17, dict(W=11, H=7, AMT=300, TH=5)); im = d[0].astype(np.int64); p = np.pad(im, 1, mode='edge')
bx = (p[:-2, :] + 2 * p[1:-1, :] + p[2:, :]) >> 2; by = (bx[:, :-2] + 2 * bx[:, 1:-1] + bx[:, 2:]) >> 2
det = im - by; boost = np.where(np.abs(det) > 5, (det * 300) >> 8, 0); show(17, "equal", np.array_equal(np.clip(im + boost, 0, 65535), o[0]))
# 18 hsv -> rgb vs colorsys
import colorsys
d, o = ref(18, dict(W=6, H=5, HS=100, SG=150)); im = d[0].astype(np.float64); mx = 0
for xx in range(6):
    for yy in range(5):
        hh = (im[xx, yy, 0] + 100) % 360; s = min(im[xx, yy, 1] * 1.5, 1.0)
        rgb = np.clip(np.array(colorsys.hsv_to_rgb(hh / 360, s, im[xx, yy, 2])) * 255 + 0.5, 0, 255).astype(int)
        mx = max(mx, int(np.abs(rgb - o[0][:, xx, yy].astype(int)).max()))
show(18, "u8 max diff", mx)
# 19 alpha over
d, o = ref(19, dict(W=4, H=3, N=3)); L = d[0].astype(np.float64) / 255; col = np.zeros((3, 4, 3)); al = np.zeros((4, 3))
for l in range(3):
    a = L[3, :, :, l]; col = L[:3, :, :, l] * a + col * (1 - a); al = a + al * (1 - a)
want = np.concatenate([np.where(al > 0, col / np.maximum(al, 1e-30), 0), al[None]], 0)
show(19, "u8 max diff", int(np.abs(np.clip(want * 255 + 0.5, 0, 255).astype(int) - o[0].astype(int)).max()))
# 21 fir bank
d, o = ref(21, dict(C=2, T=30, B=3, NT=5)); x, tp = [a.astype(np.float64) for a in d]; want = np.zeros((2, 30, 3))
for k in range(5):
    want[:, k:, :] += x[:, :30 - k, None] * tp[k, None, None, :]
show(21, "err", err(want, o[0]))
# 22 biquad (scipy-free DF2T)
d, o = ref(22, dict(T=50, C=2)); x, co = d; want = np.zeros((50, 2))
for c in range(2):
    b0, b1, b2, a1, a2 = co[:, c]; s1 = s2 = 0.0
    for t in range(50):
        yv = b0 * x[t, c] + s1; s1 = b1 * x[t, c] - a1 * yv + s2; s2 = b2 * x[t, c] - a2 * yv; want[t, c] = yv
show(22, "err", err(want, o[0]))
# 23 weighted jacobi
d, o = ref(23, dict(W=9, H=7, OM=800)); f = d[0].astype(np.float64); u = np.zeros_like(f)
def cl(g, dx, dy):
    xi = np.clip(np.arange(9) + dx, 0, 8); yi = np.clip(np.arange(7) + dy, 0, 6); return g[xi][:, yi]
bd = np.zeros_like(f, bool); bd[0, :] = bd[-1, :] = bd[:, 0] = bd[:, -1] = True
for it in range(5):
    u = np.where(bd, 0, 0.2 * u + 0.8 * 0.25 * (cl(u, -1, 0) + cl(u, 1, 0) + cl(u, 0, -1) + cl(u, 0, 1) + f))
res = np.where(bd, 0, f + cl(u, -1, 0) + cl(u, 1, 0) + cl(u, 0, -1) + cl(u, 0, 1) - 4 * u)
show(23, "u err", err(u, o[0]), "norm err", err(np.sqrt((res ** 2).sum()), o[1]))
# 24 kmeans
d, o = ref(24, dict(N=50, K=5, DM=3)); p, c = [a.astype(np.float64) for a in d]
dd = ((p[:, None, :] - c[:, :, None]) ** 2).sum(0); show(24, "labels equal", np.array_equal(dd.argmin(0), o[0]), "inertia err", err(dd.min(0).sum(), o[1]))
# 25 logsumexp middle
d, o = ref(25, dict(A=3, M=20, B=2, C=2)); x = d[0].astype(np.float64); mx = x.max(1); lse = mx + np.log(np.exp(x - mx[:, None]).sum(1))
show(25, "lse err", err(lse, o[0]), "softmax err", err(np.exp(x - lse[:, None]), o[1]))
# 26 spmm ell
d, o = ref(26, dict(N=3, M=10, K=20, NNZ=4)); vals, cols, X = d
want = np.einsum('ji,nji->ni', vals.astype(np.float64), X[:, cols.astype(int)]); show(26, "err", err(want, o[0]))
# 27 prefix 2d
d, o = ref(27, dict(W=13, H=9, Q=40)); im, q = d; sat = im.astype(np.int64).cumsum(0).cumsum(1); mism = 0
for k in range(40):
    x0 = np.clip(q[0, k], 0, 12); y0 = np.clip(q[1, k], 0, 8); x1 = np.clip(q[2, k], x0, 12); y1 = np.clip(q[3, k], y0, 8)
    mism += int(im[x0:x1 + 1, y0:y1 + 1].astype(np.int64).sum() != o[1][k])
show(27, "sat equal", np.array_equal(sat, o[0]), "query mismatches", mism)
# 12 tonemap
d, o = ref(12, dict(W=9, H=7, KEY=180)); im = d[0].astype(np.float64); Y = 0.2126 * im[..., 0] + 0.7152 * im[..., 1] + 0.0722 * im[..., 2]
lav = np.exp(np.log(1e-4 + Y).mean()); Ls = 0.18 / lav * Y; Lw = 0.18 / lav * Y.max(); Ld = Ls * (1 + Ls / Lw ** 2) / (1 + Ls)
v = im / np.maximum(Y, 1e-6)[..., None] * Ld[..., None]; want = np.minimum(np.clip(v, 0, 1) ** (1 / 2.2) * 255 + 0.5, 255).astype(int)
show(12, "u8 max diff", int(np.abs(want - o[0].astype(int)).max()))
