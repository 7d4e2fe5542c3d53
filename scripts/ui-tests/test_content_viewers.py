"""What is inside Binary and Transformable values, in a real browser, in both views: summaries instead of
byte counts (fetched only for cells on screen), the image preview, the tree of a keyed archive with its value
transformer, text with line numbers, what a gzip inflates to, the `external · …` label, the hex view paged with
Range requests, the download, URL strings labelled (links only for http/https), and that hostile blobs opened
directly run nothing.

The demo library has PNG covers and a hostile SVG one; the fixtures have keyed archives; everything else comes from
a store written for these tests (`synthetic_server`, conftest.py)."""

from __future__ import annotations

import struct
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import _module_call
from test_inspector import JS_ENTITY_ITEMS, attr_value, detail_id, make_url
from test_lab import cell, lab_url, pane_state, wait_detail

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "checks" / "content"))
import check as content_check  # noqa: E402  (the content check's sample values)

HOSTILE_HTML = (b"<!DOCTYPE html><html><head><title>ran</title></head>"
                b"<body><script>document.title = 'ran'</script></body></html>\n")
HOSTILE_SCRIPT = b"document.title = 'ran';\n"

#: String values and whether each is exactly one URL (labelled) and a web URL (also a link).
URL_STRINGS = {
    "https://example.com/docs?page=1": (True, True),
    "x-apple-reminderkit://REMCDReminder/4F1A": (True, False),
    "file:///etc/passwd": (True, False),
    "mailto:someone@example.com": (True, False),
    "javascript:alert(1)": (False, False),
    "see https://example.com": (False, False),
}


