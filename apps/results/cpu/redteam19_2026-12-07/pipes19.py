"""Red-team round 19 pipelines for Diet: new algorithm classes / writing styles not used by rounds 1-18. Same spec
format as round 18 (helpers and the registry factory imported from pipes18 -> pipes17 -> ... by importlib, not copied).
target: 'A' = AVX-512 target, 'B' = AVX2 target. S: ranged int Params (CInt constants for Adams2019c), E: estimates.
Every size and run-time scalar is a ranged int Param. Integer outputs never depend on float rounding: either the
arithmetic is integer / fixed point, or the float values compared are exact (integer-valued sqrt of exact ints)."""
import importlib.util
import math
import os

import halide as hl
import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec18 = importlib.util.spec_from_file_location("pipes_round18", os.path.join(_here, "..", "redteam18_2026-12-06", "pipes18.py"))
_round18 = importlib.util.module_from_spec(_spec18)
_spec18.loader.exec_module(_round18)
_round3 = _round18._round3
V, est_in, est_out, fa, RD, TARGETS = _round18.V, _round18.est_in, _round18.est_out, _round18.fa, _round18.RD, _round18.TARGETS
runif, randint, fE, sq, rnorm = _round18.runif, _round18.randint, _round18.fE, _round18.sq, _round18.rnorm
F32, F64, U8, U16, U32, U64, I8, I16, I32, I64 = (_round18.F32, _round18.F64, _round18.U8, _round18.U16, _round18.U32, _round18.U64,
                                                  _round18.I8, _round18.I16, _round18.I32, _round18.I64)
F16 = hl.Float(16)
BF = hl.BoundaryConditions
SPECS, spec, CREATED, F = _round3.registry()


def X(v):
    """a Param / CInt as something that supports every operator (ints stay ints)"""
    return v if isinstance(v, int) else hl.Expr(v)


def pow4(k):
    return (1 << (2 * k)) if isinstance(k, int) else (hl.Expr(1) << (2 * hl.Expr(k)))


# ============================================ graph / number theory / bignum ==================================

INF = 1 << 20


def adjmat(r, N):
    a = r.integers(1, 100, (N, N)).astype(np.int32)
    a[r.random((N, N)) < 0.8] = INF
    np.fill_diagonal(a, 0)
    return fa(a)


@spec("minplus_distance_product_two_squarings_tropical_semiring_inline_hlminimum_over_k_i32_inf_entries_capped_then_reachable_pairs_0d_count_hlsum_select",
      "all-pairs shortest paths up to 4 hops by two min-plus (tropical) squarings of an i32 adjacency matrix d[i, j] (INF = 2^20 for no edge, i innermost): d2[i, j] = hl.minimum over k of d[i, k] + d[k, j], d4 likewise from d2, capped at INF; second output a 0-D u32 count of reachable pairs by hl.sum of a select",
      {'N': (1, 256)},
      outs=lambda v: [(I32, [v['N'], v['N']]), (U32, [])],
      data=lambda v, r: [adjmat(r, v['N'])], target='A')
def minplus(S, E):
    d0 = hl.ImageParam(I32, 2, "d0")
    i, j = V("i", "j")
    N = S['N']
    k1 = RD((0, N), name="k1")
    d2 = F("mp_d2"); d2[i, j] = hl.minimum(d0[i, k1] + d0[k1, j])
    k2 = RD((0, N), name="k2")
    d4 = F("mp_d4"); d4[i, j] = hl.min(hl.minimum(d2[i, k2] + d2[k2, j]), INF)
    rr = RD((0, N), (0, N), name="rr")
    reach = F("mp_reach"); reach[()] = hl.sum(hl.select(d4[rr.x, rr.y] < INF, hl.u32(1), hl.u32(0)))
    est_in(d0, E['N'], E['N']); est_out(d4, [i, j], E['N'], E['N'])
    return [d4, reach], [d0]


@spec("bignum_schoolbook_multiply_u16_limbs_u64_inline_hlsum_select_clamped_convolution_then_carry_propagation_scan_update_over_limbs_plus_top_limb_hlmaximum_reading_output",
      "batched arbitrary-precision multiply: NN numbers of NA u16 limbs (limbs innermost [k, n]); the 2 NA limb convolution by an inline hl.sum over RDom(0, NA) of a select-guarded u64 product with a clamped index, then carry propagation as a scan update over RDom(1, 2 NA - 1) (acc[k] += acc[k - 1] >> 16), u16 limb output; second output the number of significant limbs per number by an inline hl.maximum over the limb output",
      {'NA': (1, 128), 'NN': (1, 512)},
      outs=lambda v: [(U16, [2 * v['NA'], v['NN']]), (U32, [v['NN']])],
      data=lambda v, r: [randint(r, (v['NA'], v['NN']), 0, 65535, np.uint16), randint(r, (v['NA'], v['NN']), 0, 65535, np.uint16)], target='A')
def bignum(S, E):
    a = hl.ImageParam(U16, 2, "a"); b = hl.ImageParam(U16, 2, "b")
    k, n = V("k", "n")
    NA = S['NA']
    r = RD((0, NA), name="ri")
    j = k - r
    ok = (j >= 0) & (j < NA)
    conv = F("bn_conv"); conv[k, n] = hl.sum(hl.select(ok, hl.u64(a[r, n]) * hl.u64(b[hl.clamp(j, 0, NA - 1), n]), hl.u64(0)))
    acc = F("bn_acc"); acc[k, n] = conv[k, n]
    rc = RD((1, 2 * NA - 1), name="rc")
    acc[rc, n] = acc[rc, n] + (acc[rc - 1, n] >> 16)
    limb = F("bn_limb"); limb[k, n] = hl.u16(acc[k, n] & hl.u64(0xFFFF))
    rt = RD((0, 2 * NA), name="rt")
    top = F("bn_top"); top[n] = hl.maximum(hl.select(limb[rt, n] != 0, hl.u32(rt + 1), hl.u32(0)))
    est_in(a, E['NA'], E['NN']); est_in(b, E['NA'], E['NN']); est_out(limb, [k, n], 2 * E['NA'], E['NN']); est_out(top, [n], E['NN'])
    return [limb, top], [a, b]


@spec("divisor_sieve_scatter_hyperbolic_2d_rdom_where_rx_times_ry_le_n_min_clamped_index_updates_on_four_outputs_sigma_weighted_count_plus_abundance_class_u8",
      "number-theory sieve: for every n <= N the divisor sum sigma(n) (u32), a weighted divisor sum sum_{d | n} w[d] (i32, w an input), and the divisor count (u16), each by a scatter update on an OUTPUT over a 2-D RDom (d, m) in [1, N]^2 with where(d m <= N) to index min(d m, N); fourth output the abundance class u8 (deficient / perfect / abundant) reading the sigma output",
      {'N': (1, 4096)},
      outs=lambda v: [(U32, [v['N'] + 1]), (I32, [v['N'] + 1]), (U16, [v['N'] + 1]), (U8, [v['N'] + 1])],
      data=lambda v, r: [randint(r, (v['N'] + 1,), -50, 50, np.int32)], target='B')
