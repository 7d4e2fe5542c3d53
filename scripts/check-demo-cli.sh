#!/usr/bin/env bash
# Checks browser-demo's command line: help, bad arguments (exit 2), unusable stores (exit 1), and that it
# serves and stops on SIGINT. Usage: scripts/check-demo-cli.sh PATH-TO-browser-demo
set -uo pipefail
demo=${1:?usage: scripts/check-demo-cli.sh PATH-TO-browser-demo}
passed=0
failed=0

expect() { # expect NAME EXPECTED-EXIT EXPECTED-STDERR-SUBSTRING ARGS...
  local name=$1 code=$2 text=$3
  shift 3
  local stderr actual
  stderr=$("$demo" "$@" 2>&1 >/dev/null)
  actual=$?
  if [ "$actual" = "$code" ] && [[ "$stderr" == *"$text"* ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $actual (expected $code), stderr: $stderr"
  fi
}

expect "unknown argument" 2 'browser-demo: unknown argument "--bogus"' --bogus
expect "port not a number" 2 'browser-demo: --port needs a number from 0 to 65535, got "abc"' --port abc
expect "port too large" 2 'browser-demo: --port needs a number from 0 to 65535, got "70000"' --port 70000
expect "port without value" 2 'browser-demo: --port needs a value' --port
expect "model without store" 2 'browser-demo: --model needs --store' --model x.momd
expect "missing store file" 1 'browser-demo: No such file' --store /nonexistent/store.sqlite --port 0
if "$demo" --help | grep -q "Usage: browser-demo"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL --help"; fi

# Serves, answers, and exits 0 on SIGINT.
log=$(mktemp)
"$demo" --port 0 --loopback >"$log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1)
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -n "$url" ] && python3 -c "import json,sys,urllib.request; sys.exit(0 if json.load(urllib.request.urlopen('$url/api/health'))['ok'] else 1)"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL serving: $(cat "$log")"
fi
kill -INT "$pid"
wait "$pid"
code=$?
if [ "$code" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL SIGINT exit code $code"; fi
rm -f "$log"

echo "demo-cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
