"""What is inside Binary and Transformable values (issue 13), in a real browser: summaries instead of byte counts,
the image preview, the tree of a keyed archive, the hex view paged with Range requests, the download, and that a
hostile blob opened directly runs nothing."""

from __future__ import annotations

import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_inspector import JS_ENTITY_ITEMS, attr_value, detail_id, make_url
from test_lab import cell, lab_url, pane_state, wait_detail


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


def test_a_hostile_blob_opened_directly_runs_nothing(driver, server, api, wait_for, download_dir):
    hostile = next(r for r in cover_rows(api)
                   if api("/api/object/content", id=r["id"], attr="cover")["kind"] in ("xml", "html", "utf8Text"))
    url = blob_url(server, hostile["id"], "cover")
    with urllib.request.urlopen(url, timeout=15) as response:
        body = response.read()
        assert b"<script>" in body, "the demo's hostile cover holds a script"
        assert response.headers["Content-Type"] == "application/octet-stream"
        assert response.headers["Content-Disposition"].startswith("attachment;")
        assert response.headers["Content-Security-Policy"] == "sandbox"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    driver.get(f"{server}/favicon.svg")  # a page of the origin, so a script that ran would change its title
    driver.execute_script("document.title = 'untouched'")
    driver.get(url)
    # The browser saves it instead of rendering it: the file arrives, and the page never ran the script.
    short = hostile["id"].rsplit("/", 1)[-1]
    wait_for(driver, lambda d: any(p.name.startswith(f"Book-{short}-cover") and not p.name.endswith(".crdownload")
                                   for p in download_dir.iterdir()), message="the hostile cover saved as a download")
    # The page is still the one we left (a rendered SVG would have replaced it, and its script renamed it).
    assert driver.title == "untouched"
    assert "favicon.svg" in driver.current_url or driver.current_url == url


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
    # Only http and https become links: never javascript:, data:, file: or a URL with spaces around it.
    verdicts = driver.execute_script(
        "return ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', ' https://a.example', "
        "'https://a.example/x y', 'ftp://a.example', 'https://ok.example/path?q=1']"
        ".map(v => window.CDBContent.webLink(v) !== null);")
    assert verdicts == [False, False, False, False, False, False, True]
