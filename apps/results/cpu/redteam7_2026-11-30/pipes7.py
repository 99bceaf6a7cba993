"""Red-team round 7 pipelines for Diet: names and styles not used by rounds 1-6 (redteam_, redteam3_fixes_,
redteam4_contractions_, redteam5_, redteam6_). Same spec format as ../redteam3_fixes_2026-11-30/pipes.py:
name, style, ranges {P: (lo, hi)}, build(S, E) -> (outputs, inputs), data(v, rng) -> numpy arrays (Halide dim
order, Fortran layout), outs(v) -> list of (hl type, shape[, mins]), optional tests/times, tol.
S: dict of ranged hl.Param (or Python ints for Adams2019c); E: what the estimates use (the Params for Diet,
ints for the others). Group A: contractions written unusually. Group B: image/signal pipelines."""
import importlib.util
import os

import halide as hl
import numpy as np

F32, F64 = hl.Float(32), hl.Float(64)
U8, U16, U32, U64 = hl.UInt(8), hl.UInt(16), hl.UInt(32), hl.UInt(64)
I8, I16, I32, I64 = hl.Int(8), hl.Int(16), hl.Int(32), hl.Int(64)
BF = hl.BoundaryConditions

_spec3 = importlib.util.spec_from_file_location(
    "pipes_round3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "redteam3_fixes_2026-11-30", "pipes.py"))
_round3 = importlib.util.module_from_spec(_spec3)
_spec3.loader.exec_module(_round3)
V, est_in, est_out, fa = _round3.V, _round3.est_in, _round3.est_out, _round3.fa
SPECS, spec, CREATED, F = _round3.registry()


def rimg(rng, shape, dtype=np.float32, lo=None, hi=None):
    if dtype in (np.float32, np.float64):
        return fa(rng.standard_normal(shape).astype(dtype))
    info = np.iinfo(dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return fa(rng.integers(lo, hi + 1, size=shape).astype(dtype))


def _half(e):
    return (e + 1) // 2 if isinstance(e, int) else (e + 1) / 2


def RD(*pairs, name="r"):
    return hl.RDom([hl.Range(a, b) for a, b in pairs], name)


# ================================ A: contractions =========================================

@spec("einsum_k_split_strided", "C[n,m] = sum over 2-D RDom (ki in KI, ko in KO) of A[ki*KO+ko, m]*B[n, ki*KO+ko]: K split into two RDom dims, the inner RDom dim strided by KO",
      {'M': (1, 160), 'N': (1, 160), 'KO': (1, 12), 'KI': (1, 16)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['KO'] * v['KI'], v['M'])), rimg(r, (v['N'], v['KO'] * v['KI']))], tol=1e-4)
def einsum_split(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['KI']), (0, S['KO']))
    k = r.x * S['KO'] + r.y
    C = F("es_C")
    C[n, m] = 0.0
    C[n, m] += A[k, m] * B[n, k]
    est_in(A, E['KO'] * E['KI'], E['M']); est_in(B, E['N'], E['KO'] * E['KI']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("three_operand_one_func", "y[o,b] = sum over 2-D RDom (r1 in D1, r2 in D2) of W2[o,r2]*W1[r2,r1]*X[r1,b]: x.W1.W2 in ONE Func, no intermediate",
      {'B': (1, 48), 'DI': (1, 48), 'DH': (1, 48), 'DO': (1, 48)},
      outs=lambda v: [(F32, [v['DO'], v['B']])],
      data=lambda v, r: [rimg(r, (v['DI'], v['B'])), rimg(r, (v['DH'], v['DI'])), rimg(r, (v['DO'], v['DH']))], tol=1e-3)
def three_op(S, E):
    X = hl.ImageParam(F32, 2, "X"); W1 = hl.ImageParam(F32, 2, "W1"); W2 = hl.ImageParam(F32, 2, "W2")
    o, b = V("o", "b")
    r = RD((0, S['DI']), (0, S['DH']))
    y = F("to_y")
    y[o, b] = 0.0
    y[o, b] += W2[o, r.y] * W1[r.y, r.x] * X[r.x, b]
    est_in(X, E['DI'], E['B']); est_in(W1, E['DH'], E['DI']); est_in(W2, E['DO'], E['DH']); est_out(y, [o, b], E['DO'], E['B'])
    return [y], [X, W1, W2]


@spec("conv3x3_dilation_param", "3x3 conv over CI as one 3-D RDom contraction, dilation DL a ranged Param (x+(r.x-1)*DL), repeat_edge input [W,H,CI], weights [3,3,CI,CO]",
      {'W': (1, 112), 'H': (1, 96), 'CI': (1, 16), 'CO': (1, 16), 'DL': (1, 4)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['CO']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['CI'])), rimg(r, (3, 3, v['CI'], v['CO']))], tol=1e-4)
