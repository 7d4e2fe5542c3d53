"""Pairing in a real browser: without a session the UI and the API are refused; the printed link carries a
one-time code (never the token) that its page exchanges for an HttpOnly, SameSite=Strict session cookie, then
drops from the address bar; from then on both views load their data through that cookie. The link, left in the
browser's history, opens nothing a second time: the page says so, and a new link appears in the console.

Runs its own browser-demo with ``--loopback --token T`` (a host-supplied token is required even on loopback),
so it never listens beyond 127.0.0.1.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By

from conftest import SERVER_START_TIMEOUT, _browser_demo_binary, DemoServer

TOKEN = "ui-test-token-0123456789abcdefXYZ"


def _get(url: str, headers: dict[str, str] | None = None):
    """(status, headers, body) without following redirects and without raising on error statuses."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=15) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode("utf-8")


LINK = re.compile(r"CoreDataBrowser: (?:new pairing link: )?http://127\.0\.0\.1:\d+/\?pair=([A-Za-z0-9_-]{22})")


class PairingLinks:
    """The one-time codes browser-demo printed, and a fresh one on demand: posting a code that is not outstanding
    makes the server print a new link when none is left unused (what a person gets by opening a spent link)."""

    def __init__(self, demo: DemoServer, base: str):
        self.demo, self.base, self.used = demo, base, set()

    def printed(self) -> list[str]:
        return [match.group(1) for line in list(self.demo.log) if (match := LINK.search(line))]

    def fresh(self) -> str:
        unused = [code for code in self.printed() if code not in self.used]
        if not unused:
            count = len(self.printed())
            request = urllib.request.Request(f"{self.base}/api/pairing", data=b"spent", method="POST")
            try:
                urllib.request.urlopen(request, timeout=15)
            except urllib.error.HTTPError as err:
                assert err.code == 401
            deadline = time.monotonic() + 15
            while len(self.printed()) == count:
                assert time.monotonic() < deadline, "no new pairing link printed"
                time.sleep(0.05)
            unused = [code for code in self.printed() if code not in self.used]
        self.used.add(unused[-1])
        return unused[-1]


@pytest.fixture(scope="module")
def paired_server():
    demo = DemoServer(_browser_demo_binary(), ["--token", TOKEN])
    try:
        base = demo.wait_for_url(SERVER_START_TIMEOUT)
        deadline = time.monotonic() + 10
        while _get(f"{base}/api/health", {"Authorization": f"Bearer {TOKEN}"})[0] != 200:
            assert time.monotonic() < deadline, "/api/health never answered 200 with the token"
            time.sleep(0.1)
        # The printed link carries a one-time code, never the token.
        assert any(LINK.search(line) for line in demo.log), demo.log
        assert not any(TOKEN in line for line in demo.log), demo.log
        yield base, PairingLinks(demo, base)
    finally:
        demo.stop()


def test_without_the_token_the_api_is_401_json(paired_server):
    paired_server, _ = paired_server
    status, headers, body = _get(f"{paired_server}/api/entities")
    assert status == 401
    assert "token" in json.loads(body)["error"]
    assert _get(f"{paired_server}/api/entities", {"Authorization": "Bearer wrong-token-wrong-token-00"})[0] == 401
    assert _get(f"{paired_server}/api/entities", {"Authorization": f"Bearer {TOKEN}"})[0] == 200


@pytest.mark.parametrize("path", ["/", "/lab"])
def test_without_the_token_the_ui_says_where_to_find_the_url(paired_server, driver, path):
    paired_server, _ = paired_server
    driver.get(f"{paired_server}{path}")
    text = driver.find_element(By.TAG_NAME, "body").text
    assert "pairing link" in text and "?pair=" in text
    # The refusal page itself, not the UI with its data requests failing: a 401 with no script at all.
    assert _get(f"{paired_server}{path}")[0] == 401
    assert driver.find_elements(By.TAG_NAME, "script") == []
    assert driver.get_cookies() == []


def test_the_token_in_the_url_pairs_nothing(paired_server, driver):
    paired_server, _ = paired_server
    for token in ("not-the-right-token-at-all-000", TOKEN):
        driver.get(f"{paired_server}/?token={token}")
        assert "pairing link" in driver.find_element(By.TAG_NAME, "body").text
        assert driver.get_cookies() == []


