import subprocess, sys, json, os, time, resource
def lim():
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
import pipes
names = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] != "all" else list(pipes.SPECS)
scheds = sys.argv[1].split(",")
for n in names:
    for s in scheds:
        t0 = time.time()
        try:
            p = subprocess.run(["/usr/bin/python3", "run_one.py", n, s], capture_output=True, text=True, timeout=240, preexec_fn=lim)
            lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
            if lines:
                r = json.loads(lines[-1][7:])
            else:
                r = dict(pipeline=n, sched=s, status="crash rc=%d: %s" % (p.returncode, p.stderr[-800:]))
            open("logs/%s.%s.stderr" % (n, s), "w").write(p.stderr)
        except subprocess.TimeoutExpired:
            r = dict(pipeline=n, sched=s, status="timeout 240s")
        r['wall'] = round(time.time() - t0, 1)
        with open("results.jsonl", "a") as f:
            f.write(json.dumps(r) + "\n")
        print(n, s, r['status'][:300], r.get('times'), r['wall'], flush=True)
