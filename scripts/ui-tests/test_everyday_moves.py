"""Everyday moves: layout at the sizes people use: the Lab's toolbar stays one row at 1440 px even with long attribute
names and at 1024×700 the grid still shows a useful number of rows and columns; attribute names are cut with an
ellipsis, never broken inside a word; an empty content pane has no scrollbar. Screenshots under artifacts/."""

from __future__ import annotations

import pytest

from test_inspector import JS_ENTITY_ITEMS, detail_id, make_url
from test_lab import lab_url, pane_state, wait_detail

LONG = "aVeryLongAttributeNameThatAnAppMightReallyUseForSomethingImportant"


def open_lab(driver, server, wait_for, **params):
    driver.get(lab_url(server, **params))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Lab grid")


@pytest.mark.parametrize("width", [1366, 1440])
def test_the_lab_toolbar_stays_one_row_with_long_attribute_names(driver, server, wait_for, screenshot, width):
    driver.set_window_size(width, 900)
    open_lab(driver, server, wait_for, entity="Book")
    # Long names as a real store has them (Photos, SwiftData): the search-attribute menu shows them.
    driver.execute_script(
        "for (const option of document.querySelectorAll('#grid-search-attr option')) option.textContent = arguments[0];", LONG)
    box = driver.execute_script("""
        const bar = document.querySelector('.grid-toolbar').getBoundingClientRect();
        const items = [...document.querySelector('.grid-toolbar').children].filter(e => e.offsetParent !== null)
          .map(e => e.getBoundingClientRect());
        return {tops: [...new Set(items.map(r => Math.round((r.top + r.bottom) / 2)))], right: Math.max(...items.map(r => r.right)),
                barRight: bar.right, height: bar.height};""")
    assert max(box["tops"]) - min(box["tops"]) <= 4, f"the toolbar wrapped (control centres differ): {box}"
    assert box["right"] <= box["barRight"] + 1, f"a control is cut off: {box}"
    screenshot(driver, f"layout-lab-toolbar-{width}")


def test_at_1024_by_700_the_grid_shows_rows_and_columns(driver, server, wait_for, screenshot):
    driver.set_window_size(1024, 700)
    open_lab(driver, server, wait_for, entity="Book")
    shown = driver.execute_script("""
        const scroller = document.getElementById('grid-scroll').getBoundingClientRect();
        const rows = [...document.querySelectorAll('#grid-body tr[data-id]')].filter(tr => {
          const r = tr.getBoundingClientRect(); return r.top >= scroller.top && r.bottom <= scroller.bottom; });
        const heads = [...document.querySelectorAll('#grid-head-row th[data-col]')].filter(th => {
          const r = th.getBoundingClientRect(); return r.left >= scroller.left && r.right <= scroller.right; });
        const bar = document.querySelector('.grid-toolbar').children;
        const centres = [...bar].filter(e => e.offsetParent !== null).map(e => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
        return {rows: rows.length, columns: heads.length, toolbarSpread: Math.max(...centres) - Math.min(...centres)};""")
    # Ten rows need more height than 700 px leaves beside the browser's own bars; nine show, with two whole
    # columns. The toolbar may wrap here (it never hides a control).
    assert shown["rows"] >= 9 and shown["columns"] >= 2, shown
    screenshot(driver, "layout-lab-1024x700")


# Puts LONG into the first name cell (`arguments[0]`: its selector) the way the page writes names
# (shared/detail-sections.js nameWithBreaks), and measures: each word on one line, the name whole, no ellipsis.
WHOLE_NAME = """
const [selector, name, done] = arguments;
import('/shared/detail-sections.js').then(({ nameWithBreaks }) => {
  const cell = document.querySelector(selector);
  cell.replaceChildren(nameWithBreaks(name));
  const words = [...cell.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE);
  const linesOf = (node) => { const r = document.createRange(); r.selectNodeContents(node);
    return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; };
  done({text: cell.textContent, words: words.length, brokenWords: words.filter((w) => linesOf(w) > 1).map((w) => w.textContent),
        lines: linesOf(cell), overflow: getComputedStyle(cell).textOverflow, cut: cell.scrollWidth > cell.clientWidth + 1});
});
"""


