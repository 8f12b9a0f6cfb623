#!/usr/bin/env python3
"""Screenshots of the real dashboard for the README.

Runs `proxydash --demo` in a detached tmux session, presses the keys of each shot, captures
the pane with its colours (`tmux capture-pane -e`) and renders the cells as an SVG: no
image library needed, and the README shows exactly what the terminal showed.

    python3 scripts/screenshot.py            # writes assets/screenshots/*.svg

The last shots are the dashboard over three demo accounts (`--demo --all-profiles`).
"""
import html
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "assets", "screenshots")
COLS, ROWS = 120, 36
CELL_W, CELL_H = 8.4, 17
# One session per run, so two worktrees taking screenshots at once do not share one.
SESSION = f"proxydash-shot-{os.getpid()}"

# (file name, keys to press before the shot, what the screen shows once it is worth a
# shot: the engine reads at the sandbox's 60 requests a minute, so a shot waits for its
# data, not for a stretch of time that a loaded machine may not give it)
SHOTS = [
    ("services", [], r"\d+ err"),
    ("products", ["2"], r"Products · \d+"),
    ("billing", ["3"], r"Invoices · \d+"),
    ("network", ["4"], r"Services checked: 10 of 10"),
    # The chart, not only the list: its pane says "updated" once the statistics arrived.
    ("usage", ["5"], r"Usage · \d+ · [^─]*─+ updated"),
]

# The dashboard over three demo accounts: the All scope by due date (every account's
# services in one order), then its Network tab.
ACCOUNT_SHOTS = [
    ("accounts", ["s"], r"\d+ err"),
    ("accounts-network", ["4"], r"Servers in error: [1-9]"),
]

# Marks (Space) and your own actions in `?`, with a config of two actions (issue 47): two
# services marked, then the help listing the actions with what they run.
ACTION_SHOTS = [
    ("marks", [" ", "j", "j", " "], r"Services · \d+ · 2 marked"),
    ("actions-help", ["?"], r"Your actions"),
]

ACTIONS_CONFIG = """
[[actions]]
key = "X"
description = "Push the marked services to the proxy manager"
command = ["pm", "push", "{service_ids}"]
confirm = true

[[actions]]
key = "O"
description = "Open in the panel"
command = ["xdg-open", "https://panel.example.com/services/{service_id}"]
"""

# How long a shot waits for what it shows before it is taken anyway (with a warning).
READY_WITHIN = 120.0

PALETTE16 = [
    "#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
    "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
]
FG, BG = "#d4d4d4", "#1e1e1e"


def color256(n):
    if n < 16:
        return PALETTE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


def parse(lines):
    """ANSI lines → rows of (char, fg, bg, bold)."""
    rows = []
    sgr = re.compile(r"\x1b\[([0-9;]*)m")
    for line in lines:
        fg, bg, bold, rev = FG, BG, False, False
        cells = []
        pos = 0
        while pos < len(line):
            m = sgr.match(line, pos)
            if m:
                codes = [int(c) if c else 0 for c in m.group(1).split(";")]
                i = 0
                while i < len(codes):
                    c = codes[i]
                    if c == 0:
                        fg, bg, bold, rev = FG, BG, False, False
                    elif c == 1:
                        bold = True
                    elif c == 22:
                        bold = False
                    elif c == 7:
                        rev = True
                    elif c == 27:
                        rev = False
                    elif 30 <= c <= 37:
                        fg = PALETTE16[c - 30]
                    elif 90 <= c <= 97:
                        fg = PALETTE16[c - 90 + 8]
                    elif 40 <= c <= 47:
                        bg = PALETTE16[c - 40]
                    elif 100 <= c <= 107:
                        bg = PALETTE16[c - 100 + 8]
                    elif c == 39:
                        fg = FG
                    elif c == 49:
                        bg = BG
                    elif c in (38, 48) and i + 1 < len(codes):
                        if codes[i + 1] == 5 and i + 2 < len(codes):
                            col = color256(codes[i + 2])
                            i += 2
                        elif codes[i + 1] == 2 and i + 4 < len(codes):
                            col = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                            i += 4
                        else:
                            col = None
                        if col:
                            if c == 38:
                                fg = col
                            else:
                                bg = col
                    i += 1
                pos = m.end()
                continue
            ch = line[pos]
            pos += 1
            if ch == "\x1b":
                continue
            f, b = (bg, fg) if rev else (fg, bg)
            cells.append((ch, f, b, bold))
        rows.append(cells)
    return rows


