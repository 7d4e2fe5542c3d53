"""History: the /history view lists a store's persistent-history transactions newest first, follows new
ones by itself (Live), filters by entity, author and context, pages through a transaction's changes, and links
each change to its record, named as the Inspector names it, with the properties an update changed by name. The
writer is Python's sqlite3 writing a transaction in Core Data's layout (ATRANSACTIONSTRING, ATRANSACTION, ACHANGE
and the changed rows), as history tracking does in an app."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from core_data_store import entity_number, record_key_given  # scripts/lib, on the path conftest sets

#: A store with history tables that no other browser test reads: these tests write to their copy.
STORE = "coredataplus/SampleModel2/SampleModel2_V2.sqlite"
#: Core Data keeps ZTIMESTAMP as seconds since 2001-01-01.
REFERENCE_DATE = 978307200.0

JS_TRANSACTIONS = "return [...document.querySelectorAll('#transactions li.transaction')].map(li => li.dataset.id);"


#: Feedback's ZCOLUMNS layout in this model (format doc §11.1): its attributes by name, authorAlias, bookID,
#: comment, rating; no relationship. One byte, the first slot in the high bit: 0x20 is `comment`.
COMMENT_CHANGED = bytes([0x20])


def commit_feedback_transaction(path: Path, author: str, context: str, columns: bytes = COMMENT_CHANGED) -> dict:
    """One transaction by `author` in `context`: a Feedback inserted, one updated (its comment, recorded with the
    `columns` bitmap), one deleted, each row written and its ACHANGE recorded. Returns the transaction number and
    the keys touched."""
    with sqlite3.connect(path) as db:
        def string(name: str) -> int:
            row = db.execute("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", (name,)).fetchone()
            if row:
                return row[0]
            key = db.execute("SELECT coalesce(max(Z_PK), 0) + 1 FROM ATRANSACTIONSTRING").fetchone()[0]
            db.execute("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, 16003, ?)", (key, name))
            return key

        entity = entity_number(db, "Feedback")
        transaction = db.execute("SELECT coalesce(max(Z_PK), 0) + 1 FROM ATRANSACTION").fetchone()[0]
        db.execute("INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZCONTEXTNAMETS, ZTIMESTAMP) VALUES (?, 16002, ?, ?, ?)",
                   (transaction, string(author), string(context), time.time() - REFERENCE_DATE))
        keys = [row[0] for row in db.execute("SELECT Z_PK FROM ZFEEDBACK ORDER BY Z_PK")]
        inserted = max(keys) + 1
        updated, deleted = keys[0], keys[1]
        db.execute("INSERT INTO ZFEEDBACK (Z_PK, Z_ENT, Z_OPT, ZRATING, ZAUTHORALIAS, ZCOMMENT) VALUES (?, ?, 1, 5.0, ?, 'new')",
                   (inserted, entity, author))
        db.execute("UPDATE ZFEEDBACK SET ZCOMMENT = 'edited', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", (updated,))
        db.execute("DELETE FROM ZFEEDBACK WHERE Z_PK = ?", (deleted,))
        record_key_given(db, entity, inserted)
        change = db.execute("SELECT coalesce(max(Z_PK), 0) FROM ACHANGE").fetchone()[0]
        for offset, (kind, key, columns) in enumerate([(0, inserted, None), (1, updated, columns), (2, deleted, None)], 1):
            db.execute("INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) "
                       "VALUES (?, 16001, ?, ?, ?, ?, ?)", (change + offset, kind, entity, key, transaction, columns))
    return {"transaction": transaction, "inserted": inserted, "updated": updated, "deleted": deleted}


def open_history(driver, base: str, wait_for, query: str = "") -> None:
    driver.get(f"{base}/history{query}")
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.historyState") in ("ready", "unavailable", "error")
             and d.execute_script("return Number(document.body.dataset.historyLoads || 0)") >= 1,
             message="the history loaded")


def live_state(driver):
    return driver.execute_script("const d = document.querySelector('.live-dot'); return d ? d.dataset.state : null;")


def test_history_follows_a_commit_and_links_its_changes(driver, store_server, wait_for, console_errors, screenshot):
    base, api = store_server(STORE)
    path = Path(api("/api/health")["store"])
    open_history(driver, base, wait_for)
    assert driver.execute_script("return document.body.dataset.historyState") == "ready"
    before = driver.execute_script(JS_TRANSACTIONS)
    assert before, "the store's own transaction is listed"
    wait_for(driver, lambda d: live_state(d) == "on", message="the Live stream open")
    # A mark on what is drawn: Live must add the new transaction on top, not redraw (and lose) the others.
    driver.execute_script("document.querySelectorAll('#transactions li.transaction').forEach(li => li.dataset.probe = 'kept')")

    written = commit_feedback_transaction(path, "importer", "BackgroundImport")
    number = str(written["transaction"])
    wait_for(driver, lambda d: d.execute_script(JS_TRANSACTIONS)[:1] == [number], message="the new transaction on top, by itself")
    item = f"#transactions li.transaction[data-id='{number}']"
    assert driver.execute_script(f"return document.querySelector(\"{item}\").dataset.change") == "created"
    for old in before:
        assert driver.execute_script(f"return document.querySelector(\"#transactions li[data-id='{old}']\").dataset.change || ''") == ""
        assert driver.execute_script(f"return document.querySelector(\"#transactions li[data-id='{old}']\").dataset.probe") == "kept"
    head = driver.find_element(By.CSS_SELECTOR, f"{item} .transaction-head").text
    assert "importer" in head and "BackgroundImport" in head and "3 changes" in head
    types = driver.execute_script(f"return [...document.querySelectorAll(\"{item} tr[data-type]\")].map(tr => tr.dataset.type);")
    assert types == ["insert", "update", "delete"]
    assert driver.execute_script(f"return [...document.querySelectorAll(\"{item} tr[data-type='update'] .changed-property\")]"
                                 ".map(c => c.textContent);") == ["comment"]
    # A deleted object has no record to open: struck through, no link, named by its reference.
    assert driver.find_elements(By.CSS_SELECTOR, f"{item} tr[data-type='delete'] a") == []
    assert driver.find_element(By.CSS_SELECTOR, f"{item} tr[data-type='delete'] .gone").text == f"Feedback p{written['deleted']}"
    screenshot(driver, "history-live")

    # The author filter lists the new author and narrows the timeline to its transaction.
    wait_for(driver, lambda d: "importer" in [o.text for o in Select(d.find_element(By.ID, "filter-author")).options],
             message="the author in the filter")
    Select(driver.find_element(By.ID, "filter-author")).select_by_visible_text("importer")
    wait_for(driver, lambda d: d.execute_script(JS_TRANSACTIONS) == [number], message="only the importer's transaction")
    assert "author=importer" in driver.current_url

    # An inserted record's link opens it in the Inspector.
    driver.find_element(By.CSS_SELECTOR, f"{item} tr[data-type='insert'] a").click()
    wait_for(driver, lambda d: d.execute_script("return new URLSearchParams(location.search).get('id') || ''")
             .endswith(f"/Feedback/p{written['inserted']}"), message="the Inspector on the inserted record")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelectorAll('#attr-table .attr-row').length") > 0, message="its detail")
    assert console_errors(driver) == []


def test_a_large_transaction_pages_its_changes_and_filters_by_entity(driver, store_server, wait_for):
    base, api = store_server(STORE)
    # A transaction that changes only Feedback, so the entity filter has one to leave out.
    commit_feedback_transaction(Path(api("/api/health")["store"]), "filter-check", "BackgroundImport")
    first = api("/api/history", after=0, limit=1)["transactions"][0]
    pages = api("/api/history", transaction=first["id"], entity="Page", changeLimit=1000)["transactions"][0]
    assert pages["changeCount"] > 110, "the fixture's first transaction holds more Page changes than two pages"
    open_history(driver, base, wait_for, "?entity=Page")
    item = f"#transactions li.transaction[data-id='{first['id']}']"
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, item), message="the fixture's transaction")
    # The timeline lists exactly the transactions that changed a Page (not, say, one that changed only Feedback).
    assert driver.execute_script(JS_TRANSACTIONS) == [str(t["id"]) for t in api("/api/history", entity="Page")["transactions"]]
    assert len(driver.execute_script(JS_TRANSACTIONS)) < len(api("/api/history")["transactions"]), \
        "the Feedback-only transaction is left out"
    rows = (f"return [...document.querySelectorAll(\"{item} tr[data-type]\")]"
            ".map(tr => new URL(tr.querySelector('a').href).searchParams.get('id'));")
    assert len(driver.execute_script(rows)) == 10, "a transaction first shows ten changes"
    # A Page has no name (no String attribute names one): each is shown by its reference, once.
    assert all(change["summary"] == f"Page p{change['id'].rsplit('/p', 1)[1]}" for change in pages["changes"][:10])
    names = f"return [...document.querySelectorAll(\"{item} tr[data-type]\")].map(tr => [tr.querySelector('.record-name').textContent, tr.querySelector('.record-ref').hidden]);"
    assert driver.execute_script(names) == [[change["summary"], True] for change in pages["changes"][:10]]
    while driver.find_elements(By.CSS_SELECTOR, f"{item} .changes-more"):
        shown = len(driver.execute_script(rows))
        driver.find_element(By.CSS_SELECTOR, f"{item} .changes-more").click()
        wait_for(driver, lambda d: len(d.execute_script(rows)) > shown, message="the next page of changes")
    expected = [change["id"] for change in pages["changes"]]
    assert driver.execute_script(rows) == expected
    assert len(expected) == pages["changeCount"] and all(c["entity"] == "Page" for c in pages["changes"])


def test_records_are_named_and_an_updates_properties_too(driver, store_server, wait_for, console_errors):
    base, api = store_server(STORE)
    store_key = api("/api/health")["store"]
    path = Path(store_key)
    named = commit_feedback_transaction(path, "namer", "ViewContext")
    # Two bytes for Feedback's four slots: written under another layout, so given as bits, not guessed names.
    misfit = commit_feedback_transaction(path, "namer", "ViewContext", columns=bytes([0x20, 0x00]))
    changes = api("/api/history", transaction=named["transaction"])["transactions"][0]["changes"]
    inserted = next(c for c in changes if c["type"] == "insert")
    # The name the Inspector shows for the inserted record (its summary), not its bare reference.
    summary = api("/api/object", id=inserted["id"])["summary"]
    reference = f"Feedback p{named['inserted']}"
    assert summary and summary != reference and inserted["summary"] == summary

    open_history(driver, base, wait_for, "?author=namer")
    item = f"#transactions li.transaction[data-id='{named['transaction']}']"
    other = f"#transactions li.transaction[data-id='{misfit['transaction']}']"
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, item) and d.find_elements(By.CSS_SELECTOR, other),
             message="both transactions")
    text = lambda css: driver.find_element(By.CSS_SELECTOR, css).text  # noqa: E731
    assert text(f"{item} tr[data-type='insert'] .record-name") == summary
    assert text(f"{item} tr[data-type='insert'] .record-ref") == reference
    assert text(f"{item} tr[data-type='update'] .changed-property") == "comment"
    assert "changed property bits 2" in text(f"{other} tr[data-type='update']")
    assert driver.find_elements(By.CSS_SELECTOR, f"{other} tr[data-type='update'] .changed-property") == []
    notes = driver.find_element(By.ID, "history-notes")
    assert notes.is_displayed() and "bit positions" in notes.text

    # "Name by" picked in the Inspector for Feedback (another attribute than the server's) names its records here
    # too, as the Inspector does: by their author alias.
    assert next(e for e in api("/api/entities") if e["name"] == "Feedback")["summaryAttribute"] != "authorAlias"
    updated = next(c for c in changes if c["type"] == "update")
    alias = api("/api/object", id=updated["id"])["attrs"]["authorAlias"]
    driver.execute_script("localStorage.setItem('cdb.displayAttributes', arguments[0]);",
                          json.dumps({store_key: {"Feedback": "authorAlias"}}))
    open_history(driver, base, wait_for, "?author=namer")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, item)
             and d.find_element(By.CSS_SELECTOR, f"{item} tr[data-type='update'] .record-name").text == alias
             and d.find_element(By.CSS_SELECTOR, f"{item} tr[data-type='insert'] .record-name").text == "namer",
             message="the records named by their author alias")
    assert text(f"{item} tr[data-type='insert'] .record-ref") == reference
    driver.execute_script("localStorage.removeItem('cdb.displayAttributes');")
    assert console_errors(driver) == []


def test_a_store_without_history_says_so(driver, server, wait_for, console_errors):
    open_history(driver, server, wait_for)
    assert driver.execute_script("return document.body.dataset.historyState") == "unavailable"
    assert "does not keep a history" in driver.find_element(By.ID, "history-status").text
    assert driver.find_element(By.ID, "pending").get_attribute("hidden") is not None
    assert console_errors(driver) == []
