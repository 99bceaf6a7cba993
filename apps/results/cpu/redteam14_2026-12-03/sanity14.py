"""sanity of round-14 references (compute_root 'ref' builds, no scheduler) against numpy. Prints max errors / equality."""
import sys, os, math, numpy as np, halide as hl
here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here)
import pipes14
sys.modules['pipes11'] = pipes14
sys.path.insert(1, os.path.join(here, "..", "redteam11_2026-12-02"))
import run11
ro = run11.run_one
def ref(name, v):
    spec = pipes14.SPECS[name]; T = hl.Target(pipes14.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    data, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T)
    return data, [np.asarray(b) for b in bufs]
def err(a, b): return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())
# camera
d, o = ref("camera_wb_ccm_buffer_hlsum_c_gamma_lut4096_interleaved_u16_to_u8", dict(W=13, H=7))
raw, wb, ccm = d; lin = np.maximum(raw.astype(np.float32) - 64, 0) * wb[:, None, None] / 4031
cc = np.clip(np.einsum('ic,ixy->cxy', ccm, lin), 0, 1); idx = np.clip((cc * 4095 + 0.5).astype(np.int32), 0, 4095)
vv = np.arange(4096) / 4095.0; g = np.where(vv <= 0.0031308, 12.92 * vv, 1.055 * vv ** (1 / 2.4) - 0.055)
lut = np.clip(g * 255 + 0.5, 0, 255).astype(np.uint8); print("camera u8 max diff", int(np.abs(lut[idx].astype(int) - o[0]).max()))
# median 5x5 (mirror_image = numpy 'symmetric')
d, o = ref("median5x5_tuple_column_sort5_then_pruned_batcher25_u8", dict(W=17, H=11))
p = np.pad(d[0], 2, mode='symmetric'); win = np.lib.stride_tricks.sliding_window_view(p, (5, 5))
print("median5x5 equal", np.array_equal(np.median(win.reshape(17, 11, 25), axis=2).astype(np.uint8), o[0]))
# histeq
d, o = ref("histeq_no_scatter_bin_select_sum_wh_then_where_b_le_triangle_cdf_u8", dict(W=37, H=21))
im = d[0].astype(np.int64); h = np.bincount(im.ravel(), minlength=256); cdf = np.cumsum(h); N = im.size; cmin = cdf[cdf > 0].min(); den = max(N - cmin, 1)
want = np.clip(((cdf[im] - cmin) * 255 + den // 2) // den, 0, 255)
print("histeq hist equal", np.array_equal(h, o[1]), "image equal", np.array_equal(want, o[0]))
# tucker
d, o = ref("tucker_reconstruct_core_3_rvars_one_hlsum_factors_rank_inner", dict(I=5, J=6, K=7))
G, U, Vm, Wm = d; print("tucker err", err(np.einsum('abc,ai,bj,ck->ijk', G, U, Vm, Wm), o[0]))
# MQA
d, o = ref("mqa_decode_kv_cache_pos_offset_param_causal_select_neg_inf_heads_share_kv", dict(TQ=3, L=20, H=2, P=5))
q, k, v = d; s = np.einsum('dht,dl->lht', q, k) * 0.125
mask = np.arange(20)[:, None, None] <= 5 + np.arange(3)[None, None, :]; s = np.where(mask, s, -np.inf)
pr = np.exp(s - s.max(0)); pr /= pr.sum(0); print("mqa err", err(np.einsum('lht,dl->dht', pr, v), o[0]))
# im2col conv vs direct
d, o = ref("conv3x3_im2col_flat_k_divmod_ci_kx_ky_nhwc_matmul_co_inner_bias_relu", dict(CO=5, W=6, H=4, N=2))
x, Wt, b = d; xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))); W4 = Wt.reshape(16, 3, 3, 5, order='F')  # [ci, kx, ky, co]
want = np.zeros((5, 6, 4, 2), np.float64)
for kx in range(3):
    for ky in range(3):
        want += np.einsum('cwhn,co->owhn', xp[:, kx:kx + 6, ky:ky + 4, :], W4[:, kx, ky, :])
