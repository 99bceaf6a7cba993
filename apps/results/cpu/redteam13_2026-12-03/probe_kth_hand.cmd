i, b, io, ii = [V(n) for n in ("i", "b", "io", "ii")]; [fn["kb_lh%d" % l].compute_root() for l in range(15)]; fn["kb_mask"].vectorize(i, 16).parallel(b)