def svg(rows):
    w, h = COLS * CELL_W, ROWS * CELL_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
        f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        f'font-size="14">',
        f'<rect width="100%" height="100%" fill="{BG}"/>',
    ]
    for y, cells in enumerate(rows[:ROWS]):
        for x, (ch, f, b, bold) in enumerate(cells[:COLS]):
            if b != BG:
                out.append(
                    f'<rect x="{x * CELL_W:.1f}" y="{y * CELL_H}" width="{CELL_W + 0.5:.1f}" '
                    f'height="{CELL_H}" fill="{b}"/>'
                )
        # Runs of equal style become one <text>, with every cell placed on the grid.
        x = 0
        while x < len(cells):
            ch, f, b, bold = cells[x]
            run = [ch]
            end = x + 1
            while end < len(cells) and cells[end][1:] == (f, b, bold):
                run.append(cells[end][0])
                end += 1
            text = "".join(run)
            if text.strip():
                xs = " ".join(f"{(x + i) * CELL_W:.1f}" for i in range(len(run)))
                weight = ' font-weight="bold"' if bold else ""
                out.append(
                    f'<text x="{xs}" y="{y * CELL_H + 13}" fill="{f}"{weight} '
                    f'xml:space="preserve">{html.escape(text)}</text>'
                )
            x = end
    out.append("</svg>")
    return "\n".join(out)


def tmux(*args):
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def wait_for(ready):
    """The screen once `ready` (a regex) is on it, or None after READY_WITHIN seconds."""
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        if re.search(ready, tmux("capture-pane", "-t", SESSION, "-p")):
            time.sleep(0.3)  # the frame after the one that showed it
            return tmux("capture-pane", "-t", SESSION, "-e", "-p")
        time.sleep(0.25)
    return None


def shoot(binary, flags, shots, settle=2.0, env=""):
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)
    env = f"TERM=xterm-256color {env}"
    tmux("new-session", "-d", "-s", SESSION, "-x", str(COLS), "-y", str(ROWS), f"{env} {binary} {flags}")
    try:
        time.sleep(settle)
        for name, keys, ready in shots:
            for key in keys:
                tmux("send-keys", "-t", SESSION, key)
                time.sleep(0.4)
            captured = wait_for(ready)
            if captured is None:
                print(f"{name}: {ready!r} not on screen after {READY_WITHIN:.0f} s; shot anyway")
                captured = tmux("capture-pane", "-t", SESSION, "-e", "-p")
            path = os.path.join(OUT, f"{name}.svg")
            with open(path, "w") as f:
                f.write(svg(parse(captured.split("\n"))))
            print("wrote", os.path.relpath(path, ROOT))
        tmux("send-keys", "-t", SESSION, "q")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True)


def main():
    os.makedirs(OUT, exist_ok=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    binary = os.path.join(target, "release", "proxydash")
    # Always from the current sources: a stale binary would show an older screen.
    subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=True)
    shoot(binary, "--demo --refresh 0", SHOTS)
    # Three accounts at 60 requests a minute each: a little longer for their first reads.
    shoot(binary, "--demo --all-profiles --refresh 0", ACCOUNT_SHOTS, settle=6.0)
    # Your actions come from the config file beside the demo's (a folder of this run's).
    config = os.path.join("/tmp", f"proxydash-shot-config-{os.getpid()}")
    os.makedirs(os.path.join(config, "proxydash"), exist_ok=True)
    with open(os.path.join(config, "proxydash", "config.toml"), "w") as f:
        f.write(ACTIONS_CONFIG)
    shoot(binary, "--demo --refresh 0", ACTION_SHOTS, env=f"XDG_CONFIG_HOME={config}")


if __name__ == "__main__":
    sys.exit(main())
