#!/usr/bin/env bash
# Checks browser-demo's command line: help, bad arguments (exit 2), unusable stores (exit 1), and that it
# serves and stops on SIGINT. Usage: scripts/checks/demo-cli/check.sh PATH-TO-browser-demo
set -uo pipefail
demo=${1:?usage: scripts/checks/demo-cli/check.sh PATH-TO-browser-demo}
passed=0
unset CDB_PAIRING_TOKEN  # a value from the environment would change what every case below expects
failed=0

expect() { # expect NAME EXPECTED-EXIT EXPECTED-STDERR-SUBSTRING ARGS...
  local name=$1 code=$2 text=$3
  shift 3
  local stderr actual
  # Bounded: a case that blocks (a FIFO opened for reading waits for a writer forever) fails instead of hanging.
  stderr=$(timeout 120 "$demo" "$@" 2>&1 >/dev/null)
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
expect "connections per address not a number" 2 'browser-demo: --max-connections-per-address needs a number from 1 to 512, got "many"' --max-connections-per-address many
expect "connections per address zero" 2 'browser-demo: --max-connections-per-address needs a number from 1 to 512, got "0"' --max-connections-per-address 0
expect "connections per address too large" 2 'browser-demo: --max-connections-per-address needs a number from 1 to 512, got "513"' --max-connections-per-address 513
expect "model without store" 2 'browser-demo: --model needs --store' --model x.momd
expect "missing store file" 1 'browser-demo: No such file' --store /nonexistent/store.sqlite --port 0
expect "token without value" 2 'browser-demo: --token needs a value' --token
expect "token and no token" 2 'browser-demo: --token, --token-file and --no-token-anyone-on-the-network-can-read-the-store exclude each other' --token abcdefghijklmnopqrstuvwxyz --no-token-anyone-on-the-network-can-read-the-store
expect "token and token file" 2 'exclude each other' --token abcdefghijklmnopqrstuvwxyz --token-file /dev/null
expect "token file without value" 2 'browser-demo: --token-file needs a value' --token-file
expect "unreadable token file" 2 'browser-demo: --token-file: cannot read /nonexistent/token' --token-file /nonexistent/token --port 0
short_token_file=$(mktemp)
echo short >"$short_token_file"
expect "token file with a bad token" 2 "browser-demo: --token-file $short_token_file: The pairing token must be" --token-file "$short_token_file" --port 0
chmod 644 "$short_token_file"
expect "token file others can read" 2 "browser-demo: --token-file: other users can read or change $(realpath "$short_token_file") (mode 644): chmod 600" --token-file "$short_token_file" --port 0
rm -f "$short_token_file"
# --token-file is checked on the file it opens: only a regular file (a FIFO would block the read), and as root a
# file of another user's is refused (they could change the token).
token_fifo=$(mktemp -u)
mkfifo -m 600 "$token_fifo"
expect "token file is a FIFO" 2 "browser-demo: --token-file: $token_fifo is not a regular file" --token-file "$token_fifo" --port 0
rm -f "$token_fifo"
if [ "$(id -u)" = 0 ]; then
  others_token_file=$(mktemp)
  echo abcdefghijklmnopqrstuvwxyz >"$others_token_file"
  chmod 600 "$others_token_file"
  chown 65534:65534 "$others_token_file"
  expect "token file of another user" 2 "browser-demo: --token-file: $(realpath "$others_token_file") belongs to another user (uid 65534)" --token-file "$others_token_file" --port 0
  rm -f "$others_token_file"
fi
CDB_PAIRING_TOKEN=short expect "bad token in the environment" 2 'browser-demo: CDB_PAIRING_TOKEN: The pairing token must be' --port 0 --loopback
expect "simulators with a store" 2 'browser-demo: simulators finds the stores itself: it takes no --store or --model' simulators --store x.sqlite
expect "simulators root missing" 1 'browser-demo: --root /nonexistent/Devices: no such folder' simulators --list --root /nonexistent/Devices
expect "simulators root missing when serving" 1 'browser-demo: --root /nonexistent/Devices: no such folder' simulators --root /nonexistent/Devices --port 0
expect "discover with a store" 2 'browser-demo: discover takes only --timeout' discover --store x.sqlite
expect "discover timeout not a number" 2 'browser-demo: --timeout needs a number of seconds above 0 and at most 600, got "soon"' discover --timeout soon
expect "discover timeout zero" 2 'browser-demo: --timeout needs a number of seconds above 0 and at most 600, got "0"' discover --timeout 0
expect "timeout without discover" 2 'browser-demo: unknown argument "--timeout"' --timeout 3
expect "simulators list with advertise" 2 'browser-demo: simulators --list takes only --root and --mac-root' simulators --list --advertise
expect "simulators list with writable" 2 'browser-demo: simulators --list takes only --root and --mac-root' simulators --list --writable
expect "same store twice" 2 'browser-demo: --store ./a.sqlite is given twice' --store a.sqlite --store ./a.sqlite
expect "model with several stores" 2 'browser-demo: --model applies to one store' --store a.sqlite --store b.sqlite --model m.momd
expect "token too short" 2 'browser-demo: --token: The pairing token must be 22 to 256 characters' --token short --port 0
expect "token not URL-safe" 2 'browser-demo: --token: The pairing token must be' --token 'abc/def?ghi=jkl&mno=pqrstuvwxyz' --port 0

# Store files that cannot be served: one line naming the file and the problem, exit 1. Made in a temporary
# folder (never the fixtures, which are only ever opened on copies).
bad=$(mktemp -d)
echo "just some notes" >"$bad/notes.sqlite"
python3 -c "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('CREATE TABLE people (id INTEGER PRIMARY KEY)')" "$bad/plain.sqlite"
expect "store is not SQLite" 1 "browser-demo: $bad/notes.sqlite is not an SQLite database" --store "$bad/notes.sqlite" --port 0
mkfifo "$bad/pipe.sqlite"
expect "store is a FIFO" 1 "browser-demo: $bad/pipe.sqlite is not an SQLite database (it is a FIFO (named pipe), not a regular file)" --store "$bad/pipe.sqlite" --port 0
rm -f "$bad/pipe.sqlite"
expect "store is not Core Data" 1 "browser-demo: $bad/plain.sqlite is an SQLite database but not a Core Data store (no Z_PRIMARYKEY table)" --store "$bad/plain.sqlite" --port 0
fixtures=$(cd "$(dirname "$0")/../../../../shared/fixtures/coredata" 2>/dev/null && pwd || true)
if [ -n "$fixtures" ]; then
  cp "$fixtures/coredataplus/SampleModel2/SampleModel2_V1.sqlite" "$bad/store.sqlite"
  chmod 644 "$bad/store.sqlite"
  head -c 100000 "$bad/store.sqlite" >"$bad/truncated.sqlite"
  expect "store is truncated" 1 "browser-demo: $bad/truncated.sqlite is corrupt or truncated: the file has 100000 bytes but its header records 455 pages" --store "$bad/truncated.sqlite" --port 0
  expect "model does not match" 1 "browser-demo: The model at $fixtures/bookmigration/Model.xcdatamodeld does not match the store" --store "$bad/store.sqlite" --model "$fixtures/bookmigration/Model.xcdatamodeld" --port 0
  expect "model file missing" 1 "browser-demo: Cannot read the model at $bad/none.momd: no such file or folder" --store "$bad/store.sqlite" --model "$bad/none.momd" --port 0
  # `simulators` on a CoreSimulator tree: one device, one app, a store named without an extension.
  app="$bad/Devices/UDID-1/data/Containers/Data/Application/APP-1"
  mkdir -p "$app/Library"
  cp "$fixtures/cartkit/coredata/CartStorage_v1.sqlite" "$app/Library/Cart"
  python3 -c "import plistlib,sys; plistlib.dump({'name': 'iPhone 16', 'runtime': 'com.apple.CoreSimulator.SimRuntime.iOS-18-2'}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY); plistlib.dump({'MCMMetadataIdentifier': 'com.example.Cart'}, open(sys.argv[2], 'wb'), fmt=plistlib.FMT_BINARY)" \
    "$bad/Devices/UDID-1/device.plist" "$app/.com.apple.mobile_container_manager.metadata.plist"
  listing=$("$demo" simulators --list --root "$bad/Devices")
  if [[ "$listing" == *"iPhone 16 (iOS 18.2) UDID-1"*"com.example.Cart [app]"*"Library/Cart ("*"--store \"$app/Library/Cart\""* ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL simulators listing: $listing"
  fi
  # A FIFO where a scan or an open expects a file is never opened (opening one for reading blocks until a writer
  # comes): the scan completes, says what it passed over, and still lists the store beside it; a store whose -wal
  # is a FIFO is refused at once.
  fifo_app="$bad/FifoDevices/UDID-2/data/Containers/Data/Application/APP-2"
  mkdir -p "$fifo_app/Library"
  cp "$bad/Devices/UDID-1/device.plist" "$bad/FifoDevices/UDID-2/device.plist"
  cp "$fixtures/cartkit/coredata/CartStorage_v1.sqlite" "$fifo_app/Library/Cart"
  cp "$bad/plain.sqlite" "$fifo_app/Library/Other.sqlite"
  mkfifo "$fifo_app/Library/Other.sqlite-wal" "$fifo_app/Library/Pipe.sqlite"
  listing=$(timeout 120 "$demo" simulators --list --root "$bad/FifoDevices")
  if [[ "$listing" == *"Library/Cart ("* ]] && [[ "$listing" == *"skipped: $fifo_app/Library/Other.sqlite-wal: it is a FIFO (named pipe), not a regular file"* ]] &&
     [[ "$listing" == *"skipped: $fifo_app/Library/Pipe.sqlite: it is a FIFO (named pipe), not a regular file"* ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL simulators listing with FIFOs: $listing"
  fi
  mkdir "$bad/fifo-wal"
  cp "$bad/store.sqlite" "$bad/fifo-wal/store.sqlite"
  mkfifo "$bad/fifo-wal/store.sqlite-wal"
  expect "store whose -wal is a FIFO" 1 "browser-demo: Cannot read $bad/fifo-wal/store.sqlite-wal: it is a FIFO (named pipe), not a regular file" --store "$bad/fifo-wal/store.sqlite" --port 0
  rm -rf "$bad/fifo-wal" "$bad/FifoDevices"
  # A folder the scan cannot read is noted and passed over: the stores beside it and in the containers after it
  # are still listed, the one inside it is not. Root reads any folder, so as root the scan runs as nobody
  # (setpriv, util-linux) on a world-readable tree but for one chmod 0 folder. Beside/ is visited after Locked/
  # (a container's folders are taken last name first) and APP-B after APP-A, so a scan that stopped at Locked/
  # misses a store.
  locked_tree=$(mktemp -d)
  chmod 755 "$locked_tree"
  locked_apps="$locked_tree/Devices/UDID-9/data/Containers/Data/Application"
  mkdir -p "$locked_apps/APP-A/Library/Locked" "$locked_apps/APP-A/Library/Beside" "$locked_apps/APP-B/Documents"
  cp "$fixtures/cartkit/coredata/CartStorage_v1.sqlite" "$locked_apps/APP-A/Library/Locked/Hidden.sqlite"
  cp "$fixtures/cartkit/coredata/CartStorage_v1.sqlite" "$locked_apps/APP-A/Library/Beside/Beside.sqlite"
  cp "$fixtures/cartkit/coredata/CartStorage_v1.sqlite" "$locked_apps/APP-B/Documents/After.sqlite"
  python3 -c "import plistlib,sys; plistlib.dump({'name': 'iPhone 9', 'runtime': 'com.apple.CoreSimulator.SimRuntime.iOS-18-2'}, open(sys.argv[1], 'wb'))" \
    "$locked_tree/Devices/UDID-9/device.plist"
  chmod -R a+rX "$locked_tree"
  chmod 0 "$locked_apps/APP-A/Library/Locked"
  as_nobody=()
  if [ "$(id -u)" = 0 ]; then
    # The binary is copied beside the tree: nobody may not be allowed into the folder it was built in.
    cp "$demo" "$locked_tree/browser-demo"
    as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups "$locked_tree/browser-demo")
  else
    as_nobody=("$demo")
  fi
  listing=$("${as_nobody[@]}" simulators --list --root "$locked_tree/Devices" 2>&1)
  if [[ "$listing" == *"Library/Beside/Beside.sqlite ("*"Documents/After.sqlite ("*"skipped: $locked_apps/APP-A/Library/Locked: cannot be read"* ]] &&
     [[ "$listing" != *"Hidden.sqlite"* ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL simulators listing with an unreadable folder: $listing"
  fi
elif [ "${REQUIRE_FIXTURES:-0}" = 1 ]; then
  failed=$((failed + 1)); echo "FAIL REQUIRE_FIXTURES=1 but ../shared/fixtures/coredata is missing"
else
  echo "skipping the store-file checks that need ../shared/fixtures/coredata (REQUIRE_FIXTURES=1 makes this a failure)"
fi
# $bad (a copy of a fixture store) is removed at the end: the token checks below serve it too.
if "$demo" --help | grep -q "Usage: browser-demo"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL --help"; fi

# listening_url LOG: the first 127.0.0.1 URL browser-demo printed into LOG (with its path and query), polled for
# up to 10 s; nothing when it printed none.
listening_url() {
  local found=""
  for _ in $(seq 1 100); do
    found=$(grep -o 'http://127.0.0.1:[0-9]*[^ ]*' "$1" | head -1)
    [ -n "$found" ] && break
    sleep 0.1
  done
  printf '%s' "$found"
}

# Serves, answers, and exits 0 on SIGINT.
log=$(mktemp)
"$demo" --port 0 --loopback >"$log" 2>&1 &
pid=$!
url=$(listening_url "$log" | grep -o 'http://127.0.0.1:[0-9]*')
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

# Token modes. Each run: start, wait for the 127.0.0.1 URL line, run CHECK (a shell command given $url and
# $log), stop with SIGINT. Beyond loopback a token is required by default; the printed URLs carry a one-time
# pairing code (never the token), which pairs one browser (a session cookie), once.
caches=$(mktemp -d)  # the remembered token goes here, never into the user's ~/.cache
serve_and_check() { # serve_and_check NAME CHECK ARGS...
  local name=$1 check=$2
  shift 2
  log=$(mktemp)
  XDG_CACHE_HOME="$caches" "$demo" --port 0 "$@" >"$log" 2>&1 &
  local pid=$!
  url=$(listening_url "$log")
  if [ -n "$url" ] && (eval "$check"); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL $name: $(cat "$log")"
  fi
  kill -INT "$pid"; wait "$pid" || true
  rm -f "$log"
}
# status URL [HEADER]: prints the HTTP status of a GET without following redirects.
status() {
  python3 - "$@" <<'PY'
import sys, urllib.request, urllib.error
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args): return None
request = urllib.request.Request(sys.argv[1], headers=dict([sys.argv[2].split(": ", 1)]) if len(sys.argv) > 2 else {})
try:
    print(urllib.request.build_opener(NoRedirect).open(request).status)
except urllib.error.HTTPError as error:
    print(error.code)
PY
}
# pair URL: posts the printed link's code to /api/pairing, as the link's page does; prints the status and the
# session cookie's value ("-" when none was set).
pair() {
  python3 - "$@" <<'PY'
import sys, urllib.error, urllib.parse, urllib.request
url = urllib.parse.urlsplit(sys.argv[1])
code = urllib.parse.parse_qs(url.query)["pair"][0]
request = urllib.request.Request(f"{url.scheme}://{url.netloc}/api/pairing", data=code.encode(), method="POST",
                                 headers={"Content-Type": "text/plain"})
try:
    with urllib.request.urlopen(request) as response:
        print(response.status, response.headers["Set-Cookie"].split(";")[0].split("=", 1)[1])
except urllib.error.HTTPError as error:
    print(error.code, "-")
PY
}
token=check-demo-cli-token-0123456789
serve_and_check "--token" '
  base=${url%%/?pair=*} && code=${url##*?pair=} && [ ${#code} = 22 ] && ! grep -q "$token" "$log" &&
  [ "$(status "$base/api/health")" = 401 ] && [ "$(status "$base/")" = 401 ] &&
  [ "$(status "$base/api/health" "Authorization: Bearer $token")" = 200 ] &&
  [ "$(status "$url")" = 200 ] && [ "$(status "$base/?token=$token")" = 401 ] &&
  session=$(pair "$url") && [ "${session%% *}" = 200 ] &&
  [ "$(status "$base/api/health" "Cookie: cdb_session_${base##*:}=${session#* }")" = 200 ] &&
  [ "$(pair "$url")" = "401 -" ] && grep -q "pairing required" "$log"' --token "$token"
printf '%s\n' "$token" >"$caches/token-file"
chmod 600 "$caches/token-file"
# Through a symlink (its own mode is 777): the file it points to is what counts.
ln -sf "$caches/token-file" "$caches/token-link"
serve_and_check "--token-file" '
  base=${url%%/?pair=*} && [ "$url" = "$base/?pair=${url##*?pair=}" ] &&
  [ "$(status "$base/api/health")" = 401 ] &&
  [ "$(status "$base/api/health" "Authorization: Bearer $token")" = 200 ]' --token-file "$caches/token-link"
CDB_PAIRING_TOKEN="$token" serve_and_check "the token from CDB_PAIRING_TOKEN" '
  base=${url%%/?pair=*} && [ "$url" = "$base/?pair=${url##*?pair=}" ] &&
  [ "$(status "$base/api/health" "Authorization: Bearer $token")" = 200 ]' --loopback
serve_and_check "no token, explicitly" '
  [ "$(status "$url/api/health")" = 200 ] && grep -q "no pairing token required (disabled in Options)" "$log"' \
  --no-token-anyone-on-the-network-can-read-the-store
serve_and_check "loopback needs no token" '
  [ "$(status "$url/api/health")" = 200 ] && grep -q "no pairing token required (listening on 127.0.0.1 only)" "$log"' --loopback
# connections URL N: opens N connections from this address at once, asks /api/health on each (all kept open), and
# prints how many were answered 200 and how many 503.
connections() {
  python3 - "$@" <<'PY'
import socket, sys, urllib.parse
url, count = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
sockets = [socket.create_connection((url.hostname, url.port), timeout=10) for _ in range(count)]
statuses = []
for each in sockets:
    each.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
for each in sockets:
    statuses.append(each.recv(64).split(b" ")[1].decode())
print(statuses.count("200"), statuses.count("503"))
PY
}
serve_and_check "32 connections from one address by default" '[ "$(connections "$url" 40)" = "32 8" ]' --loopback
serve_and_check "--max-connections-per-address" '[ "$(connections "$url" 40)" = "40 0" ]' --loopback --max-connections-per-address 40
# The generated token is remembered (0600) and never printed; a browser paired in one run stays paired after a
# relaunch (its session is signed with the remembered token; the cookie's name follows the port).
serve_and_check "default: a generated token beyond loopback" '
  base=${url%%/?pair=*} && first=$(cat "$caches"/CoreDataBrowser/*.pairing-token) && [ ${#first} = 22 ] &&
  ! grep -q "$first" "$log" && [ "$(status "$base/api/health")" = 401 ] &&
  session=$(pair "$url") && [ "${session%% *}" = 200 ] && echo "${session#* }" >"$caches/session" &&
  echo "$first" >"$caches/first"'
serve_and_check "default: the token survives a relaunch" '
  base=${url%%/?pair=*} && [ "$(cat "$caches"/CoreDataBrowser/*.pairing-token)" = "$(cat "$caches/first")" ] &&
  [ "$(stat -c %a "$caches"/CoreDataBrowser/*.pairing-token)" = 600 ] &&
  [ "$(status "$base/api/health" "Cookie: cdb_session_${base##*:}=$(cat "$caches/session")")" = 200 ]'
if [ -f "$bad/store.sqlite" ]; then
  serve_and_check "default: a store file has a token of its own" '
    [ "$(ls "$caches"/CoreDataBrowser/*.pairing-token | wc -l)" = 2 ] &&
    [ "$(for f in "$caches"/CoreDataBrowser/*.pairing-token; do cat "$f"; echo; done | sort -u | wc -l)" = 2 ]' \
    --store "$bad/store.sqlite"
fi

# --writable: writes on for a store file that can be written (a copy of a fixture): health says so, a PATCH
# changes the record, the backup made before the first write is printed and exists. Without it the write routes
# do not exist; a store with persistent history is served read-only with the reason printed and in /api/health.
# write_check URL: patches the first Section's title through the API and prints the record's new title.
write_check() {
  python3 - "$@" <<'PY'
import json, sys, urllib.parse, urllib.request
base = sys.argv[1]
health = json.load(urllib.request.urlopen(base + "/api/health"))
assert "write" in health["capabilities"] and not health["readOnly"], health
first = json.load(urllib.request.urlopen(base + "/api/entities/Section?limit=1"))["rows"][0]
record = json.load(urllib.request.urlopen(base + "/api/object?id=" + urllib.parse.quote(first["id"])))
body = json.dumps({"version": record["version"], "attrs": {"title": "Written by check-demo-cli"}}).encode()
request = urllib.request.Request(base + "/api/object?id=" + urllib.parse.quote(first["id"]), data=body, method="PATCH",
                                 headers={"Content-Type": "application/json"})
answer = json.load(urllib.request.urlopen(request))
assert answer["version"] == record["version"] + 1, answer
print(answer["attrs"]["title"])
PY
}
if [ -n "$fixtures" ]; then
  posts="$bad/posts.sqlite"
  cp "$fixtures/wibosco-revised/CoreDataMigration_Example_3.sqlite" "$posts"
  chmod 644 "$posts"
  serve_and_check "--writable writes a store file and backs it up first" '
    [ "$(write_check "$url")" = "Written by check-demo-cli" ] &&
    backup=$(sed -n "s/^Backed up the store before its first write: //p" "$log") && [ -f "$backup" ] &&
    [ "$(dirname "$backup")" = "$bad" ] &&
    [ "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"PRAGMA integrity_check\").fetchone()[0])" "$backup")" = ok ]' \
    --loopback --writable --store "$posts" --model "$fixtures/wibosco-revised/CoreDataMigration_Example.xcdatamodeld"
  serve_and_check "without --writable a store file has no write routes" '
    python3 -c "import json,sys,urllib.request; h=json.load(urllib.request.urlopen(sys.argv[1]+\"/api/health\")); sys.exit(0 if h[\"readOnly\"] and h[\"capabilities\"] == [\"read\"] and \"writeRefusal\" not in h else 1)" "$url" &&
    [ "$(status "$url/api/object/delete-preview?id=x")" = 404 ]' \
    --loopback --store "$posts" --model "$fixtures/wibosco-revised/CoreDataMigration_Example.xcdatamodeld"
  serve_and_check "--writable on a store with persistent history says why it does not write" '
    grep -q "^Not writing $bad/store.sqlite (--writable): it keeps persistent history" "$log" &&
    python3 -c "import json,sys,urllib.request; h=json.load(urllib.request.urlopen(sys.argv[1]+\"/api/health\")); sys.exit(0 if \"persistent history\" in h[\"writeRefusal\"] and h[\"capabilities\"] == [\"read\"] else 1)" "$url"' \
    --loopback --writable --store "$bad/store.sqlite"
fi
if [ -n "$fixtures" ]; then
  # Serving a scan prints what it passed over, one line each, so a store it could not reach is noticed.
  # serve_until_listening LOG COMMAND…: runs COMMAND until it prints its URL (or gives up), then stops it.
  serve_until_listening() {
    local out=$1
    shift
    "$@" >"$out" 2>&1 &
    local pid=$!
    listening_url "$out" >/dev/null
    kill -INT "$pid" 2>/dev/null; wait "$pid" || true
  }
  mkdir -p "$bad/Devices/UDID-2"
  echo "not a property list" >"$bad/Devices/UDID-2/device.plist"
  serve_until_listening "$caches/serve.log" "$demo" simulators --loopback --port 0 --root "$bad/Devices"
  if grep -q "^Serving 1 store found under $bad/Devices" "$caches/serve.log" &&
     grep -q "^skipped: $bad/Devices/UDID-2/device.plist: not a readable property list$" "$caches/serve.log" &&
     [ "$(grep -c "^skipped: " "$caches/serve.log")" = 1 ] && grep -q "http://127.0.0.1:" "$caches/serve.log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL simulators serving prints what the scan passed over: $(cat "$caches/serve.log")"
  fi
  serve_until_listening "$caches/locked.log" "${as_nobody[@]}" simulators --loopback --port 0 --root "$locked_tree/Devices"
  if grep -q "^Serving 2 stores found under" "$caches/locked.log" &&
     grep -q "^skipped: $locked_apps/APP-A/Library/Locked: cannot be read$" "$caches/locked.log" &&
     grep -q "http://127.0.0.1:" "$caches/locked.log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL simulators serving with an unreadable folder: $(cat "$caches/locked.log")"
  fi
  chmod 755 "$locked_apps/APP-A/Library/Locked"
  rm -rf "$locked_tree"
fi
rm -rf "$caches" "$bad"

echo "demo-cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