def heic(width: int, height: int) -> bytes:
    """ftyp (brand heic) and meta → iprp → ipco → ispe: a HEIC header with its size."""
    def box(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", 8 + len(body)) + kind + body

    def full(kind: bytes, body: bytes) -> bytes:
        return box(kind, b"\0\0\0\0" + body)

    return (box(b"ftyp", b"heic\0\0\0\0mif1heic")
            + full(b"meta", box(b"iprp", box(b"ipco", full(b"ispe", struct.pack(">II", width, height))))))


@pytest.fixture(scope="module")
def samples(synthetic_server):
    """(base, api, object ID by name) of the store of values the demo and the fixtures lack."""
    inline, external = content_check.synthetic_values()
    values = {
        "text": b"first line\n\nthird line\n", "gzip": inline["gzip"], "png": inline["png"], "heic": heic(1024, 768),
        "html": HOSTILE_HTML, "script": HOSTILE_SCRIPT, "polyglot": inline["png"] + HOSTILE_HTML,
        **{value: None for value in URL_STRINGS},
    }
    return synthetic_server("content viewers", values, {"external png": external["external png"]})


def open_viewer(driver, wait_for, view, base, entity, record_id, attr):
    """Opens the content viewer of `attr` in the Inspector (its "Look inside") or the Lab (its content pane), and
    returns the CSS selector of the viewer."""
    if view == "inspector":
        driver.get(make_url(base, entity=entity, id=record_id))
        wait_for(driver, lambda d: detail_id(d) == record_id and d.find_elements(By.CSS_SELECTOR, "#attr-table"),
                 message="the record's detail")
        driver.find_element(By.CSS_SELECTOR, f'tr[data-attr="{attr}"] .content-look').click()
        root = f'tr[data-viewer-for="{attr}"] .content-viewer'
    else:
        driver.get(lab_url(base, entity=entity, id=record_id))
        wait_detail(wait_for, driver, record_id)
        Select(driver.find_element(By.ID, "content-select")).select_by_value(attr)
        root = "#content-view .content-viewer"
    wait_for(driver, lambda d: d.execute_script(
        "const v = document.querySelector(arguments[0]); return !!v && v.dataset.kind !== undefined;", root),
        message="the viewer's report")
    return root


def text_of(driver, css):
    return driver.execute_script("const n = document.querySelector(arguments[0]); return n ? n.textContent : null;", css)


def cover_rows(api):
    rows = api("/api/entities/Book", limit=500)["rows"]
    return [r for r in rows if isinstance(r["attrs"].get("cover"), dict)]


def png_cover(api):
    """The first book whose cover is one of the demo's PNG images (one hostile book's cover is an SVG)."""
    for row in cover_rows(api):
        if api("/api/object/content", id=row["id"], attr="cover")["kind"] == "png":
            return row
    raise AssertionError("the demo has no PNG cover")


def blob_url(base, record_id, attr):
    return f"{base}/api/object/blob?id={urllib.parse.quote(record_id, safe='')}&attr={attr}"


def hex_first_row(driver, root="body"):
    return driver.execute_script(
        "const pre = document.querySelector(arguments[0] + ' .cv-hex'); return pre ? pre.textContent.split('\\n')[0] : '';", root)


def blob_fetches(driver):
    """(initiator, bytes received) of every blob request the page made."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/object/blob'))"
        ".map(e => [e.initiatorType, e.encodedBodySize]);")


def open_inspector_detail(driver, server, wait_for, record_id):
    driver.get(make_url(server, entity="Book", id=record_id))
    wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0, message="the entity list")
    wait_for(driver, lambda d: detail_id(d) == record_id and d.find_elements(By.CSS_SELECTOR, "#attr-table"),
             message="the book's detail")


def test_the_inspector_shows_a_cover_as_what_it_is_and_pages_its_bytes(driver, server, api, wait_for, screenshot, console_errors):
    book = png_cover(api)
    size = book["attrs"]["cover"]["bytes"]
    open_inspector_detail(driver, server, wait_for, book["id"])
    wait_for(driver, lambda d: attr_value(d, "cover")[0] == "‹PNG 48×72 · 10 KB›", message="the cover's summary")

    driver.find_element(By.CSS_SELECTOR, 'tr[data-attr="cover"] .content-look').click()
    wait_for(driver, lambda d: d.execute_script(
        "const img = document.querySelector('.content-viewer .cv-image img');"
        "return img && img.complete && img.naturalWidth === 48 && img.naturalHeight === 72;"), message="the image preview")
    assert driver.find_element(By.CSS_SELECTOR, ".content-viewer .cv-image figcaption").text == "48 × 72 px"

    # The hex view: the PNG signature on the first page, the next page at 0x1000, each through a Range request.
    wait_for(driver, lambda d: hex_first_row(d).startswith("00000000  89 50 4E 47 0D 0A 1A 0A"), message="the first hex page")
    assert driver.find_element(By.CSS_SELECTOR, ".cv-hex-range").text == f"0–4,096 of {size:,} bytes"
    # In the Inspector's narrow detail pane the nav is one row, of glyphs every font has (no ⏮/⏭ boxes).
    nav = driver.execute_script(
        "const nav = document.querySelector('.cv-hex-nav');"
        "return {tops: [...nav.children].map(c => Math.round(c.getBoundingClientRect().top)),"
        "        buttons: [...nav.querySelectorAll('button')].map(b => [b.textContent, b.title]),"
        "        fits: nav.scrollWidth <= nav.clientWidth + 1};")
    assert len(set(nav["tops"])) == 1 and nav["fits"], nav
    assert nav["buttons"] == [["«", "First page"], ["‹", "Previous page"], ["›", "Next page"], ["»", "Last page"]]
    driver.find_element(By.CSS_SELECTOR, ".cv-hex-next").click()
    wait_for(driver, lambda d: hex_first_row(d).startswith("00001000  "), message="the second hex page")
    driver.find_element(By.CSS_SELECTOR, ".cv-hex-last").click()
    wait_for(driver, lambda d: hex_first_row(d).startswith("00002000  "), message="the last hex page")
    assert driver.find_element(By.CSS_SELECTOR, ".cv-hex-next").get_attribute("disabled") is not None
    # Every hex page fetched only its page: the whole value came only for the <img>.
    fetches = blob_fetches(driver)
    hex_pages = [received for initiator, received in fetches if initiator == "fetch"]
    assert len(hex_pages) == 3 and all(0 < received <= 4096 for received in hex_pages), fetches
    screenshot(driver, "content-inspector-cover")
    assert not console_errors(driver)


def test_the_lab_grid_and_content_viewer_say_what_a_blob_is(driver, server, api, wait_for, screenshot):
    book = png_cover(api)
    driver.get(lab_url(server, entity="Book", id=book["id"], limit=500))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Lab grid")
    wait_detail(wait_for, driver, book["id"])
    # Summaries are fetched for visible cells only: bring the cover column (bytes come last) into view.
    driver.execute_script(
        "document.querySelector(`#grid-body tr[data-id=\"${arguments[0]}\"] td[data-col=\"cover\"]`).scrollIntoView({block: 'center', inline: 'center'})",
        book["id"])
    wait_for(driver, lambda d: cell(d, book["id"], "cover")[0] == "‹PNG 48×72 · 10 KB›", message="the cover cell's summary")
    Select(driver.find_element(By.ID, "content-select")).select_by_value("cover")
    wait_for(driver, lambda d: d.execute_script(
        "const img = document.querySelector('#content-view .cv-image img'); return !!img && img.naturalWidth === 48;"),
        message="the image in the content viewer")
    wait_for(driver, lambda d: hex_first_row(d, "#content-view").startswith("00000000  89 50 4E 47"), message="hex")
    screenshot(driver, "content-lab-cover")


def test_a_keyed_archive_opens_as_a_tree_with_its_classes(driver, store_server, wait_for, screenshot):
    base, api = store_server("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
    found = None
    for entity in api("/api/entities"):
        names = [a["name"] for a in entity["attributes"] if a["type"] == "Transformable"]
        if not names or entity["count"] == 0 or entity["abstract"]:
            continue
        for row in api(f"/api/entities/{entity['name']}", limit=100)["rows"]:
            for name in names:
                if isinstance(row["attrs"].get(name), dict) and row["entity"] == entity["name"]:
                    report = api("/api/object/content", id=row["id"], attr=name)
                    if report["kind"] == "keyedArchive":
                        found = (entity["name"], row, name, report)
                        break
            if found:
                break
        if found:
            break
    assert found, "the fixture has keyed archives in Transformable attributes"
    entity, row, name, report = found
    driver.get(lab_url(base, entity=entity, id=row["id"]))
    wait_detail(wait_for, driver, row["id"])
    Select(driver.find_element(By.ID, "content-select")).select_by_value(name)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#content-view .cv-tree .cv-node"), message="the tree")
    types = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#content-view .cv-tree .cv-type")]
    assert any(t.startswith("object(") for t in types), types
    assert driver.find_element(By.CSS_SELECTOR, "#content-view .cv-summary").text.startswith("keyed archive")
    if report.get("archivedClass"):
        assert f"Archived class: {report['archivedClass']}" in driver.find_element(By.CSS_SELECTOR, "#content-view").text
    # The model's value transformer, in the viewer's summary and the pane's heading.
    assert report["transformer"] == "CoverTransformer"
    assert text_of(driver, "#content-view .cv-transformer") == \
        "Transformer: CoverTransformer (the app's own: these bytes are what it wrote)"
    assert "Transformable (CoverTransformer)" in driver.find_element(By.ID, "content-meta").text
    # Collapse the root and open it again with its button.
    toggle = driver.find_element(By.CSS_SELECTOR, "#content-view .cv-tree > .cv-node > .cv-line .cv-toggle")
    assert toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not driver.find_element(By.CSS_SELECTOR, "#content-view .cv-tree > .cv-node > .cv-children").is_displayed()
    toggle.click()
    assert driver.find_element(By.CSS_SELECTOR, "#content-view .cv-tree > .cv-node > .cv-children").is_displayed()
    screenshot(driver, "content-keyed-archive-tree")


def test_download_saves_the_bytes_under_a_sensible_name(driver, server, api, wait_for, download_dir):
    book = png_cover(api)
    open_inspector_detail(driver, server, wait_for, book["id"])
    driver.find_element(By.CSS_SELECTOR, 'tr[data-attr="cover"] .content-look').click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".content-viewer .cv-download"), message="the viewer")
    driver.find_element(By.CSS_SELECTOR, ".content-viewer .cv-download").click()
    short = book["id"].rsplit("/", 1)[-1]
    expected = download_dir / f"Book-{short}-cover.png"
    wait_for(driver, lambda d: expected.exists() and expected.stat().st_size == book["attrs"]["cover"]["bytes"],
             message=f"{expected.name} in the download folder")
    with urllib.request.urlopen(blob_url(server, book["id"], "cover"), timeout=15) as response:
        assert expected.read_bytes() == response.read()


def assert_opened_directly_runs_nothing(driver, wait_for, download_dir, base, record_id, attr, filename_prefix):
    url = blob_url(base, record_id, attr)
    with urllib.request.urlopen(url, timeout=15) as response:
        assert response.headers["Content-Type"] == "application/octet-stream"
        assert response.headers["Content-Disposition"].startswith("attachment;")
        assert response.headers["Content-Security-Policy"] == "sandbox"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    driver.get(f"{base}/shared/favicon.svg")  # a page of the origin, so a script that ran would change its title
    driver.execute_script("document.title = 'untouched'")
    driver.get(url)
    # The browser saves it instead of rendering it: the file arrives, and the page never ran the script.
    wait_for(driver, lambda d: any(p.name.startswith(filename_prefix) and not p.name.endswith(".crdownload")
                                   for p in download_dir.iterdir()), message="the hostile value saved as a download")
    # The page is still the one we left (a rendered document would have replaced it, and its script renamed it).
    assert driver.title == "untouched"
    assert "favicon.svg" in driver.current_url or driver.current_url == url


def test_a_hostile_svg_blob_opened_directly_runs_nothing(driver, server, api, wait_for, download_dir):
    hostile = next(r for r in cover_rows(api)
                   if api("/api/object/content", id=r["id"], attr="cover")["kind"] in ("xml", "html", "utf8Text"))
    with urllib.request.urlopen(blob_url(server, hostile["id"], "cover"), timeout=15) as response:
        assert b"<script>" in response.read(), "the demo's hostile cover holds a script"
    short = hostile["id"].rsplit("/", 1)[-1]
    assert_opened_directly_runs_nothing(driver, wait_for, download_dir, server, hostile["id"], "cover", f"Book-{short}-cover")


@pytest.mark.parametrize("name, kind", [("html", "html"), ("script", "utf8Text")])
def test_a_hostile_html_or_script_blob_opened_directly_runs_nothing(driver, samples, wait_for, download_dir, name, kind):
    base, api, ids = samples
    assert api("/api/object/content", id=ids[name], attr="payload")["kind"] == kind
    short = ids[name].rsplit("/", 1)[-1]
    assert_opened_directly_runs_nothing(driver, wait_for, download_dir, base, ids[name], "payload", f"Attachment-{short}-payload")


def test_a_png_that_is_also_html_is_shown_as_an_image_only(driver, samples, wait_for):
    base, api, ids = samples
    report = api("/api/object/content", id=ids["polyglot"], attr="payload")
    assert report["kind"] == "png" and report["mimeType"] == "image/png"
    url = blob_url(base, ids["polyglot"], "payload")
    with urllib.request.urlopen(url, timeout=15) as response:
        body = response.read()
        assert body.startswith(b"\x89PNG") and b"<script>" in body
        assert response.headers["Content-Type"] == "image/png"
        assert response.headers["Content-Security-Policy"] == "sandbox"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    driver.get(url)
    # Chromium's image viewer shows it (an <img> of the PNG); its HTML is never parsed, so its script never runs.
    wait_for(driver, lambda d: d.execute_script(
        "const img = document.querySelector('img'); return !!img && img.complete && img.naturalWidth === 3;"),
        message="the polyglot shown as a 3×2 image")
    page = driver.execute_script(
        "return {type: document.contentType, title: document.title, scripts: document.scripts.length};")
    assert page["type"] == "image/png" and page["title"] != "ran" and page["scripts"] == 0, page


def test_web_urls_are_links_and_nothing_else_is(driver, store_server, wait_for):
    base, api = store_server("cartkit/coredata/CartStorage_v1.sqlite")
    found = None
    for entity in api("/api/entities"):
        names = [a["name"] for a in entity["attributes"] if a["type"] in ("URI", "String")]
        if not names or entity["count"] == 0 or entity["abstract"]:
            continue
        for row in api(f"/api/entities/{entity['name']}", limit=100)["rows"]:
            for name in names:
                value = row["attrs"].get(name)
                if isinstance(value, str) and value.startswith(("http://", "https://")) and row["entity"] == entity["name"]:
                    found = (entity["name"], row, name, value)
                    break
            if found:
                break
        if found:
            break
    assert found, "the CartKit store holds an http(s) URL in a String attribute"
    entity, row, name, value = found
    driver.get(make_url(base, entity=entity, id=row["id"]))
    wait_for(driver, lambda d: detail_id(d) == row["id"] and d.find_elements(By.CSS_SELECTOR, "#attr-table"),
             message="the record's detail")
    link = driver.find_element(By.CSS_SELECTOR, f'tr[data-attr="{name}"] .cv-weblink')
    assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
    assert urllib.parse.unquote(link.get_attribute("href")).rstrip("/") == value.rstrip("/")
    assert "val-url" in attr_value(driver, name)[1]
    # The Lab: the same link in its detail, the URL label on the grid cell (a label only: the cell selects its row).
    driver.get(lab_url(base, entity=entity, id=row["id"]))
    wait_detail(wait_for, driver, row["id"])
    link = driver.find_element(By.CSS_SELECTOR, f'#detail-body .attr-row[data-attr="{name}"] .cv-weblink')
    assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
    assert urllib.parse.unquote(link.get_attribute("href")).rstrip("/") == value.rstrip("/")
    wait_for(driver, lambda d: cell(d, row["id"], name) is not None, message="the record's row in the grid")
    assert "val-url" in cell(driver, row["id"], name)[1]
    # Only http and https become links: never javascript:, data:, file: or a URL with spaces around it.
    verdicts = _module_call(driver, "features/content/content.js",
        "['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', ' https://a.example', "
        "'https://a.example/x y', 'ftp://a.example', 'https://ok.example/path?q=1']"
        ".map(v => m.webLink(v) !== null)")
    assert verdicts == [False, False, False, False, False, False, True]


def test_the_lab_pages_the_hex_view_and_downloads_the_value(driver, server, api, wait_for, download_dir):
    book = png_cover(api)
    size = book["attrs"]["cover"]["bytes"]
    root = open_viewer(driver, wait_for, "lab", server, "Book", book["id"], "cover")
    wait_for(driver, lambda d: hex_first_row(d, root).startswith("00000000  89 50 4E 47"), message="the first hex page")
    driver.find_element(By.CSS_SELECTOR, f"{root} .cv-hex-next").click()
    wait_for(driver, lambda d: hex_first_row(d, root).startswith("00001000  "), message="the second hex page")
    assert driver.find_element(By.CSS_SELECTOR, f"{root} .cv-hex-range").text == f"4,096–8,192 of {size:,} bytes"
    driver.find_element(By.CSS_SELECTOR, f"{root} .cv-hex-last").click()
    wait_for(driver, lambda d: hex_first_row(d, root).startswith("00002000  "), message="the last hex page")
    assert driver.find_element(By.CSS_SELECTOR, f"{root} .cv-hex-next").get_attribute("disabled") is not None
    driver.find_element(By.CSS_SELECTOR, f"{root} .cv-hex-first").click()
    wait_for(driver, lambda d: hex_first_row(d, root).startswith("00000000  "), message="the first page again")
    # Four pages, each fetched alone with a Range request; the whole value came only for the <img>.
    hex_pages = [received for initiator, received in blob_fetches(driver) if initiator == "fetch"]
    assert len(hex_pages) == 4 and all(0 < received <= 4096 for received in hex_pages), hex_pages

    driver.find_element(By.CSS_SELECTOR, f"{root} .cv-download").click()
    expected = download_dir / f"Book-{book['id'].rsplit('/', 1)[-1]}-cover.png"
    wait_for(driver, lambda d: expected.exists() and expected.stat().st_size == size,
             message=f"{expected.name} in the download folder")
    with urllib.request.urlopen(blob_url(server, book["id"], "cover"), timeout=15) as response:
        assert expected.read_bytes() == response.read()


def requested_content(driver):
    """The record IDs whose content report the page asked for (every /api/object/content request so far)."""
    return set(driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name))"
        ".filter(u => u.pathname === '/api/object/content').map(u => u.searchParams.get('id'));"))


def test_binary_labels_are_fetched_only_for_cells_on_screen(driver, server, api, wait_for):
    covered = [row["id"] for row in cover_rows(api)]
    assert len(covered) > 20, "the first 500 books hold covers far down the list"
    driver.get(lab_url(server, entity="Book", limit=500))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Lab grid")
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid-body tr[data-id]")) == 500, message="500 rows")
    # The cover column comes last, off screen to the right: no label asked for yet.
    assert requested_content(driver) == set()

    first, last = covered[0], covered[-1]
    show = "document.querySelector(`#grid-body tr[data-id=\"${arguments[0]}\"] td[data-col=\"cover\"]`).scrollIntoView({block: 'center', inline: 'center'})"
    driver.execute_script(show, first)
    wait_for(driver, lambda d: cell(d, first, "cover")[0].startswith("‹PNG"), message="the first cover's label")
    on_screen = driver.execute_script(
        """const box = document.getElementById('grid-scroll').getBoundingClientRect();
           return [...document.querySelectorAll('#grid-body td[data-col="cover"]')].filter(td => {
             const r = td.getBoundingClientRect();
             return r.bottom > box.top - 200 && r.top < box.bottom + 200;   // the observer's 200 px margin
           }).map(td => td.parentElement.dataset.id);""")
    asked = requested_content(driver)
    covers_on_screen = set(on_screen) & set(covered)
    assert first in asked and asked <= covers_on_screen, (asked, on_screen)
    assert len(covers_on_screen) < len(covered) // 2, on_screen  # a few of the covers are on screen, not most
    # Far down the list: still the byte count, never asked for.
    assert last not in asked and cell(driver, last, "cover")[0].startswith("‹binary, ")

    driver.execute_script(show, last)
    wait_for(driver, lambda d: not cell(d, last, "cover")[0].startswith("‹binary, "), message="the last cover's label")
    assert last in requested_content(driver)


def test_the_inspector_shows_a_keyed_archive_as_a_tree_and_names_its_transformer(driver, store_server, wait_for, screenshot):
    base, api = store_server("coredataplus/SampleModel2/SampleModel2_V2.sqlite")
    attribute = next(a for e in api("/api/entities") if e["name"] == "Book" for a in e["attributes"] if a["name"] == "frontCover")
    assert attribute == {"name": "frontCover", "type": "Transformable", "optional": False, "transformer": "CoverTransformer"}
    book = next(r for r in api("/api/entities/Book", limit=10)["rows"] if r["entity"] == "Book")
    root = open_viewer(driver, wait_for, "inspector", base, "Book", book["id"], "frontCover")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"{root} .cv-tree .cv-node"), message="the tree")
    assert text_of(driver, f"{root} .cv-summary") == "keyed archive (CoreDataPlus_Tests.Cover) · 277 B"
    assert text_of(driver, f"{root} .cv-transformer") == \
        "Transformer: CoverTransformer (the app's own: these bytes are what it wrote)"
    lines = [line.text for line in driver.find_elements(By.CSS_SELECTOR, f"{root} .cv-tree .cv-line")]
    assert lines[0] == "▾object(CoreDataPlus_Tests.Cover)" and lines[1] == "text: string default cover", lines
    toggle = driver.find_element(By.CSS_SELECTOR, f"{root} .cv-tree > .cv-node > .cv-line .cv-toggle")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not driver.find_element(By.CSS_SELECTOR, f"{root} .cv-tree > .cv-node > .cv-children").is_displayed()
    toggle.click()
    assert driver.find_element(By.CSS_SELECTOR, f"{root} .cv-tree > .cv-node > .cv-children").is_displayed()
    screenshot(driver, "content-inspector-keyed-archive-tree")


@pytest.mark.parametrize("view", ["inspector", "lab"])
def test_text_inflated_external_and_heic_values_in_each_view(driver, samples, wait_for, screenshot, view):
    base, api, ids = samples
    # Text, with its line numbers (an ordered list: the numbers are the list's own).
    root = open_viewer(driver, wait_for, view, base, "Attachment", ids["text"], "payload")
    lines = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' .cv-lines > li')]"
        ".map(li => [li.textContent, li.getBoundingClientRect().height]);", root)
    # Three lines (the final line break ends the third), the empty one as tall as the others.
    assert [text for text, _ in lines] == ["first line", "", "third line"], lines
    assert lines[1][1] == lines[0][1] > 0, lines
    assert text_of(driver, f"{root} .cv-summary") == "UTF-8 text · 23 B"

    # A gzip: what it inflates to, as its own report (a JSON tree).
    report = api("/api/object/content", id=ids["gzip"], attr="payload")
    root = open_viewer(driver, wait_for, view, base, "Attachment", ids["gzip"], "payload")
    assert text_of(driver, f"{root} .cv-summary") == report["summary"]
    assert report["summary"].startswith("gzip → JSON object (1 key)")
    assert text_of(driver, f"{root} .cv-inner h4") == f"Inflated: {report['inflatedSize']} bytes — {report['inner']['summary']}"
    assert driver.find_elements(By.CSS_SELECTOR, f"{root} .cv-inner .cv-tree .cv-node")
    screenshot(driver, f"content-{view}-inflated")

    # HEIC: the browser cannot decode it, so its dimensions and no <img>.
    root = open_viewer(driver, wait_for, view, base, "Attachment", ids["heic"], "payload")
    assert text_of(driver, f"{root} .cv-summary") == "HEIC 1024×768 · 72 B"
    assert text_of(driver, f"{root} .cv-dimensions").startswith("1024 × 768 px (HEIC: browsers cannot show it")
    assert not driver.find_elements(By.CSS_SELECTOR, f"{root} img")

    # A value kept in an external file: the label says so, in the detail (and the Lab's grid cell).
    external = ids["external png"]
    report = api("/api/object/content", id=external, attr="payload")
    assert report["storage"] == "external" and report["externalName"]
    expected = f"‹external · {report['summary']}›"
    if view == "inspector":
        driver.get(make_url(base, entity="Attachment", id=external))
        wait_for(driver, lambda d: (attr_value(d, "payload") or [""])[0] == expected, message="the external label")
    else:
        driver.get(lab_url(base, entity="Attachment", id=external))
        wait_detail(wait_for, driver, external)
        wait_for(driver, lambda d: text_of(d, '#detail-body .attr-row[data-attr="payload"] dd') == expected,
                 message="the external label in the detail")
        driver.execute_script(
            "document.querySelector(`#grid-body tr[data-id=\"${arguments[0]}\"] td[data-col=\"payload\"]`).scrollIntoView({inline: 'center'})",
            external)
        wait_for(driver, lambda d: cell(d, external, "payload")[0] == expected, message="the external label in the grid")


def test_url_strings_are_labelled_in_both_views_and_only_web_urls_link(driver, samples, wait_for, screenshot):
    base, api, ids = samples
    badge = "return getComputedStyle(arguments[0], '::before').content;"
    # The Lab's grid: every name cell that is one URL carries the label, whatever its scheme; no cell links.
    driver.get(lab_url(base, entity="Attachment"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Lab grid")
    for value, (labelled, _) in URL_STRINGS.items():
        text, classes = cell(driver, ids[value], "name")
        assert text == value and ("val-url" in classes) == labelled, (value, classes)
        td = driver.find_element(By.CSS_SELECTOR, f'#grid-body tr[data-id="{ids[value]}"] td[data-col="name"]')
        assert driver.execute_script(badge, td) == ('"URL"' if labelled else "none"), value
        assert not td.find_elements(By.CSS_SELECTOR, "a")
    screenshot(driver, "content-lab-url-labels")
    for value, (labelled, web) in URL_STRINGS.items():
        # The Lab's detail.
        driver.get(lab_url(base, entity="Attachment", id=ids[value]))
        wait_detail(wait_for, driver, ids[value])
        dd = driver.find_element(By.CSS_SELECTOR, '#detail-body .attr-row[data-attr="name"] dd')
        assert ("val-url" in dd.get_attribute("class").split()) == labelled, value
        links = dd.find_elements(By.CSS_SELECTOR, ".cv-weblink")
        assert len(links) == (1 if web else 0), value
        if web:
            assert links[0].get_attribute("href") == value and links[0].get_attribute("target") == "_blank"
        # The Inspector's detail.
        driver.get(make_url(base, entity="Attachment", id=ids[value]))
        wait_for(driver, lambda d: detail_id(d) == ids[value] and d.find_elements(By.CSS_SELECTOR, "#attr-table"),
                 message="the record's detail")
        text, classes = attr_value(driver, "name")
        assert text == value and ("val-url" in classes) == labelled, (value, classes)
        links = driver.find_elements(By.CSS_SELECTOR, 'tr[data-attr="name"] .cv-weblink')
        assert len(links) == (1 if web else 0), value
        if web:
            assert links[0].get_attribute("rel") == "noopener noreferrer"
    screenshot(driver, "content-inspector-url-label")
