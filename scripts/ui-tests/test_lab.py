"""Browser tests of the Lab view (web/lab.html and web/pages/lab/): the plan's v1.1 verification list, automated.

Expectations are computed from the JSON API of the same server (the `api` fixture), so the tests follow the
demo store's data instead of hard-coding it. Waits are WebDriverWait conditions (`wait_for`); a broken UI makes
them time out. Test hooks used here are listed at the top of web/pages/lab/lab.js.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

LOCAL_DATE = re.compile(r"[+-]?\d{4,6}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})? GMT[+-]\d{1,2}(:\d\d){0,2}")
HOSTILE_TITLE = '<script>window.__xss=1</script> "quoted" <img src=x onerror="window.__xss=2">'
REPO_ROOT = Path(__file__).resolve().parents[2]
SHORT_TYPES = {"Integer 16": "Int16", "Integer 32": "Int32", "Integer 64": "Int64", "Boolean": "Bool"}
PANE_MINIMUMS = {"pane-sidebar": 160, "pane-detail": 240}

# ------------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------------

JS_HEADERS = "return [...document.querySelectorAll('#grid-head-row th[data-col]')].map(th => th.dataset.col);"
JS_ROW_IDS = "return [...document.querySelectorAll('#grid-body tr[data-id]')].map(tr => tr.dataset.id);"
JS_SELECTED = "return [...document.querySelectorAll('#grid-body tr.is-selected')].map(tr => tr.dataset.id);"
JS_REL_IDS = "return [...document.querySelectorAll('#rel-list > li[data-id]')].map(li => li.dataset.id);"


def lab_url(server, **params):
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return f"{server}/lab{'?' + query if query else ''}"


def headers(driver):
    return driver.execute_script(JS_HEADERS)


def row_ids(driver):
    return driver.execute_script(JS_ROW_IDS)


def selected_rows(driver):
    return driver.execute_script(JS_SELECTED)


def query_of(driver):
    return {k: v[0] for k, v in parse_qs(urlsplit(driver.current_url).query).items()}


def pane_state(driver, pane_id):
    return driver.execute_script("return document.getElementById(arguments[0]).dataset.state;", pane_id)


def detail_id(driver):
    return driver.execute_script(
        "const p = document.getElementById('pane-detail'); return p.dataset.state === 'ready' ? p.dataset.id : null;"
    )


def rect(driver, css):
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, top: r.top, width: r.width, height: r.height};",
        css,
    )


def header_cell(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'#grid-head-row th[data-col="{name}"]')


def row_element(driver, row_id):
    for tr in driver.find_elements(By.CSS_SELECTOR, "#grid-body tr[data-id]"):
        if tr.get_attribute("data-id") == row_id:
            return tr
    raise AssertionError(f"no grid row {row_id}")


def cell(driver, row_id, col):
    """(textContent, class list) of a grid cell."""
    return driver.execute_script(
        """for (const tr of document.querySelectorAll('#grid-body tr[data-id]')) {
             if (tr.dataset.id !== arguments[0]) continue;
             const td = [...tr.cells].find(c => c.dataset.col === arguments[1]);
             return td ? [td.textContent, [...td.classList]] : null;
           }
           return null;""",
        row_id,
        col,
    )


def stored_json(driver, key):
    raw = driver.execute_script("return localStorage.getItem(arguments[0]);", key)
    return json.loads(raw) if raw is not None else None


def entity_meta(api, name):
    return next(e for e in api("/api/entities") if e["name"] == name)


IDENTIFIER_NAME = re.compile(r"^(?i:id|uuid|guid|identifier)$|(Id|ID|_id|Identifier|UUID|Uuid|GUID|Guid)$")


def default_columns(meta):
    """The grid's default column order: the display attribute first, then the model's order, identifiers (UUIDs,
    `id`, `productId`…) after them, bytes last."""
    first = meta.get("summaryAttribute")
    attributes = meta["attributes"]

    def rank(a):
        if a["name"] == first:
            return 0
        if a["type"] in ("Binary", "Transformable", "Undefined", "ObjectID"):
            return 3
        return 2 if a["type"] == "UUID" or IDENTIFIER_NAME.search(a["name"]) else 1

    return [a["name"] for _, a in sorted(enumerate(attributes), key=lambda pair: (rank(pair[1]), pair[0]))]



def ids(page):
    return [row["id"] for row in page["rows"]]


def all_rows(api, entity):
    return api(f"/api/entities/{entity}", limit=500)["rows"]


def wait_rows(wait_for, driver, expected, message):
    wait_for(driver, lambda d: row_ids(d) == expected, message=message)


def wait_detail(wait_for, driver, record_id, message="the detail pane"):
    wait_for(driver, lambda d: detail_id(d) == record_id, message=message)


def click_row(driver, row_id):
    # Click the row-number gutter: always inside the viewport, so the grid does not scroll sideways.
    row_element(driver, row_id).find_element(By.CSS_SELECTOR, "td.col-select").click()


def drag_by(driver, element, dx, dy=0, start_offset=None):
    """Pointer drag in small steps (real pointerdown / pointermove / pointerup through WebDriver)."""
    chain = ActionChains(driver)
    if start_offset is None:
        chain.move_to_element(element)
    else:
        chain.move_to_element_with_offset(element, *start_offset)
    chain.click_and_hold()
    steps = 4
    for _ in range(steps):
        chain.move_by_offset(dx / steps, dy / steps)
    chain.release().perform()


def drag_to(driver, element, x=None, y=None):
    """Drags an element's centre to viewport point (x, y) (None keeps that coordinate)."""
    box = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", element
    )
    dx = 0 if x is None else x - box[0]
    dy = 0 if y is None else y - box[1]
    drag_by(driver, element, int(dx), int(dy))


def viewport(driver):
    return driver.execute_script("return [document.documentElement.clientWidth, document.documentElement.clientHeight];")


def drag_resize_grip(driver, th, dx):
    width = th.rect["width"]
    drag_by(driver, th, dx, start_offset=(int(width / 2) - 3, 0))


@pytest.fixture
def lab(driver, server, wait_for, console_errors):
    """Opens the Lab at a query and waits for the grid to settle; fails the test on JavaScript errors."""

    def open_at(**params):
        driver.get(lab_url(server, **params))
        wait_for(
            driver,
            lambda d: pane_state(d, "pane-grid") in ("ready", "empty", "error")
            and pane_state(d, "pane-sidebar") in ("ready", "empty", "error"),
            message="the Lab grid",
        )
        return driver

    yield open_at
    errors = console_errors(driver)
    assert not errors, f"JavaScript errors in the browser console: {errors}"


def book_with_relations(api):
    """A Book on the first default page that has an author and at least one tag."""
    for row in api("/api/entities/Book")["rows"]:
        record = api("/api/object", id=row["id"])
        rels = {rel["name"]: rel for rel in record["relationships"]}
        if rels.get("author", {}).get("count") and rels.get("tags", {}).get("count"):
            return row, record
    raise AssertionError("no Book on the first page has both an author and tags")


