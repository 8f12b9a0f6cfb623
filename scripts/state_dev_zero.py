#!/usr/bin/env python3
"""Issue 38 item 1: peak memory of `watch` with its state files and the log linked to
/dev/zero (three sweeps, then SIGTERM). usage: state_dev_zero.py BIN BASE_URL TOKEN"""
import os, subprocess, sys, tempfile, time, signal, select
binary, url, token = sys.argv[1:4]
d = tempfile.mkdtemp(prefix="pd38z-")
os.makedirs(f"{d}/state/proxydash"); os.makedirs(f"{d}/config")
for f in ["alerts.json", "service_types.json", "throttle.json", "proxydash.log"]:
    os.symlink("/dev/zero", f"{d}/state/proxydash/{f}")
env = dict(os.environ, XDG_STATE_HOME=f"{d}/state", XDG_CONFIG_HOME=f"{d}/config", PROXYDASH_TOKEN=token)
t0 = time.time()
p = subprocess.Popen([binary, "--base-url", url, "--refresh", "1", "--max-rpm", "600", "watch", "--verbose"], env=env,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
lines = []
while time.time() - t0 < 30:
    r, _, _ = select.select([p.stderr], [], [], 1)
    if r:
        l = p.stderr.readline(); lines.append(l.rstrip())
        if "sweep done" in l and sum("sweep done" in x for x in lines) >= 3: break
hwm = [l for l in open(f"/proc/{p.pid}/status") if l.startswith("VmHWM")][0].split()[1]
p.send_signal(signal.SIGTERM); code = p.wait(timeout=60)
for l in lines[:4]: print("  ", l)
print(f"watch with alerts.json, service_types.json, throttle.json and proxydash.log linked to /dev/zero: 3 sweeps in {time.time()-t0:.1f} s, peak RSS {hwm} kB, exit {code}")
