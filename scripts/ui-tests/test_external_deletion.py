"""A record deleted from outside the page (another process commits to the store, as the app would) while a list
shows it: both views keep it as a struck-through ghost ("gone since you looked") for as long as the reader stays on
that list, through later changes, and drop it once they move to another page of the list and back.

The writer is Python's sqlite3 on the served copy of the store, the change the server's live tracking notices for
a store file (it watches the file and pushes a `change` event; test_live.py follows the same path)."""

from __future__ import annotations

import sqlite3

from selenium.webdriver.common.by import By

from conftest import copy_fixture
from test_exports import open_inspector, open_lab

#: A store of 5,979 posts (pages to move between) no other browser test reads this copy of: the tests write to it.
STORE = "wibosco-migration/CoreDataMigration_Example_2.sqlite"
#: Rows a page shows: small, so the deleted row and a changed row are both on the first page.
PAGE = 25


def serve_copy(store_servers):
    path = copy_fixture(STORE, store_servers.folder("cdb-ui-deletion-"))
    base, api = store_servers.serve(path, [])
    return base, api, path


def key_of(record_id: str) -> int:
    """Z_PK of an object ID such as x-coredata://…/Post/p42."""
    return int(record_id.rsplit("/p", 1)[1])


def delete_post(path, record_id: str) -> None:
    with sqlite3.connect(path) as db:
        assert db.execute("DELETE FROM ZPOST WHERE Z_PK = ?", (key_of(record_id),)).rowcount == 1


def rename_post(path, record_id: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE ZPOST SET ZPOSTID = 'renamed-from-outside', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?",
                   (key_of(record_id),))


def live_on(driver) -> bool:
    return driver.execute_script("const d = document.querySelector('.live-dot'); return d ? d.dataset.state : null;") == "on"


INSPECTOR_ROWS = """return [...document.querySelectorAll('#record-list .record-row')].map((li) => ({
  id: li.dataset.id, change: li.dataset.change || '', ghost: li.classList.contains('record-ghost'),
  struck: li.classList.contains('record-ghost')
    && getComputedStyle(li.querySelector('.record-summary')).textDecorationLine.includes('line-through')}));"""

LAB_ROWS = """return [...document.querySelectorAll('#grid-body tr')].filter((tr) => tr.dataset.id || tr.dataset.ghostId)
  .map((tr) => ({id: tr.dataset.id || tr.dataset.ghostId, change: tr.dataset.change || '',
    ghost: tr.classList.contains('row-ghost'),
    struck: tr.classList.contains('row-ghost') && [...tr.querySelectorAll('td[data-col]')].length > 0
      && [...tr.querySelectorAll('td[data-col]')].every((td) => getComputedStyle(td).textDecorationLine.includes('line-through'))}));"""


def follow_a_deletion(driver, wait_for, path, rows_script: str, page_ids: list[str], next_id: str, prev_id: str) -> None:
    """The steps both views share, on a page showing `page_ids` (the first page of posts)."""
    rows = lambda d: d.execute_script(rows_script)  # noqa: E731
    wait_for(driver, lambda d: [r["id"] for r in rows(d)] == page_ids, message="the first page listed")
    wait_for(driver, live_on, message="the Live stream open")
    gone, changed = page_ids[1], page_ids[0]

    delete_post(path, gone)
    wait_for(driver, lambda d: any(r["id"] == gone and r["ghost"] for r in rows(d)),
             message="the deleted post kept as a ghost")
    ghost = next(r for r in rows(driver) if r["id"] == gone)
    assert ghost["struck"] and ghost["change"] == "deleted", ghost
    # The live rows are the page read again: the post's place taken by the ones after it (the ghost follows them).
    live = [r["id"] for r in rows(driver) if not r["ghost"]]
    assert live[:len(page_ids) - 1] == [i for i in page_ids if i != gone] and len(live) == PAGE

    # Staying on the page, the next change (another post renamed) is shown and the ghost stays.
    rename_post(path, changed)
    wait_for(driver, lambda d: any(r["id"] == changed and r["change"] == "changed" for r in rows(d)),
             message="the renamed post marked changed")
    ghost = next((r for r in rows(driver) if r["id"] == gone), None)
    assert ghost and ghost["ghost"] and ghost["struck"], ghost

    # The next page and back: a list read afresh, without the post and without its ghost.
    driver.find_element(By.ID, next_id).click()
    wait_for(driver, lambda d: rows(d) and rows(d)[0]["id"] not in page_ids, message="the next page")
    driver.find_element(By.ID, prev_id).click()
    wait_for(driver, lambda d: rows(d) and rows(d)[0]["id"] == page_ids[0], message="back on the first page")
    shown = rows(driver)
    assert gone not in [r["id"] for r in shown]
    assert not any(r["ghost"] for r in shown)
    assert len(shown) == PAGE


def test_the_inspector_keeps_an_external_deletion_as_a_ghost_until_the_list_changes(
        driver, store_servers, wait_for, console_errors, screenshot):
    base, api, path = serve_copy(store_servers)
    page_ids = [row["id"] for row in api("/api/entities/Post", limit=PAGE)["rows"]]
    open_inspector(driver, base, wait_for, entity="Post", limit=PAGE)
    follow_a_deletion(driver, wait_for, path, INSPECTOR_ROWS, page_ids, "next-btn", "prev-btn")
    screenshot(driver, "external-deletion-inspector")
    assert console_errors(driver) == []


def test_the_lab_keeps_an_external_deletion_as_a_ghost_until_the_list_changes(
        driver, store_servers, wait_for, console_errors, screenshot):
    base, api, path = serve_copy(store_servers)
    page_ids = [row["id"] for row in api("/api/entities/Post", limit=PAGE)["rows"]]
    open_lab(driver, base, wait_for, entity="Post", limit=PAGE)
    follow_a_deletion(driver, wait_for, path, LAB_ROWS, page_ids, "grid-next", "grid-prev")
    screenshot(driver, "external-deletion-lab")
    assert console_errors(driver) == []