# ------------------------------------------------------------------------------------------------
# Routes and view tabs
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, content_type, source",
    [
        ("/lab", "text/html", "lab.html"),
        ("/lab.html", "text/html", "lab.html"),
        ("/pages/lab/lab.css", "text/css", "pages/lab/lab.css"),
        ("/pages/lab/lab.js", "text/javascript", "pages/lab/lab.js"),
        ("/shared/api.js", "text/javascript", "shared/api.js"),
        ("/features/content/content.js", "text/javascript", "features/content/content.js"),
        ("/features/content/content.css", "text/css", "features/content/content.css"),
    ],
)
def test_lab_routes_serve_the_web_files(server, path, content_type, source):
    with urllib.request.urlopen(server + path, timeout=15) as response:
        assert response.status == 200
        assert response.headers.get_content_type() == content_type
        body = response.read()
    assert body == (REPO_ROOT / "web" / source).read_bytes(), f"{path} is not web/{source} byte for byte"


def test_view_tabs_toggle_both_ways_and_remember_the_view(lab, server, wait_for):
    driver = lab(entity="Book")
    assert driver.execute_script("return localStorage.getItem('cdb.preferredView')") == "lab"
    lab_tab = driver.find_element(By.ID, "tab-lab")
    inspector_tab = driver.find_element(By.ID, "tab-inspector")
    assert lab_tab.get_attribute("aria-current") == "page"
    assert inspector_tab.get_attribute("aria-current") is None
    assert lab_tab.get_attribute("href") == f"{server}/lab"
    assert inspector_tab.get_attribute("href") == f"{server}/"
    # Pill tabs, the active one tinted with the accent.
    style = driver.execute_script(
        "const s = getComputedStyle(document.getElementById('tab-lab'));"
        "return [parseFloat(s.borderTopLeftRadius), s.color, s.backgroundColor];"
    )
    assert style[0] >= 12 and style[1] == "rgb(74, 139, 255)" and style[2] == "rgb(26, 36, 71)"

    inspector_tab.click()
    wait_for(driver, lambda d: urlsplit(d.current_url).path == "/", message="the Inspector")
    wait_for(driver, lambda d: d.execute_script("return localStorage.getItem('cdb.preferredView')") == "inspector",
             message="cdb.preferredView = inspector")
    driver.find_element(By.ID, "tab-lab").click()
    wait_for(driver, lambda d: urlsplit(d.current_url).path == "/lab", message="back to the Lab")
    wait_for(driver, lambda d: d.execute_script("return localStorage.getItem('cdb.preferredView')") == "lab",
             message="cdb.preferredView = lab")
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Lab grid after toggling back")


# ------------------------------------------------------------------------------------------------
# Sidebar and grid
# ------------------------------------------------------------------------------------------------


def test_sidebar_lists_every_entity_with_its_count_and_switches_the_grid(lab, api, wait_for):
    entities = api("/api/entities")
    driver = lab()
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#entity-list > li[data-entity]')].map(li =>"
        " [li.dataset.entity, li.querySelector('.count').textContent]);"
    )
    assert sorted(shown) == sorted([e["name"], str(e["count"])] for e in entities)
    # Without an entity in the URL the first one is shown, and the URL says so.
    first = entities[0]["name"]
    assert query_of(driver)["entity"] == first
    wait_rows(wait_for, driver, ids(api(f"/api/entities/{first}")), f"the {first} rows")

    driver.find_element(By.CSS_SELECTOR, '#entity-list > li[data-entity="Tag"]').click()
    wait_rows(wait_for, driver, ids(api("/api/entities/Tag")), "the Tag rows")
    assert headers(driver) == default_columns(entity_meta(api, "Tag"))
    assert query_of(driver)["entity"] == "Tag"
    active = driver.find_elements(By.CSS_SELECTOR, "#entity-list > li.active")
    assert [li.get_attribute("data-entity") for li in active] == ["Tag"]


def test_book_grid_has_a_column_per_attribute_with_a_type_suffix(lab, api, wait_for):
    meta = entity_meta(api, "Book")
    driver = lab(entity="Book")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the first Book page")
    assert headers(driver) == default_columns(meta)
    # The whole order: the name first, the model's order, the UUID after them, the bytes last.
    assert headers(driver) == ["title", "inPrint", "pageCount", "price", "publishedAt", "rating", "summary", "wordCount",
                               "identifier", "cover"]
    for attr in meta["attributes"]:
        th = header_cell(driver, attr["name"])
        assert th.find_element(By.CSS_SELECTOR, ".th-label").text == attr["name"]
        assert th.find_element(By.CSS_SELECTOR, ".th-type").text == SHORT_TYPES.get(attr["type"], attr["type"])
    assert header_cell(driver, "pageCount").find_element(By.CSS_SELECTOR, ".th-type").text == "Int32"
    # The suffix is dimmer than the name.
    colours = driver.execute_script(
        "const th = document.querySelector('#grid-head-row th[data-col=\"pageCount\"]');"
        "return [getComputedStyle(th.querySelector('.th-label')).color, getComputedStyle(th.querySelector('.th-type')).color];"
    )
    assert colours == ["rgb(237, 237, 239)", "rgb(139, 139, 149)"]
    # Every row has one cell per attribute.
    counts = driver.execute_script("return [...document.querySelectorAll('#grid-body tr')].map(tr => tr.querySelectorAll('td[data-col]').length);")
    assert set(counts) == {len(meta["attributes"])}


def test_header_stays_put_when_the_grid_scrolls(lab, wait_for):
    driver = lab(entity="Book", limit=200)
    wait_for(driver, lambda d: len(row_ids(d)) > 50, message="a long page")
    before = rect(driver, '#grid-head-row th[data-col="title"]')
    first_row_before = rect(driver, "#grid-body tr")
    driver.execute_script("document.getElementById('grid-scroll').scrollTop = 900;")
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('grid-scroll').scrollTop") > 0,
             message="the grid to scroll")
    assert rect(driver, "#grid-body tr")["top"] < first_row_before["top"] - 100, "the rows did not scroll"
    assert rect(driver, '#grid-head-row th[data-col="title"]')["top"] == before["top"], "the header moved"


def test_sort_by_a_relationships_count_shows_its_count_column(lab, api, wait_for):
    driver = lab(entity="Book")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the unsorted rows")
    driver.find_element(By.ID, "grid-columns-btn").click()
    offered = driver.execute_script("return [...document.querySelectorAll('[data-action=\"sort-count\"]')].map(b => b.dataset.count);")
    assert offered == ["tags"]  # Book's only to-many relationship; author is to-one
    driver.find_element(By.CSS_SELECTOR, '[data-action="sort-count"][data-count="tags"]').click()

    descending = api("/api/entities/Book", sort="tags.@count", order="desc")
    wait_rows(wait_for, driver, ids(descending), "rows sorted by tags count, most first")
    assert query_of(driver)["sort"] == "tags.@count" and query_of(driver)["order"] == "desc"
    th = header_cell(driver, "tags.@count")
    assert th.find_element(By.CSS_SELECTOR, ".th-label").text == "tags count"
    assert th.find_element(By.CSS_SELECTOR, ".th-sort").text == "▼"
    assert headers(driver)[0] == "tags.@count"
    # Each row's count, recomputed from its detail: the API's order is by it, and the column shows it.
    counts = []
    for row in descending["rows"]:
        rels = {rel["name"]: rel for rel in api("/api/object", id=row["id"])["relationships"]}
        counts.append(rels["tags"]["count"])
        assert cell(driver, row["id"], "tags.@count")[0] == str(rels["tags"]["count"])
    assert counts == sorted(counts, reverse=True) and len(set(counts)) > 1

    header_cell(driver, "tags.@count").click()  # ▼ → unsorted: the count column goes with its sort
    unsorted = ids(api("/api/entities/Book"))
    wait_rows(wait_for, driver, unsorted, "the unsorted rows again")
    assert "tags.@count" not in headers(driver)

    driver = lab(entity="Book", sort="tags.@count", order="asc")  # from a link
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", sort="tags.@count", order="asc")), "rows by tags count, fewest first")
    assert header_cell(driver, "tags.@count").find_element(By.CSS_SELECTOR, ".th-sort").text == "▲"


