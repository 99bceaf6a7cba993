"""Medians over the three rounds of each form's time per T, before and after, crops and dense
inputs; the batch-innermost forms against their canonical form in the same run."""
import csv, glob, statistics, collections
t = collections.defaultdict(list)
for which in ('before', 'after'):
    for inputs in ('crops', 'dense'):
        for f in glob.glob('%s_%s_r*/forms_bmm.csv' % (which, inputs)):
            for row in csv.DictReader(open(f)):
                for nt in ('nt', 'nn'):
                    can, bi = float(row['bmm_%s/canonical' % nt]), float(row['bmm_%s/batch_innermost' % nt])
                    t[(inputs, nt, int(row['T']), which)].append((bi, can / bi))
print('| inputs | form | T | before us | after us | after / before | vs canonical before | after |')
print('|---|---|---:|---:|---:|---:|---:|---:|')
for inputs in ('crops', 'dense'):
    for nt in ('nt', 'nn'):
        for T in sorted({k[2] for k in t if k[0] == inputs}):
            b, a = t[(inputs, nt, T, 'before')], t[(inputs, nt, T, 'after')]
            mb, ma = statistics.median(x[0] for x in b), statistics.median(x[0] for x in a)
            print('| %s | bmm_%s/batch_innermost | %d | %.1f | %.1f | %.2f | %.2f | %.2f |' % (
                inputs, nt, T, mb * 1e6, ma * 1e6, ma / mb, statistics.median(x[1] for x in b), statistics.median(x[1] for x in a)))