def test_the_printed_url_pairs_the_browser_and_both_views_load(paired_server, driver, wait_for):
    paired_server, links = paired_server
    code = links.fresh()
    driver.get(f"{paired_server}/lab?entity=Tag&pair={code}")
    # On to the same view without the code in the address bar, and not even a Back step to it.
    wait_for(driver, lambda d: "pair" not in parse_qs(urlsplit(d.current_url).query), message="code dropped from the URL")
    assert parse_qs(urlsplit(driver.current_url).query).get("entity") == ["Tag"]
    cookies = driver.get_cookies()
    assert len(cookies) == 1, cookies
    # A signed, expiring session, never the token itself (cookies reach every server on the host).
    assert cookies[0]["name"].startswith("cdb_session_"), cookies
    assert TOKEN not in cookies[0]["value"] and code not in cookies[0]["value"], cookies
    assert cookies[0]["value"].count(".") == 2, cookies
    assert "expiry" in cookies[0], "a persistent cookie with an expiry"
    assert cookies[0]["httpOnly"] is True
    assert cookies[0]["sameSite"] == "Strict"
    # The Lab grid loads the Tag rows through the cookie.
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entity-list > li[data-entity]")) >= 4,
             message="the Lab's entity list")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "tbody tr")) == 5, message="the 5 Tag rows")
    # The Inspector, opened without the token, is paired too.
    driver.get(f"{paired_server}/")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entity-list li")) >= 4,
             message="the Inspector's entity list")
    # Scripts cannot read the cookie (HttpOnly).
    assert driver.execute_script("return document.cookie") == ""
    # Reopening the link from history in this paired browser goes on to the view.
    driver.get(f"{paired_server}/lab?entity=Tag&pair={code}")
    wait_for(driver, lambda d: "pair" not in parse_qs(urlsplit(d.current_url).query), message="back to the view")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "tbody tr")) == 5, message="the 5 Tag rows again")


def test_a_used_link_opens_nothing_and_says_where_the_new_one_is(paired_server, driver, wait_for):
    paired_server, links = paired_server
    code = links.fresh()
    driver.get(f"{paired_server}/?pair={code}")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entity-list li")) >= 4, message="paired")
    printed = len(links.printed())
    # Someone else's browser (or this one, its cookie gone) opens the same link from history.
    driver.delete_all_cookies()
    driver.get(f"{paired_server}/?pair={code}")
    wait_for(driver, lambda d: "already used" in d.find_element(By.ID, "status").text, message="the spent-link message")
    text = driver.find_element(By.ID, "status").text
    assert "A new link has just been printed in the app's console" in text, text
    assert driver.get_cookies() == []
    assert _get(f"{paired_server}/api/entities")[0] == 401
    # The new link, from the console, pairs this browser.
    wait_for(driver, lambda d: len(links.printed()) > printed, message="a new link in the console")
    fresh = links.fresh()
    driver.get(f"{paired_server}/?pair={fresh}")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entity-list li")) >= 4, message="paired again")


def test_the_printed_url_opened_from_a_link_on_another_site_pairs_too(paired_server, driver, wait_for):
    """A link in a chat or an issue tracker is another site: a SameSite=Strict cookie set on that navigation
    is not sent on a redirect that belongs to it, so pairing must continue from a page of our own."""
    paired_server, links = paired_server
    link = f"{paired_server}/lab?entity=Tag&pair={links.fresh()}"

    class LinkPage(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = f'<!doctype html><a id="go" href="{link}">open the store</a>'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    other_site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), LinkPage)
    threading.Thread(target=other_site.serve_forever, daemon=True).start()
    try:
        # "localhost" and "127.0.0.1" are different sites.
        driver.get(f"http://localhost:{other_site.server_address[1]}/")
        driver.find_element(By.ID, "go").click()
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "tbody tr")) == 5,
                 message="the Lab's 5 Tag rows, not the 401 page")
        assert "pair" not in parse_qs(urlsplit(driver.current_url).query)
    finally:
        other_site.shutdown()