def test_sort_cycles_ascending_descending_unsorted_on_the_server(lab, api, wait_for):
    driver = lab(entity="Book")
    unsorted = ids(api("/api/entities/Book"))
    wait_rows(wait_for, driver, unsorted, "the unsorted rows")

    def indicator():
        th = header_cell(driver, "title")
        return th.find_element(By.CSS_SELECTOR, ".th-sort").text, th.get_attribute("aria-sort")

    header_cell(driver, "title").click()
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", sort="title", order="asc")), "rows sorted by title ▲")
    assert indicator() == ("▲", "ascending")
    assert query_of(driver)["sort"] == "title" and query_of(driver)["order"] == "asc"

    header_cell(driver, "title").click()
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", sort="title", order="desc")), "rows sorted by title ▼")
    assert indicator() == ("▼", "descending")
    assert query_of(driver)["order"] == "desc"

    header_cell(driver, "title").click()
    wait_rows(wait_for, driver, unsorted, "the unsorted rows again")
    assert indicator() == ("", "none")
    assert "sort" not in query_of(driver)

    # The sort lives in the URL: a reload keeps it.
    # Each click waits for the sort it makes: a second click sent while the header is redrawn would be lost.
    header_cell(driver, "pageCount").click()
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", sort="pageCount", order="asc")), "rows sorted by pageCount ▲")
    header_cell(driver, "pageCount").click()
    expected = ids(api("/api/entities/Book", sort="pageCount", order="desc"))
    wait_rows(wait_for, driver, expected, "rows sorted by pageCount ▼")
    driver.refresh()
    wait_rows(wait_for, driver, expected, "the sort kept after reload")


def test_search_is_debounced_aborts_superseded_requests_and_filters_on_the_server(lab, api, wait_for):
    meta = entity_meta(api, "Book")
    driver = lab(entity="Book")
    options = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "grid-search-attr")).options]
    assert options == [""] + [a["name"] for a in meta["attributes"] if a["type"] == "String"]
    assert Select(driver.find_element(By.ID, "grid-search-attr")).options[0].text == "All text"

    # Slow every records request down so that a second search overlaps the first one.
    driver.execute_script(
        """window.__gridFetches = [];
           const original = window.fetch;
           window.fetch = (input, init = {}) => {
             const url = String(input);
             if (!url.startsWith('/api/entities/')) return original(input, init);
             const entry = {url, signal: init.signal};
             window.__gridFetches.push(entry);
             return new Promise(resolve => setTimeout(resolve, 600)).then(() => original(input, init));
           };"""
    )
    search = driver.find_element(By.ID, "grid-search")
    search.send_keys("Bo")
    wait_for(driver, lambda d: d.execute_script("return window.__gridFetches.length") == 1,
             message="one request after the debounce (not one per key)")
    search.send_keys("ok 1")
    expected = api("/api/entities/Book", search="Book 1")
    wait_rows(wait_for, driver, ids(expected), "the rows matching 'Book 1'")
    fetches = driver.execute_script(
        "return window.__gridFetches.map(f => [decodeURIComponent(f.url), f.signal.aborted]);"
    )
    assert len(fetches) == 2, fetches
    assert "search=Bo&" in fetches[0][0] or fetches[0][0].endswith("search=Bo"), fetches
    assert fetches[0][1] is True, "the superseded search was not aborted"
    assert fetches[1][1] is False
    assert query_of(driver)["search"] == "Book 1"
    assert driver.find_element(By.ID, "grid-page-indicator").text.endswith(f"of {expected['total']}")

    Select(driver.find_element(By.ID, "grid-search-attr")).select_by_value("summary")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", search="Book 1", searchAttr="summary")),
              "the rows whose summary matches")
    assert query_of(driver)["searchAttr"] == "summary"


def test_page_size_and_paging(lab, api, wait_for):
    total = api("/api/entities/Book", limit=1)["total"]
    assert total > 50, "the demo store needs more than 50 books"
    driver = lab(entity="Book")
    sizes = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "grid-page-size")).options]
    assert sizes == ["25", "50", "100", "200", "500"]
    Select(driver.find_element(By.ID, "grid-page-size")).select_by_value("25")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", limit=25)), "a page of 25")
    indicator = driver.find_element(By.ID, "grid-page-indicator")
    assert indicator.text == f"1–25 of {total}"
    assert driver.find_element(By.ID, "grid-prev").get_attribute("disabled") == "true"

    driver.find_element(By.ID, "grid-next").click()
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", limit=25, offset=25)), "the second page")
    assert indicator.text == f"26–50 of {total}"
    assert query_of(driver)["limit"] == "25" and query_of(driver)["offset"] == "25"
    # Row numbers continue across pages.
    assert driver.find_element(By.CSS_SELECTOR, "#grid-body tr td.col-select").text == "26"

    driver.find_element(By.ID, "grid-prev").click()
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", limit=25)), "the first page again")


def test_render_time_of_a_500_row_page(lab, api, wait_for, capsys):
    expected = ids(api("/api/entities/Book", limit=500))
    driver = lab(entity="Book")
    Select(driver.find_element(By.ID, "grid-page-size")).select_by_value("500")
    wait_rows(wait_for, driver, expected, "the 500-row page")
    ms, rows = driver.execute_script("return [window.__cdbLastRenderMs, window.__cdbLastRenderRows];")
    columns = len(headers(driver))
    # Reported, not asserted; printed past pytest's capture so every run's log shows it.
    with capsys.disabled():
        print(f"\nLab grid render: {rows} rows x {columns} columns in {ms:.1f} ms (performance.now(), layout included)")
    assert rows == len(expected)


# ------------------------------------------------------------------------------------------------
# Column operations
# ------------------------------------------------------------------------------------------------


def test_drag_reorders_a_column_and_the_order_persists(lab, api, wait_for):
    names = default_columns(entity_meta(api, "Book"))
    assert names.index("pageCount") < names.index("summary")
    driver = lab(entity="Book")
    # Give the grid room (side panes at their minimums) and scroll pageCount to its left edge, so both
    # headers are on screen for the pointer.
    driver.execute_script("localStorage.setItem('cdb.lab.panes', JSON.stringify({sidebar: 160, detail: 240}));")
    driver.refresh()
    wait_for(driver, lambda d: headers(d) == names and len(row_ids(d)) > 0, message="the default column order")
    driver.execute_script(
        "const th = document.querySelector('#grid-head-row th[data-col=\"pageCount\"]');"
        "document.getElementById('grid-scroll').scrollLeft = th.offsetLeft - 50;"
    )

    source = header_cell(driver, "pageCount")
    target = header_cell(driver, "summary")
    dx = (target.rect["x"] + target.rect["width"] * 0.8) - (source.rect["x"] + source.rect["width"] / 2)
    drag_by(driver, source.find_element(By.CSS_SELECTOR, ".th-label"), dx)

    expected = [n for n in names if n != "pageCount"]
    expected.insert(expected.index("summary") + 1, "pageCount")
    wait_for(driver, lambda d: headers(d) == expected, message="pageCount right of summary")
    assert stored_json(driver, "cdb.lab.cols.Book")["order"] == expected
    # A drag is not a click: no sort was started.
    assert header_cell(driver, "pageCount").get_attribute("aria-sort") == "none"
    assert "sort" not in query_of(driver)
    # Cells follow their headers.
    first = row_ids(driver)[0]
    row = api("/api/entities/Book")["rows"][0]
    assert cell(driver, first, "pageCount")[0] == str(row["attrs"]["pageCount"])
    cells = driver.execute_script("return [...document.querySelector('#grid-body tr').querySelectorAll('td[data-col]')].map(td => td.dataset.col);")
    assert cells == expected

    driver.refresh()
    wait_for(driver, lambda d: headers(d) == expected and len(row_ids(d)) > 0, message="the order kept after reload")


