#!/usr/bin/env python3
"""Measures the performance targets that are not criterion benchmarks (BENCHMARKS.md):

  4. idle is free: CPU seconds used by the dashboard over 60 s with nothing changing;
  6. memory: peak RSS with 10,000 services listed and a 100,000-line IP list open;
  7. start-up: time from launch to the first frame, before any reply arrives.

The release binary runs in a pseudo-terminal against a sandbox process on loopback.

    cargo build --release && python3 scripts/measure.py [--idle-secs 60]
"""
import argparse
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "proxydash")
TOKEN = "pdx7Kq2Vt9LmR4nW8cZ3yH6bJ1sF5gA0eXuDoTiQ"


def sandbox(port, *args):
    proc = subprocess.Popen(
        [BIN, "sandbox", "--listen", f"127.0.0.1:{port}", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    # Wait for "listening".
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stdout.readline()
        if "listening" in line:
            return proc
    raise SystemExit("the sandbox did not start")


class Dashboard:
    """The dashboard in a pseudo-terminal of 120×40, its output drained in the background."""

    def __init__(self, port, *args):
        self.started = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.environ["XDG_STATE_HOME"] = "/tmp/proxydash-measure-state"
            os.execv(BIN, [BIN, "--base-url", f"http://127.0.0.1:{port}", "--token", TOKEN, *args])
        self.pid, self.fd = pid, fd
        import fcntl, struct, termios
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.output = b""

    def read_until(self, pattern, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, self.output):
                return time.monotonic()
            r, _, _ = select.select([self.fd], [], [], 0.01)
            if r:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:
                    break
        return None

    def drain(self, secs):
        end = time.monotonic() + secs
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:
                    return

    def send(self, keys):
        os.write(self.fd, keys.encode())

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def status(self, key):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])  # kB
        return 0

    def quit(self):
        self.send("q")
        time.sleep(0.5)
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--idle-secs", type=float, default=60)
    args = ap.parse_args()
    if not os.path.exists(BIN):
        raise SystemExit("build first: cargo build --release")

    # 7. First frame before any reply: the sandbox answers only after 5 s.
    slow = sandbox(18791, "--latency-ms", "5000")
    try:
        times = []
        for _ in range(5):
            d = Dashboard(18791)
            t = d.read_until(rb"Services", 5)
            times.append((t - d.started) * 1000 if t else float("inf"))
            d.quit()
        times.sort()
        print(f"7. first frame: median {times[len(times) // 2]:.1f} ms, worst {times[-1]:.1f} ms "
              f"(target: within 100 ms) {'PASS' if times[len(times) // 2] <= 100 else 'MISS'}")
    finally:
        slow.terminate()

    # 4. Idle: the normal seed, every reply in, then nothing for a minute.
    calm = sandbox(18792)
    try:
        for refresh in ["0", "30"]:
            d = Dashboard(18792, "--refresh", refresh)
            d.read_until(rb"Up to date|ClientID", 10)
            d.drain(2)
            before = d.cpu_seconds()
            d.drain(args.idle_secs)
            used = d.cpu_seconds() - before
            print(f"4. idle for {args.idle_secs:.0f} s with --refresh {refresh}: {used:.3f} s CPU "
                  f"(target: under 0.1 s) {'PASS' if used < 0.1 else 'MISS'}")
            d.quit()
    finally:
        calm.terminate()

    # 6. Memory: 10,000 services, the 100,000-line IP list of service 1 open.
    big = sandbox(18793, "--scale", "10000")
    try:
        d = Dashboard(18793, "--refresh", "0")
        d.read_until(rb"Services . 10,000|Services . 10000", 30)
        d.drain(5)
        d.send("g")
        d.drain(0.5)
        d.send("i")
        d.drain(0.5)
        d.send("\r")
        t = d.read_until(rb"100,000 entries|100000 entries", 60)
        d.drain(2)
        rss, hwm = d.status("VmRSS"), d.status("VmHWM")
        print(f"6. memory with 10,000 services and a 100,000-line IP list open: RSS {rss / 1024:.1f} MB, "
              f"peak {hwm / 1024:.1f} MB (target: under 50 MB) {'PASS' if hwm < 50 * 1024 else 'MISS'}"
              + ("" if t else "  [the list did not show]"))
        d.quit()
    finally:
        big.terminate()


if __name__ == "__main__":
    sys.exit(main())
