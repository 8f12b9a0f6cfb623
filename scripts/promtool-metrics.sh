#!/usr/bin/env bash
# `promtool check metrics` on a real scrape of `proxydash watch --metrics-listen`, in
# both formats the port serves: the Prometheus text format (what curl and promtool ask
# for) and OpenMetrics (what Prometheus asks for). Against the sandbox, on loopback, with
# its own state directories; every wait bounded. .ci/run runs it where promtool and curl
# are installed.
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

# Once a sweep is in, the scrape names the credit and the services.
for _ in $(seq 600); do
  if curl -sf "$url" | grep -q '^proxydash_service_up'; then break; fi
  sleep 0.1
done
curl -sf "$url" >"$tmp/text.prom"
curl -sf -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
  "$url" >"$tmp/openmetrics.prom"
grep -q '^proxydash_service_up' "$tmp/text.prom"
grep -q '^# EOF' "$tmp/openmetrics.prom"
echo "promtool check metrics: the text format"
promtool check metrics <"$tmp/text.prom"
echo "promtool check metrics: OpenMetrics"
promtool check metrics <"$tmp/openmetrics.prom"