def test_dragging_a_header_edge_resizes_the_column_and_the_width_persists(lab, wait_for):
    driver = lab(entity="Book")
    th = header_cell(driver, "title")
    before = th.rect["width"]
    drag_resize_grip(driver, th, 120)
    wait_for(driver, lambda d: abs(header_cell(d, "title").rect["width"] - (before + 120)) <= 3, message="a wider title column")
    stored = stored_json(driver, "cdb.lab.cols.Book")["widths"]["title"]
    assert abs(stored - (before + 120)) <= 3
    # No sort was triggered by the drag.
    assert header_cell(driver, "title").get_attribute("aria-sort") == "none"

    driver.refresh()
    wait_for(driver, lambda d: len(row_ids(d)) > 0, message="the grid after reload")
    assert abs(header_cell(driver, "title").rect["width"] - stored) <= 1
    td_width = driver.execute_script("return document.querySelector('#grid-body td[data-col=\"title\"]').getBoundingClientRect().width;")
    assert abs(td_width - stored) <= 1

    # Narrower than the content works too: the cells clip with an ellipsis.
    th = header_cell(driver, "title")
    drag_resize_grip(driver, th, -(th.rect["width"] - 90))
    wait_for(driver, lambda d: abs(header_cell(d, "title").rect["width"] - 90) <= 3, message="a narrow title column")
    td_width = driver.execute_script("return document.querySelector('#grid-body td[data-col=\"title\"]').getBoundingClientRect().width;")
    assert abs(td_width - header_cell(driver, "title").rect["width"]) <= 1
    assert abs(stored_json(driver, "cdb.lab.cols.Book")["widths"]["title"] - 90) <= 3


def test_hide_from_the_header_menu_and_restore_from_the_columns_menu(lab, wait_for, wait_css):
    driver = lab(entity="Book")
    ActionChains(driver).context_click(header_cell(driver, "summary")).perform()
    wait_css(driver, '.cdb-popover[data-menu="header"]').find_element(By.CSS_SELECTOR, '[data-action="hide"]').click()
    wait_for(driver, lambda d: "summary" not in headers(d), message="summary hidden")
    assert not driver.find_elements(By.CSS_SELECTOR, '#grid-body td[data-col="summary"]')
    assert not driver.find_elements(By.CSS_SELECTOR, ".cdb-popover"), "the menu closes after Hide"
    assert stored_json(driver, "cdb.lab.cols.Book")["hidden"] == ["summary"]

    driver.refresh()
    wait_for(driver, lambda d: len(row_ids(d)) > 0 and "summary" not in headers(d), message="still hidden after reload")

    driver.find_element(By.ID, "grid-columns-btn").click()
    box = wait_css(driver, '.cdb-popover[data-menu="columns"] input[data-col="summary"]')
    assert not box.is_selected()
    assert driver.find_element(By.CSS_SELECTOR, '.cdb-popover input[data-col="title"]').is_selected()
    box.click()
    wait_for(driver, lambda d: "summary" in headers(d), message="summary restored")
    assert stored_json(driver, "cdb.lab.cols.Book")["hidden"] == []
    # Escape closes the menu.
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".cdb-popover"), message="the menu closed by Escape")


@pytest.mark.parametrize(
    "stored",
    [
        "not json {",
        "null",
        "42",
        "[]",
        '"order"',
        '{"order": "title", "widths": [], "hidden": {"a": 1}}',
        '{"order": [null, 7, {"x": 1}], "widths": {"title": "wide", "pageCount": null}, "hidden": [false]}',
    ],
)
def test_malformed_column_preferences_fall_back_to_defaults(lab, server, api, wait_for, stored):
    names = default_columns(entity_meta(api, "Book"))
    driver = lab(entity="Book")
    driver.execute_script("localStorage.setItem('cdb.lab.cols.Book', arguments[0]);", stored)
    driver.refresh()
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the grid despite malformed preferences")
    assert headers(driver) == names


def test_unknown_names_in_column_preferences_are_dropped(lab, api, wait_for):
    names = default_columns(entity_meta(api, "Book"))
    driver = lab(entity="Book")
    driver.execute_script(
        "localStorage.setItem('cdb.lab.cols.Book', JSON.stringify(arguments[0]));",
        {"order": ["noSuchColumn", "title", "title", "pageCount"], "widths": {"noSuchColumn": 300, "pageCount": 150},
         "hidden": ["noSuchColumn", "summary"]},
    )
    driver.refresh()
    wait_for(driver, lambda d: len(row_ids(d)) > 0, message="the grid")
    expected = ["title", "pageCount"] + [n for n in names if n not in ("title", "pageCount", "summary")]
    assert headers(driver) == expected
    assert abs(header_cell(driver, "pageCount").rect["width"] - 150) <= 1


# ------------------------------------------------------------------------------------------------
# Splitters
# ------------------------------------------------------------------------------------------------


def size(driver, pane_id, axis="width"):
    return driver.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect()[arguments[1]];", pane_id, axis)


