"""Browser tests of what both views share through web/shared/: invisible characters shown as markers, and
dates in local time or UTC (the "Dates" choice, localStorage "cdb.dateZone").

The demo store holds one String with a RIGHT-TO-LEFT OVERRIDE (Book "Zebra Stripes", summary
"Invoice \\u202Efdp.exe", DemoLibrary.bidiSpoofSummary) and dates with and without milliseconds. The browser's
time zone is set to Europe/Berlin through the DevTools protocol, so local time and UTC differ whatever zone the
machine running the tests is in.
"""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

SPOOF = "Invoice \u202efdp.exe"
SPOOF_SHOWN = "Invoice ⟨U+202E⟩fdp.exe"
BROWSER_ZONE = "Europe/Berlin"

# The characters the task lists, written out independently of web/shared/visible-text.js.
EXPECTED_INVISIBLE = (
    set(range(0x202A, 0x202F))
    | set(range(0x2066, 0x206A))
    | {0x200E, 0x200F, 0x061C}
    | {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF}
    | set(range(0x00, 0x09))
    | {0x0B, 0x0C}
    | set(range(0x0E, 0x20))
    | {0x7F}
    | set(range(0x80, 0xA0))
)


def page_url(server, view, **params):
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return f"{server}{'/lab' if view == 'lab' else '/'}{'?' + query if query else ''}"


def book(api, title):
    rows = api("/api/entities/Book", limit=500, search=title, searchAttr="title")["rows"]
    return next(r for r in rows if r["attrs"]["title"] == title)


def expected_date(iso, zone):
    """What the views show for a stored date: "2020-02-29 23:59:59.999 UTC" / "2020-03-01 00:59:59.999 GMT+1"."""
    instant = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    with_ms = "." in iso
    shown = instant.astimezone(timezone.utc if zone == "utc" else ZoneInfo(BROWSER_ZONE))
    text = shown.strftime("%Y-%m-%d %H:%M:%S")
    if with_ms:
        text += f".{shown.microsecond // 1000:03d}"
    if zone == "utc":
        return f"{text} UTC"
    hours, rest = divmod(int(shown.utcoffset().total_seconds()), 3600)
    minutes = rest // 60
    return f"{text} GMT{'+' if hours >= 0 else '-'}{abs(hours)}{f':{minutes:02d}' if minutes else ''}"


@pytest.fixture
def browser(driver, console_errors):
    """The driver in Europe/Berlin time (kept across navigations and reloads); fails on JavaScript errors."""
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": BROWSER_ZONE})
    yield driver
    errors = console_errors(driver)
    assert not errors, f"JavaScript errors in the browser console: {errors}"


# JavaScript helpers -----------------------------------------------------------------------------

JS_MARKED = """
const node = arguments[0] ? document.querySelector(arguments[0]) : null;
if (!node) return null;
const markers = [...node.querySelectorAll('.cdb-invisible')];
return {
  text: node.textContent,
  visible: node.innerText,
  markers: markers.map(m => ({code: m.dataset.code, title: m.title, text: m.textContent})),
};
"""

# Whether "fdp.exe" after the marker is drawn left to right: the x of its "f" is left of the x of its last "e".
# Drawn under a live RIGHT-TO-LEFT OVERRIDE it would be the other way round (and read "exe.pdf").
JS_DRAWN_LEFT_TO_RIGHT = """
const node = document.querySelector(arguments[0]);
const marker = node && node.querySelector('.cdb-invisible');
const after = marker && marker.nextSibling;
if (!after || after.nodeType !== Node.TEXT_NODE || !after.data.startsWith('fdp.exe')) return null;
const x = (index) => { const r = document.createRange(); r.setStart(after, index); r.setEnd(after, index + 1);
                       return r.getBoundingClientRect().left; };
return x(0) < x(6);
"""


def marked(driver, css):
    return driver.execute_script(JS_MARKED, css)


