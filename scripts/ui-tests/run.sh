#!/usr/bin/env bash
# Browser tests of the web UI: installs what is missing, builds browser-demo, runs pytest.
#   scripts/ui-tests/run.sh [pytest args…]
# Env: BROWSER_DEMO=/path/to/browser-demo skips the build and tests that binary;
#      CDB_WEB_ROOT=embedded tests the compiled-in UI instead of web/ (served with --web-root by default);
#      CDB_BASE_URL=http://127.0.0.1:PORT tests an already running server (no binary is started).
# Screenshots land in artifacts/screenshots/ at the repository root.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "run.sh: installing chromium and chromium-driver (Debian)"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi

if ! python3 -c 'import selenium, pytest' >/dev/null 2>&1 \
   || ! python3 - "$here/requirements.txt" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, wanted = line.split("==")
        assert version(name) == wanted, (name, version(name), wanted)
PY
then
  echo "run.sh: installing Python requirements"
  python3 -m pip install -q -r "$here/requirements.txt"
fi

if [ -z "${BROWSER_DEMO:-}" ] && [ -z "${CDB_BASE_URL:-}" ]; then
  echo "run.sh: building browser-demo (scratch path .build-ui)"
  swift build --product browser-demo --scratch-path "$root/.build-ui"
  export BROWSER_DEMO="$root/.build-ui/debug/browser-demo"
fi

mkdir -p "$root/artifacts/screenshots"
set +e
python3 -m pytest -v -p no:cacheprovider "$here" "$@"
status=$?
set -e
exit "$status"
