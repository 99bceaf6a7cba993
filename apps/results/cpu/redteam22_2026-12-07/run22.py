#!/usr/bin/python3
"""Round 22 driver.  usage:
  run22.py harness GEN            build /tmp/rt22/work/bin/GEN (links GEN_{ref,diet,mull,adams}.a)
  run22.py grid GEN [N]           N (default 18) in-range shapes + 1 out-of-range shape; appends to grid.jsonl
  run22.py time GEN               small and large shape; appends to times.jsonl (env ROUNDS, default 10)
  run22.py shapes GEN             print the grid shapes
Every shape is a dict of the generator's ranged int Inputs (and its float Inputs)."""
import json, os, random, subprocess, sys, time, zlib

R = os.path.dirname(os.path.abspath(__file__))
W = "/tmp/rt22/work"

PRIMES = [2, 3, 5, 7, 11, 13, 17, 31, 61, 97, 127, 251, 509, 1021]


def img(W_, H_):
    return W_, H_


# name: (target, ranged ints {name: (lo, hi)}, float inputs {name: [values]}, args(shape) -> list of "k=v", small, large)
def A_camera(s):
    return [f"raw=[{s['W']},{s['H']}]@0:1023", "ccm=[4,3]@0:1", f"gamma={s['gamma']}", f"W={s['W']}", f"H={s['H']}",
            f"out=[{s['W']},{s['H']},3]"]


def A_lk(s):
    return [f"I0=[{s['W']},{s['H']}]", f"I1=[{s['W']},{s['H']}]", f"W={s['W']}", f"H={s['H']}", f"flow=[{s['W']},{s['H']},2]"]


def A_guided(s):
    return [f"I=[{s['W']},{s['H']}]", f"P=[{s['W']},{s['H']}]", f"r={s['r']}", f"eps={s['eps']}", f"W={s['W']}", f"H={s['H']}",
            f"out=[{s['W']},{s['H']}]"]


def A_canny(s):
    return [f"in=[{s['W']},{s['H']}]", f"lo={s['lo']}", f"hi={s['hi']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]"]


def A_lens(s):
    return [f"in=[{s['W']},{s['H']},3]", f"R={s['R']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']},3]"]


def A_nlm(s):
    return [f"in=[{s['W']},{s['H']},3]", f"sigma={s['sigma']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']},3]"]


def A_resize(s):
    return [f"in=[{s['IW']},{s['IH']},3]", f"scale={s['scale']}", f"IW={s['IW']}", f"IH={s['IH']}", f"OW={s['OW']}",
            f"OH={s['OH']}", f"out=[{s['OW']},{s['OH']},3]"]


def A_stencil(s):
    return [f"in=[{s['W']},{s['H']}]", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]"]


def A_histeq(s):
    return [f"in=[{s['W']},{s['H']}]", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]"]


def A_iir(s):
    return [f"in=[{s['W']},{s['H']},3]", f"alpha={s['alpha']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']},3]"]


def A_stft(s):
    return [f"sig=[{s['F'] * 32 + 32}]@-1:1", f"F={s['F']}", f"mag=[33,{s['F']}]"]


def A_conv(s):
    return [f"input=[{s['CI']},{s['W'] + 2},{s['H'] + 2},{s['N']}]@-1:1", f"filter=[{s['CO']},{s['CI']},3,3]@-1:1",
            f"bias=[{s['CO']}]@-1:1", f"CI={s['CI']}", f"CO={s['CO']}", f"W={s['W']}", f"H={s['H']}", f"N={s['N']}",
            f"out=[{s['CO']},{s['W']},{s['H']},{s['N']}]"]


def A_dwsep(s):
    return [f"input=[{s['W']},{s['H']},{s['C']},{s['N']}]@-1:1", f"dw=[3,3,{s['C']}]@-1:1", f"dwb=[{s['C']}]@-1:1",
            f"pw=[{s['C']},{s['CO']}]@-1:1", f"pwb=[{s['CO']}]@-1:1", f"W={s['W']}", f"H={s['H']}", f"C={s['C']}",
            f"CO={s['CO']}", f"N={s['N']}", f"out=[{s['W']},{s['H']},{s['CO']},{s['N']}]"]