def test_splitters_resize_panes_persist_and_clamp(lab, wait_for):
    driver = lab(entity="Book")
    sidebar = size(driver, "pane-sidebar")
    drag_by(driver, driver.find_element(By.ID, "split-sidebar"), 80)
    wait_for(driver, lambda d: abs(size(d, "pane-sidebar") - (sidebar + 80)) <= 2, message="a wider sidebar")

    detail = size(driver, "pane-detail")
    drag_by(driver, driver.find_element(By.ID, "split-detail"), -60)
    wait_for(driver, lambda d: abs(size(d, "pane-detail") - (detail + 60)) <= 2, message="a wider detail pane")

    bottom = size(driver, "bottom-row", "height")
    drag_by(driver, driver.find_element(By.ID, "split-bottom"), 0, -70)
    wait_for(driver, lambda d: abs(size(d, "bottom-row", "height") - (bottom + 70)) <= 2, message="a taller bottom row")

    left = size(driver, "pane-relationships")
    drag_by(driver, driver.find_element(By.ID, "split-bottom-lr"), 50)
    wait_for(driver, lambda d: abs(size(d, "pane-relationships") - (left + 50)) <= 2, message="a wider relationships pane")

    stored = stored_json(driver, "cdb.lab.panes")
    assert abs(stored["sidebar"] - (sidebar + 80)) <= 2 and abs(stored["detail"] - (detail + 60)) <= 2
    assert abs(stored["bottom"] - (bottom + 70)) <= 2 and abs(stored["bottomLeft"] - (left + 50)) <= 2

    driver.refresh()
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid after reload")
    assert abs(size(driver, "pane-sidebar") - stored["sidebar"]) <= 1
    assert abs(size(driver, "pane-detail") - stored["detail"]) <= 1
    assert abs(size(driver, "bottom-row", "height") - stored["bottom"]) <= 1
    assert abs(size(driver, "pane-relationships") - stored["bottomLeft"]) <= 1

    # Dragging past a minimum (to the window's edge) stops at it.
    width, height = viewport(driver)
    drag_to(driver, driver.find_element(By.ID, "split-sidebar"), x=2)
    wait_for(driver, lambda d: abs(size(d, "pane-sidebar") - 160) <= 1, message="the sidebar at its 160px minimum")
    drag_to(driver, driver.find_element(By.ID, "split-detail"), x=width - 2)
    wait_for(driver, lambda d: abs(size(d, "pane-detail") - 240) <= 1, message="the detail pane at its 240px minimum")
    drag_to(driver, driver.find_element(By.ID, "split-bottom"), y=height - 2)
    wait_for(driver, lambda d: abs(size(d, "bottom-row", "height") - 100) <= 1, message="the bottom row at 100px")
    drag_to(driver, driver.find_element(By.ID, "split-bottom"), y=2)
    wait_for(driver, lambda d: abs(size(d, "pane-grid", "height") - 120) <= 1, message="the grid at its 120px minimum")
    drag_to(driver, driver.find_element(By.ID, "split-bottom-lr"), x=2)
    wait_for(driver, lambda d: abs(size(d, "pane-relationships") - 200) <= 1, message="relationships at 200px")
    drag_to(driver, driver.find_element(By.ID, "split-bottom-lr"), x=width - 2)
    wait_for(driver, lambda d: abs(size(d, "pane-content") - 200) <= 1, message="content at 200px")
    # The clamped sizes are what is stored.
    stored = stored_json(driver, "cdb.lab.panes")
    assert stored["sidebar"] == 160 and stored["detail"] == 240


def test_stored_pane_sizes_are_clamped_on_load(lab, wait_for):
    driver = lab(entity="Book")
    # Too small: each pane is raised exactly to its minimum (pages/lab/state.js PANE_MIN).
    driver.execute_script("localStorage.setItem('cdb.lab.panes', arguments[0]);",
                          '{"sidebar": 5, "detail": 1, "bottom": -40, "bottomLeft": 3}')
    driver.refresh()
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid with tiny panes")
    assert abs(size(driver, "pane-sidebar") - 160) <= 0.5
    assert abs(size(driver, "pane-detail") - 240) <= 0.5
    assert abs(size(driver, "bottom-row", "height") - 100) <= 0.5
    assert abs(size(driver, "pane-relationships") - 200) <= 0.5
    assert size(driver, "pane-content") >= 200 - 0.5
    # Malformed: ignored, so the defaults (pages/lab/state.js paneDefaults: smaller side panes below 1180 px wide, a lower
    # relationship/content row below 760 px high) apply.
    inner_width, inner_height = driver.execute_script("return [innerWidth, innerHeight]")
    defaults = (170 if inner_width < 1180 else 220,
                250 if inner_width < 1180 else round(min(520, max(320, inner_width * 0.25))),
                100 if inner_height < 760 else 240)  # the row's minimum on a low window (room for nine grid rows)
    for stored in ("garbage", '{"sidebar": "wide"}'):
        driver.execute_script("localStorage.setItem('cdb.lab.panes', arguments[0]);", stored)
        driver.refresh()
        wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message=f"the grid with panes={stored}")
        assert abs(size(driver, "pane-sidebar") - defaults[0]) <= 0.5, stored
        assert abs(size(driver, "pane-detail") - defaults[1]) <= 0.5, stored
        assert abs(size(driver, "bottom-row", "height") - defaults[2]) <= 0.5, stored

    driver.execute_script("localStorage.setItem('cdb.lab.panes', '{\"sidebar\": 5000, \"detail\": 5000, \"bottom\": 5000}');")
    driver.refresh()
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid with huge panes")
    assert size(driver, "pane-grid", "height") >= 120 - 0.5
    assert size(driver, "center-col") >= 406 - 0.5
    width = driver.execute_script("return document.documentElement.clientWidth")
    assert driver.execute_script("return document.getElementById('pane-detail').getBoundingClientRect().right") <= width


# ------------------------------------------------------------------------------------------------
# Selection, detail and sub-panels
# ------------------------------------------------------------------------------------------------


def test_selecting_a_row_fills_detail_relationships_and_content(lab, api, wait_for):
    row, record = book_with_relations(api)
    meta = entity_meta(api, record["entity"])
    driver = lab(entity="Book")
    assert pane_state(driver, "pane-detail") == "empty"
    click_row(driver, row["id"])
    wait_detail(wait_for, driver, row["id"])
    assert selected_rows(driver) == [row["id"]]
    assert query_of(driver)["id"] == row["id"] and query_of(driver)["entity"] == "Book"

    # Detail: every attribute with its type and value, then the relationships.
    attrs = driver.execute_script(
        "return [...document.querySelectorAll('#detail-content .attr-row')].map(r =>"
        " [r.dataset.attr, r.querySelector('.attr-type').textContent, r.querySelector('dd').textContent]);"
    )
    assert [a[0] for a in attrs] == [a["name"] for a in meta["attributes"]]
    assert [a[1] for a in attrs] == [a["type"] for a in meta["attributes"]]
    shown = {a[0]: a[2] for a in attrs}
    assert shown["title"] == record["attrs"]["title"]
    assert shown["pageCount"] == str(record["attrs"]["pageCount"])
    cards = driver.execute_script(
        "return [...document.querySelectorAll('#detail-content .rel-card')].map(c =>"
        " [c.dataset.rel, c.querySelector('.count').textContent, [...c.querySelectorAll('.rel-item')].map(i => i.dataset.id)]);"
    )
    assert [c[0] for c in cards] == [r["name"] for r in record["relationships"]]
    for card, rel in zip(cards, record["relationships"]):
        assert card[1] == str(rel["count"])
        assert card[2] == [item["id"] for item in rel["items"][:5]]
    export = driver.find_element(By.ID, "detail-export").get_attribute("href")
    assert export.endswith("/api/object/export?" + urlencode({"id": row["id"]}))

    # Relationships sub-panel: the first relationship (author) by default, then tags.
    rels = {r["name"]: r for r in record["relationships"]}
    rel_select = Select(driver.find_element(By.ID, "rel-select"))
    assert [o.get_attribute("value") for o in rel_select.options] == [r["name"] for r in record["relationships"]]
    assert rel_select.first_selected_option.get_attribute("value") == "author"
    assert driver.execute_script(JS_REL_IDS) == [i["id"] for i in rels["author"]["items"]]
    rel_select.select_by_value("tags")
    wait_for(driver, lambda d: d.execute_script(JS_REL_IDS) == [i["id"] for i in rels["tags"]["items"]], message="the tags list")
    names = driver.execute_script("return [...document.querySelectorAll('#rel-list > li .name')].map(n => n.textContent);")
    assert names == [i["summary"] for i in rels["tags"]["items"]]

    # Content viewer: the first attribute by default, then another.
    content_select = Select(driver.find_element(By.ID, "content-select"))
    assert [o.get_attribute("value") for o in content_select.options] == [a["name"] for a in meta["attributes"]]
    assert content_select.first_selected_option.get_attribute("value") == meta["attributes"][0]["name"]
    content_select.select_by_value("title")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#content-view .cv-text").get_attribute("textContent")
             == record["attrs"]["title"], message="the title in the content viewer")
    content_select.select_by_value("pageCount")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#content-view .cv-value").get_attribute("textContent")
             == str(record["attrs"]["pageCount"]), message="pageCount in the content viewer")


