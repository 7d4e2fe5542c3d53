"""Live (changes pushed to the page): with the page open and nothing clicked, a change another process commits to the store
shows up — the entity's count in the sidebar and the rows on screen — in both views; with Live off nothing
moves until Refresh. The writer is Python's sqlite3 writing in Core Data's layout, as an app would."""

from __future__ import annotations

import socket
import sqlite3
import urllib.request
from pathlib import Path


from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import copy_fixture
from core_data_store import entity_number, record_key_given  # scripts/lib, on the path conftest sets
from test_exports import open_inspector, open_lab

#: A store no other browser test reads: these tests write to their copy.
STORE = "wibosco-migration/CoreDataMigration_Example_2.sqlite"


def store_path(api) -> Path:
    return Path(api("/api/health")["store"])


def add_post(path: Path, hex_value: str) -> None:
    """One Post row in Core Data's layout (the next primary key, the entity's Z_ENT), committed at once."""
    with sqlite3.connect(path) as db:
        entity = entity_number(db, "Post")
        key = db.execute("SELECT max(Z_PK) FROM ZPOST").fetchone()[0] + 1
        db.execute("INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZHEXCOLOR, ZPOSTID) VALUES (?, ?, 1, ?, ?)",
                   (key, entity, hex_value, f"live-{hex_value}-{key}"))
        record_key_given(db, entity, key)


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


def test_the_inspector_marks_what_changed_since_you_looked(driver, store_server, api, wait_for, console_errors, screenshot):
    base, api = store_server(STORE)
    path = store_path(api)
    for _ in range(3):
        add_post(path, "MARKME")
    page = api("/api/entities/Post", search="MARKME")
    first, second, third = [row["id"] for row in page["rows"]]
    open_inspector(driver, base, wait_for, entity="Post", search="MARKME", id=first)
    wait_for(driver, lambda d: live_state(d) == "on", message="the Live stream open")
    wait_for(driver, lambda d: d.execute_script("return document.querySelectorAll('#attr-table .attr-row').length") > 0,
             message="the first post's detail")

    # One commit: a post added, the first one's postID changed, the second one deleted.
    with sqlite3.connect(path) as db:
        key = int(second.rsplit("/p", 1)[1])
        db.execute("DELETE FROM ZPOST WHERE Z_PK = ?", (key,))
        db.execute("UPDATE ZPOST SET ZPOSTID = 'renamed', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", (int(first.rsplit("/p", 1)[1]),))
    add_post(path, "MARKME")
    add_post(path, "MARKME")

    marks = """return [...document.querySelectorAll('#record-list .record-row')]
        .map(li => [li.dataset.id, li.dataset.change || '']);"""
    wait_for(driver, lambda d: sum(1 for _, change in d.execute_script(marks) if change == "created") == 2,
             message="the two new posts marked")
    shown = dict(driver.execute_script(marks))
    assert shown[first] == "changed" and shown[second] == "deleted" and shown[third] == ""
    assert driver.execute_script(
        "return document.querySelector('#record-list .record-ghost .record-summary').textContent") != ""
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#attr-table .attr-row[data-attr=\"postID\"]').dataset.change") == "changed",
        message="the detail's postID marked changed")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('.entity-item[data-entity=\"Post\"]').dataset.delta") == "1",
        message="the sidebar's Post delta")
    screenshot(driver, "live-marks-inspector")
    # A ghost cannot be opened; moving to another list starts from what is there now.
    driver.execute_script("document.querySelector('#record-list .record-ghost').click()")
    assert driver.execute_script("return new URLSearchParams(location.search).get('id')") == first
    search = driver.find_element(By.ID, "search-input")
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.DELETE)
    wait_for(driver, lambda d: "search" not in d.current_url, message="the search cleared")
    wait_for(driver, lambda d: not any(change for _, change in d.execute_script(marks)), message="no marks on a new list")
    assert console_errors(driver) == []


def test_the_lab_marks_new_rows_changed_cells_and_gone_rows(driver, store_server, api, wait_for, screenshot):
    base, api = store_server(STORE)
    path = store_path(api)
    for _ in range(3):
        add_post(path, "LABMARK")
    first, second, third = [row["id"] for row in api("/api/entities/Post", search="LABMARK")["rows"]]
    open_lab(driver, base, wait_for, entity="Post", search="LABMARK")
    wait_for(driver, lambda d: live_state(d) == "on", message="the Live stream open")

    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM ZPOST WHERE Z_PK = ?", (int(second.rsplit("/p", 1)[1]),))
        db.execute("UPDATE ZPOST SET ZPOSTID = 'renamed', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", (int(first.rsplit("/p", 1)[1]),))
    add_post(path, "LABMARK")
    add_post(path, "LABMARK")

    marks = """return [...document.querySelectorAll('#grid-body tr[data-id]')].map(tr => [tr.dataset.id, tr.dataset.change || '',
        [...tr.querySelectorAll('td[data-change]')].map(td => td.dataset.col)]);"""
    wait_for(driver, lambda d: sum(1 for _, change, _ in d.execute_script(marks) if change == "created") == 2,
             message="the two new posts marked")
    shown = {row_id: (change, cells) for row_id, change, cells in driver.execute_script(marks)}
    assert shown[first] == ("changed", ["postID"]) and shown[third] == ("", []) and second not in shown
    assert driver.execute_script("return [...document.querySelectorAll('#grid-body tr.row-ghost')].map(tr => tr.dataset.ghostId)") == [second]
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#entity-list li[data-entity=\"Post\"]').dataset.delta") == "1",
        message="the sidebar's Post delta")
    screenshot(driver, "live-marks-lab")
    # A ghost cannot be opened; another list starts a new baseline, and the sidebar's deltas go with the old one.
    driver.execute_script("document.querySelector('#grid-body tr.row-ghost td[data-col]').click()")
    assert "id" not in driver.execute_script("return Object.fromEntries(new URLSearchParams(location.search))")
    search = driver.find_element(By.ID, "grid-search")
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.DELETE)
    wait_for(driver, lambda d: "search" not in d.current_url, message="the search cleared")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelectorAll('#grid-body tr[data-change], #entity-list [data-delta]').length") == 0,
        message="no marks on a new list")


def test_live_resumes_after_the_server_restarts(driver, wait_for, store_servers):
    """The server stops and starts again on the same port (an app relaunched, a Mac woken): the page's stream
    reconnects by itself, catches up (the new server answers the old Last-Event-ID with `resync`) and follows
    the next commit without a click."""
    path = copy_fixture(STORE, store_servers.folder("cdb-ui-restart-"))
    with socket.socket() as probe:  # a free port for both lives of the server
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    def start() -> str:
        base, _ = store_servers.serve(path, ["--port", str(port)])
        assert base.endswith(f":{port}"), f"the server took another port: {base}"
        return base

    base = start()
    open_inspector(driver, base, wait_for, entity="Post", search="RESTART")
    wait_for(driver, lambda d: live_state(d) == "on", message="the Live stream open")
    store_servers.stop(base)
    wait_for(driver, lambda d: live_state(d) == "connecting", message="the page noticed the server left")
    start()
    wait_for(driver, lambda d: live_state(d) == "on", timeout=30, message="the stream reconnected by itself")
    add_post(path, "RESTART")
    wait_for(driver, lambda d: any("RESTART" in t for t in d.execute_script(
        "return [...document.querySelectorAll('#record-list .record-row')].map(li => li.textContent);")),
        message="a commit after the restart listed by itself")
