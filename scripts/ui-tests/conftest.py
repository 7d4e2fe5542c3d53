"""Shared fixtures for the browser tests of the web UI (Inspector: test_inspector.py, Lab: test_lab.py).

Run everything with ``scripts/ui-tests/run.sh`` (installs Chromium, Selenium and pytest when missing, builds
browser-demo, runs pytest). Plain ``python3 -m pytest -v scripts/ui-tests`` works once those are installed.

Fixtures
--------
``server`` (session)
    Base URL of a running browser-demo, e.g. ``"http://127.0.0.1:54321"`` (no trailing slash). The binary is
    started once per session with ``--port 0 --loopback``; its ``CoreDataBrowser: http://…`` line gives the URL.
    Which binary: env ``BROWSER_DEMO`` if set, else ``.build-ui/debug/browser-demo`` (built with
    ``swift build --product browser-demo --scratch-path .build-ui`` when it is missing). The UI is served from
    the repository's ``web/`` (``--web-root``), so the tests see the files as they are now, even before
    ``scripts/embed-web-assets.py`` has refreshed the compiled-in copy; env ``CDB_WEB_ROOT=embedded`` tests the
    compiled-in copy instead (or ``CDB_WEB_ROOT=DIR`` another folder). Env ``CDB_BASE_URL`` skips starting
    anything and tests an already running server instead.
``store_server`` / ``synthetic_server`` (session)
    A browser-demo serving a copy of a fixture store, or a store written for the test (see each fixture).
``api`` (session)
    ``api(path, **params) -> parsed JSON`` for GETs against ``server``; ``api.status(path, **params)`` returns
    ``(status, parsed JSON)`` without raising on 4xx/5xx. Use it to compute what the UI must show.
``driver`` (function)
    A fresh headless Chromium WebDriver (``--headless=new --no-sandbox --window-size=1400,900``) with a clean
    profile, downloads allowed into ``download_dir``, and the browser console captured (see ``console_errors``).
    A failing test leaves ``artifacts/screenshots/FAILED-<test>.png`` behind (those of earlier runs are removed when
    a run starts). Every passing test of the files in ``EVIDENCE_MODULES`` saves ``<file>-<test>.png`` there too: the
    screenshots reviewers look at. ``artifacts/`` is not in git: run the suite to get them.
``download_dir`` (function)
    ``pathlib.Path`` of the temp folder the driver downloads into.
``wait_for`` (session)
    ``wait_for(driver, condition, timeout=20, message="") -> value``: polls ``condition(driver)`` until it returns
    something truthy (returned) or raises TimeoutException with ``message``. Exceptions such as
    StaleElementReferenceException / NoSuchElementException inside the condition count as "not yet".
``wait_css`` (session)
    ``wait_css(driver, css, timeout=10, visible=True) -> WebElement``: the first element matching ``css``.
``screenshot`` (session)
    ``screenshot(driver, name) -> Path``: saves ``artifacts/screenshots/<name>.png`` at the repository root.
``abstract_store`` (session)
    ``(base URL, api)`` of a browser-demo serving a synthetic store with a relationship into an abstract entity
    (Folder → childCollections → GenericAlbum ⊃ Album, SmartAlbum; ``abstract_store.py``).
``console_errors`` (session)
    ``console_errors(driver, ignore=("Failed to load resource",)) -> list[str]``: SEVERE browser-console entries
    since the last call (JavaScript errors, uncaught rejections). Network 4xx/5xx lines are ignored by default.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT_DIR = REPO_ROOT / "artifacts" / "screenshots"
SCRATCH_PATH = REPO_ROOT / ".build-ui"
SERVER_START_TIMEOUT = 60


# ------------------------------------------------------------------------------------------------
# The server
# ------------------------------------------------------------------------------------------------


def _browser_demo_binary() -> Path:
    explicit = os.environ.get("BROWSER_DEMO")
    if explicit:
        path = Path(explicit)
        if not path.exists():
            pytest.exit(f"BROWSER_DEMO={explicit} does not exist", returncode=2)
        return path
    path = SCRATCH_PATH / "debug" / "browser-demo"
    if not path.exists():
        build = subprocess.run(
            ["swift", "build", "--product", "browser-demo", "--scratch-path", str(SCRATCH_PATH)],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if build.returncode != 0 or not path.exists():
            pytest.exit(f"building browser-demo failed:\n{build.stdout[-4000:]}", returncode=2)
    return path


def _wait_until_healthy(base: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/api/health", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError) as err:
            last = err
        time.sleep(0.1)
    raise RuntimeError(f"{base}/api/health did not answer 200 within {timeout}s: {last}")


@pytest.fixture(scope="session")
def server():
    """Base URL of the server under test, e.g. "http://127.0.0.1:54321"."""
    external = os.environ.get("CDB_BASE_URL")
    if external:
        base = external.rstrip("/")
        _wait_until_healthy(base, 10)
        yield base
        return
    web_root = os.environ.get("CDB_WEB_ROOT", str(REPO_ROOT / "web"))
    demo = DemoServer(_browser_demo_binary(), [] if web_root == "embedded" else ["--web-root", web_root])
    try:
        base = demo.wait_for_url(SERVER_START_TIMEOUT)
        _wait_until_healthy(base, 10)
        yield base
    finally:
        demo.stop()


FIXTURES = REPO_ROOT.parent / "shared" / "fixtures" / "coredata"


class _StoreServers:
    """The browser-demo processes a session fixture starts, each serving a store from a temporary folder of its
    own; ``close`` stops them and removes the folders."""

    def __init__(self):
        self._servers: list[DemoServer] = []
        self._folders: list[str] = []

    def folder(self, prefix: str) -> Path:
        folder = tempfile.mkdtemp(prefix=prefix)
        self._folders.append(folder)
        return Path(folder)

    def serve(self, store: Path, extra: list[str]) -> tuple[str, "_Api"]:
        """Starts browser-demo on ``store`` (with the UI from web/ unless CDB_WEB_ROOT says otherwise, as ``server``
        does); returns its base URL and an ``api`` for it."""
        return self.serve_arguments(["--store", str(store), *extra])

    def serve_arguments(self, arguments: list[str]) -> tuple[str, "_Api"]:
        """Starts browser-demo with these arguments (and the UI's web root, as ``serve``)."""
        web_root = os.environ.get("CDB_WEB_ROOT", str(REPO_ROOT / "web"))
        args = [*arguments, *([] if web_root == "embedded" else ["--web-root", web_root])]
        demo = DemoServer(_browser_demo_binary(), args)
        self._servers.append(demo)
        base = demo.wait_for_url(SERVER_START_TIMEOUT)
        _wait_until_healthy(base, 10)
        return base, _Api(base)

    def stop(self, base: str) -> None:
        """Stops the server at ``base`` now (its folder stays until ``close``)."""
        for demo in self._servers:
            if demo.url == base:
                demo.stop()

    def close(self) -> None:
        for demo in self._servers:
            demo.stop()
        for folder in self._folders:
            shutil.rmtree(folder, ignore_errors=True)


def copy_fixture(relative: str, folder: Path) -> Path:
    """A private copy of a fixture store (with its -wal and -shm) in ``folder``: a store is never opened in place,
    since opening it may write its -shm. Skips the test when ../shared/fixtures is absent, unless
    REQUIRE_FIXTURES=1 (.ci/run), which makes it fail."""
    if not (FIXTURES / "SOURCES.md").exists():
        if os.environ.get("REQUIRE_FIXTURES") == "1":
            pytest.fail(f"REQUIRE_FIXTURES=1 but there are no fixtures at {FIXTURES}")
        pytest.skip(f"needs the Core Data fixtures at {FIXTURES}")
    source = FIXTURES / relative
    target = folder / source.name
    for suffix in ("", "-wal", "-shm"):
        if Path(str(source) + suffix).exists():
            shutil.copyfile(str(source) + suffix, str(target) + suffix)
    return target


@pytest.fixture
def store_servers():
    """The test's own servers (``serve(store, extra)``, ``stop(base)``, ``folder(prefix)``), all stopped after it."""
    servers = _StoreServers()
    yield servers
    servers.close()


@pytest.fixture(scope="session")
def store_server():
    """store_server("cartkit/coredata/CartStorage_v1.sqlite") -> (base URL, api) of a browser-demo serving a
    private copy of that fixture store (never the fixture itself: opening a store may write its -shm).

    Skips the test when ../shared/fixtures is absent, unless REQUIRE_FIXTURES=1 (.ci/run), which makes it fail.
    One server per fixture for the whole session."""
    # Keyed by the store and the extra arguments: the same store served with other arguments (a --model) is
    # another server, never the first one's.
    started: dict[tuple[str, tuple[str, ...]], tuple[str, "_Api"]] = {}
    servers = _StoreServers()

    def serve(relative: str, extra: list[str] | None = None):
        key = (relative, tuple(extra or []))
        if key in started:
            return started[key]
        target = copy_fixture(relative, servers.folder("cdb-ui-store-"))
        started[key] = servers.serve(target, extra or [])
        return started[key]

    yield serve
    servers.close()


@pytest.fixture(scope="session")
def synthetic_server():
    """synthetic_server(name, inline, external=None) -> (base URL, api, object ID by value name): a browser-demo
    serving a store written by scripts/lib/attachment_store.py (entity ``Attachment``: a String ``name``
    and a Binary ``payload`` allowing external storage) with those values, for contents no fixture and no demo
    record holds. ``inline`` maps a record's name to its payload (None: no payload); ``external`` to bytes kept in
    a file beside the store. One server per ``name`` for the whole session; needs no fixtures."""
    import attachment_store

    started: dict[str, tuple[str, "_Api", dict[str, str]]] = {}
    servers = _StoreServers()

    def serve(name: str, inline: dict, external: dict | None = None):
        if name in started:
            return started[name]
        store, model, keys = attachment_store.build(servers.folder("cdb-ui-synthetic-"), inline, external)
        base, api = servers.serve(store, ["--model", str(model)])
        started[name] = (base, api, {value: attachment_store.object_id(key) for value, key in keys.items()})
        return started[name]

    yield serve
    servers.close()


@pytest.fixture(scope="session")
def abstract_store():
    """(base URL, api) of a browser-demo serving a store written here (abstract_store.py): Folder → childCollections
    → the abstract GenericAlbum, whose records are Albums and SmartAlbums, as in Photos. Needs no fixtures."""
    from abstract_store import build

    servers = _StoreServers()
    try:
        store, model = build(servers.folder("cdb-ui-abstract-"))
        yield servers.serve(store, ["--model", str(model)])
    finally:
        servers.close()


class _Api:
    def __init__(self, base: str):
        self.base = base

    def url(self, path: str, **params) -> str:
        query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
        return f"{self.base}{path}{'?' + query if query else ''}"

    def status(self, path: str, **params):
        """(HTTP status, parsed JSON body) without raising on error statuses."""
        try:
            with urllib.request.urlopen(self.url(path, **params), timeout=15) as response:
                return response.status, json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as err:
            body = err.read().decode("utf-8")
            return err.code, (json.loads(body) if body else None)

    def __call__(self, path: str, **params):
        status, body = self.status(path, **params)
        assert status == 200, f"GET {path} {params} answered {status}: {body}"
        return body


@pytest.fixture(scope="session")
def api(server):
    """api(path, **params) -> JSON of GET server+path; api.status(...) -> (status, JSON)."""
    return _Api(server)


# ------------------------------------------------------------------------------------------------
# The browser
# ------------------------------------------------------------------------------------------------


def _find_executable(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    for candidate in ("/usr/bin/chromium", "/usr/lib/chromium/chromium"):
        if Path(candidate).exists() and Path(candidate).name in names:
            return candidate
    pytest.exit(f"none of {names} is installed (run scripts/ui-tests/run.sh)", returncode=2)


@pytest.fixture
def download_dir():
    path = Path(tempfile.mkdtemp(prefix="cdb-ui-downloads-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def driver(download_dir):
    """A fresh headless Chromium (clean profile, so localStorage starts empty in every test)."""
    options = webdriver.ChromeOptions()
    options.binary_location = _find_executable("chromium", "chromium-browser", "google-chrome")
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--window-size=1400,900",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--force-color-profile=srgb",
        "--hide-scrollbars",
        "--disable-breakpad",
        "--disable-crash-reporter",
    ):
        options.add_argument(arg)
    options.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(download_dir),
            "download.prompt_for_download": False,
            "download.directory_upgrade": True,
            "safebrowsing.enabled": False,
        },
    )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit chromedriver path keeps Selenium Manager from trying to download one (there is no network).
    service = Service(executable_path=_find_executable("chromedriver"))
    browser = webdriver.Chrome(options=options, service=service)
    browser.set_page_load_timeout(30)
    browser.set_script_timeout(30)
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(download_dir)})
    browser.download_dir = download_dir
    yield browser
    browser.quit()


