"""Round 4 of the red-team probe: contractions written in styles the earlier rounds and
generators/contraction_forms.h do not use (other element types, dequantized and requantized
integer products, computed operands, one input as both operands, 1x1 convolutions, two ranged
shape variables). Same spec format as ../redteam3_fixes_2026-11-30/pipes.py."""
import importlib.util
import os

import halide as hl
import numpy as np

# Round 3's helpers (its module is also named pipes: loaded under another name).
_spec3 = importlib.util.spec_from_file_location(
    "pipes_round3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "redteam3_fixes_2026-11-30", "pipes.py"))
_round3 = importlib.util.module_from_spec(_spec3)
_spec3.loader.exec_module(_round3)
V, est_in, est_out = _round3.V, _round3.est_in, _round3.est_out

F16, F32, F64, U8, U16, I8, I16, I32, U32 = (hl.Float(16), hl.Float(32), hl.Float(64), hl.UInt(8), hl.UInt(16),
                                             hl.Int(8), hl.Int(16), hl.Int(32), hl.UInt(32))
SPECS, spec, CREATED, F = _round3.registry()


def rimg(rng, shape, dtype=np.float32):
    if dtype in (np.float32, np.float64, np.float16):
        a = rng.standard_normal(shape).astype(dtype)
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max + 1, size=shape).astype(dtype)
    b = np.empty(a.shape, dtype=a.dtype, order='F')
    b[...] = a
    return b


K = 256


@spec("dequant_matmul_nn", "y[n,m] = sum_k x[k,m] * (f32(w[n,k]) - zp[n]) * scale[n]: uint8 weights stored n-innermost, dequantized inside the sum",
      {'M': (1, 256)}, outs=lambda v: [(F32, [512, v['M']])],
      data=lambda v, r: [rimg(r, (K, v['M'])), rimg(r, (512, K), np.uint8), rimg(r, (512,)), rimg(r, (512,))], tol=1e-3)
def dequant(S, E):
    x = hl.ImageParam(F32, 2, "x"); w = hl.ImageParam(U8, 2, "w")
    zp = hl.ImageParam(F32, 1, "zp"); sc = hl.ImageParam(F32, 1, "sc")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, K)], "k")
    y = F("y_dq")
    y[n, m] = hl.sum(x[k, m] * ((hl.f32(w[n, k]) - zp[n]) * sc[n]))
    est_in(x, K, E['M']); est_in(w, 512, K); est_in(zp, 512); est_in(sc, 512); est_out(y, [n, m], 512, E['M'])
    return [y], [x, w, zp, sc]


@spec("i8_requant_nn", "int8 x int8 -> int32 NN (b[n,k]), then requantize to uint8: clamp(round(acc * s) + 128)",
      {'M': (1, 256)}, outs=lambda v: [(U8, [256, v['M']])],
      data=lambda v, r: [rimg(r, (K, v['M']), np.int8), rimg(r, (256, K), np.int8)])
def i8_requant(S, E):
    a = hl.ImageParam(I8, 2, "a"); b = hl.ImageParam(I8, 2, "b")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, K)], "k")
    acc = F("acc_i8"); out = F("q_out")
    acc[n, m] = 0
    acc[n, m] += hl.i32(a[k, m]) * hl.i32(b[n, k])
    out[n, m] = hl.u8_sat(hl.i32(hl.round(hl.f32(acc[n, m]) * 0.0021)) + 128)
    est_in(a, K, E['M']); est_in(b, 256, K); est_out(out, [n, m], 256, E['M'])
    return [out], [a, b]


@spec("conv1x1_nchw", "1x1 convolution NCHW: out[x,y,co,n] = sum_ci in[x,y,ci,n] * w[ci,co] + bias[co], W,H ranged",
      {'W': (1, 128), 'H': (1, 64)}, outs=lambda v: [(F32, [v['W'], v['H'], 64, 2])],
      data=lambda v, r: [rimg(r, (v['W'], v['H'], 64, 2)), rimg(r, (64, 64)), rimg(r, (64,))], tol=1e-3)
def conv1x1(S, E):
    i = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 2, "w"); b = hl.ImageParam(F32, 1, "bias")
    x, y, co, n = V("x", "y", "co", "n")
    ci = hl.RDom([hl.Range(0, 64)], "ci")
    out = F("c1x1")
    out[x, y, co, n] = b[co] + hl.sum(i[x, y, ci, n] * w[ci, co])
    est_in(i, E['W'], E['H'], 64, 2); est_in(w, 64, 64); est_in(b, 64); est_out(out, [x, y, co, n], E['W'], E['H'], 64, 2)
    return [out], [i, w, b]


@spec("bmm_two_params", "batched NN matmul out[j,i,b] = sum_k A[k,i,b] * B[j,k,b], rows M and batch BT both ranged, explicit accumulator",
      {'M': (1, 128), 'BT': (1, 16)}, outs=lambda v: [(F32, [64, v['M'], v['BT']])],
      data=lambda v, r: [rimg(r, (64, v['M'], v['BT'])), rimg(r, (64, 64, v['BT']))], tol=1e-3)
