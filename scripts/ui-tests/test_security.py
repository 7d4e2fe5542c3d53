"""Security in the browser: store data never lands in Chromium's disk cache (every /api answer is no-store, and
every fetch of every view asks for no-store too); every view degrades to a message, never a blank page or an
uncaught exception, whatever malformed percent-escapes its URL holds; every UI page runs under its
Content-Security-Policy without a single violation."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from conftest import REPO_ROOT, _find_executable

WEB = REPO_ROOT / "web"

#: Query values that reach the page as text holding malformed escapes: the reported case "x/%25ZZ/p1" (it decodes to
#: "x/%ZZ/p1", an ID whose entity part `decodeURIComponent` rejects: the Inspector's old URIError), and
#: "x/%ZZ/p1%ZZ%E0%A4%C0%80%" plus a NUL and a right-to-left override, for whatever else a view decodes or draws.
MALFORMED = ["x/%25ZZ/p1", "x/%25ZZ/p1%25ZZ%25E0%25A4%25C0%2580%25%00%E2%80%AE"]
#: Escapes the server cannot decode at all (not hex, truncated or invalid UTF-8, a lone "%"): it answers 400 before
#: any page runs, and the browser shows that message.
UNDECODABLE = ["%ZZ", "%E0%A4", "%C0%80", "%ED%A0%80", "%"]

#: Each view, the URL parameters it reads (web/shared/list-view.js listViewFromQuery for the Inspector and the Lab,
#: web/pages/history/history.js filtersFromLocation, web/pages/model/model.js), and the script that says it has drawn
#: its first state.
VIEWS = {
    "/": (["entity", "search", "searchAttr", "sort", "order", "limit", "offset", "id", "relatedTo", "via"],
          "const p = document.getElementById('entities-pane');"
          "return !!p && ['ready', 'error'].includes(p.dataset.state) && document.querySelectorAll('#entity-list li').length > 0;"),
    "/lab": (["entity", "search", "searchAttr", "sort", "order", "limit", "offset", "id", "relatedTo", "via"],
             "return document.querySelectorAll('#entity-list > li[data-entity]').length > 0;"),
    "/history": (["entity", "author", "context"],
                 "return ['ready', 'unavailable', 'error'].includes(document.body.dataset.historyState);"),
    "/model": (["version", "focus", "hops", "attributes", "from", "to"],
               "return ['ready', 'error'].includes(document.body.dataset.modelState);"),
}


def _fetch_calls(source: str):
    """(line number, argument text) of every `fetch(` call, the arguments up to the matching parenthesis."""
    for match in re.finditer(r"\bfetch\(", source):
        depth, index = 1, match.end()
        while depth and index < len(source):
            depth += {"(": 1, ")": -1}.get(source[index], 0)
            index += 1
        yield source.count("\n", 0, match.start()) + 1, source[match.end():index - 1]


def test_every_fetch_of_every_view_asks_for_no_store():
    calls = [(path.relative_to(WEB).as_posix(), line, arguments) for path in sorted(WEB.rglob("*.js"))
             for line, arguments in _fetch_calls(path.read_text(encoding="utf-8"))]
    assert calls, "no fetch( found in web/*.js"
    missing = [f"{name}:{line}" for name, line, arguments in calls if not re.search(r"cache:\s*['\"]no-store['\"]", arguments)]
    assert not missing, f"fetch without cache: 'no-store' at {', '.join(missing)}"
    # An EventSource cannot choose its cache mode; the stream's answer is no-store (checked over raw sockets).
    for path in WEB.rglob("*.js"):
        assert "XMLHttpRequest" not in path.read_text(encoding="utf-8"), path.name


@pytest.fixture
def cached_driver():
    """A headless Chromium with a profile and disk cache of its own, so the test can read the cache afterwards."""
    profile = Path(tempfile.mkdtemp(prefix="cdb-ui-cache-"))
    options = webdriver.ChromeOptions()
    options.binary_location = _find_executable("chromium", "chromium-browser", "google-chrome")
    for arg in ("--headless=new", "--no-sandbox", "--window-size=1400,900", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                f"--user-data-dir={profile / 'profile'}", f"--disk-cache-dir={profile / 'cache'}"):
        options.add_argument(arg)
    service = Service(executable_path=_find_executable("chromedriver"))
    browser = webdriver.Chrome(options=options, service=service)
    browser.set_page_load_timeout(30)
    browser.cache_root = profile / "cache"
    try:
        yield browser
    finally:
        try:
            browser.quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)


def test_no_api_answer_lands_in_the_disk_cache(cached_driver, server, api, wait_for):
    """What a security review found (Chromium's cache held whole JSON pages of a store after browsing) cannot happen: after
    browsing both views and the History view, the cache holds the UI's files (proof it was in use) and no /api URL."""
    driver = cached_driver
    # A book with a cover: its image is an <img> (no fetch, so no cache mode of ours; only the answer's header).
    book = next(row for row in api("/api/entities/Book", limit=500)["rows"] if isinstance(row["attrs"].get("cover"), dict)
                and api("/api/object/content", id=row["id"], attr="cover")["kind"] == "png")
    driver.get(f"{server}/?entity=Book&id={urllib.request.quote(book['id'], safe='')}")
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('detail-pane').dataset.state") == "ready",
             message="the Inspector's detail")
    driver.find_element(By.CSS_SELECTOR, 'tr[data-attr="cover"] .content-look').click()
    wait_for(driver, lambda d: d.execute_script("const i = document.querySelector('.cv-image img');"
                                                "return !!i && i.complete && i.naturalWidth > 0;"),
             message="the cover image, loaded from /api/object/blob")
    driver.get(f"{server}/lab?entity=Book&id={urllib.request.quote(book['id'], safe='')}")
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('pane-detail').dataset.state") == "ready",
             message="the Lab's detail")
    driver.get(f"{server}/history")
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.historyState") in ("ready", "unavailable"),
             message="the History view")
    driver.get("about:blank")
    time.sleep(1)
    root = driver.cache_root
    driver.quit()  # writes the cache's index and entries out

    # A cache entry starts with its key, "1/0/_dk_<site> <site> <URL>", the body right after the URL.
    urls = []
    for path in root.rglob("*"):
        if path.is_file():
            match = re.search(rb"_dk_\S+ \S+ (http://127\.0\.0\.1:\d+/[\x21-\x7e]*)", path.read_bytes())
            if match:
                urls.append(match.group(1).decode("ascii"))
    paths = [urllib.parse.urlsplit(url).path for url in urls]
    assert any(path.startswith(("/pages/", "/features/", "/shared/")) for path in paths), \
        f"the disk cache holds none of the UI's files, so this test proves nothing: {urls}"
    cached = [url for url, path in zip(urls, paths) if path.startswith("/api")]
    assert not cached, f"/api answers written to Chromium's disk cache: {cached}"