def test_content_viewer_pretty_prints_json_and_shows_what_is_inside_binary_values(lab, api, wait_for):
    rows = all_rows(api, "Book")
    binary = next(r for r in rows if isinstance(r["attrs"].get("cover"), dict))
    driver = lab(entity="Book", id=binary["id"], limit=500)
    wait_detail(wait_for, driver, binary["id"])
    Select(driver.find_element(By.ID, "content-select")).select_by_value("cover")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#content-view .content-viewer .cv-summary").text
             .startswith("PNG 48×72"), message="the content viewer's summary of the cover")

    # A String that holds a JSON object is pretty-printed, keeping big integers exact. The demo store's
    # summaries are prose, so the next /api/object answer is rewritten in the page to carry one.
    raw = '{"b":[1,2,{"c":null}],"big":9007199254740993,"ok":true,"s":"x\\"y"}'
    driver.execute_script(
        """const original = window.fetch;
           window.fetch = async (input, init) => {
             const response = await original(input, init);
             if (!String(input).startsWith('/api/object?')) return response;
             const body = await response.json();
             body.attrs.summary = arguments[0];
             return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
           };""",
        raw,
    )
    other = next(r for r in rows if r["id"] != binary["id"])
    click_row(driver, other["id"])
    wait_detail(wait_for, driver, other["id"])
    Select(driver.find_element(By.ID, "content-select")).select_by_value("summary")
    pre = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#content-view .cv-json"), message="pretty JSON")
    assert pre.get_attribute("textContent") == (
        '{\n  "b": [\n    1,\n    2,\n    {\n      "c": null\n    }\n  ],\n  "big": 9007199254740993,\n'
        '  "ok": true,\n  "s": "x\\"y"\n}'
    )
    numbers = driver.execute_script("return [...document.querySelectorAll('#content-view .j-num')].map(s => s.textContent);")
    assert numbers == ["1", "2", "9007199254740993"]


def test_following_a_related_record_opens_it_in_its_entitys_grid(lab, api, wait_for):
    # Following a relationship lands on the record, its concrete entity selected and the grid on the
    # page that holds it; Back returns to where you were.
    row, record = book_with_relations(api)
    author_item = next(r for r in record["relationships"] if r["name"] == "author")["items"][0]
    author = api("/api/object", id=author_item["id"])
    driver = lab(entity="Book")
    book_rows = row_ids(driver)
    click_row(driver, row["id"])
    wait_detail(wait_for, driver, row["id"])

    driver.find_element(By.CSS_SELECTOR, "#rel-list > li[data-id]").click()
    wait_detail(wait_for, driver, author["id"], "the author's detail")
    assert driver.find_element(By.CSS_SELECTOR, "#detail-content .detail-heading").text == author["summary"]
    wait_for(driver, lambda d: [li.get_attribute("data-entity") for li in d.find_elements(By.CSS_SELECTOR, "#entity-list > li.active")] == ["Author"],
             message="Author selected in the sidebar")
    wait_for(driver, lambda d: selected_rows(d) == [author["id"]], message="the author's row selected in the Author grid")
    assert query_of(driver) == {"entity": "Author", "id": author["id"]}
    rel_select = Select(driver.find_element(By.ID, "rel-select"))
    assert [o.get_attribute("value") for o in rel_select.options] == [r["name"] for r in author["relationships"]]

    # Back returns to the book, in the Book grid.
    driver.back()
    wait_detail(wait_for, driver, row["id"], "the book again after Back")
    wait_for(driver, lambda d: row_ids(d) == book_rows and selected_rows(d) == [row["id"]], message="the Book grid again")


def test_url_restores_the_selection_and_back_restores_the_previous_one(lab, api, wait_for):
    rows = api("/api/entities/Book")["rows"]
    first, second = rows[1], rows[4]
    driver = lab(entity="Book", id=first["id"])
    wait_detail(wait_for, driver, first["id"], "the record named in the URL")
    wait_for(driver, lambda d: selected_rows(d) == [first["id"]], message="its row selected")

    click_row(driver, second["id"])
    wait_detail(wait_for, driver, second["id"])
    assert query_of(driver)["id"] == second["id"]

    driver.back()
    wait_detail(wait_for, driver, first["id"], "the previous record after Back")
    wait_for(driver, lambda d: selected_rows(d) == [first["id"]], message="the previous row selected after Back")
    assert query_of(driver)["id"] == first["id"]

    driver.forward()
    wait_detail(wait_for, driver, second["id"], "the next record after Forward")

    driver.refresh()
    wait_detail(wait_for, driver, second["id"], "the record after reload")
    wait_for(driver, lambda d: selected_rows(d) == [second["id"]], message="its row selected after reload")


def test_selecting_a_row_does_not_re_render_the_grid(lab, api, wait_for):
    rows = api("/api/entities/Book")["rows"]
    driver = lab(entity="Book")
    driver.execute_script(
        """window.__renders = window.__cdbLastRenderMs;
           document.querySelectorAll('#grid-body tr').forEach((tr, i) => { tr.__mark = i; });
           document.querySelector('#grid-head-row th[data-col]').__mark = 'head';"""
    )
    for row in (rows[2], rows[3], rows[0]):
        click_row(driver, row["id"])
        wait_detail(wait_for, driver, row["id"])
        assert selected_rows(driver) == [row["id"]]
    kept = driver.execute_script(
        """const trs = [...document.querySelectorAll('#grid-body tr')];
           return [trs.every((tr, i) => tr.__mark === i), document.querySelector('#grid-head-row th[data-col]').__mark,
                   window.__renders === window.__cdbLastRenderMs];"""
    )
    assert kept == [True, "head", True]


def test_arrow_keys_move_the_selection_and_enter_focuses_the_detail(lab, api, wait_for):
    rows = api("/api/entities/Book")["rows"]
    driver = lab(entity="Book")
    click_row(driver, rows[0]["id"])
    wait_detail(wait_for, driver, rows[0]["id"])
    keys = ActionChains(driver)
    keys.send_keys(Keys.ARROW_DOWN).perform()
    wait_detail(wait_for, driver, rows[1]["id"], "the second row after ArrowDown")
    assert selected_rows(driver) == [rows[1]["id"]]
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_DOWN).perform()
    wait_detail(wait_for, driver, rows[3]["id"], "the fourth row after two more")
    ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
    wait_detail(wait_for, driver, rows[2]["id"], "the third row after ArrowUp")
    assert selected_rows(driver) == [rows[2]["id"]]
    assert query_of(driver)["id"] == rows[2]["id"]
    # The focused grid shows a visible focus ring.
    assert driver.execute_script("return document.activeElement.id") == "grid-scroll"

    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait_for(driver, lambda d: d.execute_script("return document.activeElement.id") == "detail-body", message="detail focused")
    outline = driver.execute_script("const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineColor];")
    assert outline == ["solid", "rgb(74, 139, 255)"]
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_for(driver, lambda d: d.execute_script("return document.activeElement.id") == "grid-scroll", message="grid focused again")


