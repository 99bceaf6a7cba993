"""Round 19 repro (slow): the two scatter pipelines. (a) Bloom filter: which part is slow -- the serial OR scatter of K
hashes of N keys into NW u32 words (an output with an update; Diet leaves it unscheduled), or the membership query
(an inline hl.minimum over K of gathered bits, vectorized over q)? Variants: both (as specified), scatter only, query
only (bits given as an input). (b) k-mer histogram: a histogram of 4^K bins (K = 8: 65536 bins) scattered over
N - K + 1 = 262137 positions, which Diet rfactors 'in chunks of 32768' (8 partial histograms of 65536 u32, then a
merge) -- variant K = 8 vs K = 4 (256 bins), histogram output only. Diet vs Adams2019 (constant shape) vs ref, AVX-512.
Standalone: DIET_PLUGIN=/tmp/rt19/libautoschedule_diet.so nice -n 10 /usr/bin/python3 repro_bloom_kmer19.py"""
import numpy as np, halide as hl
from repro_util19 import time_all, TA, fa
U32, U8 = hl.UInt(32), hl.UInt(8)


def bloom(variant):
    def build(S, sched):
        keys = hl.ImageParam(U32, 1, "keys"); qs = hl.ImageParam(U32, 1, "qs")
        wv, q = hl.Var("wv"), hl.Var("q")
        NW = S['NW']
        NB = hl.u32(32 * (NW if isinstance(NW, int) else hl.Expr(NW)))

        def hk(key, k):
            h = (key ^ (hl.u32(k) * hl.u32(0x3c6ef372))) * hl.u32(0x27d4eb2d)
            h = h ^ (h >> 15); h = h * hl.u32(0x165667b1); h = h ^ (h >> 13)
            return h % NB
        outs, ins = [], [keys, qs]
        if variant != "query_only":
            r = hl.RDom([hl.Range(0, S['K']), hl.Range(0, S['N'])], "rb")
            bit = hk(keys[r.y], r.x)
            bits = hl.Func("bits"); bits[wv] = hl.u32(0)
            bits[hl.i32(bit / 32)] = bits[hl.i32(bit / 32)] | (hl.u32(1) << (bit % 32))
            bits.set_estimate(wv, 0, NW); outs.append(bits); src = bits
        else:
            bimg = hl.ImageParam(U32, 1, "bits_in"); ins = [bimg, qs]; src = bimg
            bimg.dim(0).set_estimate(0, NW)
        if variant != "scatter_only":
            rq = hl.RDom([hl.Range(0, S['K'])], "rq"); qb = hk(qs[q], rq)
            mem = hl.Func("member"); mem[q] = hl.u8(hl.minimum((src[hl.i32(qb / 32)] >> (qb % 32)) & 1))
            mem.set_estimate(q, 0, S['Q']); outs.append(mem)
        keys.dim(0).set_estimate(0, S['N']); qs.dim(0).set_estimate(0, S['Q'])
        return outs, ins, outs
    return build


def kmer_hist(S, sched):
    code = hl.ImageParam(U8, 1, "code")  # 2-bit codes, no N
    i, b = hl.Var("i"), hl.Var("b")
    K = S['K']
    NBINS = (1 << (2 * K)) if isinstance(K, int) else (hl.Expr(1) << (2 * hl.Expr(K)))
    rk = hl.RDom([hl.Range(0, K)], "rk")
    km = hl.Func("km"); km[i] = hl.sum(hl.u32(code[i + rk]) << hl.u32(2 * (K - 1 - rk)))
    h = hl.Func("hist"); h[b] = hl.u32(0)
    rh = hl.RDom([hl.Range(0, S['N'] - K + 1)], "rh")
    h[hl.clamp(hl.i32(km[rh]), 0, NBINS - 1)] += hl.u32(1)
    code.dim(0).set_estimate(0, S['N']); h.set_estimate(b, 0, NBINS)
    return [h], [code], [km, h]


R = dict(N=(1, 65536), Q=(1, 65536), NW=(1, 4096), K=(1, 8))
v = dict(N=65536, Q=65536, NW=4096, K=8)
rng = np.random.default_rng(1)
keys = rng.integers(0, 2 ** 32, v['N']).astype(np.uint32); qs = rng.integers(0, 2 ** 32, v['Q']).astype(np.uint32)
bits = rng.integers(0, 2 ** 32, v['NW']).astype(np.uint32)
time_all("bloom as_specified", bloom("both"), R, v, [keys, qs], [(U32, [v['NW']]), (U8, [v['Q']])], TA)
time_all("bloom scatter_only", bloom("scatter_only"), R, v, [keys, qs], [(U32, [v['NW']])], TA)
time_all("bloom query_only", bloom("query_only"), R, v, [bits, qs], [(U8, [v['Q']])], TA)
RK = dict(N=(16, 262144), K=(1, 8))
for K in (8, 4):
    vk = dict(N=262144, K=K)
    code = rng.integers(0, 4, vk['N']).astype(np.uint8)
    time_all("kmer histogram only K=%d" % K, kmer_hist, RK, vk, [code], [(U32, [4 ** K])], TA)