def conv_dil(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w")
    x, y, co = V("x", "y", "co")
    e = BF.repeat_edge(inp)
    r = RD((0, 3), (0, 3), (0, S['CI']))
    o = F("cd_out")
    o[x, y, co] = 0.0
    o[x, y, co] += e[x + (r.x - 1) * S['DL'], y + (r.y - 1) * S['DL'], r.z] * w[r.x, r.y, r.z, co]
    est_in(inp, E['W'], E['H'], E['CI']); est_in(w, 3, 3, E['CI'], E['CO']); est_out(o, [x, y, co], E['W'], E['H'], E['CO'])
    return [o], [inp, w]


@spec("conv_s2_valid_cxy_out", "valid 3x3 stride-2 conv written as contraction, channels-innermost output out[co,x,y], weights [CO,3,3,CI], input [2W+1, 2H+1, CI] (no boundary)",
      {'W': (1, 80), 'H': (1, 64), 'CI': (1, 24), 'CO': (1, 32)},
      outs=lambda v: [(F32, [v['CO'], v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (2 * v['W'] + 1, 2 * v['H'] + 1, v['CI'])), rimg(r, (v['CO'], 3, 3, v['CI']))], tol=1e-4)
def conv_s2(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w")
    co, x, y = V("co", "x", "y")
    r = RD((0, 3), (0, 3), (0, S['CI']))
    o = F("cs2_out")
    o[co, x, y] = 0.0
    o[co, x, y] += inp[2 * x + r.x, 2 * y + r.y, r.z] * w[co, r.x, r.y, r.z]
    est_in(inp, 2 * E['W'] + 1, 2 * E['H'] + 1, E['CI']); est_in(w, E['CO'], 3, 3, E['CI'])
    est_out(o, [co, x, y], E['CO'], E['W'], E['H'])
    return [o], [inp, w]


@spec("grouped_conv_cpg_param", "grouped 3x3 conv, G groups and CPG channels/group both ranged Params; input channel (co/CPG)*CPG + r.z; constant_exterior input [W,H,G*CPG]",
      {'W': (1, 96), 'H': (1, 64), 'G': (1, 8), 'CPG': (1, 8)},
      outs=lambda v: [(F32, [v['W'], v['H'], v['G'] * v['CPG']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['G'] * v['CPG'])), rimg(r, (3, 3, v['CPG'], v['G'] * v['CPG']))], tol=1e-4)
def gconv(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 4, "w")
    x, y, co = V("x", "y", "co")
    e = BF.constant_exterior(inp, 0.0)
    r = RD((0, 3), (0, 3), (0, S['CPG']))
    o = F("gc_out")
    o[x, y, co] = 0.0
    o[x, y, co] += e[x + r.x - 1, y + r.y - 1, (co / S['CPG']) * S['CPG'] + r.z] * w[r.x, r.y, r.z, co]
    est_in(inp, E['W'], E['H'], E['G'] * E['CPG']); est_in(w, 3, 3, E['CPG'], E['G'] * E['CPG'])
    est_out(o, [x, y, co], E['W'], E['H'], E['G'] * E['CPG'])
    return [o], [inp, w]


@spec("depthwise_mult2_cxy_5x5", "depthwise 5x5 conv with channel multiplier 2, channels innermost [c,x,y]: out[co,x,y] = sum in_mirror[co/2, x+rx-2, y+ry-2]*w[co,rx,ry] (hl.sum inline)",
      {'C': (1, 48), 'W': (1, 96), 'H': (1, 80)},
      outs=lambda v: [(F32, [2 * v['C'], v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['C'], v['W'], v['H'])), rimg(r, (2 * v['C'], 5, 5))], tol=1e-4)
def dw2(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); w = hl.ImageParam(F32, 3, "w")
    co, x, y = V("co", "x", "y")
    e = BF.mirror_image(inp)
    r = RD((0, 5), (0, 5))
    o = F("dw2_out")
    o[co, x, y] = hl.sum(e[co / 2, x + r.x - 2, y + r.y - 2] * w[co, r.x, r.y])
    est_in(inp, E['C'], E['W'], E['H']); est_in(w, 2 * E['C'], 5, 5); est_out(o, [co, x, y], 2 * E['C'], E['W'], E['H'])
    return [o], [inp, w]


@spec("qgemm_zp_requant_u8", "int8-style GEMM: u8 A[K,M], u8 B[N,K], zero point ZA a ranged Param and ZB=7 const, int32 accumulate, per-column i32 multiplier: u8_sat(((i64 acc*mult[n] + 2^30) >> 31) + 3)",
      {'M': (1, 192), 'N': (1, 192), 'K': (1, 384), 'ZA': (0, 255)},
      outs=lambda v: [(U8, [v['N'], v['M']]), (I32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M']), np.uint8), rimg(r, (v['N'], v['K']), np.uint8),
                         rimg(r, (v['N'],), np.int32, 1 << 20, 1 << 24)])
def qgemm(S, E):
    A = hl.ImageParam(U8, 2, "A"); B = hl.ImageParam(U8, 2, "B"); mult = hl.ImageParam(I32, 1, "mult")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    acc = F("qg_acc")
    acc[n, m] = hl.i32(0)
    acc[n, m] += (hl.i32(A[r, m]) - S['ZA']) * (hl.i32(B[n, r]) - 7)
    q = F("qg_out")
    q[n, m] = hl.u8_sat(hl.i32((hl.i64(acc[n, m]) * hl.i64(mult[n]) + hl.i64(1 << 30)) >> 31) + 3)
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_in(mult, E['N'])
    est_out(q, [n, m], E['N'], E['M']); est_out(acc, [n, m], E['N'], E['M'])
    return [q, acc], [A, B, mult]


@spec("matvec_k_inner_rt", "y[i] = sum_k A[k,i]*x[k] (each row's dot product contiguous), M and K run-time up to 2048",
      {'M': (1, 2048), 'K': (1, 2048)},
      outs=lambda v: [(F32, [v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'],))], tol=1e-4)
def matvec(S, E):
    A = hl.ImageParam(F32, 2, "A"); xv = hl.ImageParam(F32, 1, "xv")
    i, = V("i")
    r = RD((0, S['K']))
    y = F("mv_y")
    y[i] = 0.0
    y[i] += A[r, i] * xv[r]
    est_in(A, E['K'], E['M']); est_in(xv, E['K']); est_out(y, [i], E['M'])
    return [y], [A, xv]


@spec("vecmat_j_inner_rt", "y[j] = sum_k x[k]*A[j,k] (output index innermost in A), M and K run-time up to 2048",
      {'N': (1, 2048), 'K': (1, 2048)},
      outs=lambda v: [(F32, [v['N']])],
      data=lambda v, r: [rimg(r, (v['N'], v['K'])), rimg(r, (v['K'],))], tol=1e-4)
def vecmat(S, E):
    A = hl.ImageParam(F32, 2, "A"); xv = hl.ImageParam(F32, 1, "xv")
    j, = V("j")
    r = RD((0, S['K']))
    y = F("vm_y")
    y[j] = 0.0
    y[j] += xv[r] * A[j, r]
    est_in(A, E['N'], E['K']); est_in(xv, E['K']); est_out(y, [j], E['N'])
    return [y], [A, xv]


@spec("bmm_shared_w_batch_middle", "weights shared across batch, batch in the MIDDLE dim: out[n,b,m] = sum_k W[n,k]*X[k,b,m]",
      {'K': (1, 128), 'N': (1, 128), 'B': (1, 12), 'M': (1, 48)},
      outs=lambda v: [(F32, [v['N'], v['B'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['B'], v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def bmm_mid(S, E):
    X = hl.ImageParam(F32, 3, "X"); Wt = hl.ImageParam(F32, 2, "Wt")
    n, b, m = V("n", "b", "m")
    r = RD((0, S['K']))
    o = F("bsw_out")
    o[n, b, m] = 0.0
    o[n, b, m] += Wt[n, r] * X[r, b, m]
    est_in(X, E['K'], E['B'], E['M']); est_in(Wt, E['N'], E['K']); est_out(o, [n, b, m], E['N'], E['B'], E['M'])
    return [o], [X, Wt]


@spec("rank_k_then_relu_then_rank_r", "update chain on one Func: pure = bias[i]; += a[i,r]*b[j,r] (K); = max(.,0); += u[i,s]*v[j,s] (R2 rank correction); *= 0.5",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 64), 'R2': (1, 8)},
      outs=lambda v: [(F32, [v['M'], v['N']])],
      data=lambda v, r: [rimg(r, (v['M'], v['K'])), rimg(r, (v['N'], v['K'])), rimg(r, (v['M'], v['R2'])),
                         rimg(r, (v['N'], v['R2'])), rimg(r, (v['M'],))], tol=1e-4)
def rankchain(S, E):
    a = hl.ImageParam(F32, 2, "a"); b = hl.ImageParam(F32, 2, "b"); u = hl.ImageParam(F32, 2, "u")
    vv = hl.ImageParam(F32, 2, "vv"); bias = hl.ImageParam(F32, 1, "bias")
    i, j = V("i", "j")
    r = RD((0, S['K']), name="rk"); s = RD((0, S['R2']), name="rs")
    C = F("rc_C")
    C[i, j] = bias[i]
    C[i, j] += a[i, r] * b[j, r]
    C[i, j] = hl.max(C[i, j], 0.0)
    C[i, j] += u[i, s] * vv[j, s]
    C[i, j] = C[i, j] * 0.5
    est_in(a, E['M'], E['K']); est_in(b, E['N'], E['K']); est_in(u, E['M'], E['R2']); est_in(vv, E['N'], E['R2']); est_in(bias, E['M'])
    est_out(C, [i, j], E['M'], E['N'])
    return [C], [a, b, u, vv, bias]


@spec("matmul_k_is_2c", "RDom extent a Param expression: K = 2*C (A[2C,M], B[N,2C]), plus a second output summing only the odd k via RDom(0,C) and 2*r+1",
      {'M': (1, 160), 'N': (1, 160), 'C': (1, 96)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (2 * v['C'], v['M'])), rimg(r, (v['N'], 2 * v['C']))], tol=1e-4)
def mm2c(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, 2 * S['C']), name="rk")
    o = F("k2c_full"); o[n, m] = 0.0; o[n, m] += A[r, m] * B[n, r]
    r2 = RD((0, S['C']), name="ro")
    od = F("k2c_odd"); od[n, m] = 0.0; od[n, m] += A[2 * r2 + 1, m] * B[n, 2 * r2 + 1]
    est_in(A, 2 * E['C'], E['M']); est_in(B, E['N'], 2 * E['C'])
    est_out(o, [n, m], E['N'], E['M']); est_out(od, [n, m], E['N'], E['M'])
    return [o, od], [A, B]


@spec("matmul_mirror_halo_k", "matmul over BoundaryConditions.mirror_interior inputs with the K RDom running past both ends: r in [-P, K+P), P a ranged Param",
      {'M': (1, 128), 'N': (1, 128), 'K': (2, 128), 'P': (0, 4)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def mmhalo(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    Ab = BF.mirror_interior(A); Bb = BF.mirror_interior(B)
    r = RD((-S['P'], S['K'] + 2 * S['P']))
    o = F("mh_out"); o[n, m] = 0.0; o[n, m] += Ab[r, m] * Bb[n, r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(o, [n, m], E['N'], E['M'])
    return [o], [A, B]


@spec("attn_causal_mask_in_pv", "causal attention with the mask INSIDE each sum: den[i] = sum_j select(j<=i, e, 0), out[d,i] = sum_j select(j<=i, e[j,i]*V[d,j], 0)/den; row max via hl.maximum over RDom.where(j<=i)",
      {'T': (1, 160), 'D': (1, 64)},
      outs=lambda v: [(F32, [v['D'], v['T']])],
      data=lambda v, r: [rimg(r, (v['D'], v['T'])), rimg(r, (v['D'], v['T'])), rimg(r, (v['D'], v['T']))], tol=1e-4)
def attn_pv(S, E):
    Q = hl.ImageParam(F32, 2, "Q"); Kt = hl.ImageParam(F32, 2, "Kt"); Vv = hl.ImageParam(F32, 2, "Vv")
    j, i, d = V("j", "i", "d")
    rd = RD((0, S['D']), name="rd")
    s = F("ac_s"); s[j, i] = 0.0; s[j, i] += Q[rd, i] * Kt[rd, j]
    rj = RD((0, S['T']), name="rj")
    rj.where(rj <= i)
    mx = F("ac_max"); mx[i] = hl.maximum(s[rj, i])
    e = F("ac_e"); e[j, i] = hl.exp((s[j, i] - mx[i]) * 0.125)
    rt = RD((0, S['T']), name="rt")
    den = F("ac_den"); den[i] = 0.0; den[i] += hl.select(rt <= i, e[rt, i], 0.0)
    num = F("ac_num"); num[d, i] = 0.0; num[d, i] += hl.select(rt <= i, e[rt, i] * Vv[d, rt], 0.0)
    o = F("ac_out"); o[d, i] = num[d, i] / den[i]
    for p in (Q, Kt, Vv):
        est_in(p, E['D'], E['T'])
    est_out(o, [d, i], E['D'], E['T'])
    return [o], [Q, Kt, Vv]


@spec("covariance_centered", "feature covariance with mean subtraction: mean[f] = sum_n X[f,n]/N; cov[i,j] = sum_n (X[i,n]-mean[i])*(X[j,n]-mean[j]) / max(N-1,1)",
      {'NF': (1, 128), 'N': (1, 512)},
      outs=lambda v: [(F32, [v['NF'], v['NF']])],
      data=lambda v, r: [fa((r.standard_normal((v['NF'], v['N'])) + 3.0).astype(np.float32))], tol=1e-3)
def cov(S, E):
    X = hl.ImageParam(F32, 2, "X")
    i, j, f = V("i", "j", "f")
    r = RD((0, S['N']), name="rn")
    mean = F("cv_mean"); mean[f] = 0.0; mean[f] += X[f, r]
    mn = F("cv_mn"); mn[f] = mean[f] / hl.f32(S['N'])
    xc = F("cv_xc"); xc[f, i] = X[f, i] - mn[f]
    c = F("cv_cov"); c[i, j] = 0.0; c[i, j] += xc[i, r] * xc[j, r]
    o = F("cv_out"); o[i, j] = c[i, j] / hl.f32(hl.max(S['N'] - 1, 1))
    est_in(X, E['NF'], E['N']); est_out(o, [i, j], E['NF'], E['NF'])
    return [o], [X]


@spec("cgemm_tuple_update", "complex matmul as a Tuple (re, im) Func: C = (C.re + ar*br - ai*bi, C.im + ar*bi + ai*br) over RDom K; re/im of A and B as four ImageParams",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def cgemm_t(S, E):
    ar = hl.ImageParam(F32, 2, "ar"); ai = hl.ImageParam(F32, 2, "ai"); br = hl.ImageParam(F32, 2, "br"); bi = hl.ImageParam(F32, 2, "bi")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("cg_C")
    C[n, m] = (hl.f32(0), hl.f32(0))
    C[n, m] = (C[n, m][0] + ar[r, m] * br[n, r] - ai[r, m] * bi[n, r], C[n, m][1] + ar[r, m] * bi[n, r] + ai[r, m] * br[n, r])
    est_in(ar, E['K'], E['M']); est_in(ai, E['K'], E['M']); est_in(br, E['N'], E['K']); est_in(bi, E['N'], E['K'])
    est_out(C, [n, m], E['N'], E['M'])
    return [C], [ar, ai, br, bi]


@spec("cgemm_gauss_3mult", "complex matmul by Gauss's 3-multiplication trick: t1=sum ar*br, t2=sum ai*bi, t3=sum (ar+ai)*(br+bi) as three Funcs; re=t1-t2, im=t3-t1-t2 as two outputs",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']]), (F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K'])), rimg(r, (v['N'], v['K']))], tol=1e-3)
def cgemm_g(S, E):
    ar = hl.ImageParam(F32, 2, "ar"); ai = hl.ImageParam(F32, 2, "ai"); br = hl.ImageParam(F32, 2, "br"); bi = hl.ImageParam(F32, 2, "bi")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    t1 = F("g3_t1"); t1[n, m] = 0.0; t1[n, m] += ar[r, m] * br[n, r]
    t2 = F("g3_t2"); t2[n, m] = 0.0; t2[n, m] += ai[r, m] * bi[n, r]
    t3 = F("g3_t3"); t3[n, m] = 0.0; t3[n, m] += (ar[r, m] + ai[r, m]) * (br[n, r] + bi[n, r])
    re = F("g3_re"); re[n, m] = t1[n, m] - t2[n, m]
    im = F("g3_im"); im[n, m] = t3[n, m] - t1[n, m] - t2[n, m]
    est_in(ar, E['K'], E['M']); est_in(ai, E['K'], E['M']); est_in(br, E['N'], E['K']); est_in(bi, E['N'], E['K'])
    est_out(re, [n, m], E['N'], E['M']); est_out(im, [n, m], E['N'], E['M'])
    return [re, im], [ar, ai, br, bi]


@spec("top2_tuple_cols_u8ties", "per column, a 4-Tuple update keeping (best, argbest, second, argsecond) over RDom(0,H) of u8 data with many ties (strict > keeps the FIRST index): order-dependent, not a plain associative op",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(I32, [v['W']]), (I32, [v['W']]), (I32, [v['W']]), (I32, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8, 0, 15)])
def top2(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, = V("x")
    r = RD((0, S['H']))
    t = F("t2_best")
    t[x] = (hl.i32(-1), hl.i32(-1), hl.i32(-1), hl.i32(-1))
    val = hl.i32(inp[x, r])
    b, ib, s2, is2 = t[x][0], t[x][1], t[x][2], t[x][3]
    gt1 = val > b
    gt2 = val > s2
    t[x] = (hl.select(gt1, val, b), hl.select(gt1, r, ib),
            hl.select(gt1, b, hl.select(gt2, val, s2)), hl.select(gt1, ib, hl.select(gt2, r, is2)))
    est_in(inp, E['W'], E['H']); est_out(t, [x], E['W'])
    return [t], [inp]


@spec("mat2x2_fold_u32_rows", "per row, a non-commutative fold: P = P * [[a_r, b_r],[c_r, d_r]] as a 4-Tuple u32 update (wrapping) over RDom(0,W); associative but not commutative",
      {'W': (1, 2048), 'H': (1, 256)},
      outs=lambda v: [(U32, [v['H']])] * 4,
      data=lambda v, r: [rimg(r, (4, v['W'], v['H']), np.uint32)])
def mat2(S, E):
    inp = hl.ImageParam(U32, 3, "inp")
    y, = V("y")
    r = RD((0, S['W']))
    P = F("m2_P")
    P[y] = (hl.u32(1), hl.u32(0), hl.u32(0), hl.u32(1))
    a, b, c, d = inp[0, r, y], inp[1, r, y], inp[2, r, y], inp[3, r, y]
    p0, p1, p2, p3 = P[y][0], P[y][1], P[y][2], P[y][3]
    P[y] = (p0 * a + p1 * c, p0 * b + p1 * d, p2 * a + p3 * c, p2 * b + p3 * d)
    est_in(inp, 4, E['W'], E['H']); est_out(P, [y], E['H'])
    return [P], [inp]


# ================================ B: image / signal =======================================

@spec("sepblur_update_terms_u16", "separable 3x3 box blur where each tap is a separate update (bx = e[x-1]; bx += e[x]; bx += e[x+1]; same in y over bx), u16 in, u32 accumulators, (s+4)/9 -> u16",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16)])
def sepupd(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    bx = F("su_bx"); bx[x, y] = hl.u32(e[x - 1, y]); bx[x, y] += hl.u32(e[x, y]); bx[x, y] += hl.u32(e[x + 1, y])
    by = F("su_by"); by[x, y] = bx[x, y - 1]; by[x, y] += bx[x, y]; by[x, y] += bx[x, y + 1]
    o = F("su_out"); o[x, y] = hl.u16((by[x, y] + 4) / 9)
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("iir_y_scan_then_x_scan", "first-order causal IIR as in-place scans: along y (c1[x,r] = 0.3*c1[x,r] + 0.7*c1[x,r-1], RDom(1,H-1)), then along x on a second Func; both scans over run-time extents",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4)
def iir_yx(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    ry = RD((1, S['H'] - 1), name="ry")
    c1 = F("iy_c1"); c1[x, y] = inp[x, y]; c1[x, ry] = 0.3 * c1[x, ry] + 0.7 * c1[x, ry - 1]
    rx = RD((1, S['W'] - 1), name="rx")
    c2 = F("iy_c2"); c2[x, y] = c1[x, y]; c2[rx, y] = 0.3 * c2[rx, y] + 0.7 * c2[rx - 1, y]
    o = F("iy_out"); o[x, y] = c2[x, y]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("summed_area_u32_radius_param", "integral image of u8 by two in-place u32 scans (rows then columns), box sum/mean query with radius R a ranged Param and coordinates clamped to the image; 2 outputs (u32 sum, u8 mean)",
      {'W': (1, 640), 'H': (1, 480), 'R': (0, 16)},
      outs=lambda v: [(U32, [v['W'], v['H']]), (U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def sat(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    W, H, R = S['W'], S['H'], S['R']
    rs = F("sa_rows"); rs[x, y] = hl.u32(inp[x, y])
    rx = RD((1, W - 1), name="rx"); rs[rx, y] = rs[rx, y] + rs[rx - 1, y]
    cs = F("sa_sat"); cs[x, y] = rs[x, y]
    ry = RD((1, H - 1), name="ry"); cs[x, ry] = cs[x, ry] + cs[x, ry - 1]

    def Sq(a, b):  # inclusive prefix sum up to (a, b), zero when a or b < 0
        return hl.select((a < 0) | (b < 0), hl.u32(0), cs[hl.clamp(a, 0, W - 1), hl.clamp(b, 0, H - 1)])
    x0 = hl.max(x - R, 0) - 1; x1 = hl.min(x + R, W - 1)
    y0 = hl.max(y - R, 0) - 1; y1 = hl.min(y + R, H - 1)
    bs = F("sa_box"); bs[x, y] = Sq(x1, y1) - Sq(x0, y1) - Sq(x1, y0) + Sq(x0, y0)
    mean = F("sa_mean"); mean[x, y] = hl.u8((bs[x, y] + hl.u32((x1 - x0) * (y1 - y0)) / 2) / hl.u32((x1 - x0) * (y1 - y0)))
    est_in(inp, E['W'], E['H']); est_out(bs, [x, y], E['W'], E['H']); est_out(mean, [x, y], E['W'], E['H'])
    return [bs, mean], [inp]


@spec("histeq_u16_1024bins", "u16 histogram equalization: 1024-bin histogram (in>>6) by scatter over 2-D RDom, CDF in-place scan RDom(1,1023), LUT in u64 arithmetic, gather apply",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(U16, [v['W'], v['H']])],
      data=lambda v, r: [fa(np.clip(r.normal(20000, 6000, (v['W'], v['H'])), 0, 65535).astype(np.uint16))])
def histeq16(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y, b = V("x", "y", "b")
    r = RD((0, S['W']), (0, S['H']), name="rp")
    h = F("he_hist"); h[b] = hl.u32(0); h[hl.i32(inp[r.x, r.y] >> 6)] += hl.u32(1)
    rc = RD((1, 1023), name="rc")
    cdf = F("he_cdf"); cdf[b] = h[b]; cdf[rc] = cdf[rc] + cdf[rc - 1]
    lut = F("he_lut"); lut[b] = hl.u16((hl.u64(cdf[b]) * hl.u64(65535)) / hl.u64(S['W'] * S['H']))
    o = F("he_out"); o[x, y] = lut[hl.i32(inp[x, y] >> 6)]
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("resize_bilinear_fixedpoint_u8", "bilinear resize by run-time scale W/OW, H/OH in 8.8 fixed point (all integer, exact): src = ((2x+1)*W*128)/OW - 128, taps clamped, separable (x pass then y pass), u8 out",
      {'W': (1, 512), 'H': (1, 384), 'OW': (1, 640), 'OH': (1, 480)},
      outs=lambda v: [(U8, [v['OW'], v['OH']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def resize_fp(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    W, H, OW, OH = S['W'], S['H'], S['OW'], S['OH']
    sx = ((2 * x + 1) * W * 128) / OW - 128
    ix = sx >> 8; fx = sx & 255
    rx = F("rz_x")
    rx[x, y] = (hl.i32(inp[hl.clamp(ix, 0, W - 1), y]) * (256 - fx) + hl.i32(inp[hl.clamp(ix + 1, 0, W - 1), y]) * fx)
    sy = ((2 * y + 1) * H * 128) / OH - 128
    iy = sy >> 8; fy = sy & 255
    o = F("rz_out")
    o[x, y] = hl.u8((rx[x, hl.clamp(iy, 0, H - 1)] * (256 - fy) + rx[x, hl.clamp(iy + 1, 0, H - 1)] * fy + (1 << 15)) >> 16)
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['OW'], E['OH'])
    return [o], [inp]


def _down(f, name):
    h = F(name + "_h"); x, y = V("x", "y")
    h[x, y] = f[2 * x - 2, y] + 4 * f[2 * x - 1, y] + 6 * f[2 * x, y] + 4 * f[2 * x + 1, y] + f[2 * x + 2, y]
    d = F(name); d[x, y] = (h[x, 2 * y - 2] + 4 * h[x, 2 * y - 1] + 6 * h[x, 2 * y] + 4 * h[x, 2 * y + 1] + h[x, 2 * y + 2] + 128) >> 8
    return d


def _up(f, name):
    x, y = V("x", "y")
    u = F(name)
    u[x, y] = (f[x / 2, y / 2] * 9 + f[(x + 1) / 2, y / 2] * 3 + f[x / 2, (y + 1) / 2] * 3 + f[(x + 1) / 2, (y + 1) / 2] + 8) >> 4
    return u


@spec("laplacian_pyr3_reconstruct_i32", "integer Gaussian pyramid 3 levels down (5-tap 1-4-6-4-1, >>8), bilinear-ish up (9-3-3-1 >>4), Laplacian levels L0..L2, then reconstruct with gain 2 on L1; outputs L0 and the reconstruction",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16, 0, 4095)])
def lappyr(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    g0 = F("lp_g0"); g0[x, y] = hl.i32(e[x, y])
    g1 = _down(g0, "lp_g1"); g2 = _down(g1, "lp_g2"); g3 = _down(g2, "lp_g3")
    L0 = F("lp_L0"); u1 = _up(g1, "lp_u1"); L0[x, y] = g0[x, y] - u1[x, y]
    L1 = F("lp_L1"); u2 = _up(g2, "lp_u2"); L1[x, y] = g1[x, y] - u2[x, y]
    L2 = F("lp_L2"); u3 = _up(g3, "lp_u3"); L2[x, y] = g2[x, y] - u3[x, y]
    r2 = F("lp_r2"); r2[x, y] = u3[x, y] + L2[x, y]
    ur2 = _up(r2, "lp_ur2")
    r1 = F("lp_r1"); r1[x, y] = ur2[x, y] + 2 * L1[x, y]
    ur1 = _up(r1, "lp_ur1")
    r0 = F("lp_rec"); r0[x, y] = ur1[x, y] + L0[x, y]
    est_in(inp, E['W'], E['H']); est_out(L0, [x, y], E['W'], E['H']); est_out(r0, [x, y], E['W'], E['H'])
    return [L0, r0], [inp]


@spec("demosaic_rggb_mod_select_u16", "RGGB demosaic, all three channels from one Func with hl.select on x%2 / y%2 (bilinear neighbours, u32 rounding), channel as the innermost output dim [c,x,y]",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U16, [3, v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16, 0, 16383)])
def demosaic(S, E):
    raw = hl.ImageParam(U16, 2, "raw")
    c, x, y = V("c", "x", "y")
    e = BF.mirror_image(raw)
    p = lambda dx, dy: hl.u32(e[x + dx, y + dy])
    cross = (p(-1, 0) + p(1, 0) + p(0, -1) + p(0, 1) + 2) / 4
    diag = (p(-1, -1) + p(1, -1) + p(-1, 1) + p(1, 1) + 2) / 4
    hor = (p(-1, 0) + p(1, 0) + 1) / 2
    ver = (p(0, -1) + p(0, 1) + 1) / 2
    ex, ey = x % 2 == 0, y % 2 == 0
    R = hl.select(ex & ey, p(0, 0), ~ex & ey, hor, ex & ~ey, ver, diag)
    G = hl.select(ex == ey, cross, p(0, 0))
    B = hl.select(~ex & ~ey, p(0, 0), ex & ~ey, hor, ~ex & ey, ver, diag)
    o = F("dm_out")
    o[c, x, y] = hl.u16(hl.select(c == 0, R, c == 1, G, B))
    est_in(raw, E['W'], E['H']); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [raw]


@spec("erode_disk_where_radius", "grey erosion with a disk of run-time radius R: RDom(-R..R)^2 .where(rx^2+ry^2 <= R^2), update e = min(e, in_clamped) from 255, then a dilation (max) by the same disk: opening",
      {'W': (1, 512), 'H': (1, 384), 'R': (0, 5)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def erode(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    R = S['R']
    e = BF.repeat_edge(inp)
    r = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rd")
    r.where(r.x * r.x + r.y * r.y <= R * R)
    er = F("ed_erode"); er[x, y] = hl.u8(255); er[x, y] = hl.min(er[x, y], e[x + r.x, y + r.y])
    r2 = RD((-R, 2 * R + 1), (-R, 2 * R + 1), name="rd2")
    r2.where(r2.x * r2.x + r2.y * r2.y <= R * R)
    di = F("ed_open"); di[x, y] = hl.u8(0); di[x, y] = hl.max(di[x, y], er[x + r2.x, y + r2.y])
    est_in(inp, E['W'], E['H']); est_out(di, [x, y], E['W'], E['H'])
    return [di], [inp]


@spec("median9_tuple_colsort_u8", "3x3 median by sorting columns of 3 into a (min, mid, max) Tuple Func, then max-of-mins / median-of-mids / min-of-maxes across x and a final median of 3 (min/max network)",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)])
def med9(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    e = BF.mirror_interior(inp) if False else BF.repeat_edge(inp)
    a, b, c = e[x, y - 1], e[x, y], e[x, y + 1]
    lo = hl.min(a, hl.min(b, c)); hi = hl.max(a, hl.max(b, c))
    mid = hl.max(hl.min(a, b), hl.min(hl.max(a, b), c))
    cs = F("m9_cols"); cs[x, y] = (lo, mid, hi)
    mx_lo = hl.max(cs[x - 1, y][0], hl.max(cs[x, y][0], cs[x + 1, y][0]))
    mn_hi = hl.min(cs[x - 1, y][2], hl.min(cs[x, y][2], cs[x + 1, y][2]))
    p, q, s = cs[x - 1, y][1], cs[x, y][1], cs[x + 1, y][1]
    md_mid = hl.max(hl.min(p, q), hl.min(hl.max(p, q), s))
    o = F("m9_out")
    o[x, y] = hl.max(hl.min(mx_lo, md_mid), hl.min(hl.max(mx_lo, md_mid), mn_hi))
    est_in(inp, E['W'], E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp]


@spec("undistort_nearest_cxy_u8", "radial lens undistortion, nearest-neighbour gather on channels-innermost u8 [c,x,y]: r^2 from a centre (W/2,H/2), factor 1 + k1 r^2 + k2 r^4 (k constants), indices rounded then clamped (data-dependent gather)",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(U8, [3, v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (3, v['W'], v['H']), np.uint8)])
def undistort(S, E):
    inp = hl.ImageParam(U8, 3, "inp")
    c, x, y = V("c", "x", "y")
    W, H = S['W'], S['H']
    co = F("ud_coord")
    cx, cy = hl.f32(W) * 0.5, hl.f32(H) * 0.5
    nrm = 1.0 / (hl.f32(hl.max(W, H)) * 0.5)
    dx = (hl.f32(x) + 0.5 - cx) * nrm
    dy = (hl.f32(y) + 0.5 - cy) * nrm
    r2 = dx * dx + dy * dy
    fac = 1.0 + 0.25 * r2 + 0.0625 * r2 * r2
    # integer coordinates computed in a Func (one evaluation per pixel), so vectorization can't change rounding much
    co[x, y] = (hl.clamp(hl.i32(hl.floor(dx * fac / nrm + cx)), 0, W - 1), hl.clamp(hl.i32(hl.floor(dy * fac / nrm + cy)), 0, H - 1))
    o = F("ud_out"); o[c, x, y] = inp[c, co[x, y][0], co[x, y][1]]
    est_in(inp, 3, E['W'], E['H']); est_out(o, [c, x, y], 3, E['W'], E['H'])
    return [o], [inp]


@spec("tonemap_reinhard_global_max", "Reinhard tone map: luminance, 0-D global max (update over 2-D RDom) and 0-D log-average (hl.sum) feeding a per-pixel, per-channel pointwise map on [W,H,3] f32",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(F32, [v['W'], v['H'], 3])],
      data=lambda v, r: [fa(np.exp(r.standard_normal((v['W'], v['H'], 3))).astype(np.float32))], tol=1e-4)
def tonemap(S, E):
    inp = hl.ImageParam(F32, 3, "inp")
    x, y, c = V("x", "y", "c")
    lum = F("tm_lum"); lum[x, y] = 0.2126 * inp[x, y, 0] + 0.7152 * inp[x, y, 1] + 0.0722 * inp[x, y, 2]
    r = RD((0, S['W']), (0, S['H']), name="rg")
    gmax = F("tm_gmax"); gmax[()] = 0.0; gmax[()] = hl.max(gmax[()], lum[r.x, r.y])
    r2 = RD((0, S['W']), (0, S['H']), name="rl")
    lavg = F("tm_lavg"); lavg[()] = hl.exp(hl.sum(hl.log(lum[r2.x, r2.y] + 1e-4)) / hl.f32(S['W'] * S['H']))
    o = F("tm_out")
    L = lum[x, y] * 0.18 / lavg[()]
    Lw = gmax[()] * 0.18 / lavg[()]
    Ld = L * (1.0 + L / (Lw * Lw)) / (1.0 + L)
    o[x, y, c] = inp[x, y, c] * Ld / lum[x, y]
    est_in(inp, E['W'], E['H'], 3); est_out(o, [x, y, c], E['W'], E['H'], 3)
    return [o], [inp]


@spec("grad_two_outputs_diff_sizes", "one i16 gradient producer (Tuple gx, gy over repeat_edge) feeding two outputs of different sizes: |g|_1 at full res [W,H] and a 2x2-pooled structure sum gx*gx+gy*gy at [(W+1)/2,(H+1)/2]",
      {'W': (1, 1024), 'H': (1, 768)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [(v['W'] + 1) // 2, (v['H'] + 1) // 2])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.int16, -2000, 2000)])
def grad2(S, E):
    inp = hl.ImageParam(I16, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    g = F("g2_grad"); g[x, y] = (hl.i32(e[x + 1, y]) - hl.i32(e[x - 1, y]), hl.i32(e[x, y + 1]) - hl.i32(e[x, y - 1]))
    m = F("g2_mag"); m[x, y] = hl.i32(hl.abs(g[x, y][0]) + hl.abs(g[x, y][1]))
    r = RD((0, 2), (0, 2), name="rp")
    st = F("g2_pool"); st[x, y] = 0
    gg = g[2 * x + r.x, 2 * y + r.y]
    st[x, y] += gg[0] * gg[0] + gg[1] * gg[1]
    est_in(inp, E['W'], E['H']); est_out(m, [x, y], E['W'], E['H']); est_out(st, [x, y], _half(E['W']), _half(E['H']))
    return [m, st], [inp]


@spec("volume_mip_mean_z", "3-D volume [W,H,D] u16: max-intensity projection initialised from slice z=0 then update over RDom(1,D-1), plus mean over z (u32 sum / D, rounded) as a second output",
      {'W': (1, 256), 'H': (1, 256), 'D': (1, 64)},
      outs=lambda v: [(U16, [v['W'], v['H']]), (U16, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], v['D']), np.uint16)])
def volmip(S, E):
    vol = hl.ImageParam(U16, 3, "vol")
    x, y = V("x", "y")
    rz = RD((1, S['D'] - 1), name="rz")
    mip = F("vm_mip"); mip[x, y] = vol[x, y, 0]; mip[x, y] = hl.max(mip[x, y], vol[x, y, rz])
    rs = RD((0, S['D']), name="rs")
    sm = F("vm_sum"); sm[x, y] = hl.u32(0); sm[x, y] += hl.u32(vol[x, y, rs])
    mean = F("vm_mean"); mean[x, y] = hl.u16((sm[x, y] + hl.u32(S['D']) / 2) / hl.u32(S['D']))
    est_in(vol, E['W'], E['H'], E['D']); est_out(mip, [x, y], E['W'], E['H']); est_out(mean, [x, y], E['W'], E['H'])
    return [mip, mean], [vol]


# ================================ A2: contraction variants added after the first pass ==========

@spec("trmm_lower_where", "triangular matmul: C[n,m] = sum_k A[k,m]*B[n,k] over RDom(0,K).where(k <= m) (only the lower triangle of A used), M = K both ranged",
      {'M': (1, 192), 'N': (1, 192)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['M'], v['M'])), rimg(r, (v['N'], v['M']))], tol=1e-4)
def trmm(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['M']))
    r.where(r <= m)
    C = F("tr_C"); C[n, m] = 0.0; C[n, m] += A[r, m] * B[n, r]
    est_in(A, E['M'], E['M']); est_in(B, E['N'], E['M']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("matmul_out_min_offset", "plain NN matmul C[n,m] += A[k,m-5]*B[n+3,k] but the OUTPUT buffer has mins (-3, 5) (operand indices shifted to stay in bounds)",
      {'M': (1, 160), 'N': (1, 160), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']], [-3, 5])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def mmoff(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("mo_C"); C[n, m] = 0.0; C[n, m] += A[r, m - 5] * B[n + 3, r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'], mins=[-3, 5])
    return [C], [A, B]


@spec("decayed_accum_nonassoc", "looks like a matmul but is NOT a sum: C[n,m] = 0.75*C[n,m] + A[k,m]*B[n,k] over RDom(0,K) (exponentially decayed, order-dependent accumulation)",
      {'M': (1, 160), 'N': (1, 160), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def decay(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("da_C"); C[n, m] = 0.0; C[n, m] = hl.f32(0.75) * C[n, m] + A[r, m] * B[n, r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("maxplus_matmul_i32", "tropical (max,+) matmul on i32: C[n,m] = max(C, A[k,m]+B[n,k]) from INT_MIN/2 over RDom(0,K) (exact)",
      {'M': (1, 192), 'N': (1, 192), 'K': (1, 192)},
      outs=lambda v: [(I32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M']), np.int32, -1000, 1000), rimg(r, (v['N'], v['K']), np.int32, -1000, 1000)])
def maxplus(S, E):
    A = hl.ImageParam(I32, 2, "A"); B = hl.ImageParam(I32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("mp_C"); C[n, m] = hl.i32(-(1 << 30)); C[n, m] = hl.max(C[n, m], A[r, m] + B[n, r])
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("bmm_heads_middle_4d", "4-D attention-style projection, heads and batch in the middle: out[n,h,b,t] = sum_k W[n,k,h]*X[k,b,t] (weights per head, X shared across heads)",
      {'N': (1, 64), 'H': (1, 8), 'B': (1, 4), 'T': (1, 64), 'K': (1, 64)},
      outs=lambda v: [(F32, [v['N'], v['H'], v['B'], v['T']])],
      data=lambda v, r: [rimg(r, (v['K'], v['B'], v['T'])), rimg(r, (v['N'], v['K'], v['H']))], tol=1e-4)
def bmm4(S, E):
    X = hl.ImageParam(F32, 3, "X"); Wt = hl.ImageParam(F32, 3, "Wt")
    n, h, b, t = V("n", "h", "b", "t")
    r = RD((0, S['K']))
    o = F("bh_out"); o[n, h, b, t] = 0.0; o[n, h, b, t] += Wt[n, r, h] * X[r, b, t]
    est_in(X, E['K'], E['B'], E['T']); est_in(Wt, E['N'], E['K'], E['H']); est_out(o, [n, h, b, t], E['N'], E['H'], E['B'], E['T'])
    return [o], [X, Wt]


@spec("matmul_rowscale_3op", "three-operand product in one += : C[n,m] += s[m]*A[k,m]*B[n,k]*g[k] (a row scale and a per-k gain, both 1-D)",
      {'M': (1, 192), 'N': (1, 192), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K'])), rimg(r, (v['M'],)), rimg(r, (v['K'],))], tol=1e-4)
def rowscale(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); s = hl.ImageParam(F32, 1, "s"); g = hl.ImageParam(F32, 1, "g")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("rs_C"); C[n, m] = 0.0; C[n, m] += s[m] * A[r, m] * B[n, r] * g[r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_in(s, E['M']); est_in(g, E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B, s, g]


@spec("rgb_planes_middle_contract", "per-colour-plane contraction with the 3 colour planes as the MIDDLE dim (constant extent 3): out[n,c,m] = sum_k Wt[n,k]*X[k,c,m] (e.g. a learned 1-D filter bank applied to each RGB row)",
      {'N': (1, 256), 'M': (1, 256), 'K': (1, 64)},
      outs=lambda v: [(F32, [v['N'], 3, v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], 3, v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def rgbmid(S, E):
    X = hl.ImageParam(F32, 3, "X"); Wt = hl.ImageParam(F32, 2, "Wt")
    n, c, m = V("n", "c", "m")
    r = RD((0, S['K']))
    o = F("rgbm_out"); o[n, c, m] = 0.0; o[n, c, m] += Wt[n, r] * X[r, c, m]
    est_in(X, E['K'], 3, E['M']); est_in(Wt, E['N'], E['K']); est_out(o, [n, c, m], E['N'], 3, E['M'])
    return [o], [X, Wt]


@spec("matmul_strided_reversed_ops", "matmul whose operands are read strided and reversed: C[n,m] += A[k, 2m+1] * B[N-1-n, k] (A is [K, 2M+1])",
      {'M': (1, 160), 'N': (1, 160), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], 2 * v['M'] + 1)), rimg(r, (v['N'], v['K']))], tol=1e-4)
def mmstrrev(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("sr_C"); C[n, m] = 0.0; C[n, m] += A[r, 2 * m + 1] * B[S['N'] - 1 - n, r]
    est_in(A, E['K'], 2 * E['M'] + 1); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("matmul_gathered_rows_idx", "embedding-bag style: C[n,m] += A[k, idx[m]] * B[n, k], row of A chosen by an i32 index buffer (data-dependent gather inside the contraction; idx clamped to [0,V-1])",
      {'M': (1, 160), 'N': (1, 160), 'K': (1, 128), 'NV': (1, 64)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['NV'])), rimg(r, (v['N'], v['K'])), rimg(r, (v['M'],), np.int32, -3, v['NV'] + 3)], tol=1e-4)
def mmgather(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); idx = hl.ImageParam(I32, 1, "idx")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    row = hl.clamp(idx[m], 0, S['NV'] - 1)
    C = F("gr_C"); C[n, m] = 0.0; C[n, m] += A[r, row] * B[n, r]
    est_in(A, E['K'], E['NV']); est_in(B, E['N'], E['K']); est_in(idx, E['M']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B, idx]


@spec("contract_batch_middle_small_range", "same class as bmm_shared_w_batch_middle with the middle (batch) dim ranged 1..3 only: out[n,g,t] = sum_k W[n,k]*X[k,g,t] (G groups, e.g. a stereo pair or RGB)",
      {'N': (1, 128), 'G': (1, 3), 'T': (1, 96), 'K': (1, 64)},
      outs=lambda v: [(F32, [v['N'], v['G'], v['T']])],
      data=lambda v, r: [rimg(r, (v['K'], v['G'], v['T'])), rimg(r, (v['N'], v['K']))], tol=1e-4)
def bmsmall(S, E):
    X = hl.ImageParam(F32, 3, "X"); Wt = hl.ImageParam(F32, 2, "Wt")
    n, g, t = V("n", "g", "t")
    r = RD((0, S['K']))
    o = F("cbs_out"); o[n, g, t] = 0.0; o[n, g, t] += Wt[n, r] * X[r, g, t]
    est_in(X, E['K'], E['G'], E['T']); est_in(Wt, E['N'], E['K']); est_out(o, [n, g, t], E['N'], E['G'], E['T'])
    return [o], [X, Wt]