def test_double_click_opens_the_record_in_the_inspector(lab, api, wait_for):
    row = api("/api/entities/Book")["rows"][1]
    driver = lab(entity="Book")
    driver.execute_script("window.__opened = []; window.open = (...args) => { window.__opened.push(args); return null; };")
    ActionChains(driver).double_click(row_element(driver, row["id"]).find_element(By.CSS_SELECTOR, "td.col-select")).perform()
    wait_for(driver, lambda d: d.execute_script("return window.__opened.length") == 1, message="window.open")
    url, target = driver.execute_script("return window.__opened[0];")
    assert target == "_blank"
    assert url == "/?" + urlencode({"entity": "Book", "id": row["id"]})


def test_export_downloads_the_selected_record(lab, api, wait_for, download_dir):
    row = api("/api/entities/Book")["rows"][0]
    driver = lab(entity="Book", id=row["id"])
    wait_detail(wait_for, driver, row["id"])
    driver.find_element(By.ID, "export-btn").click()
    expected = download_dir / f"Book-{row['id'].rsplit('/', 1)[1]}.json"
    wait_for(driver, lambda d: expected.exists() and expected.stat().st_size > 0, timeout=15, message=f"{expected.name}")
    assert json.loads(expected.read_text("utf-8")) == api("/api/object", id=row["id"])
    assert query_of(driver)["id"] == row["id"], "export must not navigate away"


def test_refresh_refetches_without_reloading(lab, api, wait_for):
    row = api("/api/entities/Book")["rows"][0]
    driver = lab(entity="Book", id=row["id"])
    wait_detail(wait_for, driver, row["id"])
    driver.execute_script(
        """window.__still = 'same page'; window.__urls = [];
           const original = window.fetch;
           window.fetch = (input, init) => { window.__urls.push(String(input)); return original(input, init); };"""
    )
    driver.find_element(By.ID, "refresh-btn").click()
    wait_for(driver, lambda d: {"entities", "records", "object"} <= {
        "entities" if u == "/api/entities" else "records" if u.startswith("/api/entities/Book?") else
        "object" if u.startswith("/api/object?") else "other" for u in d.execute_script("return window.__urls")},
        message="entities, records and the record re-fetched")
    wait_detail(wait_for, driver, row["id"], "the detail after refresh")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the rows after refresh")
    assert driver.execute_script("return window.__still") == "same page"


# ------------------------------------------------------------------------------------------------
# Values, hostile data, errors
# ------------------------------------------------------------------------------------------------


def test_values_render_exactly_and_distinctly_by_type(lab, api, wait_for):
    rows = all_rows(api, "Book")
    by = lambda test: next(r for r in rows if test(r["attrs"]))  # noqa: E731
    big = by(lambda a: isinstance(a.get("wordCount"), str))
    nan = by(lambda a: a.get("rating") in ("NaN", "Infinity", "-Infinity"))
    null = by(lambda a: a.get("summary") is None)
    binary = by(lambda a: isinstance(a.get("cover"), dict) and a["cover"].get("type") == "binary")
    dated = by(lambda a: isinstance(a.get("publishedAt"), str))
    decimal = by(lambda a: isinstance(a.get("price"), str))
    yes = by(lambda a: a.get("inPrint") is True)
    no = by(lambda a: a.get("inPrint") is False)

    driver = lab(entity="Book", limit=500)
    wait_rows(wait_for, driver, [r["id"] for r in rows], "every Book on one page")

    text, classes = cell(driver, big["id"], "wordCount")
    assert text == big["attrs"]["wordCount"] and int(text) > 2**53 and "col-numeric" in classes
    text, classes = cell(driver, nan["id"], "rating")
    assert text == nan["attrs"]["rating"] and "val-nonfinite" in classes
    assert cell(driver, null["id"], "summary") == ["null", ["val-null"]]
    # Summaries are fetched for visible cells only: bring the cover column (bytes come last) into view.
    driver.execute_script(
        "document.querySelector(`#grid-body tr[data-id=\"${arguments[0]}\"] td[data-col=\"cover\"]`).scrollIntoView({block: 'center', inline: 'center'})",
        binary["id"])
    wait_for(driver, lambda d: cell(d, binary["id"], "cover")[0].startswith("‹PNG 48×72"), message="the cover cell's summary")
    assert "val-binary" in cell(driver, binary["id"], "cover")[1]
    text, classes = cell(driver, dated["id"], "publishedAt")
    # Local time by default, its zone named (test_shared_display.py checks the exact text in both zones).
    assert LOCAL_DATE.fullmatch(text) and "col-date" in classes, text
    assert driver.execute_script(
        """for (const tr of document.querySelectorAll('#grid-body tr[data-id]')) {
             if (tr.dataset.id === arguments[0]) return tr.querySelector('td[data-col="publishedAt"]').dataset.iso;
           }""", dated["id"]) == dated["attrs"]["publishedAt"]
    text, classes = cell(driver, decimal["id"], "price")
    assert text == decimal["attrs"]["price"] and "col-numeric" in classes
    assert cell(driver, yes["id"], "inPrint") == ["true", ["val-true"]]
    assert cell(driver, no["id"], "inPrint") == ["false", ["val-false"]]
    text, classes = cell(driver, rows[0]["id"], "pageCount")
    assert text == str(rows[0]["attrs"]["pageCount"]) and "col-numeric" in classes

    colours = driver.execute_script(
        """const colour = sel => getComputedStyle(document.querySelector(sel)).color;
           return [colour('#grid-body td.col-numeric'), colour('#grid-body td.col-date'), colour('#grid-body td.val-true'),
                   colour('#grid-body td[data-col="title"]')];"""
    )
    assert colours == ["rgb(74, 139, 255)", "rgb(200, 160, 80)", "rgb(125, 204, 110)", "rgb(237, 237, 239)"]
    distinct = driver.execute_script(
        """const s = sel => { const c = getComputedStyle(document.querySelector(sel)); return c.color + c.fontStyle; };
           return [s('#grid-body td.val-null'), s('#grid-body td.val-nonfinite'), s('#grid-body td.val-binary'),
                   s('#grid-body td.val-false')];"""
    )
    assert len(set(distinct)) == 4, distinct

    # An undecodable value ({"type":"error"}) is marked and the rest of the row still renders. The demo
    # store has none, so the page's fetch is wrapped to inject one into the next records answer.
    driver.execute_script(
        """const original = window.fetch;
           window.fetch = async (input, init) => {
             const response = await original(input, init);
             if (!String(input).startsWith('/api/entities/Book?')) return response;
             const body = await response.json();
             body.rows[0].attrs.title = {type: 'error', message: 'cannot decode: bad UTF-8'};
             return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
           };"""
    )
    driver.find_element(By.ID, "refresh-btn").click()
    wait_for(driver, lambda d: (cell(d, rows[0]["id"], "title") or ["", []])[1] == ["val-error"], message="the error cell")
    assert "cannot decode: bad UTF-8" in cell(driver, rows[0]["id"], "title")[0]
    assert cell(driver, rows[0]["id"], "pageCount")[0] == str(rows[0]["attrs"]["pageCount"])