print("im2col conv err", err(np.maximum(want + b[:, None, None, None], 0), o[0]))
# int8 conv
d, o = ref("int8_conv3x3_nhwc_u8_zp128_pad_i8_weights_perchannel_mult_shift_requant", dict(CO=4, W=5, H=3))
x, wt, bias, mult, sh = [a.astype(np.int64) for a in d]; xp = np.pad(x - 128, ((0, 0), (1, 1), (1, 1)))
acc = bias[:, None, None] + sum(np.einsum('cwh,co->owh', xp[:, kx:kx + 5, ky:ky + 3], wt[:, kx, ky, :]) for kx in range(3) for ky in range(3))
hi = (acc * mult[:, None, None] + (1 << 30)) >> 31; rq = (hi + (1 << (sh[:, None, None] - 1))) >> sh[:, None, None]
print("int8 conv equal", np.array_equal(np.clip(rq + 3, 0, 255), o[0]))
# segmented scans
d, o = ref("segmented_scan_fwd_tuple_sum_segid_and_bwd_suffix_flags_u8_rows", dict(N=300, B=2))
x, fl = d; fl = fl.copy(); fl[::37, 0] = 1; 
d, o = ref("segmented_scan_fwd_tuple_sum_segid_and_bwd_suffix_flags_u8_rows", dict(N=300, B=2))
x, fl = d; fw = np.zeros_like(x); bw = np.zeros_like(x); sid = np.zeros(x.shape, np.int64)
for b in range(2):
    s = 0.0; c = 0
    for n in range(300):
        s = x[n, b] if (n == 0 or fl[n, b]) else s + x[n, b]; c = (fl[n, b] if n == 0 else c + fl[n, b]); fw[n, b] = s; sid[n, b] = c
    s = 0.0
    for n in range(299, -1, -1):
        s = x[n, b] if (n == 299 or fl[n + 1, b]) else s + x[n, b]; bw[n, b] = s
print("segscan fwd err", err(fw, o[0]), "bwd err", err(bw, o[1]), "segid equal", np.array_equal(sid, o[2]), "flags", int(fl.sum()))
# argmin middle
d, o = ref("argmin_middle_dim_explicit_tuple_update_first_tie_then_gather_u16", dict(X=7, Y=9, Z=3))
c, val = d; am = np.argmin(c, axis=1)
print("argmin idx equal", np.array_equal(am, o[0]), "min equal", np.array_equal(c.min(1), o[1]), "gather equal", np.array_equal(np.take_along_axis(val, am[:, None, :], 1)[:, 0, :], o[2]))
# haar (numpy lifting)
d, o = ref("haar_lifting_2_levels_i32_packed_quadrant_selects_clamped_subbands", dict(W4=3, H4=2))
def haar(a):
    h = a[0::2, :] - a[1::2, :]; l = a[1::2, :] + (h >> 1)
    res = []
    for f in (l, h):
        ch = f[:, 0::2] - f[:, 1::2]; cl = f[:, 1::2] + (ch >> 1); res += [cl, ch]
    return res
a = d[0].astype(np.int64); ll, lh, hl_, hh = haar(a); ll2, lh2, hl2, hh2 = haar(ll)
want = np.zeros_like(a); W1, H1 = 6, 4
want[:3, :2] = ll2; want[3:6, :2] = hl2; want[:3, 2:4] = lh2; want[3:6, 2:4] = hh2
want[W1:, :H1] = hl_; want[:W1, H1:] = lh; want[W1:, H1:] = hh
print("haar equal", np.array_equal(want, o[0]))
# batchnorm train
d, o = ref("batchnorm_train_mode_stats_over_x_y_n_3rvars_channel_middle_running_update", dict(W=5, H=4, C=3, N=2))
x, g, bt, rm, rv = d; m = x.mean((0, 1, 3)); va = x.var((0, 1, 3))
print("batchnorm out err", err((x - m[None, None, :, None]) / np.sqrt(va + 1e-5)[None, None, :, None] * g[None, None, :, None] + bt[None, None, :, None], o[0]),
      "rvar err", err(0.9 * rv + 0.1 * va * 40 / 39, o[2]))
# bilinear pooling
d, o = ref("bilinear_pooling_outer_features_positions_inner_signed_sqrt_0d_l2", dict(C1=5, C2=4, P=9))
f1, f2 = d; B = f1.T @ f2 / 9; y = np.sign(B) * np.sqrt(np.abs(B)); print("bilinear pool err", err(y / np.linalg.norm(y), o[0]))
# SSIM mean vs map mean
d, o = ref("ssim_gauss11_python_unrolled_taps_five_moment_funcs_valid_0d_mean", dict(W=20, H=15))
print("ssim 0-D mean vs map mean", err(o[0].mean(), o[1]), "map range", float(o[0].min()), float(o[0].max()))