def assert_spoof_is_marked(driver, css):
    shown = marked(driver, css)
    assert shown is not None, f"nothing at {css}"
    assert shown["markers"] == [{"code": "202E", "title": "RIGHT-TO-LEFT OVERRIDE (U+202E)", "text": "⟨U+202E⟩"}]
    assert "\u202e" not in shown["text"], "the raw override reached the page"
    assert shown["visible"].strip() == SPOOF_SHOWN
    assert "exe.pdf" not in shown["visible"]
    assert driver.execute_script(JS_DRAWN_LEFT_TO_RIGHT, css) is True, "fdp.exe is not drawn left to right"


# Invisible characters ---------------------------------------------------------------------------


@pytest.mark.parametrize("view", ["inspector", "lab"])
def test_both_views_load_the_one_shared_list_of_invisible_characters(browser, server, wait_for, module_call, view):
    browser.get(page_url(server, view))
    # The page is native modules: the page's own module (which imports the shared ones) and the store switcher,
    # nothing else, and no classic script.
    scripts = wait_for(browser, lambda d: d.execute_script(
        "return [...document.scripts].map(s => [new URL(s.src).pathname, s.type]);"), message="the page's scripts")
    assert scripts == [["/features/stores/stores.js", "module"],
                       ["/pages/lab/lab.js" if view == "lab" else "/pages/inspector/inspector.js", "module"]]
    codes = module_call(browser, "shared/visible-text.js", "[...m.INVISIBLE_CHARACTERS.keys()]")
    assert set(codes) == EXPECTED_INVISIBLE and len(codes) == len(EXPECTED_INVISIBLE)
    names = module_call(browser, "shared/visible-text.js", "[...m.INVISIBLE_CHARACTERS.values()]")
    assert all(isinstance(name, str) and name for name in names)
    # Every listed character becomes a marker, and text around it stays as it was.
    rendered = module_call(browser, "shared/visible-text.js",
        """(() => { const codes = args[0]; const node = document.createElement('span');
           m.setVisibleText(node, 'a' + codes.map(c => String.fromCodePoint(c)).join('b') + 'z');
           return {markers: node.querySelectorAll('.cdb-invisible').length,
                   plain: [...node.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join(''),
                   tab: m.visibleText('a\\tb\\nc\\u202Ed')}; })()""",
        sorted(EXPECTED_INVISIBLE),
    )
    assert rendered["markers"] == len(EXPECTED_INVISIBLE)
    assert rendered["plain"] == "a" + "b" * (len(EXPECTED_INVISIBLE) - 1) + "z"
    assert rendered["tab"] == "a\tb\nc⟨U+202E⟩d"


def test_inspector_shows_a_bidi_override_as_a_marker_and_copies_the_original(browser, server, api, wait_for):
    row = book(api, "Zebra Stripes")
    assert row["attrs"]["summary"] == SPOOF
    browser.get(page_url(server, "inspector", entity="Book", search="Zebra Stripes", searchAttr="title",
                         sort="summary", id=row["id"]))
    value = '#attr-table tr.attr-row[data-attr="summary"] td.attr-value .val'
    wait_for(browser, lambda d: d.execute_script("return document.getElementById('detail').dataset.id") == row["id"]
             and d.find_elements(By.CSS_SELECTOR, value), message="the detail of Zebra Stripes")
    assert_spoof_is_marked(browser, value)

    # The list's sorted value, then the record's name once the user names Books by their summary.
    sort_value = f'#record-list li.record-row[data-id="{row["id"]}"] .record-sort-value'
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, sort_value), message="the sorted value in the list")
    assert_spoof_is_marked(browser, sort_value)
    Select(browser.find_element(By.ID, "display-attr")).select_by_value("summary")
    name = f'#record-list li.record-row[data-id="{row["id"]}"] .record-summary'
    wait_for(browser, lambda d: (marked(d, name) or {}).get("markers"), message="the record named by its summary")
    assert_spoof_is_marked(browser, name)
    # The detail's heading is redrawn by the same choice, independently of the list: wait for it as well.
    wait_for(browser, lambda d: (marked(d, "#detail-summary") or {}).get("markers"), message="the detail named by its summary")
    assert_spoof_is_marked(browser, "#detail-summary")
    title = browser.find_element(By.CSS_SELECTOR, f'#record-list li.record-row[data-id="{row["id"]}"]').get_attribute("title")
    assert title == SPOOF_SHOWN

    # "Copy" copies the stored string, override included.
    browser.execute_script(
        "navigator.clipboard.writeText = (text) => { window.__copied = text; return Promise.resolve(); };")
    browser.find_element(By.CSS_SELECTOR, '#attr-table tr.attr-row[data-attr="summary"] button.copy-value').click()
    assert wait_for(browser, lambda d: d.execute_script("return window.__copied"), message="the copy") == SPOOF


