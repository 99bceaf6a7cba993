import re, sys, collections
perms = ["(n,m,b)","(n,b,m)","(m,n,b)","(m,b,n)","(b,n,m)","(b,m,n)"]
lay = {"A": ["A(r,m,b)","A(m,r,b)","A(b,m,r)","A(m,b,r)"], "W": ["W(r,n,b)","W(n,r,b)","W(b,n,r)","W(n,b,r)"]}
forms = ["update on output","accumulator Func","inline sum"]
# Each file's TIME lines; a case timed in several files keeps its fastest time per T (this VM's
# runs of one case differ by up to 2.6x, always slower: the minimum is the estimate).
t = {}
for line in (l for f in sys.argv[1:] for l in open(f)):
    m = re.match(r"TIME (\d+) (\d+) (\d+) (\d+) T=(\d+) NB=(\d+) ([\d.]+) us", line)
    if m:
        c, perm, la, lwf, T, NB, us = m.groups()
        lw, f = divmod(int(lwf), 10)
        d = t.setdefault(int(c), {"perm": int(perm), "la": int(la), "lw": lw, "form": f})
        d[int(T)] = min(d.get(int(T), float("inf")), float(us))
groups = collections.defaultdict(list)
for c, d in t.items():
    groups[(d["la"], d["lw"])].append(c)
print("| A layout | W layout | fastest spelling T=128 (us) | slowest (us) | slowest/fastest | slowest spelling | T=8 slowest/fastest |")
print("|---|---|---:|---:|---:|---|---:|")
worst = []
for (la, lw), cs in sorted(groups.items()):
    f128 = min(cs, key=lambda c: t[c][128]); s128 = max(cs, key=lambda c: t[c][128])
    f8 = min(t[c][8] for c in cs); s8 = max(t[c][8] for c in cs)
    d = t[s128]
    print(f"| {lay['A'][la]} | {lay['W'][lw]} | {t[f128][128]:.1f} | {t[s128][128]:.1f} | {t[s128][128]/t[f128][128]:.2f} | out{perms[d['perm']]}, {forms[d['form']]} | {s8/f8:.2f} |")
allbest128 = min(d[128] for d in t.values())
allbest8 = min(d[8] for d in t.values())
print()
print(f"cases timed: {len(t)}; best of all at T=128: {allbest128:.1f} us, at T=8: {allbest8:.2f} us")
ws = sorted(t.items(), key=lambda kv: -kv[1][128])[:10]
print("| slowest at T=128 | us | x best of all | T=8 us | x best of all |")
print("|---|---:|---:|---:|---:|")
for c, d in ws:
    print(f"| case {c}: out{perms[d['perm']]}, {lay['A'][d['la']]} {lay['W'][d['lw']]}, {forms[d['form']]} | {d[128]:.1f} | {d[128]/allbest128:.1f} | {d[8]:.2f} | {d[8]/allbest8:.1f} |")
