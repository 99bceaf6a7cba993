import sys
sys.argv = [sys.argv[0], sys.argv[1]]
exec(open('probe.py').read().replace('\nmain()\n', '\n'))
hl.load_plugin(sys.argv[1])
for part in ("whole", "dw"):
    f, ins, S = build(part, True)
    src = hl.Pipeline(f).auto_schedule("Diet", T, hl.MachineParams(2, 1 << 20, 40)).schedule_source
    open("diet_%s.schedule.txt" % part, "w").write(src)
