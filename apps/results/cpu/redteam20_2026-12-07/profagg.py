"""sum Halide profiler reports (one per realize) in a probe_profile log: total ms per Func over all reports, and share"""
import re, sys, collections
for fn in sys.argv[1:]:
    tot = collections.Counter(); runs = 0
    for l in open(fn):
        m = re.match(r"\s+(\S+):\s+([0-9.]+)ms", l)
        if m and not m.group(1).startswith("halide_"):
            tot[m.group(1)] += float(m.group(2))
        if "time/run" in l:
            runs += 1
    s = sum(tot.values()) or 1
    print("%s (%d reports, %.2f ms/run): %s" % (fn, runs, s / max(runs, 1), ", ".join("%s %.0f%%" % (k, 100 * v / s) for k, v in tot.most_common(6) if v > 0)))