def test_attribute_names_are_whole_and_never_broken_inside_a_word(driver, server, api, wait_for, screenshot):
    book = api("/api/entities/Book")["rows"][0]
    open_lab(driver, server, wait_for, entity="Book", id=book["id"])
    wait_detail(wait_for, driver, book["id"])
    for view, selector in (("Lab", ".attr-row dt"), ("Inspector", "#attr-table td.attr-name")):
        if view == "Inspector":
            driver.get(make_url(server, entity="Book", id=book["id"]))
            wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0 and detail_id(d) == book["id"],
                     message="the Inspector's detail")
        shown = driver.execute_async_script(WHOLE_NAME, selector, LONG)
        assert shown["text"] == LONG and not shown["cut"] and shown["overflow"] != "ellipsis", f"{view}: {shown}"
        assert shown["lines"] > 1 and shown["words"] > 5, f"{view}: the long name should wrap between its words: {shown}"
        assert shown["brokenWords"] == [], f"{view}: words broken over lines: {shown}"
        screenshot(driver, f"layout-{view.lower()}-attribute-names")


def test_an_empty_content_pane_has_no_scrollbar(driver, server, wait_for):
    open_lab(driver, server, wait_for, entity="Book")
    wait_for(driver, lambda d: pane_state(d, "pane-content") in ("empty", "ready", "idle"), message="the content pane")
    sizes = driver.execute_script("""
        const body = document.querySelector('#pane-content .pane-body');
        return {scroll: body.scrollHeight, client: body.clientHeight, view: document.getElementById('content-view').childElementCount};""")
    if sizes["view"] == 0:
        assert sizes["scroll"] <= sizes["client"], f"an empty content pane scrolls: {sizes}"


def test_grid_cells_and_rows_copy_from_a_context_menu_and_the_keyboard(driver, server, api, wait_for, screenshot):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    row = api("/api/entities/Book", limit=1)["rows"][0]
    open_lab(driver, server, wait_for, entity="Book")
    # Record what would reach the clipboard (headless Chromium has no clipboard to read back).
    driver.execute_script("window.__copied = []; navigator.clipboard.writeText = async (t) => { window.__copied.push(t); };")
    cell = driver.find_element(By.CSS_SELECTOR, f'#grid-body tr[data-id="{row["id"]}"] td[data-col="title"]')
    for action, expected in [("copy-value", row["attrs"]["title"]), ("copy-id", row["id"])]:
        ActionChains(driver).context_click(cell).perform()
        menu = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.cdb-popover[data-menu="cell"]'), message="the menu")
        if action == "copy-value":
            screenshot(driver, "copy-context-menu")
        menu[0].find_element(By.CSS_SELECTOR, f'[data-action="{action}"]').click()
        wait_for(driver, lambda d: d.execute_script("return window.__copied.at(-1)") == expected, message=action)
    ActionChains(driver).context_click(cell).perform()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.cdb-popover[data-menu="cell"]'), message="the menu")
    driver.find_element(By.CSS_SELECTOR, '.cdb-popover [data-action="copy-json"]').click()
    wait_for(driver, lambda d: '"id": "' + row["id"] + '"' in (d.execute_script("return window.__copied.at(-1)") or ""),
             message="the row as JSON")
    # The keyboard: Shift+F10 opens the same menu for the selected row; Ctrl+C copies its ID.
    grid = driver.find_element(By.ID, "grid-scroll")
    grid.send_keys(Keys.SHIFT, Keys.F10)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.cdb-popover[data-menu="cell"] [data-action="copy-id"]'),
             message="the menu from the keyboard")
    driver.find_element(By.CSS_SELECTOR, '.cdb-popover [data-action="copy-id"]').send_keys(Keys.ESCAPE)
    driver.execute_script("window.__copied = []")
    grid.send_keys(Keys.CONTROL, "c")
    wait_for(driver, lambda d: d.execute_script("return window.__copied.at(-1)") == row["id"], message="Ctrl+C")


