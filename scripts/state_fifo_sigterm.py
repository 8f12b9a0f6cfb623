#!/usr/bin/env python3
"""Issue 38 item 1: time from SIGTERM to exit of `watch` with a FIFO at a state file.
usage: sigterm.py BIN BASE_URL TOKEN NAME"""
import os, subprocess, sys, tempfile, time, signal, select
binary, url, token, name = sys.argv[1:5]
d = tempfile.mkdtemp(prefix="pd38-")
os.makedirs(f"{d}/state/proxydash"); os.makedirs(f"{d}/config")
os.mkfifo(f"{d}/state/proxydash/{name}")
env = dict(os.environ, XDG_STATE_HOME=f"{d}/state", XDG_CONFIG_HOME=f"{d}/config",
           PROXYDASH_TOKEN=token, PROXYDASH_LOG="info")
t0 = time.time()
p = subprocess.Popen([binary, "--base-url", url, "--refresh", "5", "watch"], env=env,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
said, first = [], None
while time.time() - t0 < 30:
    r, _, _ = select.select([p.stderr], [], [], 1)
    if r:
        line = p.stderr.readline()
        said.append(line.rstrip())
        if "watching" in line:
            first = time.time() - t0
            break
time.sleep(0.5)
ts = time.time()
p.send_signal(signal.SIGTERM)
try:
    code = p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill(); code = "killed after 60 s"
print(f"{name}: first line after {first:.3f} s" if first else f"{name}: no 'watching' line in 30 s")
print("  said:", [l for l in said if name in l][:1])
print(f"  exit {code} {time.time() - ts:.3f} s after SIGTERM")
