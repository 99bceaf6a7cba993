import sys, os
here = "/work/main/apps/results/cpu/redteam13_2026-12-03"; sys.path.insert(0, here)
import pipes13, halide as hl, numpy as np
sys.modules['pipes11'] = pipes13
sys.path.insert(1, os.path.join(here, "..", "redteam11_2026-12-02"))
import run11
ro = run11.run_one
for name, v in [("einsum_bhqd_bhkd_4d_heads_dim_softmax_ctx_q_innermost_out", dict(T=163, H=13, B=8)), ("cumprod_reset_on_mask_scan_rows_f32", dict(T=2563, NR=83)),
                ("softmax_backward_jvp_rows_and_logsumexp_c_inner", dict(C=1283, N=323)), ("ger_rank1_update_func_then_gemv_and_norm_0d", dict(M=1283, N=1283)),
                ("gemm_alpha_beta_output_init_beta_cin_update_alpha_prod", dict(M=480, N=480, K=480))]:
    spec = pipes13.SPECS[name]; T = hl.Target(pipes13.TARGETS[spec['target']])
    S, outs, ins, p = ro.build(spec, "ref"); p.compile_jit(T)
    try:
        d, bufs = ro.run_pipeline(p, S, ins, spec, v); p.realize(bufs, T); print(name[:40], "ref RAN at", v)
    except Exception as e:
        print(name[:40], "ref raised", str(e)[-120:])
