import sys, os
sys.path.insert(0, "/work/main/apps/results/cpu/redteam7_2026-11-30")
import run7, halide as hl
ro = run7.run_one; sp = run7.pipes7.SPECS['mat2x2_fold_u32_rows']
s = sys.argv[1]
hl.load_plugin(ro.PLUGINS[s])
S, outs, ins, p = ro.build(sp, s)
p.auto_schedule(s, run7.TARGET, hl.MachineParams(2, 1 << 20, 40))
p.compile_to_lowered_stmt("/tmp/rt7/m2_%s.stmt" % s, [ins[0]] + [S[k] for k in S], hl.StmtOutputFormat.Text, run7.TARGET)
