"""Export of the list on screen, in both views: the file a person saves holds exactly the records of the
list (search, sort, relationship filter applied), under a sensible name; progress shows while it arrives; Cancel
stops it and saves nothing; a refused export and a cut one say why and save nothing."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from selenium.webdriver.common.by import By

from test_inspector import JS_ENTITY_ITEMS, make_url
from test_lab import lab_url, pane_state


def all_rows(api, entity, **params):
    """Every row of the paged API for a list, in order."""
    rows, offset = [], 0
    while True:
        page = api(f"/api/entities/{entity}", limit=500, offset=offset, **params)
        rows += page["rows"]
        offset += 500
        if offset >= page["total"]:
            return rows


def saved_file(driver, wait_for, download_dir: Path, name: str) -> Path:
    path = download_dir / name
    wait_for(driver, lambda d: path.exists() and not any(p.suffix == ".crdownload" for p in download_dir.iterdir()),
             message=f"{name} saved")
    return path


def panel_state(driver):
    return driver.execute_script("const p = document.getElementById('export-panel'); return p && !p.hidden ? p.dataset.state : null;")


def panel_text(driver):
    return driver.execute_script("const p = document.getElementById('export-panel'); return p ? p.querySelector('.export-text').textContent : '';")


def choose(driver, button_id, format_, bom=False):
    driver.find_element(By.ID, button_id).click()
    driver.find_element(By.CSS_SELECTOR, f'#export-menu .export-choice[data-format="{format_}"][data-bom="{1 if bom else 0}"]').click()


def open_inspector(driver, server, wait_for, **params):
    driver.get(make_url(server, **params))
    wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0, message="the entity list")
    wait_for(driver, lambda d: d.find_element(By.ID, "export-view-btn").is_enabled(), message="Export view enabled")


def open_lab(driver, server, wait_for, **params):
    driver.get(lab_url(server, **params))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") in ("ready", "empty"), message="the grid")
    wait_for(driver, lambda d: d.find_element(By.ID, "grid-export-btn").is_enabled(), message="Export enabled")


def test_inspector_exports_the_searched_sorted_list_as_csv(driver, server, api, wait_for, download_dir, console_errors):
    params = {"search": "generated", "sort": "pageCount", "order": "desc"}
    expected = all_rows(api, "Book", **params)
    assert len(expected) > 500, "the demo search should match more than one API page"
    open_inspector(driver, server, wait_for, entity="Book", **params)
    choose(driver, "export-view-btn", "csv")
    wait_for(driver, lambda d: panel_state(d) == "done", message="the export done")
    assert re.fullmatch(rf"Saved Book-search-generated\.csv: {len(expected):,} rows · \d+\.\d KB", panel_text(driver)), panel_text(driver)
    path = saved_file(driver, wait_for, download_dir, "Book-search-generated.csv")
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf"), "plain CSV has no byte-order mark"
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))
    assert [r["_id"] for r in rows] == [r["id"] for r in expected]
    assert [r["_name"] for r in rows] == [r["summary"] for r in expected]
    assert [r["pageCount"] for r in rows] == [str(r["attrs"]["pageCount"]) for r in expected]
    assert console_errors(driver) == []


def test_csv_for_excel_starts_with_a_byte_order_mark(driver, server, api, wait_for, download_dir):
    open_inspector(driver, server, wait_for, entity="Tag")
    choose(driver, "export-view-btn", "csv", bom=True)
    wait_for(driver, lambda d: panel_state(d) == "done", message="the export done")
    raw = saved_file(driver, wait_for, download_dir, "Tag.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf_id,_entity,_name,")
    rows = list(csv.DictReader(io.StringIO(raw[3:].decode("utf-8"), newline="")))
    assert [r["_id"] for r in rows] == [r["id"] for r in all_rows(api, "Tag")]


def test_lab_exports_the_records_one_record_reaches_as_ndjson(driver, server, api, wait_for, download_dir, console_errors):
    author = next(r for r in api("/api/entities/Author")["rows"] if r["summary"] == "Émile Zola")
    short = author["id"].rsplit("/", 1)[1]
    expected = all_rows(api, "Book", relatedTo=author["id"], via="books")
    open_lab(driver, server, wait_for, entity="Book", relatedTo=author["id"], via="books")
    choose(driver, "grid-export-btn", "ndjson")
    wait_for(driver, lambda d: panel_state(d) == "done", message="the export done")
    path = saved_file(driver, wait_for, download_dir, f"Author-{short}-books.ndjson")
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert [{k: line[k] for k in ("id", "entity", "summary", "attrs")} for line in lines] == expected
    assert all(line["relationships"]["author"]["id"] == author["id"] for line in lines)
    assert console_errors(driver) == []


#: Installed before the page's scripts: an export's body is handed to the page one read at a time, and after the
#: first read the next waits until the test sets window.__exportGate ("go" lets it through, "cut" fails it the way
#: a body that ends without its last chunk fails).
GATE_EXPORT_READS = """
(() => {
  const realRead = ReadableStreamDefaultReader.prototype.read;
  ReadableStreamDefaultReader.prototype.read = async function () {
    this.__reads = (this.__reads || 0) + 1;
    if (this.__reads > 1) {
      window.__exportHeld = true;
      await new Promise((resolve) => {
        const check = () => window.__exportGate ? resolve() : setTimeout(check, 20);
        check();
      });
      if (window.__exportGate === 'cut') throw new TypeError('network error');
    }
    return realRead.call(this);
  };
})();
"""


def test_cancel_stops_an_export_midway_and_saves_nothing(driver, server, wait_for, download_dir):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": GATE_EXPORT_READS})
    open_inspector(driver, server, wait_for, entity="Book")
    choose(driver, "export-view-btn", "csv")
    wait_for(driver, lambda d: d.execute_script("return window.__exportHeld === true"), message="the export under way")
    assert panel_state(driver) == "running"
    driver.find_element(By.CSS_SELECTOR, "#export-panel .export-cancel").click()
    wait_for(driver, lambda d: panel_state(d) == "cancelled", message="the export cancelled")
    assert "nothing was saved" in panel_text(driver)
    driver.execute_script("window.__exportGate = 'go';")
    assert list(download_dir.iterdir()) == []


def test_a_cut_export_says_so_and_saves_nothing(driver, server, wait_for, download_dir):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": GATE_EXPORT_READS})
    open_lab(driver, server, wait_for, entity="Book")
    choose(driver, "grid-export-btn", "csv")
    wait_for(driver, lambda d: d.execute_script("return window.__exportHeld === true"), message="the export under way")
    driver.execute_script("window.__exportGate = 'cut';")
    wait_for(driver, lambda d: panel_state(d) == "failed", message="the export failed")
    assert "the server ended the file early, so it was not saved" in panel_text(driver)
    assert list(download_dir.iterdir()) == []


def test_a_refused_export_shows_the_servers_reason(driver, server, wait_for, download_dir):
    open_inspector(driver, server, wait_for, entity="Book", search="p3")
    choose(driver, "export-view-btn", "ndjson")
    wait_for(driver, lambda d: panel_state(d) == "failed", message="the export refused")
    assert panel_text(driver).startswith("Export failed: 400 · The search \"p3\" names one record by its ID")
    assert list(download_dir.iterdir()) == []


def test_the_export_menu_works_from_the_keyboard(driver, server, wait_for, download_dir):
    open_inspector(driver, server, wait_for, entity="Tag")
    driver.find_element(By.ID, "export-view-btn").click()
    wait_for(driver, lambda d: d.execute_script("return document.activeElement.matches('#export-menu .export-choice[data-format=\"csv\"][data-bom=\"0\"]')"),
             message="the first choice focused")
    active = lambda d: d.execute_script("return document.activeElement.dataset.format + document.activeElement.dataset.bom")
    driver.switch_to.active_element.send_keys("\ue015")  # ArrowDown
    driver.switch_to.active_element.send_keys("\ue015")
    assert active(driver) == "ndjson0"
    driver.switch_to.active_element.send_keys("\ue007")  # Enter
    wait_for(driver, lambda d: panel_state(d) == "done", message="the export done")
    saved_file(driver, wait_for, download_dir, "Tag.ndjson")
    driver.find_element(By.ID, "export-view-btn").click()
    driver.switch_to.active_element.send_keys("\ue00c")  # Escape
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('export-menu').hidden"), message="the menu closed")
    assert driver.switch_to.active_element.get_attribute("id") == "export-view-btn"