def A_fc(s):
    return [f"xin=[512,{s['T']}]@-1:1", "w=[512,512]@-1:1", "b=[512]@-1:1", f"T={s['T']}", f"out=[512,{s['T']}]"]


def A_attn(s):
    return [f"q=[64,{s['T']}]@-1:1", f"kk=[64,{s['T']}]@-1:1", f"v=[64,{s['T']}]@-1:1", f"T={s['T']}", f"out=[64,{s['T']}]"]


def A_ln(s):
    return [f"xin=[{s['C']},{s['T']}]@-2:2", f"gamma=[{s['C']}]", f"beta=[{s['C']}]", f"C={s['C']}", f"T={s['T']}",
            f"out=[{s['C']},{s['T']}]"]


def A_qmm(s):
    return [f"a=[{s['K']},{s['M']}]", f"b=[{s['K']},{s['N']}]", f"bias=[{s['N']}]@-1000:1000", f"za={s['za']}", f"qm={s['qm']}",
            f"zo={s['zo']}", f"K={s['K']}", f"M={s['M']}", f"N={s['N']}", f"out=[{s['N']},{s['M']}]"]


def A_argmax(s):
    return [f"logits=[{s['V']},{s['T']}]", f"emb=[{s['D']},{s['V']}]", f"V={s['V']}", f"T={s['T']}", f"D={s['D']}",
            f"out=[{s['D']},{s['T']}]", f"idx=[{s['T']}]"]


def A_sat(s):
    return [f"in=[{s['W']},{s['H']}]", f"R={s['R']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]"]


def A_pyr(s):
    return [f"in=[{s['W']},{s['H']}]", "gains=[5]@0:2", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]", "energy=[]"]


GENS = {
    "camera_pipe": ("A", {"W": (1, 1024), "H": (1, 768)}, {"gamma": [2.2, 1.0, 3.0]}, A_camera),
    "lucas_kanade": ("B", {"W": (1, 1024), "H": (1, 768)}, {}, A_lk),
    "guided_filter": ("A", {"r": (1, 8), "W": (1, 1024), "H": (1, 768)}, {"eps": [0.01, 0.0001, 1.0]}, A_guided),
    "canny": ("B", {"lo": (0, 1000), "hi": (0, 2000), "W": (1, 1024), "H": (1, 768)}, {}, A_canny),
    "lens_blur": ("A", {"R": (1, 8), "W": (1, 512), "H": (1, 512)}, {}, A_lens),
    "nl_means": ("B", {"W": (1, 512), "H": (1, 512)}, {"sigma": [0.12, 0.05, 0.5]}, A_nlm),
    "resize": ("A", {"IW": (1, 1024), "IH": (1, 1024), "OW": (1, 1024), "OH": (1, 1024)}, {"scale": [0.5, 0.125, 4.0, 0.3, 1.7]}, A_resize),
    "stencil_chain": ("B", {"W": (1, 1536), "H": (1, 1536)}, {}, A_stencil),
    "hist_eq": ("A", {"W": (1, 1024), "H": (1, 1024)}, {}, A_histeq),
    "iir_blur": ("B", {"W": (1, 1024), "H": (1, 1024)}, {"alpha": [0.1, 0.01, 0.99]}, A_iir),
    "stft": ("A", {"F": (1, 1024)}, {}, A_stft),
    "conv_relu_nhwc": ("B", {"CI": (1, 64), "CO": (1, 64), "W": (1, 64), "H": (1, 64), "N": (1, 4)}, {}, A_conv),
    "dwsep_nchw": ("A", {"W": (1, 112), "H": (1, 112), "C": (1, 64), "CO": (1, 64), "N": (1, 2)}, {}, A_dwsep),
    "fc_relu": ("B", {"T": (1, 256)}, {}, A_fc),
    "attention": ("A", {"T": (1, 256)}, {}, A_attn),
    "layernorm": ("B", {"C": (1, 1024), "T": (1, 512)}, {}, A_ln),
    "qmatmul_u8i8": ("A", {"za": (0, 255), "qm": (1, 32767), "zo": (0, 255), "K": (4, 512), "M": (1, 256), "N": (1, 256)}, {}, A_qmm),
    "argmax_gather": ("B", {"V": (1, 4096), "T": (1, 128), "D": (1, 128)}, {}, A_argmax),
    "sat_box": ("A", {"R": (0, 32), "W": (1, 1024), "H": (1, 1024)}, {}, A_sat),
    "pyramid_detail": ("B", {"W": (1, 1024), "H": (1, 1024)}, {}, A_pyr),
}
# repro variants (repro/variants22.cpp, built with GENBIN=/tmp/rt22/work/variants22.generator)
def A_lens_pad(s):
    return [f"in=[{s['W'] + 16},{s['H'] + 16},3]", f"R={s['R']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']},3]"]


