"""usage (from ../redteam13_2026-12-03): rt13.py r11 ../window_param_values_2026-12-03/stmt_of.py PIPELINE SCHED OUT.stmt
Lowered Stmt (text) of PIPELINE scheduled by SCHED (Diet, Adams2019c, ...) through run11 at the spec's target."""
import sys
import run11
import halide as hl
ro = run11.run_one
name, sched, out = sys.argv[1], sys.argv[2], sys.argv[3]
spec = run11.pipes11.SPECS[name]
T = run11.TARGET
if sched not in ("ref",):
    hl.load_plugin(ro.PLUGINS.get(sched, ro.PLUGINS.get("Diet")))
S, outs, ins, p = ro.build(spec, sched)
if sched != "ref":
    p.auto_schedule(sched.rstrip("c"), T, hl.MachineParams(2, 1 << 20, 40))
p.compile_to_lowered_stmt(out, p.infer_arguments() if hasattr(p, "infer_arguments") else [], hl.StmtOutputFormat.Text, T)
print("wrote", out)