def sieve(S, E):
    w = hl.ImageParam(I32, 1, "w")
    n = V("n")[0]
    N = S['N']

    def rd(nm):
        r = RD((1, N), (1, N), name=nm); r.where(r.x * r.y <= N)
        return r
    r1, r2, r3 = rd("ra"), rd("rb"), rd("rc")
    sg = F("sv_sigma"); sg[n] = hl.u32(0); sg[hl.min(r1.x * r1.y, N)] += hl.u32(r1.x)
    ws = F("sv_wsum"); ws[n] = 0; ws[hl.min(r2.x * r2.y, N)] += w[r2.x]
    ct = F("sv_count"); ct[n] = hl.u16(0); ct[hl.min(r3.x * r3.y, N)] += hl.u16(1)
    s = hl.i32(sg[n]) - n
    cl = F("sv_class"); cl[n] = hl.select(n < 1, hl.u8(0), s < n, hl.u8(0), s == n, hl.u8(1), hl.u8(2))
    est_in(w, E['N'] + 1)
    for f in (sg, ws, ct, cl):
        est_out(f, [n], E['N'] + 1)
    return [sg, ws, ct, cl], [w]


@spec("trsv_lower_batched_forward_substitution_batch_innermost_b_i_2d_rdom_j_inner_i_outer_where_j_le_i_select_divide_on_diagonal_update_on_output_f64_plus_logdet_hlsum",
      "batched lower-triangular solve L x = rhs (B systems, batch innermost: L[b, i, j], rhs[b, i]) by forward substitution written as ONE update on the output x over a 2-D RDom (j inner, i outer) with where(j <= i): select(j < i, x[i] - L[i, j] x[j], x[i] / L[i, i]); the strict upper triangle holds junk that must not be read; second output log|det L| per system by an inline hl.sum of log|L[i, i]|, f64",
      {'B': (1, 256), 'N': (1, 128)},
      outs=lambda v: [(F64, [v['B'], v['N']]), (F64, [v['B']])],
      data=lambda v, r: [lowtri(r, v['B'], v['N']), rnorm(r, (v['B'], v['N']), np.float64)], tol=1e-9, target='B')
def trsv(S, E):
    L = hl.ImageParam(F64, 3, "L"); rhs = hl.ImageParam(F64, 2, "rhs")
    b, i = V("b", "i")
    N = S['N']
    x = F("ts_x"); x[b, i] = rhs[b, i]
    r = RD((0, N), (0, N), name="r"); r.where(r.x <= r.y)
    x[b, r.y] = hl.select(r.x < r.y, x[b, r.y] - L[b, r.y, r.x] * x[b, r.x], x[b, r.y] / L[b, r.y, r.y])
    rl = RD((0, N), name="rl")
    ld = F("ts_logdet"); ld[b] = hl.sum(hl.log(hl.abs(L[b, rl, rl])))
    est_in(L, E['B'], E['N'], E['N']); est_in(rhs, E['B'], E['N']); est_out(x, [b, i], E['B'], E['N']); est_out(ld, [b], E['B'])
    return [x, ld], [L, rhs]


def lowtri(r, B, N):
    a = r.standard_normal((B, N, N)) * 0.3
    iu = np.triu_indices(N, 1)
    a[:, iu[0], iu[1]] = 1e3 * r.standard_normal((B, len(iu[0])))
    d = np.arange(N)
    a[:, d, d] = 2.0 + r.random((B, N))
    return fa(a)


# ============================================ graphics / crypto / bio ==========================================

@spec("ray_cast_orthographic_spheres_aos_i32_buffer_integer_zbuffer_i64_packed_key_id_select_min_update_over_spheres_param_then_id_gather_lambert_shading_interleaved_cxy_three_outputs",
      "orthographic ray casting of NS spheres (AoS i32 buffer sph[4, NS] = cx, cy, cz, r; NS a Param): per pixel a select(hit, min(best, key 64 + id), best) update of one i64 packed (depth key, id) over RDom(0, NS) (first wins on equal keys); the depth key is an exact integer (cz 256 - i32(sqrt(f32(r^2 - d^2)) 256), sqrt of an exact integer); outputs i32 id map, i32 depth map and f32 Lambert-shaded RGB channels-innermost [c, x, y] gathering the winning sphere's centre and colour by the computed id",
      {'W': (1, 512), 'H': (1, 384), 'NS': (1, 32)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [v['W'], v['H']]), (F32, [3, v['W'], v['H']])],
      data=lambda v, r: [spheres(r, v), runif(r, (3, v['NS']), 0.2, 1.0)], tol=1e-4, target='B')
def raycast(S, E):
    sp = hl.ImageParam(I32, 2, "sph"); col = hl.ImageParam(F32, 2, "col")
    x, y, c = V("x", "y", "c")
    NS = S['NS']
    r = RD((0, NS), name="rs")
    cx, cy, cz, rad = sp[0, r], sp[1, r], sp[2, r], sp[3, r]
    d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
    hit = d2 <= rad * rad
    key = cz * 256 - hl.i32(hl.sqrt(hl.f32(hl.max(rad * rad - d2, 0))) * 256.0)
    # (an explicit Tuple (key, id) update here is mis-lowered by Halide 14 itself: the id component re-reads the key
    #  component after it was stored, see REPORT.md; so the pair is packed into one i64 key * 64 + id)
    NOHIT = (1 << 30) * 64
    best = F("rc_best"); best[x, y] = hl.i64(NOHIT)
    best[x, y] = hl.select(hit, hl.min(best[x, y], hl.i64(key) * 64 + hl.i64(r.x)), best[x, y])
    bid = hl.select(best[x, y] < NOHIT, hl.i32(best[x, y] % 64), -1)
    idf = F("rc_id"); idf[x, y] = bid
    dep = F("rc_depth"); dep[x, y] = hl.select(best[x, y] < NOHIT, hl.i32(best[x, y] / 64), 1 << 30)
    sid = hl.clamp(bid, 0, NS - 1)
    nx = hl.f32(x - sp[0, sid]); ny = hl.f32(y - sp[1, sid]); rr = hl.f32(sp[3, sid])
    nz = -hl.sqrt(hl.max(rr * rr - nx * nx - ny * ny, 0.0))
    lam = hl.max(0.0, (nx * 0.3 - ny * 0.5 - nz * 0.812) / rr)
    sh = F("rc_shade"); sh[c, x, y] = hl.select(bid >= 0, col[c, sid] * (0.1 + 0.9 * lam), hl.f32(0.05))
    est_in(sp, 4, E['NS']); est_in(col, 3, E['NS'])
    est_out(idf, [x, y], E['W'], E['H']); est_out(dep, [x, y], E['W'], E['H']); est_out(sh, [c, x, y], 3, E['W'], E['H'])
    return [idf, dep, sh], [sp, col]