def A_stft32(s):
    return [f"sig=[{s['F'] * 32 + 32}]@-1:1", f"F={s['F']}", f"mag=[32,{s['F']}]"]


def A_argmax_t(s):
    return [f"logits=[{s['T']},{s['V']}]", f"emb=[{s['D']},{s['V']}]", f"V={s['V']}", f"T={s['T']}", f"D={s['D']}",
            f"out=[{s['D']},{s['T']}]", f"idx=[{s['T']}]"]


def A_nlm_pad(s):
    return [f"in=[{s['W'] + 12},{s['H'] + 12},3]", f"sigma={s['sigma']}", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']},3]"]


def A_maxonly(s):
    return [f"logits=[{s['V']},{s['T']}]", f"V={s['V']}", f"T={s['T']}", f"out=[{s['T']}]"]


def A_inter(s):
    return [f"in=[{s['W']},{s['H']},3]i", "m=[3,3]@0:0.5", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']},3]i"]


def A_sobw(s):
    return [f"in=[{s['W']},{s['H']}]", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]"]


def A_tupo(s):
    return [f"in=[{s['W']},{s['H']}]", f"W={s['W']}", f"H={s['H']}", f"out.0=[{s['H']}]", f"out.1=[{s['H']}]"]


def A_noest(s):
    return [f"in=[{s['W']},{s['H']}]", f"W={s['W']}", f"H={s['H']}", f"out=[{s['W']},{s['H']}]"]


def A_arr(s):
    return ([f"ins_{k}=[{s['W']},{s['H']}]" for k in range(3)] + [f"W={s['W']}", f"H={s['H']}"] +
            [f"outs_{k}=[{s['W']},{s['H']}]" for k in range(3)] + ["mean=[]"])


# C++-only idioms added at 15:59 (gens/breakers22.cpp, GENBIN=/tmp/rt22/work/breakers22.generator)
GENS.update({
    "interleaved_io": ("A", {"W": (1, 1024), "H": (1, 768)}, {}, A_inter),
    "sobel_wrappers": ("B", {"W": (1, 1024), "H": (1, 1024)}, {}, A_sobw),
    "tuple_output": ("A", {"W": (1, 4096), "H": (1, 512)}, {}, A_tupo),
    "no_input_estimates": ("B", {"W": (1, 1024), "H": (1, 1024)}, {}, A_noest),
    "array_io": ("B", {"W": (1, 1024), "H": (1, 1024)}, {}, A_arr),
})

GENS.update({
    "lens_blur_padded": ("A", {"R": (1, 8), "W": (1, 512), "H": (1, 512)}, {}, A_lens_pad),
    "stft_bins32": ("A", {"F": (1, 1024)}, {}, A_stft32),
    "argmax_t_inner": ("B", {"V": (1, 4096), "T": (1, 128), "D": (1, 128)}, {}, A_argmax_t),
    "max_only": ("B", {"V": (1, 4096), "T": (1, 128)}, {}, A_maxonly),
    "nl_means_padded": ("B", {"W": (1, 512), "H": (1, 512)}, {"sigma": [0.12, 0.05, 0.5]}, A_nlm_pad),
})


# scalars that are not sizes: kept at a moderate fixed value in the 'small'/'large' timing shapes
NONSIZE = {"lo": 40, "hi": 100, "za": 128, "qm": 64, "zo": 10}


def fix_shape(name, s):
    if name == "canny" and s["lo"] > s["hi"]:
        s["lo"], s["hi"] = s["hi"], s["lo"]
    if name == "qmatmul_u8i8" and s["qm"] > 4096 and random.random() < 0.7:
        s["qm"] = random.choice([16, 64, 256])
    return s


def timing_shapes(name):
    tgt, ints, floats, f = GENS[name]
    large = {k: (NONSIZE[k] if k in NONSIZE else hi) for k, (lo, hi) in ints.items()}
    small = {k: (NONSIZE[k] if k in NONSIZE else max(lo, hi // 8 + 1)) for k, (lo, hi) in ints.items()}
    for fk, vals in floats.items():
        large[fk] = vals[0]
        small[fk] = vals[0]
    return small, large


def grid_shapes(name, N=18):
    random.seed(zlib.crc32(name.encode()) + 22)
    tgt, ints, floats, f = GENS[name]
    keys = list(ints)
    shapes = []
    lo = {k: ints[k][0] for k in keys}
    hi = {k: ints[k][1] for k in keys}
    shapes.append(dict(lo))
    shapes.append(dict(hi))
    for k in keys:
        s = dict(hi); s[k] = ints[k][0]; shapes.append(s)
        if len(keys) > 1:
            s = dict(lo); s[k] = ints[k][1]; shapes.append(s)
    def rnd(k):
        a, b = ints[k]
        cands = [p for p in PRIMES if a <= p <= b] + [a + 1, b - 1, (a + b) // 2 | 1, random.randint(a, b)]
        return random.choice(cands)
    out = []
    seen = set()
    def add(s):
        for fk, vals in floats.items():
            s[fk] = random.choice(vals)
        s = fix_shape(name, s)
        key = json.dumps({k: s[k] for k in keys}, sort_keys=True)
        if key not in seen:
            seen.add(key); out.append(s)
    for s in shapes:
        add(s)
    tries = 0
    while len(out) < N and tries < 1000:
        tries += 1
        add({k: rnd(k) for k in keys})
    # cost cap for the unscheduled reference on the heaviest generator: none (max shapes are kept)
    return out


def out_of_range(name):
    tgt, ints, floats, f = GENS[name]
    small, large = timing_shapes(name)
    s = dict(small)
    k = [k for k in ints if k not in NONSIZE][0]
    s[k] = ints[k][1] + 1
    return s


def harness(name):
    os.makedirs(f"{W}/bin", exist_ok=True)
    libs = [f"{W}/lib/{name}/{name}_{s}.a" for s in ("ref", "diet", "mull", "adams", "adamss")]
    missing = [l for l in libs if not os.path.exists(l)]
    stubs = []
    if missing:
        # a system whose build failed: link a stub that returns -1 so the others still run
        st = f"{W}/bin/{name}_stubs.c"
        with open(st, "w") as fh:
            for l in missing:
                sysn = l.rsplit("_", 1)[1][:-2]
                fh.write(f'#include <stddef.h>\nextern "C" int {name}_{sysn}_argv(void **a) {{ return -1; }}\n'
                         f'extern "C" const void *{name}_ref_metadata(void);\n'
                         f'extern "C" const void *{name}_{sysn}_metadata(void) {{ return {name}_ref_metadata(); }}\n')
        stubs = [st]
        libs = [l for l in libs if l not in missing]
    cmd = ["nice", "-n", "19", "g++", "-O2", "-std=c++17", f"-DGEN={name}", "-I/usr/include/halide14",
           f"{R}/harness/harness.cpp"] + stubs + libs + ["-o", f"{W}/bin/{name}", "-lpthread", "-ldl"]
    with open(f"{R}/logs/harness_build_cmds.txt", "a") as fh:
        fh.write(" ".join(cmd) + "\n")
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(name, "harness rc", r.returncode, "missing", missing, r.stderr[-2000:])
    return r.returncode


def run_check(name, s, nice=19, timeout=600):
    tgt, ints, floats, f = GENS[name]
    cmd = ["nice", "-n", str(nice), os.environ.get("BIN_DIR", f"{W}/bin") + f"/{name}", "check"] + f(s)
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=dict(os.environ, HL_NUM_THREADS="2"))
        lines = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
        return {"rc": r.returncode, "libs": lines, "stderr": r.stderr[-500:], "secs": time.time() - t0}
    except subprocess.TimeoutExpired:
        return {"rc": "timeout", "libs": [], "stderr": "", "secs": time.time() - t0}


def grid(name, N=18):
    shapes = grid_shapes(name, N)
    res = []
    for s in shapes:
        r = run_check(name, s)
        rec = {"gen": name, "shape": s, "in_range": True, **r, "t": time.strftime("%T")}
        res.append(rec)
        with open(f"{R}/" + os.environ.get("GRID_OUT", "grid.jsonl"), "a") as fh:
            fh.write(json.dumps(rec) + "\n")
        st = {l["lib"]: l["status"] for l in r["libs"]}
        print(name, s, r["rc"], st, flush=True)
    s = out_of_range(name)
    r = run_check(name, s)
    rec = {"gen": name, "shape": s, "in_range": False, **r, "t": time.strftime("%T")}
    with open(f"{R}/" + os.environ.get("GRID_OUT", "grid.jsonl"), "a") as fh:
        fh.write(json.dumps(rec) + "\n")
    print(name, "OUT", s, r["rc"], [(l["lib"], l["status"], l["err"][:80]) for l in r["libs"]], flush=True)


# Adams2019@small's pyramid library segfaults (SIGSEGV in rec3's parallel loop) at 65x65 and at its own 129x129
# (logs/adamss_pyramid_segv.txt), which kills the harness: left out of the timing.
EXCLUDE_TIME = {"pyramid_detail": "ref,diet,mull,adams"}


def timing(name, nice):
    tgt, ints, floats, f = GENS[name]
    small, large = timing_shapes(name)
    for label, s in (("small", small), ("large", large)):
        cmd = ["nice", "-n", str(nice), f"{W}/bin/{name}", "time"] + f(s)
        env = dict(os.environ, HL_NUM_THREADS="2", ROUNDS=os.environ.get("ROUNDS", "10"))
        if name in EXCLUDE_TIME:
            env["ONLY"] = EXCLUDE_TIME[name]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        try:
            d = json.loads(r.stdout.strip().splitlines()[-1])
        except Exception:
            d = {"parse_error": r.stdout[-300:]}
        rec = {"gen": name, "label": label, "shape": s, "nice": nice, "cpu_free": os.path.exists("/tmp/s10/CPU_FREE"),
               "load1": open("/proc/loadavg").read().split()[0], "start": time.strftime("%T", time.localtime(t0)),
               "end": time.strftime("%T"), "times_ms": d, "stderr": r.stderr[-600:]}
        with open(f"{R}/" + os.environ.get("TIMES_OUT", "times.jsonl"), "a") as fh:
            fh.write(json.dumps(rec) + "\n")
        print(name, label, d, r.stderr[-200:], flush=True)


if __name__ == "__main__":
    cmd, name = sys.argv[1], sys.argv[2]
    if cmd == "harness":
        sys.exit(harness(name))
    if cmd == "grid":
        grid(name, int(sys.argv[3]) if len(sys.argv) > 3 else 18)
    if cmd == "time":
        timing(name, int(os.environ.get("NICE", "10")))
    if cmd == "shapes":
        for s in grid_shapes(name):
            print(s)
        print("OUT", out_of_range(name))
        print("timing", timing_shapes(name))
