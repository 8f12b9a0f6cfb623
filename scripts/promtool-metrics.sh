#!/usr/bin/env bash
# `promtool check metrics` on a real scrape of `proxydash watch --metrics-listen`, in
# both formats the port serves: the Prometheus text format (what curl and promtool ask
# for) and OpenMetrics (what Prometheus asks for). Against the sandbox, on loopback, with
# its own state directories; every wait bounded. .ci/run runs it where promtool is
# installed; the scrapes are made with Python (on every machine CI runs on), not curl.
#
#   scripts/promtool-metrics.sh [path/to/proxydash]
set -euo pipefail
bin=${1:-target/debug/proxydash}
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Waits (at most 60 s) for a line matching $2 in file $1, and prints it.
line() {
  for _ in $(seq 600); do
    if grep -m1 -E "$2" "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "no line like '$2' in $1:" >&2
  cat "$1" >&2
  return 1
}

"$bin" sandbox --listen 127.0.0.1:0 >"$tmp/sandbox.out" 2>&1 &
pids+=($!)
base=$(line "$tmp/sandbox.out" '^base URL: ' | sed 's/^base URL: //')
token=$(line "$tmp/sandbox.out" '^token: ' | awk '{print $2}')

XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" PROXYDASH_LOG=off \
  PROXYDASH_TOKEN="$token" \
  env -u PROXYDASH_PROFILE -u PROXYDASH_CONFIG "$bin" --base-url "$base" --refresh 2 watch --metrics-listen 127.0.0.1:0 \
  >"$tmp/watch.out" 2>"$tmp/watch.err" &
pids+=($!)
url=$(line "$tmp/watch.err" '^metrics at http://' | sed 's/^metrics at //')

# GET $1 with the Accept header $2 (none when empty) to standard output; fails on an
# error status or no answer within 10 s.
fetch() {
  python3 - "$1" "$2" <<'PY'
import sys, urllib.request
url, accept = sys.argv[1], sys.argv[2]
req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
with urllib.request.urlopen(req, timeout=10) as r:
    sys.stdout.write(r.read().decode("utf-8"))
PY
}

# Once a sweep is in, the scrape names the credit and the services.
for _ in $(seq 600); do
  if fetch "$url" '' >"$tmp/first.prom" 2>/dev/null && grep -q '^proxydash_service_up' "$tmp/first.prom"; then
    break
  fi
  sleep 0.1
done
# What curl and promtool send, and what Prometheus sends.
fetch "$url" '*/*' >"$tmp/text.prom"
fetch "$url" 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
  >"$tmp/openmetrics.prom"
grep -q '^proxydash_service_up' "$tmp/text.prom"
if grep -q '^# EOF' "$tmp/text.prom"; then
  echo "OpenMetrics served to a scraper that did not ask for it" >&2
  exit 1
fi
grep -q '^# EOF' "$tmp/openmetrics.prom"
echo "promtool check metrics: the text format"
promtool check metrics <"$tmp/text.prom"
echo "promtool check metrics: OpenMetrics"
promtool check metrics <"$tmp/openmetrics.prom"
