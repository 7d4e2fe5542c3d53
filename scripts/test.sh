#!/usr/bin/env bash
# Runs every test of the project: the one command README gives.
#
#   scripts/test.sh            everything: checks, Swift tests, CLI checks, fuzzing, load, browser tests
#   scripts/test.sh --no-ui    skip the browser tests (no Chromium needed)
#
# REQUIRE_FIXTURES=1 (set by .ci/run) turns a missing ../shared/fixtures/coredata from skipped tests into failures.
#
# Needs: Swift 6 (Linux toolchain: libFuzzer for the fuzz step), python3, libsqlite3-dev and
# libavahi-compat-libdnssd-dev (installed below when missing on Debian); for the Bonjour check avahi-daemon,
# avahi-utils and dbus (skipped without them unless BONJOUR_REQUIRED=1);
# for the browser tests Chromium, chromedriver and Selenium (scripts/ui-tests/run.sh
# installs what is missing on Debian). .ci/run installs everything.
set -euo pipefail
cd "$(dirname "$0")/.."

run_ui=1
for argument in "$@"; do
  case "$argument" in
    --no-ui) run_ui=0 ;;
    *) echo "scripts/test.sh: unknown argument $argument" >&2; exit 2 ;;
  esac
done

step() { printf '\n==> %s\n' "$*"; }

# The system libraries BrowserSQLite links, and the DNS-SD API browser-demo links on Linux (present on these
# machines; installed here when missing on Debian).
missing=()
for package in libsqlite3-dev libavahi-compat-libdnssd-dev; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  step "Installing ${missing[*]} (apt-get)"
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step "Architecture: imports point downward only"
python3 scripts/checks/architecture/check.py
python3 scripts/checks/architecture/check.py --self-test

step "Code apps link uses only API that exists on iOS and tvOS (Apple's documentation, listed)"
python3 scripts/checks/ios-availability/check.py
python3 scripts/checks/ios-availability/check.py --self-test

step "Docs: links resolve, and the file paths README, ARCHITECTURE and PLAN name exist"
python3 scripts/checks/docs-links/check.py
python3 scripts/checks/docs-links/check.py --self-test

step "Apple-only code compiles against the CoreData stand-in (both signature sets)"
scripts/apple-typecheck/run.sh
scripts/apple-typecheck/run.sh --self-test

step "Web assets: the compiled-in copy is web/"
python3 scripts/embed-web-assets.py --check

step "Build everything with warnings as errors"
swift build --build-tests -Xswiftc -warnings-as-errors

step "Each brick builds alone"
for manifest in Packages/*/Package.swift; do
  brick=$(dirname "$manifest")
  swift build --package-path "$brick" --scratch-path ".build-bricks/$(basename "$brick")" -Xswiftc -warnings-as-errors >/dev/null
  echo "built $brick alone"
done

step "Swift tests"
swift test --skip-build

step "The HTTP server's tests under a Mac app's default soft descriptor limit (ulimit -S -n 256)"
(ulimit -S -n 256 && swift test --skip-build --filter BrowserHTTPTests)

step "browser-demo command line"
scripts/checks/demo-cli/check.sh .build/debug/browser-demo

step "Fuzzing: request decoder, API query parsing, byte formats and content inspection (libFuzzer, 30 s per target)"
scripts/fuzz/run.sh 30

step "Content: every Binary/Transformable value of the fixtures served and inspected, checked against Python's reading"
python3 scripts/checks/content/check.py --binary .build/debug/browser-demo

step "Export: every entity of every store as CSV and NDJSON, parsed back and compared with the paged API"
python3 scripts/checks/export/check.py .build/debug/browser-demo

step "Bonjour: --advertise seen by avahi-browse, discover finds avahi-publish's service"
python3 scripts/checks/bonjour/check.py --binary .build/debug/browser-demo

step "Load: 20,480 requests over 256 keep-alive connections, memory flat"
python3 scripts/checks/load/check.py --binary .build/debug/browser-demo

if [ "$run_ui" = 1 ]; then
  step "Browser tests (headless Chromium)"
  # The compiled-in copy is what users get; the embed check above proved it equals web/.
  CDB_WEB_ROOT=embedded BROWSER_DEMO="$PWD/.build/debug/browser-demo" scripts/ui-tests/run.sh
fi

if [ -d ../shared/fixtures/coredata ]; then
  step "Fixtures untouched"
  (cd ../shared/fixtures/coredata && sha256sum --quiet -c SHA256SUMS) && echo "fixture checksums verified"
elif [ "${REQUIRE_FIXTURES:-0}" = 1 ]; then
  echo "REQUIRE_FIXTURES=1 but ../shared/fixtures/coredata is missing: the fixture tests could not run" >&2
  exit 1
else
  echo "NOTE: ../shared/fixtures/coredata is missing: the fixture tests were skipped"
fi