def bmm2(S, E):
    A = hl.ImageParam(F32, 3, "A"); B = hl.ImageParam(F32, 3, "B")
    j, i, b = V("j", "i", "b")
    k = hl.RDom([hl.Range(0, 64)], "k")
    acc = F("bacc"); out = F("bmm2")
    acc[j, i, b] = 0.0
    acc[j, i, b] += A[k, i, b] * B[j, k, b]
    out[j, i, b] = acc[j, i, b]
    est_in(A, 64, E['M'], E['BT']); est_in(B, 64, 64, E['BT']); est_out(out, [j, i, b], 64, E['M'], E['BT'])
    return [out], [A, B]


@spec("f16_nn_f32acc", "float16 operands, float32 accumulation, NN: y[n,m] = sum_k f32(a[k,m]) * f32(b[n,k])",
      {'M': (1, 256)}, outs=lambda v: [(F32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (K, v['M']), np.float16), rimg(r, (256, K), np.float16)], tol=1e-3)
def f16nn(S, E):
    a = hl.ImageParam(F16, 2, "a"); b = hl.ImageParam(F16, 2, "b")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, K)], "k")
    y = F("y_f16")
    y[n, m] = hl.sum(hl.f32(a[k, m]) * hl.f32(b[n, k]))
    est_in(a, K, E['M']); est_in(b, 256, K); est_out(y, [n, m], 256, E['M'])
    return [y], [a, b]


@spec("syrk_same_input", "Gram matrix C[j,i] = sum_k a[k,i] * a[k,j]: one input as both operands, N ranged",
      {'N': (1, 256)}, outs=lambda v: [(F32, [v['N'], v['N']])],
      data=lambda v, r: [rimg(r, (K, v['N']))], tol=1e-3)
def syrk(S, E):
    a = hl.ImageParam(F32, 2, "a")
    j, i = V("j", "i")
    k = hl.RDom([hl.Range(0, K)], "k")
    c = F("gram")
    c[j, i] = 0.0
    c[j, i] += a[k, i] * a[k, j]
    est_in(a, K, E['N']); est_out(c, [j, i], E['N'], E['N'])
    return [c], [a]


@spec("u16u16_nn", "uint16 x uint16 -> uint32 NN, update on the output", {'M': (1, 256)},
      outs=lambda v: [(U32, [256, v['M']])],
      data=lambda v, r: [rimg(r, (K, v['M']), np.uint16), rimg(r, (256, K), np.uint16)])
def u16nn(S, E):
    a = hl.ImageParam(U16, 2, "a"); b = hl.ImageParam(U16, 2, "b")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, K)], "k")
    y = F("y_u16")
    y[n, m] = hl.u32(0)
    y[n, m] += hl.u32(a[k, m]) * hl.u32(b[n, k])
    est_in(a, K, E['M']); est_in(b, 256, K); est_out(y, [n, m], 256, E['M'])
    return [y], [a, b]


@spec("f64_nn", "float64 matmul NN, inline sum", {'M': (1, 256)},
      outs=lambda v: [(F64, [256, v['M']])],
      data=lambda v, r: [rimg(r, (K, v['M']), np.float64), rimg(r, (256, K), np.float64)], tol=1e-9)
def f64nn(S, E):
    a = hl.ImageParam(F64, 2, "a"); b = hl.ImageParam(F64, 2, "b")
    n, m = V("n", "m")
    k = hl.RDom([hl.Range(0, K)], "k")
    y = F("y_f64")
    y[n, m] = hl.sum(a[k, m] * b[n, k])
    est_in(a, K, E['M']); est_in(b, 256, K); est_out(y, [n, m], 256, E['M'])
    return [y], [a, b]


@spec("scores_scale_in_sum", "attention scores with the 1/sqrt(d) scale inside the sum and heads outermost: s[j,i,h] = sum_d q[d,i,h] * k[d,j,h] * 0.125",
      {'T': (1, 128)}, outs=lambda v: [(F32, [v['T'], v['T'], 8])],
      data=lambda v, r: [rimg(r, (64, v['T'], 8)), rimg(r, (64, v['T'], 8))], tol=1e-3)
def scores_scale(S, E):
    q = hl.ImageParam(F32, 3, "q"); kk = hl.ImageParam(F32, 3, "k")
    j, i, h = V("j", "i", "h")
    d = hl.RDom([hl.Range(0, 64)], "d")
    s = F("s_scaled")
    s[j, i, h] = hl.sum(q[d, i, h] * kk[d, j, h] * 0.125)
    est_in(q, 64, E['T'], 8); est_in(kk, 64, E['T'], 8); est_out(s, [j, i, h], E['T'], E['T'], 8)
    return [s], [q, kk]


@spec("gemv_rows_inner", "GEMV with the matrix stored row index innermost: y[i] = sum_k A[i,k] * x[k], N ranged",
      {'N': (1, 4096)}, outs=lambda v: [(F32, [v['N']])],
      data=lambda v, r: [rimg(r, (v['N'], 512)), rimg(r, (512,))], tol=1e-3)
def gemv_ri(S, E):
    A = hl.ImageParam(F32, 2, "A"); x = hl.ImageParam(F32, 1, "x")
    i, = V("i")
    k = hl.RDom([hl.Range(0, 512)], "k")
    y = F("gemv_ri")
    y[i] = 0.0
    y[i] += A[i, k] * x[k]
    est_in(A, E['N'], 512); est_in(x, 512); est_out(y, [i], E['N'])
    return [y], [A, x]