#: Test files whose every passing test saves a screenshot of where it ended (artifacts/screenshots/<file>-<test>.png).
EVIDENCE_MODULES = {"test_inspector_walking", "test_lab_walking", "test_everyday_moves", "test_content_viewers",
                    "test_shared_display", "test_exports", "test_query_drawer", "test_live", "test_swiftdata_store"}


def pytest_sessionstart(session):
    """A run starts without the failure screenshots of earlier runs, so every FAILED-*.png is this run's."""
    for stale in SCREENSHOT_DIR.glob("FAILED-*.png"):
        stale.unlink(missing_ok=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.passed and item.module.__name__ in EVIDENCE_MODULES:
        # The "usable on real stores" and content tests leave the screen each point ends on under artifacts/, so a
        # reviewer can see every point without running the suite.
        browser = item.funcargs.get("driver") if hasattr(item, "funcargs") else None
        if browser is not None:
            try:
                _save_screenshot(browser, f"{item.module.__name__}-{item.name}")
            except Exception:  # the browser may be gone (a test that stops the server); evidence only
                pass
    if report.when == "call" and report.failed:
        browser = item.funcargs.get("driver") if hasattr(item, "funcargs") else None
        if browser is not None:
            try:
                _save_screenshot(browser, f"FAILED-{item.name}")
                logs = browser.get_log("browser")
                if logs:
                    report.sections.append(("browser console", "\n".join(entry["message"] for entry in logs)))
            except Exception as err:  # the browser may be gone; the failure itself matters more
                print(f"could not capture the failing page: {err}", file=sys.stderr)


# ------------------------------------------------------------------------------------------------
# Helpers (exposed as fixtures so test files need no imports from here)
# ------------------------------------------------------------------------------------------------


# 20 s: a bound, not a delay (a passing wait returns as soon as its state is reached). A loaded 2-core CI machine
# once took more than 10 s to show a sorted Inspector page with its detail.
def _wait_for(driver, condition, timeout: float = 20, message: str = ""):
    def guarded(d):
        try:
            return condition(d)
        except (StaleElementReferenceException, NoSuchElementException):
            return False

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(guarded)
    except TimeoutException as err:
        raise TimeoutException(f"timed out after {timeout}s waiting for: {message or condition}") from err


def _act_on(driver, locate, act, timeout: float = 20, message: str = ""):
    """Finds an element (``locate(driver)``, None or [] while it is not there) and acts on it (``act(element)``, whose
    result is returned) as one step, tried again when the element went stale in between. A list or pane may be drawn
    again between finding an element and clicking it (a search answering each keystroke, a detail redrawn when its
    record arrives): the element is then found again in the new drawing, never waited for with a sleep."""
    def attempt(d):
        element = locate(d)
        if isinstance(element, list):
            element = element[0] if element else None
        if element is None:
            return False
        result = act(element)
        return True if result is None else result

    return _wait_for(driver, attempt, timeout, message)


def _wait_css(driver, css: str, timeout: float = 10, visible: bool = True):
    def found(d):
        for element in d.find_elements(By.CSS_SELECTOR, css):
            if not visible or element.is_displayed():
                return element
        return None

    return _wait_for(driver, found, timeout, f"element {css!r}{' to be visible' if visible else ''}")


def _save_screenshot(driver, name: str) -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def _console_errors(driver, ignore=("Failed to load resource",)):
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if entry.get("level") == "SEVERE" and not any(text in entry["message"] for text in ignore)
    ]


def _module_call(driver, module: str, expression: str, *args):
    """The value of ``expression`` in the page, where ``m`` is the ES module web/``module`` (``shared/dates.js``) as
    the page imports it and ``args`` are ``args``: the UI's code is native modules, which define no globals, so a
    test reaches a function the way the page's own modules do, with import()."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const args = [...arguments].slice(0, -1);"
        f"import('/{module}').then((m) => done((() => ({expression}))()),"
        " (err) => done({moduleError: String(err)}));", *args)


@pytest.fixture(scope="session")
def wait_for():
    return _wait_for


@pytest.fixture(scope="session")
def act_on():
    return _act_on


@pytest.fixture(scope="session")
def module_call():
    return _module_call


@pytest.fixture(scope="session")
def wait_css():
    return _wait_css


@pytest.fixture(scope="session")
def screenshot():
    return _save_screenshot


@pytest.fixture(scope="session")
def console_errors():
    return _console_errors
