#!/usr/bin/env python3
"""Peak memory of the dashboard against a hostile server (issue 11.3, RELIABILITY.md):

  error:  every request answers 500 with a 60 MB JSON body, and the dashboard refreshes
          every second for 25 s. Target: peak RSS (VmHWM) under 100 MB.
  list:   every request answers 200 with 60 MB of `[{},{},...]` (15 million empty
          entries), same refresh. Reported, no target.

The release binary runs in a pseudo-terminal (scripts/measure.py's Dashboard) against a
server of this script on 127.0.0.1 (a free port); nothing else is contacted.

    cargo build --release && python3 scripts/hostile_rss.py [--secs 25] [--mb 60]
"""
import argparse
import http.server
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import BIN, Dashboard  # noqa: E402

CHUNK = 1 << 20


def serve(kind, size):
    """A threaded server answering every request with `size` bytes of `kind`."""
    served = {"requests": 0, "bytes": 0}
    if kind == "error":
        status, head, filler, tail = 500, b'{"error":"', b"x", b'"}'
    else:
        status, head, filler, tail = 200, b"[{}", b",{}", b"]"
    body_chunk = (filler * (CHUNK // len(filler) + 1))[: CHUNK - CHUNK % len(filler)]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            served["requests"] += 1
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            sent = 0
            try:
                self.wfile.write(head)
                sent = len(head)
                while sent + len(body_chunk) + len(tail) <= size:
                    self.wfile.write(body_chunk)
                    sent += len(body_chunk)
                rest = size - sent - len(tail)
                self.wfile.write(filler * (rest // len(filler)) + b" " * (rest % len(filler)) + tail)
                sent = size
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
            served["bytes"] += sent

        do_PUT = do_POST = do_GET

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, served


def run(kind, secs, mb):
    server, served = serve(kind, mb << 20)
    port = server.server_address[1]
    d = Dashboard(port, "--refresh", "1", "--timeout", "10")
    try:
        peak_rss = 0
        end = time.monotonic() + secs
        while time.monotonic() < end:
            d.drain(1)
            peak_rss = max(peak_rss, d.status("VmRSS"))
        hwm = d.status("VmHWM")
        alive = d.status("VmRSS") > 0
    finally:
        d.quit()
        server.shutdown()
    return hwm, peak_rss, alive, served


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=float, default=25)
    ap.add_argument("--mb", type=int, default=60)
    args = ap.parse_args()
    if not os.path.exists(BIN):
        raise SystemExit("build first: cargo build --release")
    for kind in ["error", "list"]:
        hwm, rss, alive, served = run(kind, args.secs, args.mb)
        what = (f"{args.mb} MB error bodies on every request" if kind == "error"
                else f"{args.mb} MB of [{{}},{{}},...] on every request")
        line = (f"{what}, --refresh 1 for {args.secs:.0f} s: peak RSS (VmHWM) {hwm / 1024:.1f} MB, "
                f"highest sampled RSS {rss / 1024:.1f} MB, {served['requests']} requests, "
                f"{served['bytes'] / (1 << 20):.0f} MiB written by the server")
        if kind == "error":
            verdict = "PASS" if hwm < 100 * 1024 and alive else "MISS"
            print(f"[target] {line} (< 100 MB) {verdict}")
        else:
            print(f"[figure] {line}")


if __name__ == "__main__":
    main()
