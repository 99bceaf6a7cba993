"""Compile-time outlier: Diet's schedule of pipes9's morph_gradient_sep_radius_u8 (inline hl.maximum / hl.minimum over
RDom(-R, 2R+1) of a repeat_edge u8 image, R a ranged Param) JIT-compiles in ~19 s on AVX-512 vs 0.26 s unscheduled.
usage: repro_compile_morph.py [A|B] -> Diet schedule + JIT seconds, and the compute_root reference's JIT seconds."""
import sys, os, time
os.environ.setdefault("DIET_PLUGIN", "/tmp/rt9_diet.so")
tk = sys.argv[1] if len(sys.argv) > 1 else "A"
import pipes9
os.environ["RT9_TARGET"] = pipes9.TARGETS[tk]
import halide as hl
import run9
ro = run9.run_one
spec = run9.run6.pipes6.SPECS["morph_gradient_sep_radius_u8"]
hl.load_plugin(ro.PLUGINS["Diet"])
for sched in ("Diet", "ref"):
    S, outs, ins, p = ro.build(spec, sched)
    t0 = time.time()
    if sched == "Diet":
        src = p.auto_schedule("Diet", run9.TARGET, hl.MachineParams(2, 1 << 20, 40)).schedule_source
    t1 = time.time(); p.compile_jit(run9.TARGET); t2 = time.time()
    extra = (", %d specializations, %d splits by 256 (256-lane u8 update vectors)" % (src.count("specialize("), src.count(", 256, "))) if sched == "Diet" else ""
    print("%s target %s: schedule %.2f s, JIT %.2f s%s" % (sched, tk, t1 - t0, t2 - t1, extra), flush=True)
