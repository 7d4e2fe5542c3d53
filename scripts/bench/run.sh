#!/usr/bin/env bash
# Benchmarks browser-demo against the sqlite3 shell, Datasette and a FlyingFox server, side by side, in one run
# (docs/benchmarks.md). Not part of `swift test`. Everything runs on 127.0.0.1 and stops by itself.
#
#   scripts/bench/run.sh --write-docs          # the 1,000,000-book store; writes docs/benchmarks.md (~10 min)
#   scripts/bench/run.sh --books 20000 --runs 5 --wrk-seconds 3   # a quick run (~1 min)
#
# Options are bench.py's (--books N, --runs N, --wrk-seconds N, --no-http, --only KEY…, --work DIR, --write-docs).
# Stores, logs and results go to scripts/bench/.bench/ (gitignored); a store is generated once per size.
set -euo pipefail
cd "$(dirname "$0")/../.."

need_apt=()
command -v wrk >/dev/null || need_apt+=(wrk)
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
if ((${#need_apt[@]})); then
    echo "Installing ${need_apt[*]} (apt-get)…" >&2
    apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if ! python3 -c 'import datasette' 2>/dev/null; then
    echo "Installing Datasette 0.65.5 (pip)…" >&2
    python3 -m pip install -q "datasette==0.65.5"
fi

echo "Building browser-demo (release, scratch path .build-bench)…" >&2
swift build -c release --product browser-demo --scratch-path .build-bench >&2
echo "Building the FlyingFox peer (release)…" >&2
swift build -c release --package-path scripts/bench/flyingfox-peer --scratch-path scripts/bench/.bench/flyingfox-build >&2

exec python3 scripts/bench/bench.py --command "scripts/bench/run.sh $*" "$@"