def test_the_grid_header_is_one_tab_stop(driver, server, wait_for):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    open_lab(driver, server, wait_for, entity="Book")
    stops = driver.execute_script("return [...document.querySelectorAll('#grid-head-row th[data-col]')].filter(th => th.tabIndex === 0).length")
    assert stops == 1
    driver.execute_script("document.querySelector('#grid-head-row th[data-col]').focus()")
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    focused = driver.execute_script("return document.activeElement.dataset.col")
    second = driver.find_elements(By.CSS_SELECTOR, "#grid-head-row th[data-col]")[1].get_attribute("data-col")
    assert focused == second
    stops = driver.execute_script(
        "return [...document.querySelectorAll('#grid-head-row th[data-col]')].filter(th => th.tabIndex === 0).map(th => th.dataset.col)")
    assert stops == [second]


def test_records_can_be_named_by_two_attributes_in_both_views(driver, server, api, wait_for, screenshot):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    author = next(r for r in api("/api/entities/Author")["rows"] if r["attrs"].get("bio"))
    expected = f'{author["attrs"]["bio"]} {author["attrs"]["name"]}'
    driver.get(make_url(server, entity="Author", id=author["id"]))
    wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0 and detail_id(d) == author["id"], message="the detail")
    Select(driver.find_element(By.ID, "display-attr")).select_by_value("bio")
    wait_for(driver, lambda d: d.find_element(By.ID, "display-attr-2").is_displayed(), message="the second Name-by menu")
    Select(driver.find_element(By.ID, "display-attr-2")).select_by_value("name")
    wait_for(driver, lambda d: d.find_element(By.ID, "detail-summary").text == expected, message="the two-part name")
    # The Lab names the record the same way (one choice per store, in the browser) and can change it.
    driver.get(lab_url(server, entity="Author", id=author["id"]))
    wait_detail(wait_for, driver, author["id"])
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".detail-heading").text == expected, message="the Lab's name")
    screenshot(driver, "name-by-two-attributes")
    Select(driver.find_element(By.ID, "detail-name-by")).select_by_value("")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".detail-heading").text == author["summary"], message="default")


def test_enter_on_a_relationship_keeps_focus_in_its_pane(driver, server, api, wait_for, act_on):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    book = next(r for r in api("/api/entities/Book")["rows"] if r["entity"] == "Book")
    author_id = next(rel for rel in api("/api/object", id=book["id"])["relationships"] if rel["name"] == "author")["items"][0]["id"]
    open_lab(driver, server, wait_for, entity="Book", id=book["id"])
    wait_detail(wait_for, driver, book["id"])
    act_on(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#pane-detail .rel-item[data-id="{author_id}"]'),
           lambda item: driver.execute_script("arguments[0].focus()", item), message="the author in the detail pane")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_detail(wait_for, driver, author_id, message="the followed author")
    wait_for(driver, lambda d: d.execute_script("return !!document.activeElement.closest('#pane-detail')"),
             message="focus in the detail pane, not on the page")


def test_the_detail_pane_grows_with_the_window(driver, server, wait_for):
    driver.set_window_size(1440, 900)
    open_lab(driver, server, wait_for, entity="Book")
    narrow = driver.execute_script("return document.getElementById('pane-detail').getBoundingClientRect().width")
    driver.set_window_size(1920, 1080)
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('pane-detail').getBoundingClientRect().width")
             > narrow + 50, message="a wider detail pane in a wider window")


