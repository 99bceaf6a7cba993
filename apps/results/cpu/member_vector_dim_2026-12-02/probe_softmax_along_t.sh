#!/bin/bash
# The online softmax over chunks (pipes_chunkstats.py cs_online_softmax_chunks): Diet's schedule
# (its merges reduce over the chunks in vector lanes, so the member keeps its vectors along c)
# against a hand schedule with everything along tokens t (the chunks' Funcs stored t innermost,
# the merges vectorized along t). Round 12's probe harness, 5 rounds x median of 10 realizes.
# Usage: DIET_PLUGIN=... probe_softmax_along_t.sh  ->  probe_softmax_along_t.txt
cd "$(dirname "$0")"
HAND="HAND:
t,c,v,ti=V('t'),V('c'),V('v'),V('ti')
cm,ce,gm,gs=fn['cs2_cmax'],fn['cs2_csum'],fn['cs2_gmax'],fn['cs2_gsum']
o=outs[0]
o.parallel(t).vectorize(v,16,hl.TailStrategy.GuardWithIf)
for f in (cm,ce):
    r=f.rvars(0)[0]
    f.compute_root().reorder_storage(t,c).vectorize(t,16,hl.TailStrategy.GuardWithIf)
    f.update(0).split(t,t,ti,16,hl.TailStrategy.GuardWithIf).reorder(ti,r,c,t).vectorize(ti).parallel(t)
for f in (gm,gs):
    r=f.rvars(0)[0]
    f.compute_root().vectorize(t,16,hl.TailStrategy.GuardWithIf)
    f.update(0).split(t,t,ti,16,hl.TailStrategy.GuardWithIf).reorder(ti,r,t).vectorize(ti)
"
RT_PIPES=pipes_chunkstats PYTHONPATH=$PWD /usr/bin/python3 ../redteam12_2026-12-02/rt12.py r11 ../redteam12_2026-12-02/probe12.py \
  cs_online_softmax_chunks 5 "hand_t::$HAND"
