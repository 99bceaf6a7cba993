"""flag21.py FILE THRESH: pipelines where the paired Diet / best-other ratio (median over rounds) >= THRESH at either
shape in FILE (ab jsonl); also prints Diet / Adams2019c. Writes the names one per line to stdout ('FLAG name') and
the ratios to stderr."""
import json, sys, collections, statistics as st
R = collections.defaultdict(lambda: collections.defaultdict(dict))
for l in open(sys.argv[1]):
    d = json.loads(l)
    if 'ms' in d:
        R[(d['pipeline'], d['shape'])][d['sched'].replace('@small', '')][d['round']] = d['ms']
th = float(sys.argv[2]); flagged = []
for (n, sh), S in sorted(R.items()):
    D = S.get('Diet', {})
    rb = [dm / min(S[o][r] for o in S if o != 'Diet' and r in S[o]) for r, dm in D.items() if any(r in S[o] for o in S if o != 'Diet')]
    ra = [dm / S['Adams2019c'][r] for r, dm in D.items() if r in S.get('Adams2019c', {})]
    rb = st.median(rb) if rb else None; ra = st.median(ra) if ra else None
    print("%-70s %-5s Diet/best %s Diet/Adams %s" % (n[:70], sh, rb and "%.2f" % rb, ra and "%.2f" % ra), file=sys.stderr)
    if rb is not None and rb >= th and n not in flagged:
        flagged.append(n)
for n in flagged:
    print(n)
