"""Live (issue 17, push): with the page open and nothing clicked, a change another process commits to the store
shows up — the entity's count in the sidebar and the rows on screen — in both views; with Live off nothing
moves until Refresh. The writer is Python's sqlite3 writing in Core Data's layout, as an app would."""

from __future__ import annotations

import sqlite3
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By

from test_exports import open_inspector, open_lab

#: A store no other browser test reads: these tests write to their copy.
STORE = "wibosco-migration/CoreDataMigration_Example_2.sqlite"


def store_path(api) -> Path:
    return Path(api("/api/health")["store"])


def add_post(path: Path, hex_value: str) -> None:
    """One Post row in Core Data's layout (the next primary key, the entity's Z_ENT), committed at once."""
    with sqlite3.connect(path) as db:
        entity = db.execute("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Post'").fetchone()[0]
        key = db.execute("SELECT max(Z_PK) FROM ZPOST").fetchone()[0] + 1
        db.execute("INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZHEXCOLOR, ZPOSTID) VALUES (?, ?, 1, ?, ?)",
                   (key, entity, hex_value, f"live-{hex_value}-{key}"))
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", (key, entity))


class EventListener:
    """A second listener of /api/events, outside the browser: once it has the change event, a page that
    listened would have had it too."""

    def __init__(self, base: str):
        self.response = urllib.request.urlopen(f"{base}/api/events", timeout=20)
        assert self.response.readline().startswith(b"retry:")

    def wait_for_change(self) -> None:
        while (line := self.response.readline()) != b"event: change\n":
            assert line, "the event stream ended before a change"

    def close(self) -> None:
        self.response.close()


def live_state(driver):
    return driver.execute_script("const d = document.querySelector('.live-dot'); return d ? d.dataset.state : null;")


def test_inspector_follows_a_commit_without_a_click(driver, store_server, wait_for, console_errors):
    base, api = store_server(STORE)
    path = store_path(api)
    before = api("/api/entities/Post", limit=1)["total"]
    open_inspector(driver, base, wait_for, entity="Post", search="ABCDEF")
    wait_for(driver, lambda d: live_state(d) == "on", message="the Live stream open")
    add_post(path, "ABCDEF")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('.entity-item[data-entity=\"Post\"]').dataset.count") == str(before + 1),
        message="the sidebar's Post count moved by itself")
    wait_for(driver, lambda d: any("ABCDEF" in t for t in d.execute_script(
        "return [...document.querySelectorAll('#record-list .record-row')].map(li => li.textContent);")),
        message="the new row listed by itself")
    assert console_errors(driver) == []


def test_lab_follows_a_commit_and_live_off_waits_for_refresh(driver, store_server, wait_for):
    base, api = store_server(STORE)
    path = store_path(api)
    open_lab(driver, base, wait_for, entity="Post", search="00FF00")
    wait_for(driver, lambda d: live_state(d) == "on", message="the Live stream open")
    add_post(path, "00FF00")
    rows = "return [...document.querySelectorAll('#grid-body tr[data-id]')].length;"
    wait_for(driver, lambda d: d.execute_script(rows) >= 1, message="the new row in the grid by itself")
    shown = driver.execute_script(rows)

    # Live off: the next commit changes nothing on screen until Refresh (the choice is remembered).
    driver.find_element(By.ID, "live-toggle").click()
    wait_for(driver, lambda d: live_state(d) == "off", message="Live off")
    events = driver.execute_script("return Number(document.body.dataset.liveEvents || 0);")
    listener = EventListener(base)
    add_post(path, "00FF00")
    listener.wait_for_change()
    listener.close()
    assert api("/api/entities/Post", search="00FF00")["total"] == shown + 1
    assert driver.execute_script(rows) == shown
    assert driver.execute_script("return Number(document.body.dataset.liveEvents || 0);") == events
    driver.find_element(By.ID, "refresh-btn").click()
    wait_for(driver, lambda d: d.execute_script(rows) == shown + 1, message="Refresh shows it")
    driver.refresh()
    wait_for(driver, lambda d: live_state(d) == "off", message="Live off remembered")
    assert not driver.find_element(By.ID, "live-toggle").is_selected()