@pytest.mark.parametrize("path,parameter", [(path, name) for path, (names, _) in VIEWS.items() for name in ["*", *names]])
def test_malformed_escapes_in_a_url_parameter_are_a_message_not_a_blank_page(driver, server, wait_for, console_errors,
                                                                             path, parameter):
    """Each parameter alone, and all of them at once ("*")."""
    names, drawn = VIEWS[path]
    for value in MALFORMED:
        query = "&".join(f"{name}={value}" for name in (names if parameter == "*" else [parameter]))
        driver.get(f"{server}{path}?{query}")
        wait_for(driver, lambda d: d.execute_script(drawn), message=f"{path} drawn with a malformed {parameter}")
        wait_for(driver, lambda d: d.execute_script("return (document.documentElement.dataset.apiPending ?? '0') === '0'"),
                 message="every request the page started answered")
        assert driver.find_element(By.TAG_NAME, "body").text.strip(), "a blank page"
        assert not console_errors(driver), f"{path}?{query}"


@pytest.mark.parametrize("path", list(VIEWS))
def test_escapes_the_server_cannot_decode_are_its_400_message(driver, server, console_errors, path):
    for escape in UNDECODABLE:
        driver.get(f"{server}{path}?{VIEWS[path][0][0]}={escape}")
        text = driver.find_element(By.TAG_NAME, "body").text
        assert "Invalid percent-encoding" in text or "Invalid UTF-8" in text, f"{escape}: {text[:200]}"
    assert not console_errors(driver)  # the 400 itself is the only entry ("Failed to load resource", ignored)


def _ui_pages() -> list[str]:
    """Every page of the UI: the aliased ones and any other .html file in web/ (a page added later included)."""
    aliased = {"index.html": "/", "lab.html": "/lab", "history.html": "/history"}
    return sorted({aliased.get(page.name, "/" + page.name) for page in WEB.glob("*.html")})


@pytest.mark.parametrize("page", _ui_pages())
def test_every_page_runs_under_its_content_security_policy_without_a_violation(driver, server, wait_for, page):
    with urllib.request.urlopen(f"{server}{page}", timeout=15) as response:
        policy = response.headers["Content-Security-Policy"] or ""
    assert "default-src 'self'" in policy and "object-src 'none'" in policy and "frame-ancestors 'none'" in policy
    violations = []
    driver.get(f"{server}{page}")
    driver.execute_script("window.__cspViolations = []; document.addEventListener('securitypolicyviolation', e => "
                          "window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));")
    # The page has loaded and every API request it started has answered (what it draws from them, drawn).
    wait_for(driver, lambda d: d.execute_script(
        "return document.readyState === 'complete' && (document.documentElement.dataset.apiPending ?? '0') === '0'"),
        message=f"{page} loaded with its requests answered")
    violations += driver.execute_script("return window.__cspViolations")
    violations += [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
    assert not violations, violations