def test_lab_shows_a_bidi_override_as_a_marker_in_the_grid_detail_content_and_relationships(
        browser, server, api, wait_for):
    row = book(api, "Zebra Stripes")
    browser.get(page_url(server, "lab", entity="Book", limit=500, id=row["id"]))
    cell = f'#grid-body tr[data-id="{row["id"]}"] td[data-col="summary"]'
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, cell), message="Zebra Stripes in the grid")
    assert_spoof_is_marked(browser, cell)
    assert "val-empty" not in browser.find_element(By.CSS_SELECTOR, cell).get_attribute("class")

    detail = '#detail-content .attr-row[data-attr="summary"] dd'
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, detail), message="the detail pane")
    assert_spoof_is_marked(browser, detail)

    Select(browser.find_element(By.ID, "content-select")).select_by_value("summary")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#content-view pre.cv-text"), message="the content")
    assert_spoof_is_marked(browser, "#content-view pre.cv-text")

    # Related records are named by their summaries: one named with the override shows the marker too.
    browser.execute_script(
        """const spoof = arguments[0];
           const original = window.fetch;
           window.fetch = async (input, init) => {
             const response = await original(input, init);
             if (!String(input).startsWith('/api/object?')) return response;
             const body = await response.json();
             for (const rel of body.relationships || []) for (const item of rel.items || []) item.summary = spoof;
             return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
           };""",
        SPOOF,
    )
    other = book(api, "Dawn")
    browser.find_element(By.CSS_SELECTOR, f'#grid-body tr[data-id="{other["id"]}"] td[data-col="title"]').click()
    wait_for(browser, lambda d: d.execute_script(
        "return document.getElementById('pane-detail').dataset.id") == other["id"], message="another record")
    rel_item = "#rel-list > li[data-id] .name"
    card_item = "#detail-content .rel-card .rel-item .name"
    wait_for(browser, lambda d: (marked(d, rel_item) or {}).get("markers") and (marked(d, card_item) or {}).get("markers"),
             message="related records named with the override")
    assert_spoof_is_marked(browser, rel_item)
    assert_spoof_is_marked(browser, card_item)
    assert browser.find_element(By.CSS_SELECTOR, "#rel-list > li[data-id]").get_attribute("title").startswith(
        f"Show {SPOOF_SHOWN} (")


# Dates ------------------------------------------------------------------------------------------


def date_of(driver, css):
    return driver.execute_script(
        "const n = document.querySelector(arguments[0]); return n ? [n.textContent, n.title, n.dataset.iso] : null;", css)


def zone_select(driver):
    return Select(driver.find_element(By.ID, "date-zone"))


