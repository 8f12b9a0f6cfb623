#!/usr/bin/env bash
# Soak: the dashboard left running against a faulty sandbox, its memory and threads sampled.
#
#   scripts/soak.sh [SECONDS]          (default 600; SAMPLE=10 seconds between samples)
#
# The sandbox runs as its own process (`proxydash sandbox --faults all:0.2`: every fault
# kind, 20% of requests in all; its request log grows by design, so it is not what is
# measured). The dashboard runs in a detached tmux session at 120x40 against it with
# `--refresh 1 --timeout 5`, and every SAMPLE seconds the script reads VmRSS and Threads
# from /proc/<pid>/status and counts its open descriptors, then presses a key so every
# tab, the help and a full refresh get drawn. At the end it quits with `q`, checks the exit
# status, and compares the RSS after warm-up (the first sample at or after WARMUP seconds,
# default 60) with the last: growth must stay under MAX_GROWTH percent (default 10).
#
# Everything is on loopback, bounded in time, and cleaned up on exit. Results go to
# $OUT (default target/soak), samples in samples.csv.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-600}
SAMPLE=${SAMPLE:-10}
WARMUP=${WARMUP:-60}
MAX_GROWTH=${MAX_GROWTH:-10}
OUT=${OUT:-target/soak}
BIN=${PROXYDASH_BIN:-${CARGO_TARGET_DIR:-target}/release/proxydash}
SESSION=proxydash-soak-$$

command -v tmux >/dev/null || { echo "soak: tmux is needed" >&2; exit 2; }
if [[ -z "${PROXYDASH_BIN:-}" ]]; then
  cargo build --release --quiet
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HOME_DIR=$(mktemp -d)
SANDBOX_PID=""

cleanup() {
  tmux kill-session -t "$SESSION" 2>/dev/null || true
  if [[ -n "$SANDBOX_PID" ]]; then kill "$SANDBOX_PID" 2>/dev/null || true; fi
  rm -rf "$HOME_DIR"
}
trap cleanup EXIT

# The sandbox, on a free loopback port; its first lines name the URL and the token.
"$BIN" sandbox --listen 127.0.0.1:0 --faults all:0.2 >"$OUT/sandbox.out" 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 100); do
  grep -q '^token:' "$OUT/sandbox.out" 2>/dev/null && break
  sleep 0.1
done
BASE_URL=$(sed -n 's/^base URL: *//p' "$OUT/sandbox.out")
TOKEN=$(sed -n 's/^token: *//p' "$OUT/sandbox.out")
[[ -n "$BASE_URL" && -n "$TOKEN" ]] || { echo "soak: the sandbox did not start" >&2; cat "$OUT/sandbox.out" >&2; exit 1; }

# The dashboard in tmux; the exit status lands in a file.
tmux new-session -d -s "$SESSION" -x 120 -y 40 \
  "env HOME=$HOME_DIR XDG_STATE_HOME=$HOME_DIR/state XDG_CONFIG_HOME=$HOME_DIR/config \
   PROXYDASH_TOKEN=$TOKEN PROXYDASH_CLIPBOARD=off \
   $BIN --base-url $BASE_URL --refresh 1 --timeout 5 --log-file $OUT/dashboard.log; \
   echo \$? > $OUT/exit-status; sleep 2"
PID=""
for _ in $(seq 100); do
  PID=$(pgrep -f -n -- "^$BIN --base-url $BASE_URL" || true)
  [[ -n "$PID" ]] && break
  sleep 0.1
done
[[ -n "$PID" ]] || { echo "soak: the dashboard did not start" >&2; exit 1; }
rm -f "$OUT/exit-status"

echo "seconds,rss_kb,threads,fds" >"$OUT/samples.csv"
keys=(1 2 3 4 5 R '?' Escape j k Tab)
start=$(date +%s)
i=0
while :; do
  now=$(( $(date +%s) - start ))
  [[ -d /proc/$PID ]] || { echo "soak: the dashboard died at ${now}s" >&2; exit 1; }
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$PID/status")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$PID/status")
  fds=$(ls "/proc/$PID/fd" | wc -l)
  echo "$now,$rss,$threads,$fds" >>"$OUT/samples.csv"
  (( now >= DURATION )) && break
  tmux send-keys -t "$SESSION" "${keys[i % ${#keys[@]}]}"
  i=$((i + 1))
  sleep "$SAMPLE"
done
tmux capture-pane -p -t "$SESSION" >"$OUT/last-screen.txt"
tmux send-keys -t "$SESSION" q
for _ in $(seq 100); do
  [[ -f "$OUT/exit-status" ]] && break
  sleep 0.1
done
status=$(cat "$OUT/exit-status" 2>/dev/null || echo "none")

awk -F, -v warmup="$WARMUP" -v max="$MAX_GROWTH" -v status="$status" -v requests="$(grep -c 'request' "$OUT/dashboard.log" || true)" '
  NR == 1 { next }
  base == "" && $1 >= warmup { base = $2; base_at = $1 }
  first == "" { first = $2 }
  { last = $2; last_at = $1; if ($3 > threads) threads = $3; if ($4 > fds) fds = $4
    if ($2 > peak) peak = $2 }
  END {
    if (base == "") { base = first; base_at = 0 }
    growth = (last - base) * 100 / base
    printf "soak: %ds, RSS %d kB at start, %d kB at %ds (after warm-up), %d kB at the end (%ds), peak %d kB; growth %.1f%%\n", last_at, first, base, base_at, last, last_at, peak, growth
    printf "soak: at most %d threads and %d open descriptors; %s request lines logged; exit status %s\n", threads, fds, requests, status
    if (growth >= max) { print "soak: FAILED: RSS grew by " growth "% (limit " max "%)"; exit 1 }
    if (status != "0") { print "soak: FAILED: exit status " status; exit 1 }
    print "soak: passed"
  }' "$OUT/samples.csv"
