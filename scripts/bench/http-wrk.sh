#!/usr/bin/env bash
# HTTP benchmark of browser-demo with wrk: requests per second and latency percentiles for /api/health,
# /pages/inspector/inspector.js and a page of 100 books. A benchmark, not a test: it asserts nothing and CI does not run it.
#
#   scripts/bench/http-wrk.sh                    release build, 2 threads, 64 connections, 10 s per URL
#   THREADS=2 CONNECTIONS=256 DURATION=30s scripts/bench/http-wrk.sh
#   BROWSER_DEMO=.build/debug/browser-demo scripts/bench/http-wrk.sh     another binary
#
# Installs wrk (Debian package) with apt-get when it is missing. Builds the release browser-demo into
# .build-release. Traffic goes to 127.0.0.1 only. On a 2-core machine wrk and the server share the CPUs, so
# the figures are a floor; compare runs on the same machine only.
set -euo pipefail
cd "$(dirname "$0")/../.."

threads=${THREADS:-2}
connections=${CONNECTIONS:-64}
duration=${DURATION:-10s}

if ! command -v wrk >/dev/null; then
  echo "Installing wrk"
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq wrk >/dev/null
fi

binary=${BROWSER_DEMO:-}
if [ -z "$binary" ]; then
  swift build -c release --product browser-demo --scratch-path .build-release >/dev/null
  binary=.build-release/release/browser-demo
fi

log=$(mktemp)
"$binary" --port 0 --loopback >"$log" 2>&1 &
pid=$!
# SIGTERM, not SIGINT: a background job of a script starts with SIGINT ignored, so an interrupt sent before
# browser-demo has installed its handler would be lost and the wait would never end.
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
base=""
for _ in $(seq 1 100); do
  base=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1 || true)
  [ -n "$base" ] && break
  sleep 0.1
done
[ -n "$base" ] || { echo "browser-demo did not start: $(cat "$log")" >&2; exit 1; }

echo "browser-demo ($binary) at $base; wrk -t$threads -c$connections -d$duration; $(nproc) CPUs"
printf '%-36s %10s %9s %9s %9s %9s %7s\n' URL "req/s" p50 p90 p99 max errors
for path in /api/health /pages/inspector/inspector.js "/api/entities/Book?limit=100"; do
  output=$(wrk -t"$threads" -c"$connections" -d"$duration" --latency "$base$path")
  rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$output")
  p90=$(awk '$1 == "90%" { print $2 }' <<<"$output")
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
  max=$(awk '$1 == "Latency" { print $4 }' <<<"$output")
  errors=$(awk '/Non-2xx|Socket errors/ { sub(/^ +/, ""); printf "%s; ", $0 }' <<<"$output")
  printf '%-36s %10s %9s %9s %9s %9s %7s\n' "$path" "$rps" "$p50" "$p90" "$p99" "$max" "${errors:-0}"
done
