#!/usr/bin/env bash
# A real scrape of `proxydash watch --metrics-listen`, in both formats the port serves,
# read by strict parsers: the Prometheus text format (what curl and promtool ask for) by
# `promtool check metrics` and by Python's prometheus_client text parser, and OpenMetrics
# (what Prometheus asks for) by prometheus_client's OpenMetrics parser, which refuses a
# whole scrape for one family named wrong (promtool reads only the text format). Against
# the sandbox and its loopback proxies (`--proxies`), with `watch --probe-every` so the
# probe's per-service families (gauges and a histogram) are read too; on loopback, with
# its own state directories; every wait bounded. .ci/run
# runs it once promtool and prometheus_client are installed; the scrapes are made with
# Python (on every machine CI runs on), not curl.
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

"$bin" sandbox --listen 127.0.0.1:0 --proxies >"$tmp/sandbox.out" 2>&1 &
pids+=($!)
base=$(line "$tmp/sandbox.out" '^base URL: ' | sed 's/^base URL: //')
token=$(line "$tmp/sandbox.out" '^token: ' | awk '{print $2}')
judge=$(line "$tmp/sandbox.out" '^judge: ' | awk '{print $2}')

# The profile names the sandbox's judge and lets the probe contact loopback proxies.
mkdir -p "$tmp/config/proxydash"
cat >"$tmp/config/proxydash/config.toml" <<EOF
default_profile = "main"
[profiles.main]
base_url = "$base"
token = "$token"
refresh = 2
probe_url = "$judge"
probe_allow_private = true
probe_timeout = 2
EOF
chmod 600 "$tmp/config/proxydash/config.toml"

XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" PROXYDASH_LOG=off \
  env -u PROXYDASH_PROFILE -u PROXYDASH_CONFIG -u PROXYDASH_TOKEN -u PROXYDASH_BASE_URL \
  "$bin" watch --probe-every 2s --metrics-listen 127.0.0.1:0 \
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

# Once a sweep is in, the scrape names the credit and the services; once a probe round
# is, its series.
for _ in $(seq 600); do
  if fetch "$url" '' >"$tmp/first.prom" 2>/dev/null && grep -q '^proxydash_service_up' "$tmp/first.prom" &&
    grep -q '^proxydash_probe_latency_seconds_bucket' "$tmp/first.prom"; then
    break
  fi
  sleep 0.1
done
# What curl and promtool send, and what Prometheus sends.
fetch "$url" '*/*' >"$tmp/text.prom"
fetch "$url" 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
  >"$tmp/openmetrics.prom"
grep -q '^proxydash_service_up' "$tmp/text.prom"
grep -q '^proxydash_probe_checked_proxies' "$tmp/text.prom"
if grep -q '^# EOF' "$tmp/text.prom"; then
  echo "OpenMetrics served to a scraper that did not ask for it" >&2
  exit 1
fi
grep -q '^# EOF' "$tmp/openmetrics.prom"
echo "promtool check metrics: the text format"
promtool check metrics <"$tmp/text.prom"
echo "prometheus_client: the text format and OpenMetrics, strictly"
python3 - "$tmp/text.prom" "$tmp/openmetrics.prom" <<'PY'
import sys
from prometheus_client.parser import text_string_to_metric_families as text_families
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_families
text = open(sys.argv[1]).read()
om = open(sys.argv[2]).read()
t = {f.name: f for f in text_families(text)}
o = {f.name: f for f in om_families(om)}
assert "proxydash_api_requests" in o and o["proxydash_api_requests"].type == "counter", sorted(o)
assert "proxydash_service_up" in o and "proxydash_service_up" in t, sorted(t)
h = o.get("proxydash_probe_latency_seconds")
assert h is not None and h.type == "histogram" and h.unit == "seconds", sorted(o)
assert "proxydash_probe_alive_proxies" in o and o["proxydash_probe_alive_proxies"].type == "gauge", sorted(o)
samples = lambda fams: sorted((s.name, tuple(sorted(s.labels.items()))) for f in fams.values() for s in f.samples)
assert samples(t) == samples(o), "the two formats carry the same samples"
print(f"  {len(o)} families, {len(samples(o))} samples: the same in both")
PY
