ox, y, oy = [V(n) for n in ("ox", "y", "oy")]; [fn[n].compute_root() for n in fn if n != "lz_out"]; fn["lz_hx"].parallel(y, 16); fn["lz_out"].vectorize(ox, 16).parallel(oy, 16)