def test_hostile_title_renders_as_literal_text(lab, api, wait_for):
    matches = api("/api/entities/Book", search="__xss", searchAttr="title")["rows"]
    row = next(r for r in matches if r["attrs"]["title"] == HOSTILE_TITLE)
    driver = lab(entity="Book", search="__xss", searchAttr="title", id=row["id"])
    wait_rows(wait_for, driver, [r["id"] for r in matches], "the hostile book in the grid")
    wait_detail(wait_for, driver, row["id"], "the hostile book's detail")
    assert cell(driver, row["id"], "title")[0] == HOSTILE_TITLE
    assert driver.find_element(By.CSS_SELECTOR, "#detail-content .detail-heading").get_attribute("textContent") == HOSTILE_TITLE
    Select(driver.find_element(By.ID, "content-select")).select_by_value("title")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#content-view .cv-text").get_attribute("textContent")
             == HOSTILE_TITLE, message="the title in the content viewer")
    assert driver.execute_script("return document.querySelectorAll('#lab-layout img, #lab-layout script').length") == 0
    assert driver.execute_script("return typeof window.__xss") == "undefined"
    assert driver.find_element(By.ID, "grid-search").get_attribute("value") == "__xss"


def test_failed_requests_show_the_servers_message_where_the_data_would_be(lab, server, api, wait_for):
    status, body = api.status("/api/entities/NoSuchEntity")
    assert status == 404
    driver = lab(entity="NoSuchEntity")
    assert pane_state(driver, "pane-grid") == "error"
    state = driver.find_element(By.ID, "grid-state")
    assert body["error"] in state.text and state.get_attribute("data-kind") == "error"
    assert driver.execute_script("return getComputedStyle(document.getElementById('grid-state')).color") == "rgb(255, 107, 107)"

    store = api("/api/entities/Book", limit=1)["rows"][0]["id"].split("/")[2]
    missing = f"x-coredata://{store}/Book/p999999"
    status, body = api.status("/api/object", id=missing)
    assert status == 404
    driver.get(lab_url(server, entity="Book", id=missing))
    wait_for(driver, lambda d: pane_state(d, "pane-detail") == "error", message="the detail error")
    assert body["error"] in driver.find_element(By.ID, "detail-state").text
    for pane, state_id in (("pane-relationships", "rel-state"), ("pane-content", "content-state")):
        assert pane_state(driver, pane) == "error"
        assert body["error"] in driver.find_element(By.ID, state_id).text
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the Book grid beside the error")

    # An empty result is a state of its own, not an error.
    driver.get(lab_url(server, entity="Book", search="no book is called this"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "empty", message="the empty grid")
    assert "no book is called this" in driver.find_element(By.ID, "grid-state").text


def test_loading_states_are_shown_while_requests_run(lab, api, wait_for):
    row = api("/api/entities/Book")["rows"][0]
    driver = lab(entity="Book")
    driver.execute_script(
        """window.__release = null;
           const original = window.fetch;
           window.fetch = (input, init) => new Promise(resolve => { window.__release = resolve; })
             .then(() => original(input, init));"""
    )
    click_row(driver, row["id"])
    wait_for(driver, lambda d: all(pane_state(d, p) == "loading" for p in ("pane-detail", "pane-relationships", "pane-content")),
             message="loading states in the record panes")
    assert "Loading" in driver.find_element(By.ID, "detail-state").text
    driver.execute_script("window.__release();")
    wait_detail(wait_for, driver, row["id"])


# ------------------------------------------------------------------------------------------------
# Theme and screenshot
# ------------------------------------------------------------------------------------------------


def test_both_views_share_one_palette(driver, server):
    """The palette is declared once, in tokens.css, which both views load first: no other stylesheet declares
    a token, so the views cannot drift apart."""
    read_tokens = """const style = getComputedStyle(document.documentElement);
        const rules = [...document.styleSheets].flatMap(sheet => [...sheet.cssRules].map(rule => [sheet, rule]))
          .filter(([, rule]) => rule.selectorText === ':root');
        return {files: rules.map(([sheet]) => new URL(sheet.href).pathname),
                first: new URL(document.styleSheets[0].href).pathname,
                tokens: rules.flatMap(([, rule]) => [...rule.style].filter(name => name.startsWith('--')))
                  .map(name => [name, style.getPropertyValue(name).trim()])};"""
    driver.get(f"{server}/")
    inspector = driver.execute_script(read_tokens)
    driver.get(lab_url(server))
    lab = driver.execute_script(read_tokens)
    for view in (inspector, lab):
        assert view["files"] == ["/shared/tokens.css"] and view["first"] == "/shared/tokens.css"
    assert {"--bg", "--fg", "--accent", "--syntax-amber", "--mono", "--sans"} <= set(dict(inspector["tokens"]))
    assert lab["tokens"] == inspector["tokens"]


def test_theme_is_the_dark_rounded_card_layout(lab):
    driver = lab(entity="Book")
    style = driver.execute_script(
        """const css = (el, p) => getComputedStyle(typeof el === 'string' ? document.getElementById(el) : el)[p];
           const after = id => getComputedStyle(document.getElementById(id), '::after');
           return {
             bg: css(document.body, 'backgroundColor'), pane: css('pane-grid', 'backgroundColor'),
             radius: css('pane-grid', 'borderTopLeftRadius'), padding: css('lab-layout', 'paddingTop'),
             splitter: document.getElementById('split-sidebar').getBoundingClientRect().width,
             splitterAfter: after('split-sidebar').opacity, splitterAfterBg: after('split-sidebar').backgroundColor,
             button: css('grid-columns-btn', 'borderTopLeftRadius'), search: css('grid-search', 'borderTopLeftRadius'),
             entityBorder: css(document.querySelector('#entity-list > li'), 'borderBottomWidth'),
             activeEntity: [css(document.querySelector('#entity-list > li.active'), 'backgroundColor'),
                            css(document.querySelector('#entity-list > li.active'), 'color')],
           };"""
    )
    assert style["bg"] == "rgb(10, 10, 13)" and style["pane"] == "rgb(22, 22, 26)"
    assert style["radius"] == "10px" and style["padding"] == "8px"
    assert style["splitter"] == 6 and style["splitterAfter"] == "0" and style["splitterAfterBg"] == "rgb(74, 139, 255)"
    assert style["button"] == "6px" and style["search"] == "6px"
    assert style["entityBorder"] == "0px"
    assert style["activeEntity"] == ["rgb(26, 36, 71)", "rgb(74, 139, 255)"]
    ActionChains(driver).context_click(header_cell(driver, "title")).perform()
    radius = driver.execute_script("return getComputedStyle(document.querySelector('.cdb-popover')).borderTopLeftRadius")
    assert radius == "8px"


def test_screenshot_of_the_lab(lab, api, wait_for, screenshot):
    row, _ = book_with_relations(api)
    driver = lab(entity="Book", id=row["id"])
    wait_detail(wait_for, driver, row["id"])
    Select(driver.find_element(By.ID, "content-select")).select_by_value("summary")
    wait_for(driver, lambda d: d.find_element(By.ID, "content-view").get_attribute("data-attr") == "summary", message="summary shown")
    path = screenshot(driver, "lab")
    assert path.exists() and path.stat().st_size > 10_000