def test_inspector_list_rows_copy_from_a_context_menu(driver, server, api, wait_for):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    row = api("/api/entities/Book", limit=1)["rows"][0]
    driver.get(make_url(server, entity="Book"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#record-list .record-row[data-id="{row["id"]}"]'), message="rows")
    driver.execute_script("window.__copied = []; navigator.clipboard.writeText = async (t) => { window.__copied.push(t); };")
    item = driver.find_element(By.CSS_SELECTOR, f'#record-list .record-row[data-id="{row["id"]}"]')
    ActionChains(driver).context_click(item).perform()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#row-menu [data-action="copy-id"]'), message="the menu")
    driver.find_element(By.CSS_SELECTOR, '#row-menu [data-action="copy-id"]').click()
    wait_for(driver, lambda d: d.execute_script("return window.__copied.at(-1)") == row["id"], message="the ID copied")
    assert not driver.find_elements(By.ID, "row-menu")
    # From the keyboard: select the row, Shift+F10, copy as JSON.
    driver.find_element(By.CSS_SELECTOR, f'#record-list .record-row[data-id="{row["id"]}"]').click()
    driver.find_element(By.ID, "record-list").send_keys(Keys.SHIFT, Keys.F10)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#row-menu [data-action="copy-json"]'), message="menu by keyboard")
    driver.find_element(By.CSS_SELECTOR, '#row-menu [data-action="copy-json"]').click()
    wait_for(driver, lambda d: f'"id": "{row["id"]}"' in (d.execute_script("return window.__copied.at(-1)") or ""),
             message="the row as JSON")


#: Records what would reach the clipboard (headless Chromium has no clipboard to read back).
RECORD_CLIPBOARD = "window.__copied = []; navigator.clipboard.writeText = async (t) => { window.__copied.push(t); };"


def test_the_lab_detail_pane_copies_the_id_the_record_and_each_value(driver, server, api, wait_for, screenshot):
    import json

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    row = next(r for r in api("/api/entities/Book", limit=20)["rows"] if r["attrs"].get("publishedAt"))
    record = api("/api/object", id=row["id"])
    open_lab(driver, server, wait_for, entity="Book", id=row["id"])
    wait_detail(wait_for, driver, row["id"])
    driver.execute_script(RECORD_CLIPBOARD)
    copied = lambda d: d.execute_script("return window.__copied.at(-1)")  # noqa: E731

    button = driver.find_element(By.ID, "detail-copy-id")
    button.click()
    wait_for(driver, lambda d: copied(d) == row["id"], message="the object ID copied")
    wait_for(driver, lambda d: button.get_attribute("data-copied") == "true", message="the button says so")
    driver.find_element(By.ID, "detail-copy-json").click()
    wait_for(driver, lambda d: (copied(d) or "").startswith("{"), message="the record as JSON")
    assert json.loads(copied(driver)) == {"id": record["id"], "entity": record["entity"], "attrs": record["attrs"]}

    # Each value: the stored value, not its rendering (a date's ISO text, a number's digits).
    for name in ("title", "pageCount", "publishedAt"):
        attr_row = driver.find_element(By.CSS_SELECTOR, f'#detail-content .attr-row[data-attr="{name}"]')
        ActionChains(driver).move_to_element(attr_row).perform()
        if name == "title":
            screenshot(driver, "lab-detail-copy")
        attr_row.find_element(By.CSS_SELECTOR, "button.copy-value").click()
        wait_for(driver, lambda d: copied(d) == str(record["attrs"][name]), message=f"{name} copied")
    # A null or binary value has nothing to copy.
    assert not driver.find_elements(By.CSS_SELECTOR, '#detail-content .attr-row[data-attr="cover"] button.copy-value')


def test_ctrl_c_on_the_inspectors_selected_row_copies_its_id(driver, server, api, wait_for):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    rows = api("/api/entities/Book", limit=3)["rows"]
    driver.get(make_url(server, entity="Book"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#record-list .record-row[data-id="{rows[1]["id"]}"]'), message="rows")
    driver.execute_script(RECORD_CLIPBOARD)
    driver.find_element(By.CSS_SELECTOR, f'#record-list .record-row[data-id="{rows[1]["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == rows[1]["id"], message="the row selected")
    driver.find_element(By.ID, "record-list").send_keys(Keys.CONTROL, "c")
    wait_for(driver, lambda d: d.execute_script("return window.__copied.at(-1)") == rows[1]["id"], message="Ctrl+C: the ID")
    # The keyboard walk goes on and Ctrl+C follows the selection.
    driver.find_element(By.ID, "record-list").send_keys(Keys.ARROW_DOWN)
    wait_for(driver, lambda d: detail_id(d) == rows[2]["id"], message="the next row")
    driver.find_element(By.ID, "record-list").send_keys(Keys.CONTROL, "c")
    wait_for(driver, lambda d: d.execute_script("return window.__copied.at(-1)") == rows[2]["id"], message="Ctrl+C again")


def test_enter_on_a_relationship_keeps_focus_in_the_inspectors_panes(driver, server, api, wait_for):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    book = next(r for r in api("/api/entities/Book")["rows"] if r["entity"] == "Book")
    author_id = next(rel for rel in api("/api/object", id=book["id"])["relationships"] if rel["name"] == "author")["items"][0]["id"]
    driver.get(make_url(server, entity="Book", id=book["id"]))
    wait_for(driver, lambda d: detail_id(d) == book["id"], message="the book's detail")
    link = driver.find_element(By.CSS_SELECTOR, f'#detail .rel-block[data-rel="author"] a.rel-item[data-id="{author_id}"]')
    driver.execute_script("arguments[0].focus()", link)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: detail_id(d) == author_id, message="the followed author")
    # Focus is on the followed record's first related item, in the detail pane, not on the page.
    wait_for(driver, lambda d: d.execute_script(
        "const a = document.activeElement; return !!a.closest('#detail-pane') && a.matches('a.rel-item');"),
        message="focus on the author's first related record")
    # Enter again walks on from there, by keyboard only.
    first = driver.switch_to.active_element.get_attribute("data-id")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: detail_id(d) == first, message="the next record, by keyboard")
    wait_for(driver, lambda d: d.execute_script("return !!document.activeElement.closest('#detail-pane')"),
             message="focus still in the detail pane")
    # "Show all in the list" by Enter: focus goes to the list it opened.
    driver.get(make_url(server, entity="Author", id=author_id))
    wait_for(driver, lambda d: detail_id(d) == author_id, message="the author")
    show_all = driver.find_element(By.CSS_SELECTOR, '#detail .rel-block[data-rel="books"] a.rel-show-all')
    driver.execute_script("arguments[0].focus()", show_all)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "record-list", message="focus in the list")


#: The long value's parts in a detail pane: its height, the shown text's length, the count and the button.
JS_LONG_VALUE = """
const holder = document.querySelector(arguments[0] + ' .long-value');
if (!holder) return null;
const row = holder.closest(arguments[1]);
return {rowHeight: row.getBoundingClientRect().height, window: window.innerHeight,
        shown: holder.querySelector('.long-value-text').textContent.length,
        textHeight: holder.querySelector('.long-value-text').getBoundingClientRect().height,
        count: holder.querySelector('.long-value-count').textContent,
        button: holder.querySelector('button.show-all-value').textContent,
        clamped: holder.classList.contains('is-clamped')};"""


def test_a_long_value_is_clamped_with_its_length_and_show_all_in_both_views(driver, wait_for, abstract_store, screenshot):
    from selenium.webdriver.common.by import By
    from test_lab import pane_state

    base, api = abstract_store
    trips = next(r for r in api("/api/entities/Folder")["rows"] if r["summary"] == "Trips")
    notes = api("/api/object", id=trips["id"])["attrs"]["notes"]
    assert len(notes) == 187_008

    def check(cell, row_css, show_all):
        clamped = wait_for(driver, lambda d: d.execute_script(JS_LONG_VALUE, cell, row_css), message="the clamped value")
        # A few lines and the length: the row is short, not 188,000 px tall.
        assert clamped["clamped"] and clamped["count"] == "187,008 characters" and clamped["button"] == "Show all", clamped
        assert clamped["shown"] <= 2000 and clamped["rowHeight"] < 200, clamped
        show_all().click()
        opened = wait_for(driver, lambda d: (lambda v: v if v and not v["clamped"] else None)(d.execute_script(JS_LONG_VALUE, cell, row_css)),
                          message="the whole value")
        # Whole, in a box that scrolls: the row stays within the window.
        assert opened["shown"] == len(notes) and opened["button"] == "Show less", opened
        assert opened["textHeight"] <= opened["window"] * 0.6 + 2 and opened["rowHeight"] < opened["window"], opened
        show_all().click()
        wait_for(driver, lambda d: d.execute_script(JS_LONG_VALUE, cell, row_css)["clamped"], message="clamped again")

    driver.get(make_url(base, entity="Folder", id=trips["id"]))
    wait_for(driver, lambda d: detail_id(d) == trips["id"], message="the Inspector's detail")
    cell = '#attr-table tr.attr-row[data-attr="notes"] td.attr-value'
    check(cell, "tr", lambda: driver.find_element(By.CSS_SELECTOR, f"{cell} button.show-all-value"))
    assert driver.find_element(By.CSS_SELECTOR, f"{cell} button.copy-value").get_attribute("data-copy") == notes
    screenshot(driver, "long-value-inspector")

    driver.get(lab_url(base, entity="Folder", id=trips["id"]))
    wait_detail(wait_for, driver, trips["id"])
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid")
    dd = '#detail-content .attr-row[data-attr="notes"] dd'
    check(dd, ".attr-row", lambda: driver.find_element(By.CSS_SELECTOR, f"{dd} button.show-all-value"))
    assert driver.find_element(By.CSS_SELECTOR, '#detail-content .attr-row[data-attr="notes"] button.copy-value').get_attribute("data-copy") == notes
    # The grid's cell shows the start of it, one line, marked with the whole size (the list sent it cut).
    shown = driver.execute_script("""const td = document.querySelector('#grid-body tr[data-id="' + arguments[0] + '"] td[data-col="notes"]');
        const mark = td.querySelector('.val-cut-mark');
        return {length: td.textContent.length - (mark ? mark.textContent.length : 0), mark: mark && mark.textContent,
                height: td.getBoundingClientRect().height, title: td.title};""", trips["id"])
    assert shown["length"] <= 501 and shown["height"] < 40 and shown["mark"] == "182.6 KB", shown
    assert shown["title"].startswith("187,008 bytes of text, cut in the list"), shown
    screenshot(driver, "long-value-lab")


def test_a_list_sends_a_long_value_cut_with_a_mark_and_the_record_has_it_whole(driver, wait_for, abstract_store, screenshot):
    from selenium.webdriver.common.by import By

    base, api = abstract_store
    page = api("/api/entities/Folder", sort="notes")
    trips = next(r for r in page["rows"] if r["summary"] == "Trips")
    # The API: the start of the value, its whole length in bytes, the mark; the page says how much a value keeps.
    cut = trips["attrs"]["notes"]
    assert cut["type"] == "text" and cut["truncated"] is True and cut["bytes"] == 187_008, {k: cut[k] for k in ("type", "bytes")}
    assert len(cut["preview"].encode()) <= page["valuePreviewBytes"] <= 4096
    notes = api("/api/object", id=trips["id"])["attrs"]["notes"]
    assert notes.startswith(cut["preview"]) and len(notes) == 187_008
    facet = api("/api/entities/Folder/facets", attr="notes")
    assert any(isinstance(t["value"], dict) and t["value"]["bytes"] == 187_008 for t in facet["top"]), facet["top"]

    # The Inspector's list, sorted by notes, shows the sorted value: its start, "…", and the whole size.
    driver.get(make_url(base, entity="Folder", sort="notes"))
    item = f'#record-list li[data-id="{trips["id"]}"]'
    shown = wait_for(driver, lambda d: d.execute_script("""const value = document.querySelector(arguments[0] + ' .record-sort-value .val');
        if (!value || !value.querySelector('.val-cut-mark')) return null;
        return {mark: value.querySelector('.val-cut-mark').textContent, text: value.textContent, title: value.title,
                height: document.querySelector(arguments[0]).getBoundingClientRect().height};""", item),
        message="the cut value in the list")
    # Its start on one line (the row stays a row), marked with the whole size.
    assert shown["mark"] == "182.6 KB" and shown["text"].endswith("…") and shown["height"] < 80, {k: shown[k] for k in ("mark", "height")}
    assert shown["title"].startswith("Text of 182.6 KB (187,008 bytes): the list shows its first"), shown
    screenshot(driver, "cut-value-inspector-list")
    # Opening the record shows it whole.
    driver.find_element(By.CSS_SELECTOR, item).click()
    wait_for(driver, lambda d: detail_id(d) == trips["id"], message="the record")
    count = wait_for(driver, lambda d: d.execute_script(
        "const c = document.querySelector('#attr-table tr.attr-row[data-attr=\"notes\"] .long-value-count'); return c && c.textContent;"),
        message="the whole value in the detail")
    assert count == "187,008 characters"

    # The Lab's grid marks it the same way.
    driver.get(lab_url(base, entity="Folder"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid")
    mark = driver.execute_script("""const td = document.querySelector('#grid-body tr[data-id="' + arguments[0] + '"] td[data-col="notes"]');
        return td && td.querySelector('.val-cut-mark') && td.querySelector('.val-cut-mark').textContent;""", trips["id"])
    assert mark == "182.6 KB"


def test_relationship_destinations_are_links_and_sub_entity_rows_say_their_entity(driver, server, api, wait_for, screenshot):
    from selenium.webdriver.common.by import By
    from test_inspector import selected_entity
    from test_lab import pane_state, query_of

    book = next(r for r in api("/api/entities/Book")["rows"] if r["entity"] == "Book")
    # The Inspector: "→ Author" is a link to the Author list (a real href, so a new tab works too).
    driver.get(make_url(server, entity="Book", id=book["id"]))
    wait_for(driver, lambda d: detail_id(d) == book["id"], message="the book")
    link = driver.find_element(By.CSS_SELECTOR, '#detail .rel-block[data-rel="author"] a.rel-destination-link')
    assert link.text == "Author" and link.get_attribute("href").endswith("/?entity=Author")
    link.click()
    wait_for(driver, lambda d: selected_entity(d) == "Author", message="the Author list")
    # The Lab: the same.
    open_lab(driver, server, wait_for, entity="Book", id=book["id"])
    wait_detail(wait_for, driver, book["id"])
    link = driver.find_element(By.CSS_SELECTOR, '#detail-content .rel-card[data-rel="author"] a.rel-destination-link')
    assert link.text == "Author" and link.get_attribute("href").endswith("/lab?entity=Author")
    link.click()
    wait_for(driver, lambda d: query_of(d).get("entity") == "Author" and pane_state(d, "pane-grid") == "ready", message="the Author grid")

    # Rows of a sub-entity in its parent's list name it (the demo's AudioBooks among the Books).
    audio = [r for r in api("/api/entities/Book", limit=500)["rows"] if r["entity"] == "AudioBook"]
    assert audio, "the demo lists AudioBooks under Book"
    open_lab(driver, server, wait_for, entity="Book", limit=500)
    shown = driver.execute_script("""return [...document.querySelectorAll('#grid-body tr.row-sub')].map(tr =>
        [tr.dataset.id, tr.querySelector('td.col-select .row-entity').textContent]);""")
    assert shown == [[r["id"], "AudioBook"] for r in audio]
    driver.execute_script("document.querySelector('#grid-body tr.row-sub').scrollIntoView({block: 'center'})")
    screenshot(driver, "lab-sub-entity-rows")
