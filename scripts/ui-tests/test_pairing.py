"""The pairing token in a real browser: without it the UI and the API are refused; the printed URL (which
carries it) sets an HttpOnly, SameSite=Strict session cookie (never the token), drops the token from the address
bar, and from then on both views load their data through that cookie.

Runs its own browser-demo with ``--loopback --token T`` (a host-supplied token is required even on loopback),
so it never listens beyond 127.0.0.1.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.by import By

from conftest import SERVER_START_TIMEOUT, _browser_demo_binary, _DemoServer

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


@pytest.fixture(scope="module")
def paired_server():
    demo = _DemoServer(_browser_demo_binary(), ["--token", TOKEN])
    try:
        base = demo.wait_for_url(SERVER_START_TIMEOUT)
        deadline = time.monotonic() + 10
        while _get(f"{base}/api/health", {"Authorization": f"Bearer {TOKEN}"})[0] != 200:
            assert time.monotonic() < deadline, "/api/health never answered 200 with the token"
            time.sleep(0.1)
        # The printed URL carries the token.
        assert any(f"/?token={TOKEN}" in line for line in demo.log), demo.log
        yield base
    finally:
        demo.stop()


def test_without_the_token_the_api_is_401_json(paired_server):
    status, headers, body = _get(f"{paired_server}/api/entities")
    assert status == 401
    assert "token" in json.loads(body)["error"]
    assert _get(f"{paired_server}/api/entities", {"Authorization": "Bearer wrong-token-wrong-token-00"})[0] == 401
    assert _get(f"{paired_server}/api/entities", {"Authorization": f"Bearer {TOKEN}"})[0] == 200


@pytest.mark.parametrize("path", ["/", "/lab"])
def test_without_the_token_the_ui_says_where_to_find_the_url(paired_server, driver, path):
    driver.get(f"{paired_server}{path}")
    text = driver.find_element(By.TAG_NAME, "body").text
    assert "pairing token" in text and "?token=" in text
    # The refusal page itself, not the UI with its data requests failing: a 401 with no script at all.
    assert _get(f"{paired_server}{path}")[0] == 401
    assert driver.find_elements(By.TAG_NAME, "script") == []
    assert driver.get_cookies() == []


def test_a_wrong_token_in_the_url_is_refused(paired_server, driver):
    driver.get(f"{paired_server}/?token=not-the-right-token-at-all-000")
    assert "pairing token" in driver.find_element(By.TAG_NAME, "body").text
    assert driver.get_cookies() == []


def test_the_printed_url_pairs_the_browser_and_both_views_load(paired_server, driver, wait_for):
    driver.get(f"{paired_server}/lab?entity=Tag&token={TOKEN}")
    # On to the same view without the token in the address bar.
    wait_for(driver, lambda d: "token" not in parse_qs(urlsplit(d.current_url).query), message="token dropped from the URL")
    assert parse_qs(urlsplit(driver.current_url).query).get("entity") == ["Tag"]
    cookies = driver.get_cookies()
    assert len(cookies) == 1, cookies
    # A signed, expiring session, never the token itself (cookies reach every server on the host).
    assert cookies[0]["name"].startswith("cdb_session_"), cookies
    assert TOKEN not in cookies[0]["value"] and cookies[0]["value"].count(".") == 2, cookies
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
    assert TOKEN not in driver.execute_script("return document.cookie")


def test_the_printed_url_opened_from_a_link_on_another_site_pairs_too(paired_server, driver, wait_for):
    """A link in a chat or an issue tracker is another site: a SameSite=Strict cookie set on that navigation
    is not sent on a redirect that belongs to it, so pairing must continue from a page of our own."""
    link = f"{paired_server}/lab?entity=Tag&token={TOKEN}"

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
        assert "token" not in parse_qs(urlsplit(driver.current_url).query)
    finally:
        other_site.shutdown()