def test_inspector_dates_switch_between_local_time_and_utc_and_the_choice_survives_a_reload(
        browser, server, api, wait_for):
    row = book(api, "the lowercase book")
    iso = row["attrs"]["publishedAt"]
    assert iso == "2020-02-29T23:59:59.999Z"
    value = '#attr-table tr.attr-row[data-attr="publishedAt"] td.attr-value .val-date'
    sorted_value = f'#record-list li.record-row[data-id="{row["id"]}"] .record-sort-value .val-date'
    browser.get(page_url(server, "inspector", entity="Book", sort="publishedAt", order="desc", id=row["id"]))
    wait_for(browser, lambda d: date_of(d, value) and date_of(d, sorted_value), message="the dated detail and row")

    # Local time by default, the zone named in the value; the title gives UTC and the stored value.
    assert browser.execute_script("return localStorage.getItem('cdb.dateZone')") is None
    assert zone_select(browser).first_selected_option.get_attribute("value") == "local"
    text, title, stored = date_of(browser, value)
    assert text == expected_date(iso, "local") == "2020-03-01 00:59:59.999 GMT+1"
    assert expected_date(iso, "utc") in title and iso in title and stored == iso
    assert date_of(browser, sorted_value)[0] == text

    zone_select(browser).select_by_value("utc")
    wait_for(browser, lambda d: date_of(d, value)[0] == "2020-02-29 23:59:59.999 UTC", message="the date in UTC")
    assert date_of(browser, sorted_value)[0] == "2020-02-29 23:59:59.999 UTC"
    assert expected_date(iso, "local") in date_of(browser, value)[1]
    assert browser.execute_script("return localStorage.getItem('cdb.dateZone')") == "utc"
    # Copying a date copies the stored value, whatever the zone shown.
    copy = browser.find_element(By.CSS_SELECTOR, '#attr-table tr.attr-row[data-attr="publishedAt"] button.copy-value')
    assert copy.get_attribute("data-copy") == iso

    browser.refresh()
    wait_for(browser, lambda d: (date_of(d, value) or [""])[0] == "2020-02-29 23:59:59.999 UTC",
             message="UTC after a reload")
    assert zone_select(browser).first_selected_option.get_attribute("value") == "utc"

    # A value without milliseconds is shown without them.
    plain = book(api, "Zebra Stripes")
    browser.get(page_url(server, "inspector", entity="Book", id=plain["id"]))
    wait_for(browser, lambda d: (date_of(d, value) or [""])[0] == expected_date(plain["attrs"]["publishedAt"], "utc"),
             message="a date without milliseconds")
    assert date_of(browser, value)[0] == "2001-01-01 00:00:00 UTC"

    zone_select(browser).select_by_value("local")
    wait_for(browser, lambda d: date_of(d, value)[0] == "2001-01-01 01:00:00 GMT+1", message="back to local time")
    assert browser.execute_script("return localStorage.getItem('cdb.dateZone')") == "local"


def test_lab_dates_switch_between_local_time_and_utc_and_the_choice_survives_a_reload(browser, server, api, wait_for):
    row = book(api, "the lowercase book")
    iso = row["attrs"]["publishedAt"]
    cell = f'#grid-body tr[data-id="{row["id"]}"] td[data-col="publishedAt"]'
    detail = '#detail-content .attr-row[data-attr="publishedAt"] dd'
    browser.get(page_url(server, "lab", entity="Book", limit=500, id=row["id"]))
    wait_for(browser, lambda d: date_of(d, cell) and date_of(d, detail), message="the dated cell and detail")

    text, title, stored = date_of(browser, cell)
    assert text == expected_date(iso, "local") == "2020-03-01 00:59:59.999 GMT+1"
    assert expected_date(iso, "utc") in title and iso in title and stored == iso
    assert date_of(browser, detail)[0] == text
    assert "col-date" in browser.find_element(By.CSS_SELECTOR, cell).get_attribute("class")
    assert zone_select(browser).first_selected_option.get_attribute("value") == "local"

    zone_select(browser).select_by_value("utc")
    wait_for(browser, lambda d: date_of(d, cell)[0] == "2020-02-29 23:59:59.999 UTC", message="the cell in UTC")
    assert date_of(browser, detail)[0] == "2020-02-29 23:59:59.999 UTC"
    assert browser.execute_script("return localStorage.getItem('cdb.dateZone')") == "utc"

    browser.refresh()
    wait_for(browser, lambda d: (date_of(d, cell) or [""])[0] == "2020-02-29 23:59:59.999 UTC",
             message="UTC after a reload")
    assert zone_select(browser).first_selected_option.get_attribute("value") == "utc"

    # One choice for both views: the Inspector opens in UTC too.
    browser.get(page_url(server, "inspector", entity="Book", id=row["id"]))
    value = '#attr-table tr.attr-row[data-attr="publishedAt"] td.attr-value .val-date'
    wait_for(browser, lambda d: (date_of(d, value) or [""])[0] == "2020-02-29 23:59:59.999 UTC",
             message="the Inspector in UTC")