def spheres(r, v):
    W, H, NS = v['W'], v['H'], v['NS']
    s = np.zeros((4, NS), np.int32)
    s[0] = r.integers(0, W, NS); s[1] = r.integers(0, H, NS); s[2] = r.integers(0, 1000, NS)
    s[3] = r.integers(2, max(3, W // 4) + 1, NS)
    return fa(s)


CH_C = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]


def chacha_rounds(st, nrounds, rotl):
    def qr(a, b, c, d):
        st[a] = st[a] + st[b]; st[d] = rotl(st[d] ^ st[a], 16)
        st[c] = st[c] + st[d]; st[b] = rotl(st[b] ^ st[c], 12)
        st[a] = st[a] + st[b]; st[d] = rotl(st[d] ^ st[a], 8)
        st[c] = st[c] + st[d]; st[b] = rotl(st[b] ^ st[c], 7)
    for rnd in range(nrounds):
        quads = ([(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15)] if rnd % 2 == 0 else
                 [(0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)])
        for q in quads:
            qr(*q)
        yield rnd


@spec("chacha8_keystream_u32_state_func_per_round_mux_on_word_dim_16_python_unrolled_quarter_rounds_rotl_shift_or_counter_param_plus_xor_ciphertext",
      "ChaCha8 stream cipher block function: initial state s0[w, blk] (16 u32 words: constants, 8-word key buffer, counter blk + CTR with CTR a Param, 3-word nonce buffer) by hl.mux on w; each of the 8 rounds a Func s_k[w, blk] = hl.mux(w, 16 exprs of 4 python-unrolled quarter rounds reading s_{k-1}[0..15, blk]; rotl as shift/or); keystream = s_8 + s_0 (u32 wraparound) and ciphertext = msg ^ keystream, two u32 [16, NB] outputs",
      {'NB': (1, 8192), 'CTR': (0, 1000000)},
      outs=lambda v: [(U32, [16, v['NB']]), (U32, [16, v['NB']])],
      data=lambda v, r: [randint(r, (8,), 0, 2 ** 32 - 1, np.uint32), randint(r, (3,), 0, 2 ** 32 - 1, np.uint32),
                         randint(r, (16, v['NB']), 0, 2 ** 32 - 1, np.uint32)], target='B')
def chacha(S, E):
    key = hl.ImageParam(U32, 1, "key"); nonce = hl.ImageParam(U32, 1, "nonce"); msg = hl.ImageParam(U32, 2, "msg")
    w, blk = V("w", "blk")
    init = [hl.u32(c) for c in CH_C] + [key[i] for i in range(8)] + [hl.u32(blk + S['CTR'])] + [nonce[i] for i in range(3)]
    s0 = F("cc_s0"); s0[w, blk] = hl.mux(w, init)
    prev = s0
    st = [prev[i, blk] for i in range(16)]
    rotl = lambda v, k: (v << k) | (v >> (32 - k))
    for rnd in chacha_rounds(st, 8, rotl):
        f = F("cc_r%d" % rnd); f[w, blk] = hl.mux(w, list(st)); prev = f
        st[:] = [prev[i, blk] for i in range(16)]
    ks = F("cc_keystream"); ks[w, blk] = prev[w, blk] + s0[w, blk]
    ct = F("cc_cipher"); ct[w, blk] = msg[w, blk] ^ ks[w, blk]
    est_in(key, 8); est_in(nonce, 3); est_in(msg, 16, E['NB']); est_out(ks, [w, blk], 16, E['NB']); est_out(ct, [w, blk], 16, E['NB'])
    return [ks, ct], [key, nonce, msg]


@spec("kmer_count_dna_ascii_u8_select_chain_2bit_code_inline_hlsum_shift_over_k_param_invalid_n_hlmaximum_then_histogram_scatter_rdom_where_valid_4_pow_k_bins_output_extent_shift_plus_0d_distinct",
      "DNA k-mer counting: an ASCII u8 sequence of length N (A, C, G, T and about 1% N), 2-bit codes by a select chain (N -> 4), the k-mer code at i by an inline hl.sum over RDom(0, K) of (code & 3) << 2 (K - 1 - r) (K a Param 1..8), a k-mer containing N marked by an inline hl.maximum; outputs the i32 k-mer codes (-1 if invalid, extent N - K + 1), the u32 histogram of 4^K bins (output extent 1 << 2K) by a scatter over RDom(0, N - K + 1) with where(valid), and the 0-D count of distinct k-mers",
      {'N': (16, 262144), 'K': (1, 8)},
      outs=lambda v: [(I32, [v['N'] - v['K'] + 1]), (U32, [4 ** v['K']]), (U32, [])],
      data=lambda v, r: [dna(r, v['N'])], target='A')
def kmer(S, E):
    seq = hl.ImageParam(U8, 1, "seq")
    i = V("i")[0]
    N, K = S['N'], S['K']
    NB = pow4(K)
    ch = seq[i]
    code = F("km_code"); code[i] = hl.select(ch == 65, hl.u32(0), ch == 67, hl.u32(1), ch == 71, hl.u32(2), ch == 84, hl.u32(3), hl.u32(4))
    rk = RD((0, K), name="rk")
    km = F("km_code_k"); km[i] = hl.sum((code[i + rk] & 3) << hl.u32(2 * (K - 1 - rk)))
    rk2 = RD((0, K), name="rk2")
    bad = F("km_bad"); bad[i] = hl.maximum(hl.select(code[i + rk2] == 4, hl.u8(1), hl.u8(0)))
    kout = F("km_kmers"); kout[i] = hl.select(bad[i] != 0, -1, hl.i32(km[i]))
    b = V("b")[0]
    h = F("km_hist"); h[b] = hl.u32(0)
    rh = RD((0, N - K + 1), name="rh"); rh.where(bad[rh] == 0)
    h[hl.clamp(hl.i32(km[rh]), 0, NB - 1)] += hl.u32(1)
    rb = RD((0, NB), name="rbin")
    dist = F("km_distinct"); dist[()] = hl.sum(hl.select(h[rb] > 0, hl.u32(1), hl.u32(0)))
    est_in(seq, E['N']); est_out(kout, [i], E['N'] - E['K'] + 1); est_out(h, [b], pow4(E['K']))
    return [kout, h, dist], [seq]


def dna(r, N):
    a = np.frombuffer(b"ACGT", np.uint8)[r.integers(0, 4, N)].copy()
    a[r.random(N) < 0.01] = ord("N")
    return fa(a)


@spec("bloom_filter_or_scatter_k_hashes_param_2d_rdom_k_inner_keys_outer_u32_words_output_update_modulo_param_bits_then_query_membership_hlminimum_over_k_u8_plus_0d_popcount",
      "Bloom filter: K (1..8) multiply-xorshift u32 hashes of N keys taken modulo the bit count 32 NW (NW a Param: a run-time u32 modulus); the u32 bit-word OUTPUT is built by an OR scatter update bits[h / 32] |= 1 << (h % 32) over a 2-D RDom (k inner, key outer); membership of Q query keys (half of them inserted keys) as u8 by an inline hl.minimum over k of the tested bit, reading the bits output; 0-D total popcount by hl.sum of hl.popcount",
      {'N': (1, 65536), 'Q': (1, 65536), 'NW': (1, 4096), 'K': (1, 8)},
      outs=lambda v: [(U32, [v['NW']]), (U8, [v['Q']]), (U32, [])],
      data=lambda v, r: bloom_data(r, v), target='A')
def bloom(S, E):
    keys = hl.ImageParam(U32, 1, "keys"); qs = hl.ImageParam(U32, 1, "qs")
    wv, q = V("wv", "q")
    NBITS = hl.u32(32 * X(S['NW']))

    def hk(key, k):
        h = (key ^ (hl.u32(k) * hl.u32(0x3c6ef372))) * hl.u32(0x27d4eb2d)
        h = h ^ (h >> 15)
        h = h * hl.u32(0x165667b1)
        h = h ^ (h >> 13)
        return h % NBITS
    r = RD((0, S['K']), (0, S['N']), name="rb")
    bit = hk(keys[r.y], r.x)
    bits = F("bl_bits"); bits[wv] = hl.u32(0)
    bits[hl.i32(bit / 32)] = bits[hl.i32(bit / 32)] | (hl.u32(1) << (bit % 32))
    rq = RD((0, S['K']), name="rq")
    qb = hk(qs[q], rq)
    mem = F("bl_member"); mem[q] = hl.u8(hl.minimum((bits[hl.i32(qb / 32)] >> (qb % 32)) & 1))
    rw = RD((0, S['NW']), name="rw")
    pop = F("bl_pop"); pop[()] = hl.sum(hl.u32(hl.popcount(bits[rw])))
    est_in(keys, E['N']); est_in(qs, E['Q']); est_out(bits, [wv], E['NW']); est_out(mem, [q], E['Q'])
    return [bits, mem, pop], [keys, qs]


def bloom_data(r, v):
    keys = r.integers(0, 2 ** 32, v['N']).astype(np.uint32)
    qs = r.integers(0, 2 ** 32, v['Q']).astype(np.uint32)
    m = r.random(v['Q']) < 0.5
    qs[m] = keys[r.integers(0, v['N'], int(m.sum()))]
    return [fa(keys), fa(qs)]


# ============================================ image / graphics / physics =======================================

@spec("fbm_value_noise_hashed_integer_lattice_octaves_param_inline_hlsum_over_octave_rdom_shift_by_rvar_smoothstep_bilerp_seed_param_f16_output_plus_0d_hlmaximum_f32",
      "fractal Brownian motion of value noise: per octave o (OCT a Param, 1..6) the lattice cell is 64 >> o pixels (x << o in Q6), lattice values by a u32 multiply-xorshift hash of (ix, iy, o, SEED) (SEED a Param), smoothstep weights, bilinear mix, amplitude 2^-o; the octave sum is an inline hl.sum over RDom(0, OCT) whose shifts use the RVar; output f16 [x, y] and a 0-D f32 hl.maximum of the f32 sum",
      {'W': (1, 1024), 'H': (1, 768), 'OCT': (1, 6), 'SEED': (0, 1000)},
      outs=lambda v: [(F16, [v['W'], v['H']]), (F32, [])],
      data=lambda v, r: [], tol=2e-3, target='A')
def fbm(S, E):
    x, y = V("x", "y")
    ro = RD((0, S['OCT']), name="ro")
    o = ro.x
    px = x << o; py = y << o
    ix = px >> 6; iy = py >> 6
    fx = hl.f32(px & 63) * (1.0 / 64); fy = hl.f32(py & 63) * (1.0 / 64)

    def val(a, b):
        h = (hl.u32(a) * hl.u32(0x2da6b343)) ^ (hl.u32(b) * hl.u32(0x58163841)) ^ (hl.u32(o + 1) * hl.u32(0x4b1ab31f)) ^ hl.u32(S['SEED'])
        h = h ^ (h >> 13)
        h = h * hl.u32(0x5bd1e995)
        h = h ^ (h >> 15)
        return hl.f32(h >> 8) * (1.0 / 16777216)
    sx = fx * fx * (3.0 - 2.0 * fx); sy = fy * fy * (3.0 - 2.0 * fy)
    n = hl.lerp(hl.lerp(val(ix, iy), val(ix + 1, iy), sx), hl.lerp(val(ix, iy + 1), val(ix + 1, iy + 1), sx), sy)
    amp = 1.0 / hl.f32(hl.Expr(1) << o)
    tot = F("fb_sum"); tot[x, y] = hl.sum(amp * n)
    out = F("fb_f16"); out[x, y] = hl.cast(F16, tot[x, y])
    rr = RD((0, S['W']), (0, S['H']), name="rm")
    mx = F("fb_max"); mx[()] = hl.maximum(tot[rr.x, rr.y])
    est_out(out, [x, y], E['W'], E['H'])
    return [out, mx], []


@spec("fdtd_yee_te_2d_three_leapfrog_steps_staggered_hx_hy_ez_funcs_constant_exterior_pec_on_each_field_point_source_params_three_field_outputs_plus_0d_energy",
      "2-D FDTD (Yee scheme, TE mode), three leapfrog time steps: per step Hx -= c dEz/dy, Hy += c dEz/dx (forward differences), then Ez += c (dHy/dx - dHx/dy) (backward differences) plus a point source at (SX, SY) (Params, may lie outside) of amplitude AMP / 10 (a Param); every field read through constant_exterior 0 (PEC walls) of its own Func; outputs Ez, Hx, Hy of the last step (Hx, Hy also read by that step's Ez) and a 0-D field energy by hl.sum over a 2-D RDom",
      {'W': (2, 512), 'H': (2, 512), 'SX': (0, 511), 'SY': (0, 511), 'AMP': (1, 100)},
      outs=lambda v: [(F32, [v['W'], v['H']])] * 3 + [(F32, [])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'])), rnorm(r, (v['W'], v['H'])), rnorm(r, (v['W'], v['H']))], tol=2e-4, target='B')
def fdtd(S, E):
    ez0 = hl.ImageParam(F32, 2, "ez0"); hx0 = hl.ImageParam(F32, 2, "hx0"); hy0 = hl.ImageParam(F32, 2, "hy0")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    bnd = [(0, W), (0, H)]
    c = 0.5
    ez = BF.constant_exterior(ez0, hl.f32(0), bnd)
    hx, hy = hx0, hy0
    for s in range(3):
        Hx = F("fd_hx%d" % s); Hx[x, y] = hx[x, y] - c * (ez[x, y + 1] - ez[x, y])
        Hy = F("fd_hy%d" % s); Hy[x, y] = hy[x, y] + c * (ez[x + 1, y] - ez[x, y])
        hxe = BF.constant_exterior(Hx, hl.f32(0), bnd); hye = BF.constant_exterior(Hy, hl.f32(0), bnd)
        Ez = F("fd_ez%d" % s)
        Ez[x, y] = ez[x, y] + c * ((hye[x, y] - hye[x - 1, y]) - (hxe[x, y] - hxe[x, y - 1])) + \
            hl.select((x == S['SX']) & (y == S['SY']), fE(S['AMP']) * (0.1 * math.sin(0.7 * (s + 1))), hl.f32(0))
        ez = BF.constant_exterior(Ez, hl.f32(0), bnd)
        hx, hy = Hx, Hy
    rr = RD((0, W), (0, H), name="re")
    en = F("fd_energy"); en[()] = hl.sum(sq(Ez[rr.x, rr.y]) + sq(Hx[rr.x, rr.y]) + sq(Hy[rr.x, rr.y]))
    for p in (ez0, hx0, hy0):
        est_in(p, E['W'], E['H'])
    for f in (Ez, Hx, Hy):
        est_out(f, [x, y], E['W'], E['H'])
    return [Ez, Hx, Hy, en], [ez0, hx0, hy0]


@spec("template_match_u8_ssd_i32_and_zncc_f64_exact_integer_window_sums_four_inline_hlsums_2d_rdom_template_size_params_valid_output_size_then_0d_2d_hlargmin_tuple_first_wins",
      "template matching of a u8 template [TW, TH] (Params 1..16) over a u8 image [W, H]: valid-size outputs (W - TW + 1, H - TH + 1) of the i32 SSD (inline hl.sum over a 2-D RDom) and the zero-mean NCC in f32 computed from exact integer window sums sum I, sum I^2, sum I T (three more inline hl.sums) and 0-D template sums, in f64 with a select guard for flat windows; the 0-D best match (x, y) by an inline 2-D hl.argmin over the SSD output (first wins on ties, many ties at TW = TH = 1)",
      {'W': (16, 640), 'H': (16, 480), 'TW': (1, 16), 'TH': (1, 16)},
      outs=lambda v: [(I32, [v['W'] - v['TW'] + 1, v['H'] - v['TH'] + 1]), (F32, [v['W'] - v['TW'] + 1, v['H'] - v['TH'] + 1]), (I32, []), (I32, [])],
      data=lambda v, r: [randint(r, (v['W'], v['H']), 0, 255, np.uint8), randint(r, (v['TW'], v['TH']), 0, 255, np.uint8)], tol=1e-4, target='B')
def tmatch(S, E):
    im = hl.ImageParam(U8, 2, "im"); tp = hl.ImageParam(U8, 2, "tp")
    x, y = V("x", "y")
    TW, TH = S['TW'], S['TH']
    OW, OH = S['W'] - TW + 1, S['H'] - TH + 1
    rs = [RD((0, TW), (0, TH), name="rw%d" % k) for k in range(6)]
    I = lambda r: hl.i32(im[x + r.x, y + r.y])
    T = lambda r: hl.i32(tp[r.x, r.y])
    ssd = F("tm_ssd"); ssd[x, y] = hl.sum(sq(I(rs[0]) - T(rs[0])))
    sI = hl.f64(hl.sum(I(rs[1]))); sII = hl.f64(hl.sum(I(rs[2]) * I(rs[2]))); sIT = hl.f64(hl.sum(I(rs[3]) * T(rs[3])))
    tst = F("tm_tstats"); tst[()] = (hl.sum(T(rs[4])), hl.sum(T(rs[5]) * T(rs[5])))
    sT, sTT = hl.f64(tst[()][0]), hl.f64(tst[()][1])
    n = hl.f64(X(TW) * TH)
    num = n * sIT - sI * sT
    den = (n * sII - sI * sI) * (n * sTT - sT * sT)
    zn = F("tm_zncc"); zn[x, y] = hl.f32(hl.select(den > 0, num / hl.sqrt(den), hl.f64(0)))
    ro = RD((0, OW), (0, OH), name="ro")
    am = F("tm_best"); am[()] = hl.argmin(ssd[ro.x, ro.y])
    bx = F("tm_bx"); bx[()] = am[()][0]
    by = F("tm_by"); by[()] = am[()][1]
    est_in(im, E['W'], E['H']); est_in(tp, E['TW'], E['TH'])
    est_out(ssd, [x, y], E['W'] - E['TW'] + 1, E['H'] - E['TH'] + 1); est_out(zn, [x, y], E['W'] - E['TW'] + 1, E['H'] - E['TH'] + 1)
    return [ssd, zn, bx, by], [im, tp]


@spec("chamfer_34_distance_two_raster_scan_updates_one_func_forward_2d_rdom_then_reversed_2d_rdom_w_minus_1_minus_rx_constant_exterior_input_big_border_i32_copy_output_plus_0d_hlmaximum",
      "chamfer 3-4 distance transform of a binary u8 image: d = 0 on foreground, BIG elsewhere (input through constant_exterior 0 so the one-pixel border is BIG), then ONE Func with two order-dependent 2-D updates: a forward raster scan over RDom(W, H) (x inner) taking min with the 4 causal neighbours (+3 / +4), and a backward raster scan over a second RDom indexed (W - 1 - r.x, H - 1 - r.y); i32 copy output and a 0-D hl.maximum of it",
      {'W': (1, 512), 'H': (1, 512)},
      outs=lambda v: [(I32, [v['W'], v['H']]), (I32, [])],
      data=lambda v, r: [fa((r.random((v['W'], v['H'])) < 0.01).astype(np.uint8))], target='B')
def chamfer(S, E):
    im = hl.ImageParam(U8, 2, "im")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    BIG = 1 << 20
    e = BF.constant_exterior(im, hl.u8(0), [(0, W), (0, H)])
    d = F("ch_d"); d[x, y] = hl.select(e[x, y] > 0, 0, BIG)
    r = RD((0, W), (0, H), name="rf")
    a, b = r.x, r.y
    d[a, b] = hl.min(hl.min(d[a, b], d[a - 1, b] + 3), hl.min(hl.min(d[a - 1, b - 1] + 4, d[a, b - 1] + 3), d[a + 1, b - 1] + 4))
    q = RD((0, W), (0, H), name="rk")
    a, b = W - 1 - q.x, H - 1 - q.y
    d[a, b] = hl.min(hl.min(d[a, b], d[a + 1, b] + 3), hl.min(hl.min(d[a + 1, b + 1] + 4, d[a, b + 1] + 3), d[a - 1, b + 1] + 4))
    out = F("ch_out"); out[x, y] = hl.min(d[x, y], BIG)
    rm = RD((0, W), (0, H), name="rm")
    mx = F("ch_max"); mx[()] = hl.maximum(out[rm.x, rm.y])
    est_in(im, E['W'], E['H']); est_out(out, [x, y], E['W'], E['H'])
    return [out, mx], [im]


@spec("horn_schunck_3_iterations_tuple_u_v_funcs_clamped_4_neighbour_mean_per_iteration_derivatives_2x2_cube_two_frames_alpha_param_two_outputs_from_tuple",
      "Horn-Schunck optical flow: Ix, Iy, It from the 2x2x2 cube of two f32 frames (clamped coordinates), then 3 Jacobi iterations, each a Tuple Func (u, v) = (ub - Ix t, vb - Iy t) with t = (Ix ub + Iy vb + It) / (alpha^2 + Ix^2 + Iy^2), ub / vb the 4-neighbour means of the previous iterate read at clamped coordinates; alpha = AL / 10 (a Param); two outputs u, v from the last Tuple",
      {'W': (1, 512), 'H': (1, 512), 'AL': (1, 100)},
      outs=lambda v: [(F32, [v['W'], v['H']]), (F32, [v['W'], v['H']])],
      data=lambda v, r: [runif(r, (v['W'], v['H'])), runif(r, (v['W'], v['H']))], tol=2e-4, target='B')
def hornschunck(S, E):
    f0 = hl.ImageParam(F32, 2, "f0"); f1 = hl.ImageParam(F32, 2, "f1")
    x, y = V("x", "y")
    W, H = S['W'], S['H']
    cx = lambda e: hl.clamp(e, 0, W - 1)
    cy = lambda e: hl.clamp(e, 0, H - 1)
    g = lambda f, dx, dy: f[cx(x + dx), cy(y + dy)]
    Ix = F("hs_ix"); Ix[x, y] = 0.25 * ((g(f0, 1, 0) - g(f0, 0, 0)) + (g(f0, 1, 1) - g(f0, 0, 1)) + (g(f1, 1, 0) - g(f1, 0, 0)) + (g(f1, 1, 1) - g(f1, 0, 1)))
    Iy = F("hs_iy"); Iy[x, y] = 0.25 * ((g(f0, 0, 1) - g(f0, 0, 0)) + (g(f0, 1, 1) - g(f0, 1, 0)) + (g(f1, 0, 1) - g(f1, 0, 0)) + (g(f1, 1, 1) - g(f1, 1, 0)))
    It = F("hs_it"); It[x, y] = 0.25 * ((g(f1, 0, 0) - g(f0, 0, 0)) + (g(f1, 1, 0) - g(f0, 1, 0)) + (g(f1, 0, 1) - g(f0, 0, 1)) + (g(f1, 1, 1) - g(f0, 1, 1)))
    al = fE(S['AL']) * 0.1
    uv = F("hs_uv0"); uv[x, y] = (hl.f32(0), hl.f32(0))
    for it in range(3):
        m = lambda k: 0.25 * (uv[cx(x - 1), y][k] + uv[cx(x + 1), y][k] + uv[x, cy(y - 1)][k] + uv[x, cy(y + 1)][k])
        ub, vb = m(0), m(1)
        t = (Ix[x, y] * ub + Iy[x, y] * vb + It[x, y]) / (al * al + sq(Ix[x, y]) + sq(Iy[x, y]))
        nuv = F("hs_uv%d" % (it + 1)); nuv[x, y] = (ub - Ix[x, y] * t, vb - Iy[x, y] * t)
        uv = nuv
    u = F("hs_u"); u[x, y] = uv[x, y][0]
    v = F("hs_v"); v[x, y] = uv[x, y][1]
    est_in(f0, E['W'], E['H']); est_in(f1, E['W'], E['H']); est_out(u, [x, y], E['W'], E['H']); est_out(v, [x, y], E['W'], E['H'])
    return [u, v], [f0, f1]


# ============================================ ML ================================================================

@spec("paged_attention_decode_block_table_gather_page_slot_divmod_kv_cache_pool_seq_len_buffer_select_mask_hlmaximum_hlsum_softmax_context_plus_lse_two_outputs",
      "paged-attention decode (vLLM style): one query per sequence q[d, h, b]; K and V caches are a pool of B MP pages of PS slots [d, slot, page, h]; token t of sequence b lives in page clamp(block_table[t / PS, b]) at slot t % PS (PS, MP Params); scores by an inline hl.sum over d with a select mask t < seq_len[b] (a buffer), softmax by hl.maximum / hl.sum over RDom(0, PS MP), context by an inline hl.sum of the gathered V; outputs context f32 [d, h, b] and log-sum-exp f32 [h, b]",
      {'DH': (1, 64), 'H': (1, 8), 'B': (1, 16), 'PS': (1, 32), 'MP': (1, 16)},
      outs=lambda v: [(F32, [v['DH'], v['H'], v['B']]), (F32, [v['H'], v['B']])],
      data=lambda v, r: paged_data(r, v), tol=1e-4, target='B')
def paged(S, E):
    q = hl.ImageParam(F32, 3, "q"); kc = hl.ImageParam(F32, 4, "kc"); vc = hl.ImageParam(F32, 4, "vc")
    bt = hl.ImageParam(I32, 2, "bt"); sl = hl.ImageParam(I32, 1, "sl")
    t, h, b, d = V("t", "h", "b", "d")
    DH, PS, MP, B = S['DH'], S['PS'], S['MP'], S['B']
    T = X(PS) * MP
    page = lambda tt: hl.clamp(bt[tt / PS, b], 0, X(B) * MP - 1)
    rd = RD((0, DH), name="rd")
    scale = 1.0 / hl.sqrt(fE(DH))
    sc = F("pa_score"); sc[t, h, b] = hl.select(t < sl[b], hl.sum(q[rd, h, b] * kc[rd, t % PS, page(t), h]) * scale, hl.f32(-1e30))
    r1 = RD((0, T), name="r1"); r2 = RD((0, T), name="r2"); r3 = RD((0, T), name="r3")
    mx = F("pa_max"); mx[h, b] = hl.maximum(sc[r1, h, b])
    ex = F("pa_exp"); ex[t, h, b] = hl.exp(sc[t, h, b] - mx[h, b])
    den = F("pa_den"); den[h, b] = hl.sum(ex[r2, h, b])
    out = F("pa_out"); out[d, h, b] = hl.sum(ex[r3, h, b] * vc[d, r3 % PS, page(r3), h]) / den[h, b]
    lse = F("pa_lse"); lse[h, b] = mx[h, b] + hl.log(den[h, b])
    NP = E['B'] * E['MP']
    est_in(q, E['DH'], E['H'], E['B']); est_in(kc, E['DH'], E['PS'], NP, E['H']); est_in(vc, E['DH'], E['PS'], NP, E['H'])
    est_in(bt, E['MP'], E['B']); est_in(sl, E['B'])
    est_out(out, [d, h, b], E['DH'], E['H'], E['B']); est_out(lse, [h, b], E['H'], E['B'])
    return [out, lse], [q, kc, vc, bt, sl]


def paged_data(r, v):
    DH, H, B, PS, MP = v['DH'], v['H'], v['B'], v['PS'], v['MP']
    NP = B * MP
    bt = r.permutation(NP).astype(np.int32).reshape(MP, B)
    sl = r.integers(1, MP * PS + 1, B).astype(np.int32)
    return [rnorm(r, (DH, H, B)), rnorm(r, (DH, PS, NP, H)), rnorm(r, (DH, PS, NP, H)), fa(bt), fa(sl)]


@spec("deformable_conv3x3_v1_offsets_planar_k_innermost_bilinear_zero_padding_validity_selects_sample_func_c_k_x_y_then_contraction_2d_rdom_ci_k_co_innermost_output",
      "deformable convolution v1 (3x3): a learned offset buffer off[18, W, H] (dx, dy per tap, taps innermost) moves each tap to (x + kx - 1 + dx, y + ky - 1 + dy); the channels-innermost f32 input [ci, x, y] is sampled bilinearly with zero padding (four validity selects, clamped gathers) into a Func samp[ci, k, x, y], then contracted with weights [ci, k, co] over a 2-D RDom (ci, k) plus bias; output [co, x, y] (co innermost)",
      {'CI': (1, 16), 'CO': (1, 16), 'W': (1, 64), 'H': (1, 64)},
      outs=lambda v: [(F32, [v['CO'], v['W'], v['H']])],
      data=lambda v, r: [rnorm(r, (v['CI'], v['W'], v['H'])), runif(r, (18, v['W'], v['H']), -2.0, 2.0), rnorm(r, (v['CI'], 9, v['CO'])), rnorm(r, (v['CO'],))],
      tol=1e-4, target='B')
def deform(S, E):
    inp = hl.ImageParam(F32, 3, "inp"); off = hl.ImageParam(F32, 3, "off"); wt = hl.ImageParam(F32, 3, "wt"); bias = hl.ImageParam(F32, 1, "bias")
    c, k, x, y, o = V("c", "k", "x", "y", "o")
    W, H = S['W'], S['H']
    px = hl.f32(x + k % 3 - 1) + off[2 * k, x, y]
    py = hl.f32(y + k / 3 - 1) + off[2 * k + 1, x, y]
    fx0, fy0 = hl.floor(px), hl.floor(py)
    x0, y0 = hl.i32(fx0), hl.i32(fy0)
    ax, ay = px - fx0, py - fy0

    def tap(xx, yy):
        ok = (xx >= 0) & (xx < W) & (yy >= 0) & (yy < H)
        return hl.select(ok, inp[c, hl.clamp(xx, 0, W - 1), hl.clamp(yy, 0, H - 1)], hl.f32(0))
    samp = F("df_samp")
    samp[c, k, x, y] = ((1 - ax) * (1 - ay)) * tap(x0, y0) + (ax * (1 - ay)) * tap(x0 + 1, y0) + ((1 - ax) * ay) * tap(x0, y0 + 1) + (ax * ay) * tap(x0 + 1, y0 + 1)
    r = RD((0, S['CI']), (0, 9), name="rck")
    out = F("df_out"); out[o, x, y] = bias[o] + hl.sum(wt[r.x, r.y, o] * samp[r.x, r.y, x, y])
    est_in(inp, E['CI'], E['W'], E['H']); est_in(off, 18, E['W'], E['H']); est_in(wt, E['CI'], 9, E['CO']); est_in(bias, E['CO'])
    est_out(out, [o, x, y], E['CO'], E['W'], E['H'])
    return [out], [inp, off, wt, bias]


@spec("mamba_selective_scan_s6_state_n_innermost_4d_scan_func_n_d_t_b_update_over_rdom_t_data_dependent_decay_exp_delta_a_softplus_delta_then_c_contraction_hlsum_over_n_silu_gate_plus_final_state_output",
      "Mamba S6 selective scan: delta = softplus(dt_raw + dt_bias[d]) per (d, t, b); state h[n, d, t, b] (state n innermost, 4-D Func) initialized delta B x and scanned over RDom(1, T - 1): h[t] = exp(delta A[n, d]) h[t - 1] + delta B[n, t, b] x[d, t, b]; y = (inline hl.sum over n of C[n, t, b] h + D[d] x) silu(z); outputs y f32 [d, t, b] and the final state h[n, d, T - 1, b]",
      {'DI': (1, 64), 'NS': (1, 16), 'T': (2, 256), 'B': (1, 4)},
      outs=lambda v: [(F32, [v['DI'], v['T'], v['B']]), (F32, [v['NS'], v['DI'], v['B']])],
      data=lambda v, r: [rnorm(r, (v['DI'], v['T'], v['B'])), rnorm(r, (v['DI'], v['T'], v['B'])), rnorm(r, (v['DI'], v['T'], v['B'])),
                         fa(-runif(r, (v['NS'], v['DI']), 0.5, 4.0)), rnorm(r, (v['NS'], v['T'], v['B'])), rnorm(r, (v['NS'], v['T'], v['B'])),
                         rnorm(r, (v['DI'],)), rnorm(r, (v['DI'],))], tol=2e-4, target='A')
def mamba(S, E):
    x = hl.ImageParam(F32, 3, "x"); dtr = hl.ImageParam(F32, 3, "dtr"); z = hl.ImageParam(F32, 3, "z"); A = hl.ImageParam(F32, 2, "A")
    Bm = hl.ImageParam(F32, 3, "Bm"); Cm = hl.ImageParam(F32, 3, "Cm"); Dk = hl.ImageParam(F32, 1, "Dk"); dtb = hl.ImageParam(F32, 1, "dtb")
    n, d, t, b = V("n", "d", "t", "b")
    T = S['T']
    dl = F("mb_delta"); dl[d, t, b] = hl.log(1.0 + hl.exp(dtr[d, t, b] + dtb[d]))
    h = F("mb_h"); h[n, d, t, b] = dl[d, t, b] * Bm[n, t, b] * x[d, t, b]
    r = RD((1, T - 1), name="rt")
    h[n, d, r, b] = hl.exp(dl[d, r, b] * A[n, d]) * h[n, d, r - 1, b] + dl[d, r, b] * Bm[n, r, b] * x[d, r, b]
    rn = RD((0, S['NS']), name="rn")
    zz = z[d, t, b]
    y = F("mb_y"); y[d, t, b] = (hl.sum(Cm[rn, t, b] * h[rn, d, t, b]) + Dk[d] * x[d, t, b]) * (zz / (1.0 + hl.exp(-zz)))
    hl_ = F("mb_hlast"); hl_[n, d, b] = h[n, d, T - 1, b]
    for p in (x, dtr, z):
        est_in(p, E['DI'], E['T'], E['B'])
    est_in(A, E['NS'], E['DI']); est_in(Bm, E['NS'], E['T'], E['B']); est_in(Cm, E['NS'], E['T'], E['B']); est_in(Dk, E['DI']); est_in(dtb, E['DI'])
    est_out(y, [d, t, b], E['DI'], E['T'], E['B']); est_out(hl_, [n, d, b], E['NS'], E['DI'], E['B'])
    return [y, hl_], [x, dtr, z, A, Bm, Cm, Dk, dtb]


@spec("pixel_shuffle_r_param_after_conv3x3_to_co_r_r_channels_3d_rdom_constant_exterior_nchw_reversed_x_y_c_n_divmod_channel_gather_relu_upscaled_output",
      "ESPCN-style sub-pixel upsampling: a 3x3 conv (3-D RDom (kx, ky, ci), constant_exterior 0) from CI to CO R^2 channels on planar [x, y, c, n], then PixelShuffle(R) (R a Param 1..3) as a divmod gather out[X, Y, co, n] = relu(conv[X / R, Y / R, co R^2 + (Y % R) R + X % R, n]); output [W R, H R, CO, N]",
      {'W': (1, 64), 'H': (1, 64), 'CI': (1, 16), 'CO': (1, 8), 'R': (1, 3), 'N': (1, 2)},
      outs=lambda v: [(F32, [v['W'] * v['R'], v['H'] * v['R'], v['CO'], v['N']])],
      data=lambda v, r: [rnorm(r, (v['W'], v['H'], v['CI'], v['N'])), rnorm(r, (3, 3, v['CI'], v['CO'] * v['R'] ** 2)), rnorm(r, (v['CO'] * v['R'] ** 2,))],
      tol=1e-4, target='A')
def pshuffle(S, E):
    inp = hl.ImageParam(F32, 4, "inp"); w = hl.ImageParam(F32, 4, "w"); bias = hl.ImageParam(F32, 1, "bias")
    x, y, k, n, c = V("x", "y", "k", "n", "c")
    W, H, CI, R = S['W'], S['H'], S['CI'], S['R']
    e = BF.constant_exterior(inp, hl.f32(0), [(0, W), (0, H), (0, CI), (0, S['N'])])
    r = RD((0, 3), (0, 3), (0, CI), name="r3")
    cv = F("ps_conv"); cv[x, y, k, n] = bias[k] + hl.sum(w[r.x, r.y, r.z, k] * e[x + r.x - 1, y + r.y - 1, r.z, n])
    out = F("ps_out"); out[x, y, c, n] = hl.max(cv[x / R, y / R, c * R * R + (y % R) * R + x % R, n], 0.0)
    RR = E['CO'] * E['R'] * E['R']
    est_in(inp, E['W'], E['H'], E['CI'], E['N']); est_in(w, 3, 3, E['CI'], RR); est_in(bias, RR)
    est_out(out, [x, y, c, n], E['W'] * E['R'], E['H'] * E['R'], E['CO'], E['N'])
    return [out], [inp, w, bias]


# ============================================ signal / numerics ================================================

@spec("sample_entropy_chebyshev_func_i_j_s_inline_hlmaximum_over_k_consumed_by_inline_hlsum_over_j_integer_series_t_innermost_m_param_tolerance_param_counts_u32_and_f32_sampen",
      "sample entropy SampEn(M, RT) of S integer-valued series x[t, s]: for templates of length M and M + 1 (M a Param 1..4) the number of ordered pairs (i, j), i != j, i, j < T - M, with Chebyshev distance <= RT (a Param), written as a 3-D Func cheb[i, j, s] = inline hl.maximum over k of absd(x[i + k], x[j + k]) (Halide rejects the nested inline form) consumed by an inline hl.sum over j of select(j != i and cheb <= RT), then hl.sum over i; outputs u32 counts A, B and f32 -log(A / B) (-1 when undefined)",
      {'T': (8, 512), 'S': (1, 16), 'M': (1, 4), 'RT': (0, 50)},
      outs=lambda v: [(U32, [v['S']]), (U32, [v['S']]), (F32, [v['S']])],
      data=lambda v, r: [fa(np.cumsum(r.integers(-20, 21, (v['T'], v['S'])), 0).astype(np.int32))], tol=1e-5, target='A')
def sampen(S, E):
    xs = hl.ImageParam(I32, 2, "x")
    i, j, s = V("i", "j", "s")
    NT = X(S['T']) - S['M']

    def count(mm, nm):
        rj = RD((0, NT), name="rj" + nm); rk = RD((0, mm), name="rk" + nm)
        ch = F("se_cheb" + nm); ch[i, j, s] = hl.maximum(hl.absd(xs[i + rk, s], xs[j + rk, s]))
        c = F("se_c" + nm); c[i, s] = hl.sum(hl.select((rj != i) & (ch[i, rj, s] <= hl.u32(S['RT'])), hl.u32(1), hl.u32(0)))
        ri = RD((0, NT), name="ri" + nm)
        tot = F("se_tot" + nm); tot[s] = hl.sum(c[ri, s])
        return tot
    Bc = count(S['M'], "B")
    Ac = count(X(S['M']) + 1, "A")
    se = F("se_sampen"); se[s] = hl.select((Ac[s] > 0) & (Bc[s] > 0), -hl.log(hl.f32(Ac[s]) / hl.f32(Bc[s])), hl.f32(-1))
    est_in(xs, E['T'], E['S'])
    for f in (Ac, Bc, se):
        est_out(f, [s], E['S'])
    return [Ac, Bc, se], [xs]


ATAN_Q16 = [int(round(math.atan(2.0 ** -k) * 65536)) for k in range(24)]
PI_Q16 = int(round(math.pi * 65536))


@spec("cordic_vectoring_fixed_point_q16_tuple_x_y_z_update_over_rdom_nit_param_shift_by_rvar_atan_table_buffer_gather_quadrant_prefold_magnitude_and_angle_i32",
      "CORDIC in vectoring mode on N i32 points (|x|, |y| < 2^20): quadrant pre-fold (x < 0 -> (-x, -y), z0 = +-pi in Q16), then a Tuple (x, y, z) update over RDom(0, NIT) (NIT a Param 1..24) with arithmetic shifts by the RVar and an atan Q16 table buffer gathered at r; outputs the gain-corrected magnitude (x 39797 >> 16 in i64) and the angle z, both i32, exact",
      {'N': (1, 262144), 'NIT': (1, 24)},
      outs=lambda v: [(I32, [v['N']]), (I32, [v['N']])],
      data=lambda v, r: [randint(r, (v['N'],), -(1 << 20) + 1, (1 << 20) - 1, np.int32), randint(r, (v['N'],), -(1 << 20) + 1, (1 << 20) - 1, np.int32),
                         fa(np.array(ATAN_Q16, np.int32))], target='A')
def cordic(S, E):
    xi = hl.ImageParam(I32, 1, "xi"); yi = hl.ImageParam(I32, 1, "yi"); at = hl.ImageParam(I32, 1, "atan")
    n = V("n")[0]
    neg = xi[n] < 0
    st = F("co_state")
    st[n] = (hl.select(neg, -xi[n], xi[n]), hl.select(neg, -yi[n], yi[n]), hl.select(neg, hl.select(yi[n] >= 0, PI_Q16, -PI_Q16), 0))
    r = RD((0, S['NIT']), name="rit")
    xx, yy, zz = st[n][0], st[n][1], st[n][2]
    up = yy >= 0
    st[n] = (hl.select(up, xx + (yy >> r), xx - (yy >> r)), hl.select(up, yy - (xx >> r), yy + (xx >> r)), hl.select(up, zz + at[r], zz - at[r]))
    mag = F("co_mag"); mag[n] = hl.i32((hl.i64(st[n][0]) * 39797) >> 16)
    ang = F("co_angle"); ang[n] = st[n][2]
    est_in(xi, E['N']); est_in(yi, E['N']); est_in(at, 24); est_out(mag, [n], E['N']); est_out(ang, [n], E['N'])
    return [mag, ang], [xi, yi, at]


@spec("binomial_crr_american_put_lattice_batch_innermost_b_i_backward_induction_one_update_2d_rdom_i_inner_step_outer_where_triangular_early_exercise_max_f64_plus_0d_max_time_value",
      "Cox-Ross-Rubinstein binomial lattice for NO American puts (per-option S0, K, sigma buffers; r = 3%, T = 1 year) with NS steps (a Param): leaves v[b, i] = max(K - S0 u^(2i - NS), 0) with the batch innermost, then backward induction as ONE in-place update over a 2-D RDom (i inner, step outer) with where(i < NS - step): v[i] = max(disc (p v[i + 1] + (1 - p) v[i]), early-exercise payoff) (u^k by exp); outputs the price v[b, 0] and a 0-D hl.maximum of the time value, f64",
      {'NO': (1, 1024), 'NS': (1, 96)},
      outs=lambda v: [(F64, [v['NO']]), (F64, [])],
      data=lambda v, r: [runif(r, (v['NO'],), 80, 120, np.float64), runif(r, (v['NO'],), 90, 110, np.float64), runif(r, (v['NO'],), 0.1, 0.5, np.float64)],
      tol=1e-9, target='A')
def binomial(S, E):
    s0 = hl.ImageParam(F64, 1, "s0"); kk = hl.ImageParam(F64, 1, "k"); sg = hl.ImageParam(F64, 1, "sigma")
    b, i = V("b", "i")
    NS = S['NS']
    dt = 1.0 / hl.f64(NS)
    rate = 0.03
    sdt = sg[b] * hl.sqrt(dt)
    u = hl.exp(sdt); dn = 1.0 / u
    p = (hl.exp(rate * dt) - dn) / (u - dn)
    disc = hl.exp(-rate * dt)
    pay = lambda ii, L: hl.max(kk[b] - s0[b] * hl.exp(sdt * hl.f64(2 * ii - L)), 0.0)
    v = F("bt_v"); v[b, i] = pay(i, NS)
    r = RD((0, NS), (0, NS), name="rl"); r.where(r.x < NS - r.y)
    L = NS - 1 - r.y
    v[b, r.x] = hl.max(disc * (p * v[b, r.x + 1] + (1.0 - p) * v[b, r.x]), pay(r.x, L))
    price = F("bt_price"); price[b] = v[b, 0]
    ro = RD((0, S['NO']), name="ro")
    tv = F("bt_tvmax"); tv[()] = hl.maximum(price[ro] - hl.max(kk[ro] - s0[ro], 0.0))
    est_in(s0, E['NO']); est_in(kk, E['NO']); est_in(sg, E['NO']); est_out(price, [b], E['NO'])
    return [price, tv], [s0, kk, sg]


@spec("zigzag_delta_varint_sizes_i32_series_t_innermost_clz_byte_count_u8_exclusive_offsets_scan_update_on_output_reading_other_output_plus_total_hlsum_per_series",
      "compression front end for S i32 series x[t, s] (t innermost): delta to the previous sample (select at t = 0), zigzag (d << 1) ^ (d >> 31) as u32, LEB128 varint byte count 1 + (31 - clz(zz | 1)) / 7 as u8, exclusive byte offsets as a scan update over RDom(1, T - 1) on an OUTPUT reading the byte-count output, and the per-series total by an inline hl.sum; four outputs",
      {'T': (2, 65536), 'S': (1, 16)},
      outs=lambda v: [(U32, [v['T'], v['S']]), (U8, [v['T'], v['S']]), (U32, [v['T'], v['S']]), (U32, [v['S']])],
      data=lambda v, r: [zz_data(r, v)], target='B')
def zigzag(S, E):
    xs = hl.ImageParam(I32, 2, "x")
    t, s = V("t", "s")
    T = S['T']
    d = xs[t, s] - hl.select(t > 0, xs[hl.max(t - 1, 0), s], 0)
    zz = F("zz_zigzag"); zz[t, s] = hl.u32((d << 1) ^ (d >> 31))
    nb = F("zz_nbytes"); nb[t, s] = hl.u8(1 + (31 - hl.count_leading_zeros(zz[t, s] | hl.u32(1))) / 7)
    off = F("zz_offsets"); off[t, s] = hl.u32(0)
    r = RD((1, T - 1), name="rt")
    off[r, s] = off[r - 1, s] + hl.u32(nb[r - 1, s])
    rs = RD((0, T), name="rs")
    tot = F("zz_total"); tot[s] = hl.sum(hl.u32(nb[rs, s]))
    est_in(xs, E['T'], E['S'])
    for f in (zz, nb, off):
        est_out(f, [t, s], E['T'], E['S'])
    est_out(tot, [s], E['S'])
    return [zz, nb, off, tot], [xs]


def zz_data(r, v):
    T, S = v['T'], v['S']
    big = r.integers(-(1 << 28), 1 << 28, (T, S))
    small = np.cumsum(r.integers(-100, 101, (T, S)), 0)
    m = r.random((T, S)) < 0.1
    return fa(np.where(m, big, small).astype(np.int32))
