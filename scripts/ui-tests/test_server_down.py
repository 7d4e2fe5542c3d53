"""When the server stops (the app stopped in Xcode, suspended, relaunched), each view shows one clear banner, keeps
asking with a backoff, and clears it by itself when the server is back, reading again what it shows — no click
needed. The Lab's status dot turns red while the server is away, whichever request noticed. A server of the test's
own, stopped and started again on the same port."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from conftest import REPO_ROOT, _browser_demo_binary, DemoServer, _wait_until_healthy
from test_exports import open_inspector, open_lab
from test_lab import pane_state


def banners(driver):
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "#server-down[role='alert']") if b.is_displayed()]


@pytest.mark.parametrize("view", ["Inspector", "Lab"])
def test_a_banner_while_the_server_is_away_cleared_by_itself_when_it_is_back(driver, wait_for, view):
    arguments = ["--web-root", str(REPO_ROOT / "web")]
    demo = DemoServer(_browser_demo_binary(), arguments)
    base = demo.wait_for_url(60)
    port = base.split("?")[0].rstrip("/").rsplit(":", 1)[1]
    try:
        (open_inspector if view == "Inspector" else open_lab)(driver, base, wait_for, entity="Book")
        assert banners(driver) == []
        demo.stop()
        driver.find_element(By.ID, "refresh-btn").click()
        banner = wait_for(driver, lambda d: banners(d), message="the banner")[0]
        assert "The server does not answer" in banner.text and "Trying again" in banner.text
        assert driver.execute_script("return document.documentElement.dataset.server") == "down"
        if view == "Lab":
            dot = driver.find_element(By.CSS_SELECTOR, ".statusbar .pulse")
            wait_for(driver, lambda d: "is-offline" in dot.get_attribute("class"), message="the red status dot")
        # A second failed request does not add a second banner.
        driver.find_element(By.ID, "refresh-btn").click()
        wait_for(driver, lambda d: d.execute_script("return Number(document.documentElement.dataset.apiPending || 0)") == 0,
                 message="the second refresh answered")
        assert len(banners(driver)) == 1

        demo = DemoServer(_browser_demo_binary(), [*arguments, "--port", port])
        _wait_until_healthy(demo.wait_for_url(60), 10)
        # No click: the retries find the server and the view reads its data again.
        wait_for(driver, lambda d: not banners(d), timeout=45, message="the banner gone by itself")
        assert driver.execute_script("return document.documentElement.dataset.server") is None
        if view == "Lab":
            wait_for(driver, lambda d: "is-offline" not in dot.get_attribute("class") and pane_state(d, "pane-grid") == "ready",
                     message="the grid back")
            assert driver.find_element(By.ID, "grid-search").get_attribute("disabled") is None
        else:
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#record-list li[data-id]"), message="the list back")
    finally:
        demo.stop()
