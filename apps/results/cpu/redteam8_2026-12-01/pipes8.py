"""Red-team round 8 pipelines for Diet: names and styles not used by rounds 1-7. Same spec format as
../redteam3_fixes_2026-11-30/pipes.py (see ../redteam7_2026-11-30/pipes7.py), plus `target`: 'A' = AVX-512
target, 'B' = AVX2 target (run8.py sets RT6_TARGET from it).
Group A: contractions in other spellings. Group B: image/signal pipelines."""
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
TARGETS = {'A': "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41",
           'B': "x86-64-linux-avx-avx2-f16c-fma-sse41"}


def rimg(rng, shape, dtype=np.float32, lo=None, hi=None):
    if dtype in (np.float32, np.float64):
        return fa(rng.standard_normal(shape).astype(dtype))
    info = np.iinfo(dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return fa(rng.integers(lo, hi + 1, size=shape, dtype=np.int64 if dtype != np.uint64 else np.uint64).astype(dtype))


def RD(*pairs, name="r"):
    return hl.RDom([hl.Range(a, b) for a, b in pairs], name)


def idiv(a, b):
    return a // b if isinstance(a, int) else a / b


def half(e):
    return e // 2 if isinstance(e, int) else e / 2


# ================================ A: contractions =========================================

@spec("contract_through_transpose_func", "C[n,m] += X[k,m] * Wt[n,k] where Wt is a pure transpose Func of W stored [K,N] (k innermost): the operand reaches the contraction through Wt[n,k] = W[k,n]",
      {'M': (1, 192), 'N': (1, 192), 'K': (1, 160)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'], v['N']))], tol=1e-4, target='A')
def ctt(S, E):
    X = hl.ImageParam(F32, 2, "X"); W = hl.ImageParam(F32, 2, "W")
    n, m, k = V("n", "m", "k")
    Wt = F("ctt_Wt"); Wt[n, k] = W[k, n]
    r = RD((0, S['K']))
    C = F("ctt_C"); C[n, m] = 0.0; C[n, m] += X[r, m] * Wt[n, r]
    est_in(X, E['K'], E['M']); est_in(W, E['K'], E['N']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [X, W]


@spec("u8_x_i8_nt_i32_and_sat", "u8 A[K,M] x i8 B[K,N] (both k innermost, 'NT'), i32 products, i32 sum; second output = saturating u8 of (acc >> 6) + 128",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 257)},
      outs=lambda v: [(I32, [v['N'], v['M']]), (U8, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M']), np.uint8), rimg(r, (v['K'], v['N']), np.int8)], target='B')
def u8i8(S, E):
    A = hl.ImageParam(U8, 2, "A"); B = hl.ImageParam(I8, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    acc = F("ui_acc"); acc[n, m] = hl.i32(0); acc[n, m] += hl.i32(A[r, m]) * hl.i32(B[r, n])
    q = F("ui_q"); q[n, m] = hl.saturating_cast(U8, (acc[n, m] >> 6) + 128)
    est_in(A, E['K'], E['M']); est_in(B, E['K'], E['N']); est_out(acc, [n, m], E['N'], E['M']); est_out(q, [n, m], E['N'], E['M'])
    return [acc, q], [A, B]


@spec("matmul_bias_layernorm_epilogue", "Y[d,t] = b[d] + sum_k W[d,k]*X[k,t]; then layernorm over d (mean, var by hl.sum over RDom(0,D)), * g[d] + beta[d]",
      {'D': (1, 256), 'T': (1, 64), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['D'], v['T']])],
      data=lambda v, r: [rimg(r, (v['D'], v['K'])), rimg(r, (v['K'], v['T'])), rimg(r, (v['D'],)), rimg(r, (v['D'],)), rimg(r, (v['D'],))],
      tol=2e-3, target='A')
def mmln(S, E):
    W = hl.ImageParam(F32, 2, "W"); X = hl.ImageParam(F32, 2, "X")
    b = hl.ImageParam(F32, 1, "b"); g = hl.ImageParam(F32, 1, "g"); be = hl.ImageParam(F32, 1, "be")
    d, t = V("d", "t")
    r = RD((0, S['K']))
    Y = F("ln_Y"); Y[d, t] = b[d]; Y[d, t] += W[d, r] * X[r, t]
    rd = RD((0, S['D']), name="rd")
    mean = F("ln_mean"); mean[t] = hl.sum(Y[rd, t]) / hl.f32(S['D'])
    rv = RD((0, S['D']), name="rv")
    var = F("ln_var"); var[t] = hl.sum((Y[rv, t] - mean[t]) * (Y[rv, t] - mean[t])) / hl.f32(S['D'])
    o = F("ln_out"); o[d, t] = (Y[d, t] - mean[t]) / hl.sqrt(var[t] + 1e-5) * g[d] + be[d]
    est_in(W, E['D'], E['K']); est_in(X, E['K'], E['T']); est_in(b, E['D']); est_in(g, E['D']); est_in(be, E['D'])
    est_out(o, [d, t], E['D'], E['T'])
    return [o], [W, X, b, g, be]


@spec("gemv_and_gemv_t_shared_A", "two outputs sharing A[K,M]: y1[m] = sum_k A[k,m]*x[k] (row dot, contiguous) and y2[k] = sum_m A[k,m]*z[m] (A^T z, output index innermost)",
      {'M': (1, 1500), 'K': (1, 1500)},
      outs=lambda v: [(F32, [v['M']]), (F32, [v['K']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'],)), rimg(r, (v['M'],))], tol=1e-3, target='B')
def gemv2(S, E):
    A = hl.ImageParam(F32, 2, "A"); x = hl.ImageParam(F32, 1, "x"); z = hl.ImageParam(F32, 1, "z")
    m, k = V("m", "k")
    r1 = RD((0, S['K']), name="r1"); r2 = RD((0, S['M']), name="r2")
    y1 = F("g2_y1"); y1[m] = 0.0; y1[m] += A[r1, m] * x[r1]
    y2 = F("g2_y2"); y2[k] = 0.0; y2[k] += A[k, r2] * z[r2]
    est_in(A, E['K'], E['M']); est_in(x, E['K']); est_in(z, E['M']); est_out(y1, [m], E['M']); est_out(y2, [k], E['K'])
    return [y1, y2], [A, x, z]


@spec("outer_u16_widen_j_inner", "pure outer product with widening: o[j,i] = u32(a[i]) * u32(b[j]) + u32(c[i]) (output j innermost, reading b contiguously, a broadcast)",
      {'M': (1, 2000), 'N': (1, 700)},
      outs=lambda v: [(U32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['M'],), np.uint16), rimg(r, (v['N'],), np.uint16), rimg(r, (v['M'],), np.uint16)], target='A')
def outer16(S, E):
    a = hl.ImageParam(U16, 1, "a"); b = hl.ImageParam(U16, 1, "b"); c = hl.ImageParam(U16, 1, "c")
    j, i = V("j", "i")
    o = F("ou_o"); o[j, i] = hl.u32(a[i]) * hl.u32(b[j]) + hl.u32(c[i])
    est_in(a, E['M']); est_in(b, E['N']); est_in(c, E['M']); est_out(o, [j, i], E['N'], E['M'])
    return [o], [a, b, c]


@spec("contract_4d_two_middle_axes", "out[i,l,m] = sum_{j,k} X[i,j,k,m] * W[j,k,l]: 4-D input contracted over its two middle axes by a 2-D RDom",
      {'I': (1, 16), 'J': (1, 8), 'K': (1, 8), 'L': (1, 32), 'M': (1, 24)},
      outs=lambda v: [(F32, [v['I'], v['L'], v['M']])],
      data=lambda v, r: [rimg(r, (v['I'], v['J'], v['K'], v['M'])), rimg(r, (v['J'], v['K'], v['L']))], tol=1e-4, target='B')
def c4d(S, E):
    X = hl.ImageParam(F32, 4, "X"); W = hl.ImageParam(F32, 3, "W")
    i, l, m = V("i", "l", "m")
    r = RD((0, S['J']), (0, S['K']))
    o = F("c4_o"); o[i, l, m] = 0.0; o[i, l, m] += X[i, r.x, r.y, m] * W[r.x, r.y, l]
    est_in(X, E['I'], E['J'], E['K'], E['M']); est_in(W, E['J'], E['K'], E['L']); est_out(o, [i, l, m], E['I'], E['L'], E['M'])
    return [o], [X, W]


@spec("bmm_lhs_m_inner_batch_last", "batched, LHS stored with m innermost and batch the LAST dim everywhere: out[n,m,b] += A[m,k,b] * B[k,n,b]",
      {'M': (1, 96), 'N': (1, 96), 'K': (1, 64), 'B': (1, 5)},
      outs=lambda v: [(F32, [v['N'], v['M'], v['B']])],
      data=lambda v, r: [rimg(r, (v['M'], v['K'], v['B'])), rimg(r, (v['K'], v['N'], v['B']))], tol=1e-4, target='A')
def bmmlast(S, E):
    A = hl.ImageParam(F32, 3, "A"); B = hl.ImageParam(F32, 3, "Bop")
    n, m, b = V("n", "m", "b")
    r = RD((0, S['K']))
    o = F("bl_o"); o[n, m, b] = 0.0; o[n, m, b] += A[m, r, b] * B[r, n, b]
    est_in(A, E['M'], E['K'], E['B']); est_in(B, E['K'], E['N'], E['B']); est_out(o, [n, m, b], E['N'], E['M'], E['B'])
    return [o], [A, B]


@spec("bilinear_form_batched_2rdom", "out[b] = sum_{i,j} x[i,b] * W[i,j] * y[j,b]: a batched bilinear form, 2-D RDom, 1-D output",
      {'NI': (1, 128), 'NJ': (1, 128), 'B': (1, 64)},
      outs=lambda v: [(F32, [v['B']])],
      data=lambda v, r: [rimg(r, (v['NI'], v['B'])), rimg(r, (v['NI'], v['NJ'])), rimg(r, (v['NJ'], v['B']))], tol=1e-3, target='B')
def bilin(S, E):
    x = hl.ImageParam(F32, 2, "x"); W = hl.ImageParam(F32, 2, "W"); y = hl.ImageParam(F32, 2, "y")
    b, = V("b")
    r = RD((0, S['NI']), (0, S['NJ']))
    o = F("bf_o"); o[b] = 0.0; o[b] += x[r.x, b] * W[r.x, r.y] * y[r.y, b]
    est_in(x, E['NI'], E['B']); est_in(W, E['NI'], E['NJ']); est_in(y, E['NJ'], E['B']); est_out(o, [b], E['B'])
    return [o], [x, W, y]


@spec("f64_colmajor_gemm_hlsum", "f64 column-major GEMM C(m,n) = hl.sum(A(m,k)*B(k,n)) (inline hl.sum, m innermost everywhere)",
      {'M': (1, 150), 'N': (1, 150), 'K': (1, 100)},
      outs=lambda v: [(F64, [v['M'], v['N']])],
      data=lambda v, r: [rimg(r, (v['M'], v['K']), np.float64), rimg(r, (v['K'], v['N']), np.float64)], tol=1e-10, target='A')
def f64cm(S, E):
    A = hl.ImageParam(F64, 2, "A"); B = hl.ImageParam(F64, 2, "B")
    m, n = V("m", "n")
    r = RD((0, S['K']))
    C = F("fc_C"); C[m, n] = hl.sum(A[m, r] * B[r, n])
    est_in(A, E['M'], E['K']); est_in(B, E['K'], E['N']); est_out(C, [m, n], E['M'], E['N'])
    return [C], [A, B]


@spec("sat_accum_i16_nonassoc", "looks like an int matmul but accumulates with saturation in i16: C = sat_i16(i32(C) + i32(A[k,m])*i32(B[n,k])) over K (order-dependent, not associative)",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 200)},
      outs=lambda v: [(I16, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M']), np.int8), rimg(r, (v['N'], v['K']), np.int8, -40, 127)], target='B')
def satacc(S, E):
    A = hl.ImageParam(I8, 2, "A"); B = hl.ImageParam(I8, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("sa_C"); C[n, m] = hl.i16(0)
    C[n, m] = hl.saturating_cast(I16, hl.i32(C[n, m]) + hl.i32(A[r, m]) * hl.i32(B[n, r]))
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("classifier_head_softmax_argmax", "logits[c,b] = bias[c] + sum_k W[k,c]*x[k,b]; row softmax over classes c (max, exp, sum over RDom(0,C)); second output pred[b] = hl.argmax over c",
      {'C': (1, 1000), 'K': (1, 256), 'B': (1, 8)},
      outs=lambda v: [(F32, [v['C'], v['B']]), (I32, [v['B']])],
      data=lambda v, r: [rimg(r, (v['K'], v['C'])), rimg(r, (v['K'], v['B'])), rimg(r, (v['C'],))], tol=1e-4, target='A')
def clf(S, E):
    W = hl.ImageParam(F32, 2, "W"); x = hl.ImageParam(F32, 2, "x"); bias = hl.ImageParam(F32, 1, "bias")
    c, b = V("c", "b")
    r = RD((0, S['K']))
    lg = F("ch_logits"); lg[c, b] = bias[c]; lg[c, b] += W[r, c] * x[r, b]
    rc = RD((0, S['C']), name="rc")
    mx = F("ch_max"); mx[b] = hl.maximum(lg[rc, b])
    ex = F("ch_exp"); ex[c, b] = hl.exp(lg[c, b] - mx[b])
    rs = RD((0, S['C']), name="rs")
    sm = F("ch_sum"); sm[b] = hl.sum(ex[rs, b])
    p = F("ch_p"); p[c, b] = ex[c, b] / sm[b]
    ra = RD((0, S['C']), name="ra")
    pred = F("ch_pred"); pred[b] = hl.argmax(lg[ra, b])[0]
    est_in(W, E['K'], E['C']); est_in(x, E['K'], E['B']); est_in(bias, E['C'])
    est_out(p, [c, b], E['C'], E['B']); est_out(pred, [b], E['B'])
    return [p, pred], [W, x, bias]


@spec("dw3x3_then_pw_relu_cxy", "depthwise 3x3 (repeat_edge) then pointwise 1x1 contraction over channels, channels innermost [c,x,y], ReLU: pw[o,x,y] = max(0, sum_c Wp[o,c]*dw[c,x,y])",
      {'C': (1, 32), 'O': (1, 48), 'W': (1, 64), 'H': (1, 48)},
      outs=lambda v: [(F32, [v['O'], v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['C'], v['W'], v['H'])), rimg(r, (v['C'], 3, 3)), rimg(r, (v['O'], v['C']))], tol=1e-4, target='B')
def dwpw(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); wd = hl.ImageParam(F32, 3, "wd"); wp = hl.ImageParam(F32, 2, "wp")
    c, o, x, y = V("c", "o", "x", "y")
    e = BF.repeat_edge(inp)
    r = RD((0, 3), (0, 3))
    dw = F("dp_dw"); dw[c, x, y] = 0.0; dw[c, x, y] += e[c, x + r.x - 1, y + r.y - 1] * wd[c, r.x, r.y]
    rc = RD((0, S['C']), name="rc")
    pw = F("dp_pw"); pw[o, x, y] = 0.0; pw[o, x, y] += wp[o, rc] * dw[rc, x, y]
    out = F("dp_out"); out[o, x, y] = hl.max(pw[o, x, y], 0.0)
    est_in(inp, E['C'], E['W'], E['H']); est_in(wd, E['C'], 3, 3); est_in(wp, E['O'], E['C'])
    est_out(out, [o, x, y], E['O'], E['W'], E['H'])
    return [out], [inp, wd, wp]


@spec("kron_product_divmod_params", "Kronecker product by run-time div/mod: out[x,y] = A[x / NB, y / MB] * B[x % NB, y % MB], out is [NA*NB, MA*MB]",
      {'NA': (1, 24), 'MA': (1, 24), 'NB': (1, 24), 'MB': (1, 24)},
      outs=lambda v: [(F32, [v['NA'] * v['NB'], v['MA'] * v['MB']])],
      data=lambda v, r: [rimg(r, (v['NA'], v['MA'])), rimg(r, (v['NB'], v['MB']))], tol=1e-6, target='A')
def kron(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    x, y = V("x", "y")
    o = F("kr_o"); o[x, y] = A[x / S['NB'], y / S['MB']] * B[x % S['NB'], y % S['MB']]
    est_in(A, E['NA'], E['MA']); est_in(B, E['NB'], E['MB']); est_out(o, [x, y], E['NA'] * E['NB'], E['MA'] * E['MB'])
    return [o], [A, B]


@spec("f64_AtAx_two_matvecs", "f64 y = A^T (A x): t[m] = sum_k A[k,m]*x[k] (row dot), y[k] = sum_m A[k,m]*t[m] (the other layout) chained",
      {'M': (1, 600), 'K': (1, 600)},
      outs=lambda v: [(F64, [v['K']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M']), np.float64), rimg(r, (v['K'],), np.float64)], tol=1e-10, target='B')
def atax(S, E):
    A = hl.ImageParam(F64, 2, "A"); x = hl.ImageParam(F64, 1, "x")
    m, k = V("m", "k")
    r1 = RD((0, S['K']), name="r1"); r2 = RD((0, S['M']), name="r2")
    t = F("ax_t"); t[m] = hl.f64(0); t[m] += A[r1, m] * x[r1]
    y = F("ax_y"); y[k] = hl.f64(0); y[k] += A[k, r2] * t[r2]
    est_in(A, E['K'], E['M']); est_in(x, E['K']); est_out(y, [k], E['K'])
    return [y], [A, x]


@spec("tensor4d_contract_axes_1_3", "out[i,k] = sum_{j,l} T[i,j,k,l] * Mx[j,l]: contraction over two NON-adjacent axes of a 4-D tensor",
      {'I': (1, 32), 'J': (1, 16), 'K': (1, 32), 'L': (1, 16)},
      outs=lambda v: [(F32, [v['I'], v['K']])],
      data=lambda v, r: [rimg(r, (v['I'], v['J'], v['K'], v['L'])), rimg(r, (v['J'], v['L']))], tol=1e-4, target='A')
def t4(S, E):
    T = hl.ImageParam(F32, 4, "T"); Mx = hl.ImageParam(F32, 2, "Mx")
    i, k = V("i", "k")
    r = RD((0, S['J']), (0, S['L']))
    o = F("t4_o"); o[i, k] = 0.0; o[i, k] += T[i, r.x, k, r.y] * Mx[r.x, r.y]
    est_in(T, E['I'], E['J'], E['K'], E['L']); est_in(Mx, E['J'], E['L']); est_out(o, [i, k], E['I'], E['K'])
    return [o], [T, Mx]


@spec("trace_AA_per_batch", "t[b] = trace(A_b A_b) = sum_{i,k} A[i,k,b] * A[k,i,b] (same input read straight and transposed in one 2-D RDom)",
      {'N': (1, 64), 'B': (1, 16)},
      outs=lambda v: [(F32, [v['B']])],
      data=lambda v, r: [rimg(r, (v['N'], v['N'], v['B']))], tol=1e-3, target='B')
def traa(S, E):
    A = hl.ImageParam(F32, 3, "A")
    b, = V("b")
    r = RD((0, S['N']), (0, S['N']))
    t = F("tr_t"); t[b] = 0.0; t[b] += A[r.x, r.y, b] * A[r.y, r.x, b]
    est_in(A, E['N'], E['N'], E['B']); est_out(t, [b], E['B'])
    return [t], [A]


@spec("popcount_hamming_matrix_u64", "binary-net style: D[i,j] = sum_k popcount(A[k,i] ^ B[k,j]) over u64 words, u32 result (a contraction with xor/popcount instead of mul/add)",
      {'M': (1, 256), 'N': (1, 256), 'K': (1, 32)},
      outs=lambda v: [(U32, [v['M'], v['N']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M']), np.uint64, 0, 2**64 - 1), rimg(r, (v['K'], v['N']), np.uint64, 0, 2**64 - 1)], target='A')
def hamm(S, E):
    A = hl.ImageParam(U64, 2, "A"); B = hl.ImageParam(U64, 2, "B")
    i, j = V("i", "j")
    r = RD((0, S['K']))
    D = F("hm_D"); D[i, j] = hl.u32(0); D[i, j] += hl.u32(hl.popcount(A[r, i] ^ B[r, j]))
    est_in(A, E['K'], E['M']); est_in(B, E['K'], E['N']); est_out(D, [i, j], E['M'], E['N'])
    return [D], [A, B]


@spec("cdist_l1_manhattan", "pairwise L1 distances D[j,i] = sum_k |X[k,i] - Y[k,j]| (contraction-shaped, but not a product)",
      {'M': (1, 200), 'N': (1, 200), 'K': (1, 64)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['K'], v['N']))], tol=1e-4, target='B')
def cdist(S, E):
    X = hl.ImageParam(F32, 2, "X"); Y = hl.ImageParam(F32, 2, "Y")
    j, i = V("j", "i")
    r = RD((0, S['K']))
    D = F("cd_D"); D[j, i] = 0.0; D[j, i] += hl.abs(X[r, i] - Y[r, j])
    est_in(X, E['K'], E['M']); est_in(Y, E['K'], E['N']); est_out(D, [j, i], E['N'], E['M'])
    return [D], [X, Y]


@spec("tiny_bmm_all_1to4", "batched matmul with EVERY extent ranged 1..4 (M, N, K, B): out[n,m,b] += A[k,m,b]*B[n,k,b]",
      {'M': (1, 4), 'N': (1, 4), 'K': (1, 4), 'B': (1, 4)},
      outs=lambda v: [(F32, [v['N'], v['M'], v['B']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'], v['B'])), rimg(r, (v['N'], v['K'], v['B']))], tol=1e-5, target='A')
def tiny(S, E):
    A = hl.ImageParam(F32, 3, "A"); B = hl.ImageParam(F32, 3, "Bop")
    n, m, b = V("n", "m", "b")
    r = RD((0, S['K']))
    o = F("tb_o"); o[n, m, b] = 0.0; o[n, m, b] += A[r, m, b] * B[n, r, b]
    est_in(A, E['K'], E['M'], E['B']); est_in(B, E['N'], E['K'], E['B']); est_out(o, [n, m, b], E['N'], E['M'], E['B'])
    return [o], [A, B]


@spec("flattened_index_divmod_contract", "out[a,d] = sum_q X[a, q % B, q / B] * Y[q % B, q / B, d] with q over RDom(0, B*C): two axes contracted through ONE flattened RDom index and run-time div/mod",
      {'A': (1, 64), 'B': (1, 12), 'C': (1, 12), 'D': (1, 64)},
      outs=lambda v: [(F32, [v['A'], v['D']])],
      data=lambda v, r: [rimg(r, (v['A'], v['B'], v['C'])), rimg(r, (v['B'], v['C'], v['D']))], tol=1e-4, target='B')
def flatq(S, E):
    X = hl.ImageParam(F32, 3, "X"); Y = hl.ImageParam(F32, 3, "Y")
    a, d = V("a", "d")
    r = RD((0, S['B'] * S['C']))
    o = F("fq_o"); o[a, d] = 0.0; o[a, d] += X[a, r % S['B'], r / S['B']] * Y[r % S['B'], r / S['B'], d]
    est_in(X, E['A'], E['B'], E['C']); est_in(Y, E['B'], E['C'], E['D']); est_out(o, [a, d], E['A'], E['D'])
    return [o], [X, Y]


@spec("batched_matvec_batch_innermost", "y[b,i] = sum_k A[b,k,i] * x[b,k]: batch innermost in every buffer, matrix-vector per batch",
      {'B': (1, 16), 'M': (1, 256), 'K': (1, 256)},
      outs=lambda v: [(F32, [v['B'], v['M']])],
      data=lambda v, r: [rimg(r, (v['B'], v['K'], v['M'])), rimg(r, (v['B'], v['K']))], tol=1e-3, target='B')
def bmvi(S, E):
    A = hl.ImageParam(F32, 3, "A"); x = hl.ImageParam(F32, 2, "x")
    b, i = V("b", "i")
    r = RD((0, S['K']))
    y = F("bv_y"); y[b, i] = 0.0; y[b, i] += A[b, r, i] * x[b, r]
    est_in(A, E['B'], E['K'], E['M']); est_in(x, E['B'], E['K']); est_out(y, [b, i], E['B'], E['M'])
    return [y], [A, x]


@spec("outer3_tiny_first_dim", "three-way outer product o[i,j,k] = a[i]*b[j]*c[k] + i with the innermost extent ranged 1..3, plus a second output s[j,k] = sum_i o[i,j,k] (reads the first output)",
      {'I': (1, 3), 'J': (1, 300), 'K': (1, 7)},
      outs=lambda v: [(F32, [v['I'], v['J'], v['K']]), (F32, [v['J'], v['K']])],
      data=lambda v, r: [rimg(r, (v['I'],)), rimg(r, (v['J'],)), rimg(r, (v['K'],))], tol=1e-5, target='A')
def outer3(S, E):
    a = hl.ImageParam(F32, 1, "a"); b = hl.ImageParam(F32, 1, "b"); c = hl.ImageParam(F32, 1, "c")
    i, j, k = V("i", "j", "k")
    o = F("o3_o"); o[i, j, k] = a[i] * b[j] * c[k] + hl.f32(i)
    r = RD((0, S['I']))
    s = F("o3_s"); s[j, k] = 0.0; s[j, k] += o[r, j, k]
    est_in(a, E['I']); est_in(b, E['J']); est_in(c, E['K']); est_out(o, [i, j, k], E['I'], E['J'], E['K']); est_out(s, [j, k], E['J'], E['K'])
    return [o, s], [a, b, c]


@spec("complex_fir_tuple_f64", "complex FIR in f64 as a Tuple (re, im) update: y[n] += h[t] * x[n+t] over RDom(0,T) (complex multiply-accumulate)",
      {'N': (1, 4000), 'T': (1, 33)},
      outs=lambda v: [(F64, [v['N']]), (F64, [v['N']])],
      data=lambda v, r: [rimg(r, (v['N'] + v['T'],), np.float64), rimg(r, (v['N'] + v['T'],), np.float64),
                         rimg(r, (v['T'],), np.float64), rimg(r, (v['T'],), np.float64)], tol=1e-10, target='A')
def cfir(S, E):
    xr = hl.ImageParam(F64, 1, "xr"); xi = hl.ImageParam(F64, 1, "xi"); hr = hl.ImageParam(F64, 1, "hr"); hi_ = hl.ImageParam(F64, 1, "hi")
    n, = V("n")
    r = RD((0, S['T']))
    y = F("cf_y"); y[n] = (hl.f64(0), hl.f64(0))
    ar, ai, br, bi = hr[r], hi_[r], xr[n + r], xi[n + r]
    y[n] = (y[n][0] + ar * br - ai * bi, y[n][1] + ar * bi + ai * br)
    est_in(xr, E['N'] + E['T']); est_in(xi, E['N'] + E['T']); est_in(hr, E['T']); est_in(hi_, E['T']); est_out(y, [n], E['N'])
    return [y], [xr, xi, hr, hi_]


# ================================ B: image / signal =======================================

@spec("masked_argmin_tuple_where_rows", "per row y: Tuple (min value, argmin x) over RDom(0,W).where(mask[r,y] != 0) of u16 data with ties (strict < keeps the first); -1 when the row is all masked",
      {'W': (1, 700), 'H': (1, 300)},
      outs=lambda v: [(I32, [v['H']]), (I32, [v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16, 0, 20), rimg(r, (v['W'], v['H']), np.uint8, 0, 2)], target='B')
def margmin(S, E):
    inp = hl.ImageParam(U16, 2, "inp"); mask = hl.ImageParam(U8, 2, "mask")
    y, = V("y")
    r = RD((0, S['W']))
    r.where(mask[r, y] != 0)
    t = F("ma_t"); t[y] = (hl.i32(1 << 30), hl.i32(-1))
    v = hl.i32(inp[r, y])
    lt = v < t[y][0]
    t[y] = (hl.select(lt, v, t[y][0]), hl.select(lt, hl.i32(r.x), t[y][1]))
    est_in(inp, E['W'], E['H']); est_in(mask, E['W'], E['H']); est_out(t, [y], E['H'])
    return [t], [inp, mask]


@spec("seam_carve_dp_rows_u32", "seam-carving DP: energy |dx|+|dy| of u8 (clamped), cost[x,0] = e; cost[x,r] = e[x,r] + min of cost[x-1..x+1, r-1] (x clamped) over RDom(0..W, 1..H-1) (no pure var in the update); plus the argmin x of the last row (0-D)",
      {'W': (1, 640), 'H': (1, 480)},
      outs=lambda v: [(U32, [v['W'], v['H']]), (I32, [])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)], target='A')
def seam(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    en = F("sc_en"); en[x, y] = hl.u32(hl.absd(e[x + 1, y], e[x - 1, y])) + hl.u32(hl.absd(e[x, y + 1], e[x, y - 1]))
    r = RD((0, S['W']), (1, S['H'] - 1))
    c = F("sc_cost"); c[x, y] = en[x, y]
    xl = hl.clamp(r.x - 1, 0, S['W'] - 1); xr = hl.clamp(r.x + 1, 0, S['W'] - 1)
    c[r.x, r.y] = en[r.x, r.y] + hl.min(c[xl, r.y - 1], hl.min(c[r.x, r.y - 1], c[xr, r.y - 1]))
    ra = RD((0, S['W']), name="ra")
    am = F("sc_argmin"); am[()] = hl.argmin(c[ra, S['H'] - 1])[0]
    est_in(inp, E['W'], E['H']); est_out(c, [x, y], E['W'], E['H'])
    return [c, am], [inp]


@spec("decimate_fir_runtime_stride", "2-D decimation: out[x,y] = sum_t h[t] * e[x*S + t - T/2, y*S] with stride S (1..4) and tap count T (1..15) run-time Params, repeat_edge input",
      {'W': (1, 800), 'H': (1, 600), 'S': (1, 4), 'T': (1, 15)},
      outs=lambda v: [(F32, [(v['W'] + v['S'] - 1) // v['S'], (v['H'] + v['S'] - 1) // v['S']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'])), rimg(r, (v['T'],))], tol=1e-4, target='B')
def decim(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); h = hl.ImageParam(F32, 1, "h")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    r = RD((0, S['T']))
    o = F("dc_o"); o[x, y] = 0.0; o[x, y] += h[r] * e[x * S['S'] + r - idiv(S['T'], 2), y * S['S']]
    est_in(inp, E['W'], E['H']); est_in(h, E['T'])
    cd = (lambda a, b: a // b) if isinstance(E['S'], int) else (lambda a, b: a / b)
    est_out(o, [x, y], cd(E['W'] + E['S'] - 1, E['S']), cd(E['H'] + E['S'] - 1, E['S']))
    return [o], [inp, h]


@spec("lut_chain_two_level_u16", "two chained clamped LUT gathers: l1 = lut1[in >> 4] (u16 in, 4096-entry u16 LUT), out = lut2[clamp(l1 - OFF, 0, 255)] (OFF a ranged Param), u8 out, plus the mid-level as a second output",
      {'W': (1, 1024), 'H': (1, 768), 'OFF': (0, 1000)},
      outs=lambda v: [(U8, [v['W'], v['H']]), (U16, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16), rimg(r, (4096,), np.uint16, 0, 1300), rimg(r, (256,), np.uint8)], target='A')
def lut2(S, E):
    inp = hl.ImageParam(U16, 2, "inp"); l1 = hl.ImageParam(U16, 1, "l1"); l2 = hl.ImageParam(U8, 1, "l2")
    x, y = V("x", "y")
    m = F("lc_mid"); m[x, y] = l1[hl.i32(inp[x, y] >> 4)]
    o = F("lc_out"); o[x, y] = l2[hl.clamp(hl.i32(m[x, y]) - S['OFF'], 0, 255)]
    est_in(inp, E['W'], E['H']); est_in(l1, 4096); est_in(l2, 256); est_out(o, [x, y], E['W'], E['H']); est_out(m, [x, y], E['W'], E['H'])
    return [o, m], [inp, l1, l2]


@spec("hough_votes_where_scatter", "Hough line votes: RDom(x, y, theta).where(edge[x,y] > 128), rho = (x*cos_fx[t] + y*sin_fx[t]) >> 10 (i32 fixed-point tables), acc[rho + W + H, t] += 1 (3-D scatter)",
      {'W': (1, 200), 'H': (1, 150), 'NT': (1, 90)},
      outs=lambda v: [(I32, [2 * (v['W'] + v['H']) + 1, v['NT']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8),
                         fa(np.round(1024 * np.cos(np.arange(v['NT']) * np.pi / max(v['NT'], 1))).astype(np.int32)),
                         fa(np.round(1024 * np.sin(np.arange(v['NT']) * np.pi / max(v['NT'], 1))).astype(np.int32))], target='B')
def hough(S, E):
    edge = hl.ImageParam(U8, 2, "edge"); ct = hl.ImageParam(I32, 1, "ct"); st = hl.ImageParam(I32, 1, "st")
    rho, t = V("rho", "t")
    r = RD((0, S['W']), (0, S['H']), (0, S['NT']))
    r.where(edge[r.x, r.y] > 128)
    acc = F("hv_acc"); acc[rho, t] = 0
    rr = (r.x * ct[r.z] + r.y * st[r.z]) >> 10
    acc[hl.clamp(rr + S['W'] + S['H'], 0, 2 * (S['W'] + S['H'])), r.z] += 1
    est_in(edge, E['W'], E['H']); est_in(ct, E['NT']); est_in(st, E['NT']); est_out(acc, [rho, t], 2 * (E['W'] + E['H']) + 1, E['NT'])
    return [acc], [edge, ct, st]


@spec("three_outputs_chain_stride2", "o1 = 3x3 blur (repeat_edge); o2[x,y] = o1[2x,2y] - o1[2x+1,2y+1] reads o1 (an output); o3[x] = sum_y o2[x,y] reads o2: three outputs of three sizes, each reading the previous",
      {'W': (2, 800), 'H': (2, 600)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'] // 2, v['H'] // 2]), (F32, [v['W'] // 2])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-4, target='A')
def chain3(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    bx = F("c3_bx"); bx[x, y] = e[x - 1, y] + e[x, y] + e[x + 1, y]
    o1 = F("c3_o1"); o1[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9.0
    o2 = F("c3_o2"); o2[x, y] = o1[2 * x, 2 * y] - o1[2 * x + 1, 2 * y + 1]
    r = RD((0, idiv(S['H'], 2)))
    o3 = F("c3_o3"); o3[x] = 0.0; o3[x] += o2[x, r]
    est_in(inp, E['W'], E['H']); est_out(o1, [x, y], E['W'], E['H']); est_out(o2, [x, y], half(E['W']), half(E['H'])); est_out(o3, [x], half(E['W']))
    return [o1, o2, o3], [inp]


@spec("rgba_interleaved_premul_box_u8", "interleaved RGBA u8 in and out (channel innermost, stride 4): premultiply (c*a+127)/255 in u16, 3x3 box of premultiplied values (repeat_edge), unpremultiply with rounding, saturating u8",
      {'W': (1, 640), 'H': (1, 480)},
      outs=lambda v: [(U8, [v['W'], v['H'], 4])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 4), np.uint8)], interleaved=True, target='B')
def rgba(S, E):
    inp = hl.ImageParam(U8, 3, "inp")
    inp.dim(0).set_stride(4); inp.dim(2).set_stride(1); inp.dim(2).set_bounds(0, 4)
    x, y, c = V("x", "y", "c")
    e = BF.repeat_edge(inp)
    a = hl.u16(e[x, y, 3])
    pm = F("rg_pm"); pm[x, y, c] = hl.select(c < 3, (hl.u16(e[x, y, c]) * a + 127) / 255, a)
    bx = F("rg_bx"); bx[x, y, c] = pm[x - 1, y, c] + pm[x, y, c] + pm[x + 1, y, c]
    by = F("rg_by"); by[x, y, c] = bx[x, y - 1, c] + bx[x, y, c] + bx[x, y + 1, c]
    sa = hl.u32(by[x, y, 3])
    o = F("rg_out")
    o[x, y, c] = hl.select(c < 3, hl.saturating_cast(U8, (hl.u32(by[x, y, c]) * 255 + sa / 2) / hl.max(sa, 1)),
                           hl.u8((sa + 4) / 9))
    o.output_buffer().dim(0).set_stride(4); o.output_buffer().dim(2).set_stride(1); o.output_buffer().dim(2).set_bounds(0, 4)
    est_in(inp, E['W'], E['H'], 4); est_out(o, [x, y, c], E['W'], E['H'], 4)
    return [o], [inp]


@spec("f64_jacobi_4_steps", "four explicit 5-point Jacobi steps in f64 as four Funcs (repeat_edge only before the first; halos grow)",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F64, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.float64)], tol=1e-12, target='A')
def jac(S, E):
    inp = hl.ImageParam(F64, 2, "inp")
    x, y = V("x", "y")
    f = BF.repeat_edge(inp)
    for s in range(4):
        g = F("jc_s%d" % s)
        g[x, y] = 0.2 * (f[x - 1, y] + f[x + 1, y] + f[x, y - 1] + f[x, y + 1] + f[x, y])
        f = g
    est_in(inp, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H'])
    return [f], [inp]


@spec("dp_maxpath_2d_wavefront_i32", "2-D DP with dependencies in BOTH directions: D = in; first-row / first-column prefix updates; then over RDom(1..W-1, 1..H-1): D[x,y] = max(D[x-1,y], D[x,y-1]) + in[x,y] (no legal reordering)",
      {'W': (1, 300), 'H': (1, 300)},
      outs=lambda v: [(I32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.int32, -50, 100)], target='B')
def dpm(S, E):
    inp = hl.ImageParam(I32, 2, "inp")
    x, y = V("x", "y")
    D = F("dp_D"); D[x, y] = inp[x, y]
    r0 = RD((1, S['W'] - 1), name="r0"); D[r0, 0] = D[r0 - 1, 0] + inp[r0, 0]
    r1 = RD((1, S['H'] - 1), name="r1"); D[0, r1] = D[0, r1 - 1] + inp[0, r1]
    r = RD((1, S['W'] - 1), (1, S['H'] - 1), name="r")
    D[r.x, r.y] = hl.max(D[r.x - 1, r.y], D[r.x, r.y - 1]) + inp[r.x, r.y]
    est_in(inp, E['W'], E['H']); est_out(D, [x, y], E['W'], E['H'])
    return [D], [inp]


@spec("bottom_up_cumsum_then_rtl_max_u32", "scans in reverse directions: cs = in; cs[x, H-2-r] += cs[x, H-1-r] (bottom-up column cumsum); then rm = cs; rm[W-2-r, y] = max(rm[W-2-r,y], rm[W-1-r,y]) (right-to-left running max)",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(U32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint32, 0, 1000)], target='A')
def rscan(S, E):
    inp = hl.ImageParam(U32, 2, "inp")
    x, y = V("x", "y")
    cs = F("rs_cs"); cs[x, y] = inp[x, y]
    ry = RD((0, S['H'] - 1), name="ry"); cs[x, S['H'] - 2 - ry] = cs[x, S['H'] - 2 - ry] + cs[x, S['H'] - 1 - ry]
    rm = F("rs_rm"); rm[x, y] = cs[x, y]
    rx = RD((0, S['W'] - 1), name="rx"); rm[S['W'] - 2 - rx, y] = hl.max(rm[S['W'] - 2 - rx, y], rm[S['W'] - 1 - rx, y])
    est_in(inp, E['W'], E['H']); est_out(rm, [x, y], E['W'], E['H'])
    return [rm], [inp]


@spec("global_zscore_f64_and_outlier_count", "f64 z-score with 0-D mean and variance (hl.sum over 2-D RDom), z output [W,H], plus a 0-D i32 count of |z| > 2 (update over a 2-D RDom)",
      {'W': (1, 700), 'H': (1, 500)},
      outs=lambda v: [(F64, [v['W'], v['H']]), (I32, [])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.float64)], tol=1e-9, target='B')
def zsc(S, E):
    inp = hl.ImageParam(F64, 2, "inp")
    x, y = V("x", "y")
    n = hl.f64(S['W'] * S['H'])
    r1 = RD((0, S['W']), (0, S['H']), name="r1")
    mean = F("zs_mean"); mean[()] = hl.sum(inp[r1.x, r1.y]) / n
    r2 = RD((0, S['W']), (0, S['H']), name="r2")
    var = F("zs_var"); var[()] = hl.sum((inp[r2.x, r2.y] - mean[()]) * (inp[r2.x, r2.y] - mean[()])) / n
    z = F("zs_z"); z[x, y] = (inp[x, y] - mean[()]) / hl.sqrt(var[()] + 1e-12)
    r3 = RD((0, S['W']), (0, S['H']), name="r3")
    cnt = F("zs_cnt"); cnt[()] = 0; cnt[()] += hl.select(hl.abs(z[r3.x, r3.y]) > 2.0, 1, 0)
    est_in(inp, E['W'], E['H']); est_out(z, [x, y], E['W'], E['H'])
    return [z, cnt], [inp]


@spec("masked_colmean_tuple_where_thresh", "per column: Tuple (sum, count) over RDom(0,H).where(i32(in[x,r]) > TH), TH a ranged value Param; outputs mean = sum/max(cnt,1) (f32) and the count",
      {'W': (1, 1000), 'H': (1, 500), 'TH': (0, 255)},
      outs=lambda v: [(F32, [v['W']]), (I32, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint8)], tol=1e-6, target='A')
def mcm(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    x, = V("x")
    r = RD((0, S['H']))
    r.where(hl.i32(inp[x, r]) > S['TH'])
    sc = F("mm_sc"); sc[x] = (hl.i32(0), hl.i32(0))
    sc[x] = (sc[x][0] + hl.i32(inp[x, r]), sc[x][1] + 1)
    mean = F("mm_mean"); mean[x] = hl.f32(sc[x][0]) / hl.f32(hl.max(sc[x][1], 1))
    cnt = F("mm_cnt"); cnt[x] = sc[x][1]
    est_in(inp, E['W'], E['H']); est_out(mean, [x], E['W']); est_out(cnt, [x], E['W'])
    return [mean, cnt], [inp]


@spec("tile_mode_hist_argmax", "per TSxTS tile (TS a ranged Param): 32-bin histogram of in>>3 by a 2-D RDom scatter hist[in>>3, tx, ty] += 1, then the mode = hl.argmax over bins (first max wins)",
      {'NTX': (1, 40), 'NTY': (1, 30), 'TS': (1, 16)},
      outs=lambda v: [(I32, [v['NTX'], v['NTY']])],
      data=lambda v, r: [rimg(r, (v['NTX'] * v['TS'], v['NTY'] * v['TS']), np.uint8, 0, 90)], target='B')
def tmode(S, E):
    inp = hl.ImageParam(U8, 2, "inp")
    b, tx, ty = V("b", "tx", "ty")
    r = RD((0, S['TS']), (0, S['TS']))
    h = F("tm_hist"); h[b, tx, ty] = 0
    h[hl.i32(inp[tx * S['TS'] + r.x, ty * S['TS'] + r.y] >> 3), tx, ty] += 1
    rb = RD((0, 32), name="rb")
    mode = F("tm_mode"); mode[tx, ty] = hl.argmax(h[rb, tx, ty])[0]
    est_in(inp, E['NTX'] * E['TS'], E['NTY'] * E['TS']); est_out(mode, [tx, ty], E['NTX'], E['NTY'])
    return [mode], [inp]


@spec("upsample_nearest_factor_param_add_u8", "nearest upsample by a run-time integer factor FAC (x / FAC), then saturating add of a detail layer: out = u8(min(u16(small[x/FAC, y/FAC]) + detail, 255))",
      {'SW': (1, 200), 'SH': (1, 150), 'FAC': (1, 5)},
      outs=lambda v: [(U8, [v['SW'] * v['FAC'], v['SH'] * v['FAC']])],
      data=lambda v, r: [rimg(r, (v['SW'], v['SH']), np.uint8), rimg(r, (v['SW'] * v['FAC'], v['SH'] * v['FAC']), np.uint8)], target='A')
def upn(S, E):
    small = hl.ImageParam(U8, 2, "small"); det = hl.ImageParam(U8, 2, "det")
    x, y = V("x", "y")
    up = F("un_up"); up[x, y] = small[x / S['FAC'], y / S['FAC']]
    o = F("un_o"); o[x, y] = hl.u8(hl.min(hl.u16(up[x, y]) + hl.u16(det[x, y]), 255))
    est_in(small, E['SW'], E['SH']); est_in(det, E['SW'] * E['FAC'], E['SH'] * E['FAC']); est_out(o, [x, y], E['SW'] * E['FAC'], E['SH'] * E['FAC'])
    return [o], [small, det]


@spec("permute_gather_rows_cols_blur", "permutation gather g[x,y] = in[clamp(px[x]), clamp(py[y])] (data-dependent in both axes), then a 1x3 horizontal blur of the gathered image (repeat_edge)",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(F32, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'])), fa(r.permutation(v['W']).astype(np.int32)), fa(r.permutation(v['H']).astype(np.int32))], tol=1e-5, target='B')
def perm(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); px = hl.ImageParam(I32, 1, "px"); py = hl.ImageParam(I32, 1, "py")
    x, y = V("x", "y")
    g = F("pg_g"); g[x, y] = inp[hl.clamp(px[x], 0, S['W'] - 1), hl.clamp(py[y], 0, S['H'] - 1)]
    ge = BF.repeat_edge(g, [(0, S['W']), (0, S['H'])])
    o = F("pg_o"); o[x, y] = (ge[x - 1, y] + ge[x, y] + ge[x + 1, y]) / 3.0
    est_in(inp, E['W'], E['H']); est_in(px, E['W']); est_in(py, E['H']); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp, px, py]


@spec("conv3x3_7ch_to_5ch_u16_prime", "3x3 conv mixing a CONSTANT 7 input channels into 5 output channels on u16 (u32 acc, >>8, saturating u16), channel outermost [x,y,c]; W and H ranges with prime ends (3..509, 2..211), valid conv on a [W+2,H+2,7] input",
      {'W': (3, 509), 'H': (2, 211)},
      outs=lambda v: [(U16, [v['W'], v['H'], 5])],
      data=lambda v, r: [rimg(r, (v['W'] + 2, v['H'] + 2, 7), np.uint16, 0, 4095), rimg(r, (3, 3, 7, 5), np.uint16, 0, 255)], target='B')
def c75(S, E):
    inp = hl.ImageParam(U16, 3, "inp"); w = hl.ImageParam(U16, 4, "w")
    x, y, c = V("x", "y", "c")
    r = RD((0, 3), (0, 3), (0, 7))
    acc = F("c75_acc"); acc[x, y, c] = hl.u32(0)
    acc[x, y, c] += hl.u32(inp[x + r.x, y + r.y, r.z]) * hl.u32(w[r.x, r.y, r.z, c])
    o = F("c75_o"); o[x, y, c] = hl.saturating_cast(U16, acc[x, y, c] >> 8)
    est_in(inp, E['W'] + 2, E['H'] + 2, 7); est_in(w, 3, 3, 7, 5); est_out(o, [x, y, c], E['W'], E['H'], 5)
    return [o], [inp, w]


@spec("rgb_interleaved_to_yuv420_planes", "interleaved RGB u8 [2HW, 2HH, 3] (channel innermost) -> Y plane [2HW,2HH] and U, V planes [HW,HH] from 2x2-averaged chroma: three outputs, fixed-point BT.601",
      {'HW': (1, 320), 'HH': (1, 240)},
      outs=lambda v: [(U8, [2 * v['HW'], 2 * v['HH']]), (U8, [v['HW'], v['HH']]), (U8, [v['HW'], v['HH']])],
      data=lambda v, r: [rimg(r, (2 * v['HW'], 2 * v['HH'], 3), np.uint8)], interleaved=True, target='A')
def yuv(S, E):
    inp = hl.ImageParam(U8, 3, "inp")
    inp.dim(0).set_stride(3); inp.dim(2).set_stride(1); inp.dim(2).set_bounds(0, 3)
    x, y = V("x", "y")
    R, G, B = (hl.i32(inp[x, y, k]) for k in range(3))
    Y = F("yv_Y"); Y[x, y] = hl.u8((66 * R + 129 * G + 25 * B + 128) >> 8) + 16
    s = F("yv_s"); s[x, y] = (hl.i32(0), hl.i32(0), hl.i32(0))
    rr = RD((0, 2), (0, 2), name="rr")
    s[x, y] = (s[x, y][0] + hl.i32(inp[2 * x + rr.x, 2 * y + rr.y, 0]),
               s[x, y][1] + hl.i32(inp[2 * x + rr.x, 2 * y + rr.y, 1]),
               s[x, y][2] + hl.i32(inp[2 * x + rr.x, 2 * y + rr.y, 2]))
    Ra, Ga, Ba = ((s[x, y][k] + 2) >> 2 for k in range(3))
    U = F("yv_U"); U[x, y] = hl.u8(((-38 * Ra - 74 * Ga + 112 * Ba + 128) >> 8) + 128)
    Vv = F("yv_V"); Vv[x, y] = hl.u8(((112 * Ra - 94 * Ga - 18 * Ba + 128) >> 8) + 128)
    est_in(inp, 2 * E['HW'], 2 * E['HH'], 3)
    est_out(Y, [x, y], 2 * E['HW'], 2 * E['HH']); est_out(U, [x, y], E['HW'], E['HH']); est_out(Vv, [x, y], E['HW'], E['HH'])
    return [Y, U, Vv], [inp]


@spec("bitplane_slice_pack_u16", "bit-plane slicing: planes[x,y,b] = (in >> b) & 1 for b < 16 (u8), and a re-pack out[x,y] = sum_b planes[x,y,b] << (15-b) reversing the bit order (u16), via an RDom over the 16 planes",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(U8, [v['W'], v['H'], 16]), (U16, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16)], target='B')
def bitp(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, y, b = V("x", "y", "b")
    pl = F("bp_pl"); pl[x, y, b] = hl.u8((inp[x, y] >> hl.u16(b)) & 1)
    r = RD((0, 16))
    pk = F("bp_pk"); pk[x, y] = hl.u16(0); pk[x, y] = pk[x, y] | (hl.u16(pl[x, y, r]) << hl.u16(15 - r))
    est_in(inp, E['W'], E['H']); est_out(pl, [x, y, b], E['W'], E['H'], 16); est_out(pk, [x, y], E['W'], E['H'])
    return [pl, pk], [inp]


@spec("sliding_var_window_param_i64", "1-D signals [N, C]: sliding-window mean and variance over a run-time window WIN (1..64) by two clamped sums (i64 sum and sum of squares of i32 data), outputs mean*WIN (i64) and WIN*sumsq - sum^2 (i64)",
      {'N': (1, 5000), 'C': (1, 8), 'WIN': (1, 64)},
      outs=lambda v: [(I64, [v['N'], v['C']]), (I64, [v['N'], v['C']])],
      data=lambda v, r: [rimg(r, (v['N'], v['C']), np.int32, -100000, 100000)], target='A')
def slvar(S, E):
    inp = hl.ImageParam(I32, 2, "inp")
    n, c = V("n", "c")
    e = BF.constant_exterior(inp, 0)
    r = RD((0, S['WIN']))
    s1 = F("sv_s1"); s1[n, c] = hl.i64(0); s1[n, c] += hl.i64(e[n - r, c])
    s2 = F("sv_s2"); s2[n, c] = hl.i64(0); s2[n, c] += hl.i64(e[n - r, c]) * hl.i64(e[n - r, c])
    v = F("sv_v"); v[n, c] = hl.i64(S['WIN']) * s2[n, c] - s1[n, c] * s1[n, c]
    est_in(inp, E['N'], E['C']); est_out(s1, [n, c], E['N'], E['C']); est_out(v, [n, c], E['N'], E['C'])
    return [s1, v], [inp]


@spec("gather_clamped_lut_2d_bilinear_u8", "2-D LUT (33x33 u8 grid) indexed by two u8 channels with bilinear interpolation in 8.3 fixed point (clamped indices), interleaved-free planar [W,H,2] input",
      {'W': (1, 800), 'H': (1, 600)},
      outs=lambda v: [(U8, [v['W'], v['H']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 2), np.uint8), rimg(r, (33, 33), np.uint8)], target='A')
def lut2d(S, E):
    inp = hl.ImageParam(U8, 3, "inp"); lut = hl.ImageParam(U8, 2, "lut")
    x, y = V("x", "y")
    u = hl.i32(inp[x, y, 0]); v = hl.i32(inp[x, y, 1])
    iu = u >> 3; fu = u & 7; iv = v >> 3; fv = v & 7
    def L(a, b):
        return hl.i32(lut[hl.clamp(a, 0, 32), hl.clamp(b, 0, 32)])
    top = L(iu, iv) * (8 - fu) + L(iu + 1, iv) * fu
    bot = L(iu, iv + 1) * (8 - fu) + L(iu + 1, iv + 1) * fu
    o = F("l2_o"); o[x, y] = hl.u8((top * (8 - fv) + bot * fv + 32) >> 6)
    est_in(inp, E['W'], E['H'], 2); est_in(lut, 33, 33); est_out(o, [x, y], E['W'], E['H'])
    return [o], [inp, lut]


# ================================ C: added after the first pass ===========================

@spec("scan_x_output_min_negative", "row cumsum whose OUTPUT buffer starts at x = -5, y = 2: f[x,y] = in[x+5, y-2]; f[r,y] += f[r-1,y] over RDom(-4, W-1) (the scan follows the output's own coordinates), f32 in, f64 acc",
      {'W': (1, 900), 'H': (1, 300)},
      outs=lambda v: [(F64, [v['W'], v['H']], [-5, 2])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']))], tol=1e-9, target='A')
def scanneg(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    f = F("sn_f"); f[x, y] = hl.f64(inp[x + 5, y - 2])
    r = RD((-4, S['W'] - 1))
    f[r, y] = f[r, y] + f[r - 1, y]
    est_in(inp, E['W'], E['H']); est_out(f, [x, y], E['W'], E['H'], mins=[-5, 2])
    return [f], [inp]


@spec("tuple_update_with_undef_component", "Tuple Func (sum, max) where the first update touches only the sum (max component hl.undef) and the second only the max, both over RDom(0,H) per column; u16 in, u32 sum",
      {'W': (1, 1000), 'H': (1, 400)},
      outs=lambda v: [(U32, [v['W']]), (U16, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'], v['H']), np.uint16)], target='B')
def tundef(S, E):
    inp = hl.ImageParam(U16, 2, "inp")
    x, = V("x")
    r1 = RD((0, S['H']), name="r1"); r2 = RD((0, S['H']), name="r2")
    t = F("tu_t"); t[x] = (hl.u32(0), hl.u16(0))
    t[x] = (t[x][0] + hl.u32(inp[x, r1]), hl.undef(U16))
    t[x] = (hl.undef(U32), hl.max(t[x][1], inp[x, r2]))
    est_in(inp, E['W'], E['H']); est_out(t, [x], E['W'])
    return [t], [inp]


@spec("rdom_param_lo_band_sum", "band sum with a run-time lower bound: out[x] = sum over RDom(LO, HI_-LO) of in[x, r] * w[r], LO in 0..30 and HI_ in 31..200 (the RDom min is a Param); in is [W, HI_]",
      {'W': (1, 2000), 'LO': (0, 30), 'HI_': (31, 200)},
      outs=lambda v: [(F32, [v['W']])],
      data=lambda v, r: [rimg(r, (v['W'], v['HI_'])), rimg(r, (v['HI_'],))], tol=1e-4, target='A')
def band(S, E):
    inp = hl.ImageParam(F32, 2, "inp"); w = hl.ImageParam(F32, 1, "w")
    x, = V("x")
    r = RD((S['LO'], S['HI_'] - S['LO']))
    o = F("bs_o"); o[x] = 0.0; o[x] += inp[x, r] * w[r]
    est_in(inp, E['W'], E['HI_']); est_in(w, E['HI_']); est_out(o, [x], E['W'])
    return [o], [inp, w]


@spec("stencil_two_consumers_straight_and_transposed", "one blurred intermediate b (3x3, repeat_edge) read by two outputs: o1 = b - in (straight) and o2[y,x] = b[x,y] (TRANSPOSED, square N x N), so b's footprint comes from two access orders",
      {'N': (1, 700)},
      outs=lambda v: [(F32, [v['N'], v['N']]), (F32, [v['N'], v['N']])],
      data=lambda v, r: [rimg(r, (v['N'], v['N']))], tol=1e-5, target='B')
def twocons(S, E):
    inp = hl.ImageParam(F32, 2, "inp")
    x, y = V("x", "y")
    e = BF.repeat_edge(inp)
    bx = F("tc_bx"); bx[x, y] = e[x - 1, y] + e[x, y] + e[x + 1, y]
    b = F("tc_b"); b[x, y] = (bx[x, y - 1] + bx[x, y] + bx[x, y + 1]) / 9.0
    o1 = F("tc_o1"); o1[x, y] = b[x, y] - inp[x, y]
    o2 = F("tc_o2"); o2[y, x] = b[x, y]
    est_in(inp, E['N'], E['N']); est_out(o1, [x, y], E['N'], E['N']); est_out(o2, [y, x], E['N'], E['N'])
    return [o1, o2], [inp]


# ================================ D: contraction stress forms (third pass) ================

@spec("operand_func_with_row_update_contract", "the LHS operand is a Func WITH an update: A2 = A; A2[k, 0] = 0 (row 0 zeroed by an update over RDom(0,K)); A2[k, M-1] *= 2; then C[n,m] += A2[k,m]*B[n,k]",
      {'M': (1, 160), 'N': (1, 160), 'K': (1, 128)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4, target='A')
def opupd(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m, k = V("n", "m", "k")
    A2 = F("ou_A2"); A2[k, m] = A[k, m]
    rk = RD((0, S['K']), name="rk"); A2[rk, 0] = 0.0
    rk2 = RD((0, S['K']), name="rk2"); A2[rk2, S['M'] - 1] = A2[rk2, S['M'] - 1] * 2.0
    r = RD((0, S['K']))
    C = F("ou_C"); C[n, m] = 0.0; C[n, m] += A2[r, m] * B[n, r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("matmul_then_n_stencil_consumer", "C[n,m] = sum_k A[k,m]*B[n,k] over a clamped n (B read at clamp(n,0,N-1)), consumed by a 3-tap stencil along n and m: out = C[n-1,m] + 2C[n,m] + C[n+1,m] - C[n,m-1] (C needed on a halo around the output)",
      {'M': (1, 160), 'N': (1, 160), 'K': (1, 96)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'] + 1)), rimg(r, (v['N'], v['K']))], tol=1e-4, target='B')
def mmst(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("ms_C"); C[n, m] = 0.0
    C[n, m] += A[r, hl.clamp(m, 0, S['M'])] * B[hl.clamp(n, 0, S['N'] - 1), r]
    o = F("ms_o"); o[n, m] = C[n - 1, m + 1] + 2.0 * C[n, m + 1] + C[n + 1, m + 1] - C[n, m]
    est_in(A, E['K'], E['M'] + 1); est_in(B, E['N'], E['K']); est_out(o, [n, m], E['N'], E['M'])
    return [o], [A, B]


@spec("contract_runtime_stride_k", "C[n,m] += A[k*ST, m] * B[n, k*ST + OF]: both operands read with a run-time stride ST (1..3) and offset OF (0..2) along k",
      {'M': (1, 128), 'N': (1, 128), 'K': (1, 96), 'ST': (1, 3), 'OF': (0, 2)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'] * v['ST'], v['M'])), rimg(r, (v['N'], v['K'] * v['ST'] + v['OF']))], tol=1e-4, target='A')
def crs(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("cr_C"); C[n, m] = 0.0; C[n, m] += A[r * S['ST'], m] * B[n, r * S['ST'] + S['OF']]
    est_in(A, E['K'] * E['ST'], E['M']); est_in(B, E['N'], E['K'] * E['ST'] + E['OF']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("skinny_n_1to3_contract", "skinny output: C[n,m] += A[k,m]*B[n,k] with the INNER output extent N ranged 1..3 only and M up to 2000, K up to 300",
      {'M': (1, 2000), 'N': (1, 3), 'K': (1, 300)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K'], v['M'])), rimg(r, (v['N'], v['K']))], tol=1e-4, target='B')
def skinny(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B")
    n, m = V("n", "m")
    r = RD((0, S['K']))
    C = F("sk_C"); C[n, m] = 0.0; C[n, m] += A[r, m] * B[n, r]
    est_in(A, E['K'], E['M']); est_in(B, E['N'], E['K']); est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B]


@spec("batch_middle_output_mins", "batch-middle contraction out[n,b,m] = sum_k W[n,k]*X[k,b,m] whose OUTPUT buffer has mins (2, -1, 3) (operands indexed relative to the mins), B ranged 1..4",
      {'N': (1, 96), 'B': (1, 4), 'M': (1, 40), 'K': (1, 64)},
      outs=lambda v: [(F32, [v['N'], v['B'], v['M']], [2, -1, 3])],
      data=lambda v, r: [rimg(r, (v['N'], v['K'])), rimg(r, (v['K'], v['B'], v['M']))], tol=1e-4, target='A')
def bmo(S, E):
    W = hl.ImageParam(F32, 2, "W"); X = hl.ImageParam(F32, 3, "X")
    n, b, m = V("n", "b", "m")
    r = RD((0, S['K']))
    o = F("bo_o"); o[n, b, m] = 0.0; o[n, b, m] += W[n - 2, r] * X[r, b + 1, m - 3]
    est_in(W, E['N'], E['K']); est_in(X, E['K'], E['B'], E['M']); est_out(o, [n, b, m], E['N'], E['B'], E['M'], mins=[2, -1, 3])
    return [o], [W, X]


@spec("two_contraction_updates_diff_layouts", "one output, two contraction updates with different RDoms and operand layouts: C = bias; C += A[k,m]*B[n,k] (K1, NN); C += D[m,j]*E[j,n] (K2, m-innermost LHS, k-innermost RHS)",
      {'M': (1, 128), 'N': (1, 128), 'K1': (1, 64), 'K2': (1, 32)},
      outs=lambda v: [(F32, [v['N'], v['M']])],
      data=lambda v, r: [rimg(r, (v['K1'], v['M'])), rimg(r, (v['N'], v['K1'])), rimg(r, (v['M'], v['K2'])), rimg(r, (v['K2'], v['N'])), rimg(r, (v['N'],))],
      tol=1e-4, target='B')
def twoc(S, E):
    A = hl.ImageParam(F32, 2, "A"); B = hl.ImageParam(F32, 2, "B"); D = hl.ImageParam(F32, 2, "D"); Ei = hl.ImageParam(F32, 2, "Ei")
    bias = hl.ImageParam(F32, 1, "bias")
    n, m = V("n", "m")
    r1 = RD((0, S['K1']), name="r1"); r2 = RD((0, S['K2']), name="r2")
    C = F("tw_C"); C[n, m] = bias[n]; C[n, m] += A[r1, m] * B[n, r1]; C[n, m] += D[m, r2] * Ei[r2, n]
    est_in(A, E['K1'], E['M']); est_in(B, E['N'], E['K1']); est_in(D, E['M'], E['K2']); est_in(Ei, E['K2'], E['N']); est_in(bias, E['N'])
    est_out(C, [n, m], E['N'], E['M'])
    return [C], [A, B, D, Ei, bias]
