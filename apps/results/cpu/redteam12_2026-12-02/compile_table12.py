"""results.jsonl + ab*_compile.jsonl -> compile_times.md: per pipeline Diet's auto_schedule seconds and JIT seconds from
every process that built it (harness run, ab passes), the reference's JIT seconds, and the schedule's size (number of
specialize() calls, micro-kernel dispatch leaves / kernels from its header comments). Rows sorted by max Diet JIT s."""
import glob, json, re, collections, os
D = collections.defaultdict(lambda: dict(sched=[], jit=[], ref=[]))
for l in open("results.jsonl"):
    d = json.loads(l)
    if 'compile_s' in d:
        D[d['pipeline']]['sched'].append(d['schedule_s']); D[d['pipeline']]['jit'].append(d['compile_s'])
for f in sorted(glob.glob("ab*_compile.jsonl")):
    for l in open(f):
        d = json.loads(l)
        if 'compile_s' not in d:
            continue
        if d['sched'] == 'Diet':
            D[d['pipeline']]['sched'].append(d['schedule_s']); D[d['pipeline']]['jit'].append(d['compile_s'])
        elif d['sched'] == 'ref':
            D[d['pipeline']]['ref'].append(d['compile_s'])
rows = []
for n, v in D.items():
    f = (glob.glob("sched*/%s.Diet.txt" % n) or [None])[0]
    s = open(f).read() if f else ""
    kern = re.findall(r"(\d+) leaves, (\d+) kernel", s)
    rows.append((max(v['jit']), "| `%s` | %s | %s | %s | %d | %s |" % (
        n, "/".join("%.2f" % x for x in v['sched']), "/".join("%.1f" % x for x in v['jit']),
        "/".join("%.2f" % x for x in v['ref']), s.count("specialize("), ", ".join("%s leaves / %s kernels" % k for k in kern) or "-")))
rows.sort(reverse=True)
out = ["| pipeline | Diet auto_schedule s (each process) | Diet JIT s (each process) | ref JIT s | specialize() calls | micro-kernel dispatch |", "|---|---|---|---|---|---|"]
out += ["%s%s" % (r, " **>5 s**" if j > 5 else "") for j, r in rows]
open("compile_times.md", "w").write("\n".join(out) + "\n")
print("\n".join(out))
