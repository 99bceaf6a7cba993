"""sanity of a few references against numpy (no scheduler): ycocg round trip, morton round trip, DFT vs np.fft.rfft,
np.interp, adaptive avg pool, xcorr. Prints max errors."""
import sys, numpy as np, halide as hl
sys.argv = [sys.argv[0], "smoke"]
import os; os.environ.setdefault("RT_PIPES", "pipes12")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pipes12
sys.modules['pipes11'] = pipes12
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "redteam11_2026-12-02"))
import run11
ro = run11.run_one
def ref(name, v):
    spec = pipes12.SPECS[name]; T = hl.Target(pipes12.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    data, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    return data, [np.asarray(b) for b in bufs]
d, o = ref("ycocg_r_lossless_fwd_inv_planar_u16_err_0d", dict(W=37, H=21)); print("ycocg err", int(o[2]), "rec==in", np.array_equal(o[1], d[0]))
d, o = ref("morton_zorder_bit_deinterleave_gather_u32", dict(LG=5)); print("morton back nonzero", int((o[1] != 0).sum()))
d, o = ref("dft_cos_sin_weight_funcs_two_contractions_db", dict(N=100, C=3)); X = np.abs(np.fft.rfft(d[0], axis=0)); print("dft mag err", float(np.abs(X - o[0]).max()))
d, o = ref("np_interp_knots_searchsorted_count_reduction", dict(W=50, H=40, NK=9)); print("interp err", float(np.abs(np.interp(d[0], d[1], d[2]) - o[0]).max()))
d, o = ref("adaptive_avg_pool2d_out_param_variable_windows", dict(W=37, H=23, OW=5, OH=7, C=2))
import math
want = np.zeros((5, 7, 2), np.float32)
for i in range(5):
    for j in range(7):
        sx, ex = (i * 37) // 5, math.ceil((i + 1) * 37 / 5); sy, ey = (j * 23) // 7, math.ceil((j + 1) * 23 / 7)
        want[i, j] = d[0][sx:ex, sy:ey].mean(axis=(0, 1))
print("adapool err", float(np.abs(want - o[0]).max()))
d, o = ref("xcorr_neg_pos_lags_output_min_normalized", dict(N=200, L=5, B=2))
a, s = d; w = np.array([[np.dot(a[max(0, -l):200 - max(0, l), b], s[max(0, l):200 + min(0, l) if l < 0 else 200, b][:len(a[max(0, -l):200 - max(0, l), b])]) for b in range(2)] for l in range(-5, 6)])
w /= np.sqrt((a * a).sum(0) * (s * s).sum(0))
print("xcorr err", float(np.abs(w - o[0]).max()))
d, o = ref("ctc_forward_alpha_logspace_rdom_s_t_batch", dict(T=20, U=5, B=2)); print("ctc loss", o[0], "feasible", o[1])
d, o = ref("viterbi_tuple_argmax_rdom_s_s_t_backtrack_scan", dict(NS=4, T=6, B=2))
lA, lB, lpi = d
for b in range(2):
    path = o[0][:, b]; sc = lpi[path[0]] + lB[path[0], 0, b] + sum(lA[path[t - 1], path[t]] + lB[path[t], t, b] for t in range(1, 6))
    import itertools
    bst = max(lpi[p[0]] + lB[p[0], 0, b] + sum(lA[p[t - 1], p[t]] + lB[p[t], t, b] for t in range(1, 6)) for p in itertools.product(range(4), repeat=6))
    print("viterbi b", b, "path score", sc, "best", o[1][b], "brute", bst)
