#!/usr/bin/env python3
"""Issue 38 item 4: slow clients against a metrics port (loopback only), then scrapes: how many are answered within 10 s.
usage: flood.py PORT CLIENTS SCRAPES [--reconnect]"""
import socket, sys, threading, time
port, n, scrapes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
reconnect = "--reconnect" in sys.argv
stop = time.time() + 600
done = threading.Event()
held = []
def slow():
    while not done.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /metrics HTTP/1.1\r\n")
            i = 0
            while not done.is_set():
                time.sleep(1)
                s.sendall(b"X-Slow-%d: 1\r\n" % i)
                i += 1
        except OSError:
            pass
        if not reconnect:
            return
        time.sleep(1)
threads = [threading.Thread(target=slow, daemon=True) for _ in range(n)]
for t in threads: t.start()
time.sleep(3)
answered, times = 0, []
for i in range(scrapes):
    t0 = time.time()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.settimeout(max(0.01, 10 - (time.time() - t0)))
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
        if data.startswith(b"HTTP/1.1 200") and time.time() - t0 <= 10:
            answered += 1
        times.append(time.time() - t0)
    except OSError as e:
        times.append(None)
    time.sleep(1)
done.set()
ok = [t for t in times if t is not None]
print(f"{answered} of {scrapes} scrapes answered within 10 s; slowest {max(ok) if ok else None:.3f} s; median {sorted(ok)[len(ok)//2] if ok else None:.4f} s")
