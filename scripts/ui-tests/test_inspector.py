"""Browser tests of the Inspector view (web/index.html and web/pages/inspector/): the plan's v1.0 checks, automated.

Every expectation is computed from the JSON API of the same server, so the tests follow the demo store's
data instead of hard-coding it. Waits are WebDriverWait conditions; a broken UI makes them time out.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

LOCAL_DATE = re.compile(r"[+-]?\d{4,6}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})? GMT[+-]\d{1,2}(:\d\d){0,2}")
HOSTILE_TITLE = '<script>window.__xss=1</script> "quoted" <img src=x onerror="window.__xss=2">'

# ------------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------------

JS_ROW_IDS = "return [...document.querySelectorAll('#record-list .record-row')].map(li => li.dataset.id);"
JS_ENTITY_ITEMS = """
return [...document.querySelectorAll('#entity-list .entity-item')].map(li => ({
  name: li.dataset.entity, count: li.dataset.count,
  shownName: li.querySelector('.entity-name').textContent,
  shownCount: li.querySelector('.entity-count').textContent,
  current: li.getAttribute('aria-current') === 'true'}));
"""


def make_url(server, **params):
    query = urlencode({k: v for k, v in params.items() if v is not None})
    return f"{server}/{'?' + query if query else ''}"


def row_ids(driver):
    return driver.execute_script(JS_ROW_IDS)


def query_of(driver):
    return {k: v[0] for k, v in parse_qs(urlsplit(driver.current_url).query).items()}


def selected_entity(driver):
    items = driver.execute_script(JS_ENTITY_ITEMS)
    current = [item["name"] for item in items if item["current"]]
    return current[0] if len(current) == 1 else None


def detail_id(driver):
    return driver.execute_script("return document.getElementById('detail').dataset.id || null;")


def attr_value(driver, name):
    """(text, class list) of the rendered value of attribute `name` in the detail pane."""
    return driver.execute_script(
        """const span = document.querySelector(`#attr-table tr.attr-row[data-attr="${arguments[0]}"] td.attr-value .val`);
           return span ? [span.textContent, [...span.classList]] : null;""",
        name,
    )


@pytest.fixture
def inspector(driver, server, wait_for, console_errors):
    """Opens the Inspector at a query and waits for the entity list; fails the test on JavaScript errors."""

    def open_at(**params):
        driver.get(make_url(server, **params))
        wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0, message="the entity list")
        return driver

    yield open_at
    errors = console_errors(driver)
    assert not errors, f"JavaScript errors in the browser console: {errors}"


def wait_rows(wait_for, driver, expected, message):
    wait_for(driver, lambda d: row_ids(d) == expected, message=message)


def ids(page):
    return [row["id"] for row in page["rows"]]


def all_rows(api, entity):
    return api(f"/api/entities/{entity}", limit=500)["rows"]


def find_row(api, entity, predicate):
    for row in all_rows(api, entity):
        if predicate(row):
            return row
    raise AssertionError(f"the demo store has no {entity} row matching the test's needs")


# ------------------------------------------------------------------------------------------------
# Entities
# ------------------------------------------------------------------------------------------------


def tree_order(entities):
    """Entities as the sidebar lists them: roots by name, each followed by its sub-entities (depth-first)."""
    children = {}
    for entity in entities:
        children.setdefault(entity["parent"] or "", []).append(entity)
    ordered = []

    def visit(parent):
        for entity in sorted(children.get(parent, []), key=lambda e: e["name"]):
            ordered.append(entity)
            visit(entity["name"])

    visit("")
    return ordered


def test_entity_list_shows_every_entity_with_its_count(inspector, api, wait_for):
    driver = inspector()
    expected = [(e["name"], f"{e['count']:,}") for e in tree_order(api("/api/entities"))]
    assert {name for name, _ in expected} >= {"Author", "AudioBook", "Book", "Tag"}
    wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) == len(expected), message="every entity listed")
    shown = [(i["shownName"], i["shownCount"]) for i in driver.execute_script(JS_ENTITY_ITEMS)]
    data = [(i["name"], i["count"]) for i in driver.execute_script(JS_ENTITY_ITEMS)]
    assert shown == expected
    assert data == [(name, count.replace(",", "")) for name, count in expected]
    # Sub-entities sit under their parent, indented one level.
    depths = driver.execute_script("return Object.fromEntries([...document.querySelectorAll('#entity-list .entity-item')].map(li => [li.dataset.entity, li.dataset.depth]));")
    assert depths["AudioBook"] == "1" and depths["Book"] == "0"
    # Nothing selected yet: the record pane says so.
    assert driver.find_element(By.ID, "records-status").get_attribute("data-kind") == "hint"


def test_clicking_an_entity_lists_its_records(inspector, api, wait_for):
    driver = inspector()
    driver.find_element(By.CSS_SELECTOR, '#entity-list [data-entity="Book"]').click()
    expected = api("/api/entities/Book")
    wait_rows(wait_for, driver, ids(expected), "the first page of Book")
    assert selected_entity(driver) == "Book"
    assert query_of(driver) == {"entity": "Book"}
    summaries = driver.execute_script(
        "return [...document.querySelectorAll('#record-list .record-summary')].map(s => s.textContent);"
    )
    assert summaries == [row["summary"] for row in expected["rows"]]
    assert driver.find_element(By.ID, "page-indicator").text == f"1–{len(expected['rows'])} of {expected['total']}"
    # Sub-entity rows carry their entity name on the dim second line; Book rows do not.
    for row in expected["rows"]:
        entity_text = driver.execute_script(
            "const li = [...document.querySelectorAll('#record-list .record-row')].find(l => l.dataset.id === arguments[0]);"
            "const e = li.querySelector('.record-entity'); return e ? e.textContent : null;",
            row["id"],
        )
        assert entity_text == (row["entity"] if row["entity"] != "Book" else None)


def test_sub_entity_rows_name_their_entity(inspector, api, wait_for):
    audio = [row for row in all_rows(api, "Book") if row["entity"] == "AudioBook"]
    assert audio, "the demo store should list AudioBooks under Book"
    driver = inspector(entity="Book", limit=500)
    wait_for(driver, lambda d: len(row_ids(d)) == min(500, api("/api/entities/Book", limit=1)["total"]), message="500 rows")
    for row in audio:
        text = driver.execute_script(
            "const li = [...document.querySelectorAll('#record-list .record-row')].find(l => l.dataset.id === arguments[0]);"
            "return li && li.querySelector('.record-sub .record-entity') ? li.querySelector('.record-sub .record-entity').textContent : null;",
            row["id"],
        )
        assert text == "AudioBook"


# ------------------------------------------------------------------------------------------------
# Search, sort, paging
# ------------------------------------------------------------------------------------------------


def test_typing_a_search_narrows_the_record_list(inspector, api, wait_for):
    driver = inspector(entity="Book")
    unfiltered = api("/api/entities/Book")
    wait_rows(wait_for, driver, ids(unfiltered), "the unfiltered Book page")

    box = driver.find_element(By.ID, "search-input")
    box.send_keys("the")
    narrowed = api("/api/entities/Book", search="the")
    assert 0 < narrowed["total"] < unfiltered["total"]
    wait_rows(wait_for, driver, ids(narrowed), "the rows matching 'the'")
    assert driver.find_element(By.ID, "page-indicator").text == f"1–{len(narrowed['rows'])} of {narrowed['total']}"
    assert query_of(driver) == {"entity": "Book", "search": "the"}

    # Narrow to one attribute.
    Select(driver.find_element(By.ID, "search-attr")).select_by_value("title")
    by_title = api("/api/entities/Book", search="the", searchAttr="title")
    wait_rows(wait_for, driver, ids(by_title), "the rows whose title matches 'the'")
    assert query_of(driver)["searchAttr"] == "title"

    # A search that matches nothing shows the empty state.
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("zzzz-no-such-book")
    wait_for(driver, lambda d: d.find_element(By.ID, "records-status").get_attribute("data-kind") == "empty",
             message="the empty state")
    assert row_ids(driver) == []
    assert "zzzz-no-such-book" in driver.find_element(By.ID, "records-status").text


def test_search_attribute_choices_are_the_string_attributes(inspector, api, wait_for):
    driver = inspector(entity="Book")
    book = next(e for e in api("/api/entities") if e["name"] == "Book")
    strings = [a["name"] for a in book["attributes"] if a["type"] == "String"]
    # Bytes have no order: Binary and Transformable attributes are not offered (the server refuses them too).
    every = [a["name"] for a in book["attributes"] if a["type"] not in ("Binary", "Transformable")]
    assert "cover" not in every

    def options(select_id):
        return driver.execute_script(
            "return [...document.getElementById(arguments[0]).options].map(o => [o.value, o.textContent]);", select_id)

    # Then each to-many relationship's count.
    counts = [[f"{r['name']}.@count", f"{r['name']} count"] for r in book["relationships"] if r["toMany"]]
    assert counts
    wait_for(driver, lambda d: len(options("sort-select")) == len(every) + len(counts) + 1, message="sort options")
    assert options("search-attr") == [["", "All text"]] + [[n, n] for n in strings]
    assert options("sort-select") == [["", "(none)"]] + [[n, n] for n in every] + counts
    assert [o[0] for o in options("limit-select")] == ["25", "50", "100", "200", "500"]
    # "Name by": the server's choice first, then every String attribute.
    assert options("display-attr") == [["", f"Name: {book['summaryAttribute']} (default)"]] + [[n, f"Name: {n}"] for n in strings]
    assert Select(driver.find_element(By.ID, "limit-select")).first_selected_option.get_attribute("value") == "100"


def test_sort_by_page_count_descending_orders_the_rows(inspector, api, wait_for):
    driver = inspector(entity="Book")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the unsorted page")

    Select(driver.find_element(By.ID, "sort-select")).select_by_value("pageCount")
    ascending = api("/api/entities/Book", sort="pageCount")
    wait_rows(wait_for, driver, ids(ascending), "rows sorted by pageCount ascending")

    order = driver.find_element(By.ID, "order-btn")
    assert order.get_attribute("data-order") == "asc"
    order.click()
    descending = api("/api/entities/Book", sort="pageCount", order="desc")
    wait_rows(wait_for, driver, ids(descending), "rows sorted by pageCount descending")
    assert order.get_attribute("data-order") == "desc"
    counts = [row["attrs"]["pageCount"] for row in descending["rows"]]
    assert counts == sorted(counts, reverse=True)
    assert ids(descending) != ids(ascending)
    assert query_of(driver) == {"entity": "Book", "sort": "pageCount", "order": "desc"}


def tag_counts(api, rows):
    """Each row's number of tags, recomputed from its detail (not from the sorted list's own counts)."""
    counts = {}
    for row in rows:
        rels = {rel["name"]: rel for rel in api("/api/object", id=row["id"])["relationships"]}
        counts[row["id"]] = rels["tags"]["count"]
    return counts


def test_sort_by_tag_count_orders_the_rows_as_the_api_and_the_counts(inspector, api, wait_for):
    driver = inspector(entity="Book")
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the unsorted page")
    select = Select(driver.find_element(By.ID, "sort-select"))
    assert ("tags.@count", "tags count") in [(o.get_attribute("value"), o.text) for o in select.options]
    assert "author.@count" not in [o.get_attribute("value") for o in select.options]  # a to-one has no count

    select.select_by_value("tags.@count")
    driver.find_element(By.ID, "order-btn").click()
    descending = api("/api/entities/Book", sort="tags.@count", order="desc")
    wait_rows(wait_for, driver, ids(descending), "rows sorted by tags count, most first")
    assert query_of(driver) == {"entity": "Book", "sort": "tags.@count", "order": "desc"}
    # The API's order is by the recomputed counts, most first, then by key (the tie-breaker, same direction).
    recomputed = tag_counts(api, descending["rows"])
    assert [row["counts"]["tags"] for row in descending["rows"]] == [recomputed[row["id"]] for row in descending["rows"]]
    counts = [recomputed[row["id"]] for row in descending["rows"]]
    assert counts == sorted(counts, reverse=True)
    assert len(set(counts)) > 1, "the demo page should hold books with different numbers of tags"
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#record-list .record-row .record-sort-value')].map(s => s.textContent);")
    assert shown == [f"{count} tags" for count in counts]


def test_paging_shows_disjoint_pages_and_the_indicator(inspector, server, api, wait_for):
    driver = inspector(entity="Book")
    total = api("/api/entities/Book", limit=1)["total"]
    assert total > 50

    Select(driver.find_element(By.ID, "limit-select")).select_by_value("25")
    first = ids(api("/api/entities/Book", limit=25, offset=0))
    wait_rows(wait_for, driver, first, "the first page of 25")
    indicator = driver.find_element(By.ID, "page-indicator")
    assert indicator.text == f"1–25 of {total}"
    assert not driver.find_element(By.ID, "prev-btn").is_enabled()

    driver.find_element(By.ID, "next-btn").click()
    second = ids(api("/api/entities/Book", limit=25, offset=25))
    wait_rows(wait_for, driver, second, "the second page of 25")
    assert not set(first) & set(second)
    assert indicator.text == f"26–50 of {total}"
    assert query_of(driver) == {"entity": "Book", "limit": "25", "offset": "25"}
    assert driver.find_element(By.ID, "prev-btn").is_enabled()

    driver.find_element(By.ID, "prev-btn").click()
    wait_rows(wait_for, driver, first, "the first page again")
    assert indicator.text == f"1–25 of {total}"

    # The last page disables Next.
    last_offset = (total - 1) // 25 * 25
    driver.get(make_url(server, entity="Book", limit=25, offset=last_offset))
    wait_rows(wait_for, driver, ids(api("/api/entities/Book", limit=25, offset=last_offset)), "the last page")
    assert driver.find_element(By.ID, "page-indicator").text == f"{last_offset + 1}–{total} of {total}"
    assert not driver.find_element(By.ID, "next-btn").is_enabled()


# ------------------------------------------------------------------------------------------------
# Detail, relationships, history
# ------------------------------------------------------------------------------------------------


def a_book_with_author_and_tags(api):
    for row in api("/api/entities/Book", limit=50)["rows"]:
        if row["entity"] != "Book":
            continue
        obj = api("/api/object", id=row["id"])
        rels = {r["name"]: r for r in obj["relationships"]}
        if rels["author"]["count"] == 1 and rels["tags"]["count"] >= 1:
            return row, obj
    raise AssertionError("the demo store should have a book with an author and tags in its first 50 rows")


def test_clicking_a_book_shows_its_attributes_and_relationships(inspector, api, wait_for):
    row, obj = a_book_with_author_and_tags(api)
    driver = inspector(entity="Book")
    wait_for(driver, lambda d: row["id"] in row_ids(d), message="the book in the list")
    driver.find_element(By.CSS_SELECTOR, f'#record-list .record-row[data-id="{row["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="the book's detail")

    assert driver.find_element(By.ID, "detail-entity").text == "Book"
    assert driver.find_element(By.ID, "detail-id").text == row["id"]
    assert driver.find_element(By.ID, "detail-summary").text == obj["summary"]
    assert query_of(driver) == {"entity": "Book", "id": row["id"]}
    assert driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{row["id"]}"]').get_attribute("aria-selected") == "true"
    assert driver.find_element(By.ID, "export-btn").is_enabled()

    book = next(e for e in api("/api/entities") if e["name"] == "Book")
    rendered = driver.execute_script(
        "return [...document.querySelectorAll('#attr-table tr.attr-row')].map(tr => "
        "[tr.dataset.attr, tr.dataset.type, tr.querySelector('.attr-name').textContent, tr.querySelector('.attr-type').textContent]);"
    )
    assert rendered == [[a["name"], a["type"], a["name"], a["type"]] for a in book["attributes"]]
    assert attr_value(driver, "title")[0] == obj["attrs"]["title"]
    assert "val-string" in attr_value(driver, "title")[1]
    assert attr_value(driver, "pageCount") == [str(obj["attrs"]["pageCount"]), ["val", "val-number"]]

    blocks = driver.execute_script(
        "return [...document.querySelectorAll('#rel-list .rel-block')].map(b => ({name: b.dataset.rel,"
        " destination: b.dataset.destination, count: b.querySelector('.rel-count').textContent,"
        " items: [...b.querySelectorAll('a.rel-item')].map(a => [a.dataset.id, a.querySelector('.rel-item-summary').textContent]),"
        " more: b.querySelector('.rel-more') ? b.querySelector('.rel-more').textContent : null}));"
    )
    expected = [
        {
            "name": r["name"],
            "destination": r["destination"],
            "count": str(r["count"]),
            "items": [[i["id"], i["summary"]] for i in r["items"]],
            "more": (f"+{r['count'] - len(r['items'])} more · show all {r['count']} in the list" if r["count"] > len(r["items"])
                     else "open as a list" if r["toMany"] and r["count"] > 0 else None),
        }
        for r in obj["relationships"]
    ]
    assert blocks == expected


def test_related_object_navigation_and_back_forward(inspector, api, wait_for):
    row, obj = a_book_with_author_and_tags(api)
    author = next(r for r in obj["relationships"] if r["name"] == "author")["items"][0]
    author_obj = api("/api/object", id=author["id"])

    driver = inspector(entity="Book", id=row["id"])
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="the book's detail")
    book_url = driver.current_url

    driver.find_element(By.CSS_SELECTOR, f'#rel-list .rel-block[data-rel="author"] a.rel-item[data-id="{author["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == author["id"], message="the author's detail")
    assert driver.find_element(By.ID, "detail-entity").text == "Author"
    assert query_of(driver) == {"entity": "Author", "id": author["id"]}
    wait_for(driver, lambda d: selected_entity(d) == "Author", message="Author selected in the entity list")
    wait_rows(wait_for, driver, ids(api("/api/entities/Author")), "the Author list")
    # The author's books: the first items of its to-many, as the API lists them.
    books = next(r for r in author_obj["relationships"] if r["name"] == "books")
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#rel-list .rel-block[data-rel=\"books\"] a.rel-item')].map(a => a.dataset.id);"
    )
    assert shown == [i["id"] for i in books["items"]]
    assert driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{author["id"]}"]').get_attribute("aria-selected") == "true"

    driver.back()
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="Back shows the book again")
    assert driver.current_url == book_url
    wait_for(driver, lambda d: selected_entity(d) == "Book", message="Book selected again")
    wait_for(driver, lambda d: row["id"] in row_ids(d), message="the Book list again")

    driver.forward()
    wait_for(driver, lambda d: detail_id(d) == author["id"], message="Forward shows the author again")
    wait_for(driver, lambda d: selected_entity(d) == "Author", message="Author selected again")


def test_reload_restores_the_view(inspector, api, wait_for):
    params = {"entity": "Book", "search": "book", "sort": "pageCount", "order": "desc", "limit": "25", "offset": "25"}
    page = api("/api/entities/Book", **params)
    chosen = page["rows"][3]["id"]
    driver = inspector(**params)
    wait_rows(wait_for, driver, ids(page), "the page the URL names")
    driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{chosen}"]').click()
    wait_for(driver, lambda d: detail_id(d) == chosen, message="the chosen record")
    url = driver.current_url

    driver.refresh()
    wait_rows(wait_for, driver, ids(page), "the same page after reload")
    wait_for(driver, lambda d: detail_id(d) == chosen, message="the same record after reload")
    assert driver.current_url == url
    assert driver.find_element(By.ID, "search-input").get_attribute("value") == "book"
    assert Select(driver.find_element(By.ID, "sort-select")).first_selected_option.get_attribute("value") == "pageCount"
    assert driver.find_element(By.ID, "order-btn").get_attribute("data-order") == "desc"
    assert Select(driver.find_element(By.ID, "limit-select")).first_selected_option.get_attribute("value") == "25"
    assert driver.find_element(By.ID, "page-indicator").text == f"26–{25 + len(page['rows'])} of {page['total']}"
    assert driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{chosen}"]').get_attribute("aria-selected") == "true"
    wait_for(driver, lambda d: selected_entity(d) == "Book", message="Book selected")


def test_a_link_with_only_an_id_opens_that_record(inspector, api, wait_for):
    row, _ = a_book_with_author_and_tags(api)
    driver = inspector(id=row["id"])
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="the record's detail")
    wait_for(driver, lambda d: selected_entity(d) == "Book", message="its entity selected")
    wait_for(driver, lambda d: row["id"] in row_ids(d), message="its entity's records")


def test_arrow_keys_move_the_selection(inspector, api, wait_for):
    first_page = ids(api("/api/entities/Tag"))
    assert len(first_page) >= 3
    driver = inspector(entity="Tag")
    wait_rows(wait_for, driver, first_page, "the tags")
    driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{first_page[0]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == first_page[0], message="the first tag")
    assert driver.execute_script("return document.activeElement.id") == "record-list"

    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    wait_for(driver, lambda d: detail_id(d) == first_page[1], message="ArrowDown selects the second tag")
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    wait_for(driver, lambda d: detail_id(d) == first_page[2], message="ArrowDown selects the third tag")
    ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
    wait_for(driver, lambda d: detail_id(d) == first_page[1], message="ArrowUp selects the second tag again")
    selected = driver.execute_script(
        "return [...document.querySelectorAll('.record-row[aria-selected=\"true\"]')].map(li => li.dataset.id);")
    assert selected == [first_page[1]]
    assert query_of(driver)["id"] == first_page[1]
    # The focused list draws a visible outline on the selected row.
    outline = driver.execute_script(
        "const s = getComputedStyle(document.querySelector('.record-row.active')); return [s.outlineStyle, s.outlineWidth];")
    assert outline[0] != "none" and outline[1] != "0px"


# ------------------------------------------------------------------------------------------------
# Top bar: refresh, export, tabs, read-only chip
# ------------------------------------------------------------------------------------------------


def test_refresh_refetches_without_reloading_the_page(inspector, api, wait_for):
    search = "generated"
    page = api("/api/entities/Book", search=search)
    chosen = page["rows"][0]["id"]
    driver = inspector(entity="Book", search=search, id=chosen)
    wait_rows(wait_for, driver, ids(page), "the searched page")
    wait_for(driver, lambda d: detail_id(d) == chosen, message="the chosen record")

    driver.execute_script("window.__refreshMarker = 'still here'; performance.clearResourceTimings();")
    driver.find_element(By.ID, "refresh-btn").click()

    def fetched(d):
        names = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
        paths = [urlsplit(n).path + ("?" + urlsplit(n).query if urlsplit(n).query else "") for n in names]
        return (
            "/api/entities" in paths
            and any(p.startswith("/api/entities/Book?") and "search=generated" in p for p in paths)
            and any(p.startswith("/api/object?") for p in paths)
        )

    wait_for(driver, fetched, message="counts, the page and the record re-requested")
    wait_for(driver, lambda d: d.find_element(By.ID, "refresh-btn").is_enabled(), message="refresh finished")
    assert driver.execute_script("return window.__refreshMarker") == "still here"
    assert driver.find_element(By.ID, "search-input").get_attribute("value") == search
    assert row_ids(driver) == ids(page)
    assert detail_id(driver) == chosen
    counts = {i["name"]: i["shownCount"] for i in driver.execute_script(JS_ENTITY_ITEMS)}
    assert counts == {e["name"]: str(e["count"]) for e in api("/api/entities")}


def test_export_downloads_the_record_as_json(inspector, api, wait_for, download_dir):
    row, obj = a_book_with_author_and_tags(api)
    driver = inspector(entity="Book")
    export = driver.find_element(By.ID, "export-btn")
    assert not export.is_enabled(), "Export needs a selected record"
    wait_for(driver, lambda d: row["id"] in row_ids(d), message="the book in the list")
    driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{row["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="the book's detail")
    export.click()

    def downloaded(_):
        files = [p for p in download_dir.iterdir() if not p.name.endswith(".crdownload")]
        return files[0] if files else None

    path = wait_for(driver, downloaded, timeout=15, message="a downloaded file")
    assert re.fullmatch(r"Book-p\d+\.json", path.name), path.name
    assert path.name == f"Book-{row['id'].rsplit('/', 1)[1]}.json"
    assert json.loads(path.read_text("utf-8")) == api("/api/object", id=row["id"])
    assert urlsplit(driver.current_url).query == urlencode({"entity": "Book", "id": row["id"]}), "export must not navigate away"


def test_view_tabs_and_preferred_view(inspector, server, wait_for):
    driver = inspector()
    assert driver.execute_script("return localStorage.getItem('cdb.preferredView')") == "inspector"
    inspector_tab = driver.find_element(By.ID, "tab-inspector")
    lab_tab = driver.find_element(By.ID, "tab-lab")
    assert inspector_tab.get_attribute("aria-current") == "page"
    assert lab_tab.get_attribute("aria-current") is None
    assert inspector_tab.get_attribute("href") == f"{server}/"
    assert lab_tab.get_attribute("href") == f"{server}/lab"
    # Pill tabs: fully rounded, the active one tinted with the accent.
    radius = driver.execute_script("return getComputedStyle(document.getElementById('tab-inspector')).borderTopLeftRadius")
    assert float(radius.rstrip("px")) >= 12
    assert driver.execute_script("return getComputedStyle(document.getElementById('tab-inspector')).color") == "rgb(74, 139, 255)"
    lab_tab.click()
    wait_for(driver, lambda d: urlsplit(d.current_url).path == "/lab", message="the Lab view")


def test_read_only_chip_follows_health(inspector, api, wait_for):
    health = api("/api/health")
    driver = inspector()
    chip = driver.find_element(By.ID, "readonly-chip")
    if health["readOnly"]:
        wait_for(driver, lambda d: chip.is_displayed(), message="the read-only chip")
        assert chip.text == "read-only"
    else:
        assert not chip.is_displayed()
    wait_for(driver, lambda d: d.find_element(By.ID, "store-name").text == health["store"], message="the store name")


# ------------------------------------------------------------------------------------------------
# Safety and value rendering
# ------------------------------------------------------------------------------------------------


def test_hostile_title_renders_as_literal_text(inspector, api, wait_for):
    row = find_row(api, "Book", lambda r: r["attrs"].get("title") == HOSTILE_TITLE)
    driver = inspector(entity="Book", search="quoted", searchAttr="title")
    wait_for(driver, lambda d: row["id"] in row_ids(d), message="the hostile book in the list")
    summary = driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{row["id"]}"] .record-summary')
    assert summary.get_attribute("textContent") == HOSTILE_TITLE
    summary.click()
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="the hostile book's detail")
    assert driver.find_element(By.ID, "detail-summary").get_attribute("textContent") == HOSTILE_TITLE
    assert attr_value(driver, "title")[0] == HOSTILE_TITLE
    # Nothing from the data became markup, and nothing ran.
    assert driver.execute_script("return document.querySelectorAll('#layout img, #layout script').length") == 0
    assert driver.execute_script("return typeof window.__xss") == "undefined"
    assert HOSTILE_TITLE in driver.title


def test_special_values_render_with_their_classes(inspector, server, api, wait_for):
    rows = all_rows(api, "Book")
    nan_row = next(r for r in rows if r["attrs"].get("rating") in ("NaN", "Infinity", "-Infinity"))
    big_row = next(r for r in rows if isinstance(r["attrs"].get("wordCount"), str))
    binary_row = next(r for r in rows if isinstance(r["attrs"].get("cover"), dict))
    null_row = next(r for r in rows if r["attrs"].get("summary") is None)
    dated_row = next(r for r in rows if isinstance(r["attrs"].get("publishedAt"), str))
    decimal_row = next(r for r in rows if isinstance(r["attrs"].get("price"), str))

    driver = inspector(entity="Book")

    def show(row):
        driver.get(make_url(server, entity="Book", id=row["id"]))
        wait_for(driver, lambda d: detail_id(d) == row["id"] and d.find_elements(By.CSS_SELECTOR, "#attr-table"),
                 message=f"detail of {row['summary']}")

    show(nan_row)
    text, classes = attr_value(driver, "rating")
    assert text == nan_row["attrs"]["rating"] and "val-nonfinite" in classes

    show(big_row)
    text, classes = attr_value(driver, "wordCount")
    assert text == big_row["attrs"]["wordCount"] and "val-number" in classes and "val-bigint" in classes
    assert int(text) > 2**53

    show(binary_row)
    # A binary value says what it is once its summary arrives (the byte count until then).
    wait_for(driver, lambda d: attr_value(d, "cover")[0].startswith("‹PNG 48×72"), message="the cover's summary")
    assert "val-binary" in attr_value(driver, "cover")[1]

    show(null_row)
    assert attr_value(driver, "summary") == ["null", ["val", "val-null"]]
    flag = null_row["attrs"]["inPrint"]
    assert attr_value(driver, "inPrint") == [str(flag).lower(), ["val", f"val-{str(flag).lower()}"]]

    show(dated_row)
    text, classes = attr_value(driver, "publishedAt")
    # Local time by default, its zone named (test_shared_display.py checks the exact text in both zones).
    assert LOCAL_DATE.fullmatch(text) and "val-date" in classes, text
    assert driver.execute_script(
        "return document.querySelector('#attr-table tr.attr-row[data-attr=\"publishedAt\"] .val-date').dataset.iso"
    ) == dated_row["attrs"]["publishedAt"]

    show(decimal_row)
    text, classes = attr_value(driver, "price")
    assert text == decimal_row["attrs"]["price"] and "val-number" in classes

    # An undecodable value ({"type":"error"}) is marked, and the rest of the record still renders:
    # the demo store has none, so the page's fetch is wrapped to inject one into the next /api/object answer.
    driver.execute_script(
        """const original = window.fetch;
           window.fetch = async (input, init) => {
             const response = await original(input, init);
             if (!String(input).startsWith('/api/object?')) return response;
             const body = await response.json();
             body.attrs.title = {type: 'error', message: 'cannot decode: bad UTF-8'};
             return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
           };"""
    )
    other = next(r for r in rows if r["id"] != decimal_row["id"])
    driver.find_element(By.ID, "search-input")  # page still alive
    driver.execute_script("history.pushState(null, '', arguments[0]); dispatchEvent(new PopStateEvent('popstate'));",
                          "/?" + urlencode({"entity": "Book", "id": other["id"]}))
    wait_for(driver, lambda d: detail_id(d) == other["id"], message="the record with an injected error value")
    text, classes = attr_value(driver, "title")
    assert "val-error" in classes and "cannot decode: bad UTF-8" in text
    assert attr_value(driver, "pageCount")[0] == str(other["attrs"]["pageCount"])


def test_errors_show_the_servers_message_in_their_pane(inspector, server, api, wait_for):
    status, body = api.status("/api/entities/NoSuchEntity")
    assert status == 404
    driver = inspector(entity="NoSuchEntity")
    status_line = driver.find_element(By.ID, "records-status")
    wait_for(driver, lambda d: status_line.get_attribute("data-kind") == "error", message="the records error")
    assert body["error"] in status_line.text
    assert driver.find_element(By.ID, "records-pane").get_attribute("data-state") == "error"

    status, body = api.status("/api/entities/Book", sort="noSuchAttribute")
    assert status == 400
    driver.get(make_url(server, entity="Book", sort="noSuchAttribute"))
    status_line = driver.find_element(By.ID, "records-status")
    wait_for(driver, lambda d: status_line.get_attribute("data-kind") == "error", message="the 400 in the records pane")
    assert body["error"] in status_line.text

    store = api("/api/entities/Book", limit=1)["rows"][0]["id"].split("/")[2]
    missing = f"x-coredata://{store}/Book/p999999"
    status, body = api.status("/api/object", id=missing)
    assert status == 404
    driver.get(make_url(server, entity="Book", id=missing))
    detail_status = driver.find_element(By.ID, "detail-status")
    wait_for(driver, lambda d: detail_status.get_attribute("data-kind") == "error", message="the detail error")
    assert body["error"] in detail_status.text
    wait_rows(wait_for, driver, ids(api("/api/entities/Book")), "the Book list still shown beside the error")


# ------------------------------------------------------------------------------------------------
# Layout: resizable panes, theme, screenshot
# ------------------------------------------------------------------------------------------------


def pane_width(driver, pane_id):
    return driver.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().width;", pane_id)


def test_side_panes_resize_and_remember_their_size(inspector, wait_for):
    driver = inspector(entity="Book")
    before = pane_width(driver, "entities-pane")
    ActionChains(driver).click_and_hold(driver.find_element(By.ID, "splitter-left")).move_by_offset(100, 0).release().perform()
    wait_for(driver, lambda d: abs(pane_width(d, "entities-pane") - (before + 100)) <= 2, message="a wider entity list")
    stored = json.loads(driver.execute_script("return localStorage.getItem('cdb.inspector.panes')"))
    assert abs(stored["left"] - (before + 100)) <= 2

    right_before = pane_width(driver, "detail-pane")
    ActionChains(driver).click_and_hold(driver.find_element(By.ID, "splitter-right")).move_by_offset(-80, 0).release().perform()
    wait_for(driver, lambda d: abs(pane_width(d, "detail-pane") - (right_before + 80)) <= 2, message="a wider detail pane")

    # Dragging far past the minimum clamps it.
    ActionChains(driver).click_and_hold(driver.find_element(By.ID, "splitter-left")).move_by_offset(-300, 0).release().perform()
    wait_for(driver, lambda d: abs(pane_width(d, "entities-pane") - 160) <= 1, message="the entity list at its minimum")

    driver.refresh()
    wait_for(driver, lambda d: abs(pane_width(d, "entities-pane") - 160) <= 1, message="the size kept after reload")
    assert abs(pane_width(driver, "detail-pane") - (right_before + 80)) <= 2


def test_theme_uses_the_dark_card_layout(inspector):
    driver = inspector(entity="Book")
    style = driver.execute_script(
        """const css = (id, p) => getComputedStyle(document.getElementById(id))[p];
           return {bg: getComputedStyle(document.body).backgroundColor, pane: css('records-pane', 'backgroundColor'),
                   radius: css('records-pane', 'borderTopLeftRadius'), padding: css('layout', 'paddingTop'),
                   gap: document.getElementById('splitter-left').getBoundingClientRect().width,
                   accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()};"""
    )
    assert style == {"bg": "rgb(10, 10, 13)", "pane": "rgb(22, 22, 26)", "radius": "10px", "padding": "8px",
                     "gap": 6, "accent": "#4a8bff"}


def test_screenshot_of_the_inspector(inspector, api, wait_for, screenshot):
    row, _ = a_book_with_author_and_tags(api)
    driver = inspector(entity="Book", id=row["id"])
    wait_for(driver, lambda d: detail_id(d) == row["id"] and row["id"] in row_ids(d), message="a populated view")
    path = screenshot(driver, "inspector")
    assert path.exists() and path.stat().st_size > 10_000
