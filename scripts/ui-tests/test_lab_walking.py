"""The Lab on the moves of a person's first ten minutes with a real store: a to-many paged to its end
in the relationships pane or opened in the grid, paging to the last of many rows, page sizes from the URL,
bytes that cannot be sorted, abstract parents, and what the Lab shows when the server stops."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import _browser_demo_binary, DemoServer, _wait_until_healthy, REPO_ROOT
from test_inspector_walking import a_book_on_a_later_page, family_albums, filter_and_hide_empty_on_cartkit
from test_lab import JS_REL_IDS, lab, lab_url, pane_state, query_of, row_ids, selected_rows, wait_detail  # noqa: F401 (lab is a fixture)


def indicator(driver):
    return driver.find_element(By.ID, "grid-page-indicator").text


def zola(api):
    return next(r for r in api("/api/entities/Author")["rows"] if r["summary"] == "Émile Zola")


def test_a_to_many_pages_to_its_end_and_opens_in_the_grid(lab, api, wait_for):
    author = zola(api)
    books = next(r for r in api("/api/object", id=author["id"])["relationships"] if r["name"] == "books")
    driver = lab(entity="Author", id=author["id"])
    wait_detail(wait_for, driver, author["id"])
    Select(driver.find_element(By.ID, "rel-select")).select_by_value("books")
    wait_for(driver, lambda d: len(d.execute_script(JS_REL_IDS)) == books["included"], message="the first related items")

    # Load more until the end: every related record, once, in the API's order.
    expected = [r["id"] for r in api("/api/object/related", id=author["id"], rel="books", limit=500)["rows"]]
    load_more = driver.find_element(By.ID, "rel-load-more")
    while load_more.is_displayed():
        shown = len(driver.execute_script(JS_REL_IDS))
        # The button sits under the list in the pane's own scroll area: bring it into view, as a person scrolls.
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", load_more)
        load_more.click()
        wait_for(driver, lambda d: len(d.execute_script(JS_REL_IDS)) > shown or not load_more.is_displayed(),
                 message=f"another page of related records (had {shown}; now {len(driver.execute_script(JS_REL_IDS))}, "
                         f"url {driver.current_url}, state {driver.find_element(By.ID, 'rel-state').text})")
    assert driver.execute_script(JS_REL_IDS) == expected[: books["count"]]
    assert len(expected) == books["count"]

    # Show all in the grid: a scoped grid with a chip, paged to its last page in one click.
    driver.find_element(By.ID, "rel-show-all").click()
    wait_for(driver, lambda d: query_of(d).get("relatedTo") == author["id"] and query_of(d).get("via") == "books",
             message="the scope in the URL")
    chip = driver.find_element(By.ID, "grid-scope")
    # The chip names the record, not its key.
    wait_for(driver, lambda d: chip.is_displayed() and d.find_element(By.ID, "grid-scope-text").text
             == "Related to Émile Zola (Author) through books", message="the 'related to' chip")
    wait_for(driver, lambda d: indicator(d) == f"1–100 of {books['count']}", message="the scoped grid")
    driver.find_element(By.ID, "grid-last").click()
    last = (books["count"] - 1) // 100 * 100
    last_rows = [r["id"] for r in api("/api/object/related", id=author["id"], rel="books", offset=last)["rows"]]
    wait_for(driver, lambda d: row_ids(d) == last_rows, message="the last scoped page")
    driver.find_element(By.ID, "grid-scope-clear").click()
    wait_for(driver, lambda d: "relatedTo" not in query_of(d) and not chip.is_displayed(), message="the chip removed")
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in api("/api/entities/Book")["rows"]], message="every Book")


def test_following_a_relationship_lands_on_the_page_that_holds_the_record(lab, api, wait_for):
    tag, item, position = a_book_on_a_later_page(api)
    total = api(f"/api/entities/{item['entity']}", limit=1)["total"]
    driver = lab(entity="Tag", id=tag["id"])
    wait_detail(wait_for, driver, tag["id"])
    follow_from_the_relationships_pane(driver, wait_for, "books", item["id"], "the book")
    offset = position["pageOffset"]
    page = [r["id"] for r in api(f"/api/entities/{item['entity']}", offset=offset)["rows"]]
    # The grid is on the book's page (not the first), the book's row selected there.
    wait_for(driver, lambda d: row_ids(d) == page, message=f"the page at offset {offset}")
    wait_for(driver, lambda d: selected_rows(d) == [item["id"]], message="the book's row selected")
    assert query_of(driver) == {"entity": item["entity"], "id": item["id"], "offset": str(offset)}
    assert indicator(driver) == f"{offset + 1:,}–{min(offset + 100, total):,} of {total:,}"
    active = [li.get_attribute("data-entity") for li in driver.find_elements(By.CSS_SELECTOR, "#entity-list > li.active")]
    assert active == [item["entity"]]


def follow_from_the_relationships_pane(driver, wait_for, rel, item_id, message):
    """Picks `rel` in the relationships pane, clicks the related record `item_id` there and waits for its detail."""
    Select(driver.find_element(By.ID, "rel-select")).select_by_value(rel)
    wait_for(driver, lambda d: item_id in d.execute_script(JS_REL_IDS), message=f"{message} in the relationships pane")
    driver.find_element(By.CSS_SELECTOR, f'#rel-list > li[data-id="{item_id}"]').click()
    wait_detail(wait_for, driver, item_id, message)


def test_following_a_relationship_into_an_abstract_entity_lands_on_the_concrete_record(driver, wait_for, abstract_store,
                                                                                       console_errors, screenshot, act_on):
    # Folder → childCollections → GenericAlbum (abstract): its items are Albums and SmartAlbums.
    base, api = abstract_store
    family, album, smart, offset, albums = family_albums(api)

    driver.get(lab_url(base, entity="Folder", id=family["id"]))
    wait_detail(wait_for, driver, family["id"], "the folder's detail")
    follow_from_the_relationships_pane(driver, wait_for, "childCollections", album["id"], "the album")
    wait_for(driver, lambda d: selected_rows(d) == [album["id"]], message="the album's row selected on its page")
    assert query_of(driver) == {"entity": "Album", "id": album["id"], "offset": str(offset)}
    assert indicator(driver) == f"{offset + 1:,}–{min(offset + 100, albums):,} of {albums:,}"
    active = [li.get_attribute("data-entity") for li in driver.find_elements(By.CSS_SELECTOR, "#entity-list > li.active")]
    assert active == ["Album"], "the concrete entity, not GenericAlbum"
    for pane in ("pane-grid", "pane-detail"):
        assert pane_state(driver, pane) == "ready"
    screenshot(driver, "lab-walking-abstract-destination")

    # A SmartAlbum from the detail pane of the same folder: its own entity.
    driver.back()
    wait_detail(wait_for, driver, family["id"], "the folder again")
    act_on(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#pane-detail .rel-item[data-id="{smart["id"]}"]'),
           lambda item: item.click(), message="the smart album in the detail pane")
    wait_detail(wait_for, driver, smart["id"], "the smart album")
    wait_for(driver, lambda d: selected_rows(d) == [smart["id"]], message="the smart album's row selected")
    assert query_of(driver)["entity"] == "SmartAlbum"

    # The abstract entity's own list: every album, each row saying which entity it is.
    driver.find_element(By.CSS_SELECTOR, '#entity-list > li[data-entity="GenericAlbum"]').click()
    every = api("/api/entities/GenericAlbum")
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in every["rows"]], message="the GenericAlbum grid")
    assert indicator(driver) == f"1–100 of {every['total']:,}"
    named = driver.execute_script(
        "return [...document.querySelectorAll('#grid-body tr[data-id]')].map(tr => tr.querySelector('.row-entity')?.textContent ?? null);")
    assert named == [r["entity"] for r in every["rows"]], "each row of the abstract list names its entity"
    assert not console_errors(driver)


def test_page_sizes_from_the_url_last_page_and_unsortable_bytes(lab, api, wait_for):
    total = api("/api/entities/Book", limit=1)["total"]
    driver = lab(entity="Book", limit=30)
    wait_for(driver, lambda d: indicator(d) == f"1–30 of {total}", message="30 rows, as the URL says")
    assert query_of(driver).get("limit") == "30"
    assert Select(driver.find_element(By.ID, "grid-page-size")).first_selected_option.get_attribute("value") == "30"
    driver.find_element(By.ID, "grid-last").click()
    last = (total - 1) // 30 * 30
    wait_for(driver, lambda d: indicator(d) == f"{last + 1}–{total} of {total}", message="the last page")
    assert driver.find_element(By.ID, "grid-last").get_attribute("disabled") == "true"
    driver.find_element(By.ID, "grid-first").click()
    wait_for(driver, lambda d: indicator(d) == f"1–30 of {total}", message="the first page")

    # A Binary column has no order: clicking its header leaves the grid unsorted and asks the server nothing.
    # (A click on a sortable header sends its request at once, in the click's own task, so "none yet" is final.)
    driver.execute_script("""
        window.__pageRequests = [];
        const realFetch = window.fetch;
        window.fetch = (input, init) => {
          if (String(input).includes('/api/entities/')) window.__pageRequests.push(String(input));
          return realFetch(input, init);
        };""")
    cover = driver.find_element(By.CSS_SELECTOR, '#grid-head-row th[data-col="cover"]')
    cover.find_element(By.CSS_SELECTOR, ".th-label").click()
    assert driver.execute_script("return window.__pageRequests") == []
    assert "sort" not in query_of(driver)
    assert cover.get_attribute("aria-sort") in (None, "none")
    title = driver.find_element(By.CSS_SELECTOR, '#grid-head-row th[data-col="title"] .th-label')
    title.click()
    assert any("sort=title" in url for url in driver.execute_script("return window.__pageRequests")), "a sortable header asks"
    wait_for(driver, lambda d: query_of(d).get("sort") == "title", message="title sorts")
    assert pane_state(driver, "pane-grid") != "error"


def test_abstract_parent_lists_its_sub_entities_records(driver, wait_for, store_server, console_errors):
    base, api = store_server("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
    driver.get(lab_url(base, entity="Writer"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Writer grid")
    writer = driver.find_element(By.CSS_SELECTOR, '#entity-list > li[data-entity="Writer"]')
    assert writer.get_attribute("data-abstract") == "true" and "abstract" in writer.text
    assert row_ids(driver) == [r["id"] for r in api("/api/entities/Writer")["rows"]]
    assert not console_errors(driver)


def test_a_stopped_server_turns_the_dot_red_and_refresh_recovers(driver, wait_for):
    # A server of its own, stopped and started again on the same port in the middle of the test.
    demo = DemoServer(_browser_demo_binary(), ["--web-root", str(REPO_ROOT / "web")])
    base = demo.wait_for_url(60)
    port = base.rsplit(":", 1)[1]
    try:
        driver.get(lab_url(base, entity="Book"))
        wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid")
        demo.stop()
        driver.find_element(By.ID, "refresh-btn").click()
        dot = driver.find_element(By.CSS_SELECTOR, ".statusbar .pulse")
        wait_for(driver, lambda d: "is-offline" in dot.get_attribute("class"), message="the red status dot")
        assert driver.find_element(By.ID, "grid-search").get_attribute("disabled") == "true"
        assert driver.execute_script("return document.body.dataset.offline") == "true"
        demo = DemoServer(_browser_demo_binary(), ["--web-root", str(REPO_ROOT / "web"), "--port", port])
        _wait_until_healthy(demo.wait_for_url(60), 10)
        driver.find_element(By.ID, "refresh-btn").click()
        wait_for(driver, lambda d: "is-offline" not in dot.get_attribute("class") and pane_state(d, "pane-grid") == "ready",
                 message="recovered after Refresh")
        assert driver.find_element(By.ID, "grid-search").get_attribute("disabled") is None
    finally:
        demo.stop()


def test_breadcrumb_of_followed_records_and_in_app_history(lab, api, wait_for):
    author = zola(api)
    book = api("/api/object/related", id=author["id"], rel="books", limit=1)["rows"][0]
    driver = lab(entity="Author", id=author["id"])
    wait_detail(wait_for, driver, author["id"])
    follow_from_the_relationships_pane(driver, wait_for, "books", book["id"], "the author's first book")
    crumbs = driver.find_element(By.ID, "breadcrumb")
    wait_for(driver, lambda d: crumbs.is_displayed(), message="the breadcrumb")
    steps = driver.execute_script("return [...document.querySelectorAll('#breadcrumb button[data-id]')].map(b => b.dataset.id);")
    assert steps == [author["id"]]
    assert driver.find_element(By.CSS_SELECTOR, "#breadcrumb .current").text.startswith("Book: ")
    # The in-app Back button is the browser's Back: the author again; Forward returns to the book.
    driver.find_element(By.ID, "nav-back").click()
    wait_detail(wait_for, driver, author["id"], "the author after Back")
    driver.find_element(By.ID, "nav-forward").click()
    wait_detail(wait_for, driver, book["id"], "the book after Forward")
    # A breadcrumb step goes back to that record.
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#breadcrumb button[data-id]"), message="the breadcrumb step")
    driver.find_element(By.CSS_SELECTOR, "#breadcrumb button[data-id]").click()
    wait_detail(wait_for, driver, author["id"], "the author from the breadcrumb")
    wait_for(driver, lambda d: not crumbs.is_displayed(), message="the trail emptied at its start")
    # "/" focuses the search box.
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    wait_for(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "grid-search", message="search focused")


JS_LAB_ENTITIES = "return [...document.querySelectorAll('#entity-list > li[data-entity]')].map(li => li.dataset.entity);"
#: Every element of a sidebar list that Tab stops on (the list itself included).
JS_TAB_STOPS = """
const list = document.getElementById('entity-list');
return [list, ...list.querySelectorAll('*')].filter(e => e.tabIndex >= 0 && !e.disabled).length;"""


def test_the_lab_sidebar_filters_hides_empty_titles_full_names_and_is_one_tab_stop(driver, wait_for, store_server, screenshot):
    from selenium.webdriver.common.keys import Keys

    base, api = store_server("cartkit/coredata/CartStorage_v1.sqlite")
    driver.get(lab_url(base))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") in ("ready", "empty"), message="the Lab")
    names = lambda d: d.execute_script(JS_LAB_ENTITIES)  # noqa: E731
    assert query_of(driver)["entity"] == "CDCart"
    filter_and_hide_empty_on_cartkit(driver, wait_for, names)

    # One tab stop for the whole list; arrow keys, Home and End move inside it and show the entity.
    assert driver.execute_script(JS_TAB_STOPS) == 1
    driver.find_element(By.ID, "hide-empty").send_keys(Keys.TAB)
    assert driver.switch_to.active_element.get_attribute("id") == "entity-list"
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    wait_for(driver, lambda d: query_of(d).get("entity") == "CDCartItem" and pane_state(d, "pane-grid") == "ready",
             message="ArrowDown shows the next entity")
    active = lambda d: [li.get_attribute("data-entity") for li in d.find_elements(By.CSS_SELECTOR, "#entity-list > li.active")]  # noqa: E731
    assert active(driver) == ["CDCartItem"]
    assert driver.switch_to.active_element.get_attribute("id") == "entity-list", "focus stays in the list"
    driver.switch_to.active_element.send_keys(Keys.HOME)
    wait_for(driver, lambda d: query_of(d).get("entity") == "CDCart", message="Home shows the first entity")
    driver.switch_to.active_element.send_keys(Keys.END)
    wait_for(driver, lambda d: query_of(d).get("entity") == "CDCartItem", message="End shows the last entity shown")

    # Sub-entities under their parent, every item titled with its full name (and parent); a long name is one line,
    # ellipsised (never broken mid-word), its full name on hover.
    base, api = store_server("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
    driver.get(lab_url(base, entity="Writer"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Writer grid")
    if driver.find_element(By.ID, "hide-empty").is_selected():
        driver.find_element(By.ID, "hide-empty").click()
    entities = api("/api/entities")
    shown = names(driver)
    assert sorted(shown) == sorted(e["name"] for e in entities)
    for entity in entities:
        li = driver.find_element(By.CSS_SELECTOR, f'#entity-list > li[data-entity="{entity["name"]}"]')
        title = li.get_attribute("title")
        assert title.startswith(entity["name"]), title
        if entity.get("parent"):
            assert f"a sub-entity of {entity['parent']}" in title
            assert li.get_attribute("data-depth") != "0"
            assert shown.index(entity["parent"]) < shown.index(entity["name"]), "a sub-entity comes after its parent"
    cut = driver.execute_script("""
        const name = document.querySelector('#entity-list > li .name');
        name.textContent = 'ICAccountSyncingObjectWithAVeryLongNameThatPhotosReallyUses';
        const s = getComputedStyle(name);
        return {cut: name.scrollWidth > name.clientWidth + 1, ellipsis: s.textOverflow, height: name.getBoundingClientRect().height,
                line: parseFloat(s.lineHeight) || 16};""")
    assert cut["ellipsis"] == "ellipsis", f"a long entity name is not ellipsised: {cut}"
    assert cut["height"] < cut["line"] * 1.5, f"a long entity name breaks onto a second line: {cut}"
    screenshot(driver, "lab-sidebar-sub-entities")


def test_the_inspector_sidebar_is_one_tab_stop_with_arrow_keys(driver, wait_for, store_server):
    from selenium.webdriver.common.keys import Keys
    from test_inspector import make_url, query_of as inspector_query

    base, _ = store_server("cartkit/coredata/CartStorage_v1.sqlite")
    driver.get(make_url(base, entity="CDCart"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#entity-list .entity-item"), message="the entity list")
    assert driver.execute_script(JS_TAB_STOPS) == 1
    driver.find_element(By.ID, "entity-list").send_keys(Keys.ARROW_DOWN)
    wait_for(driver, lambda d: inspector_query(d).get("entity") == "CDCartItem", message="ArrowDown")
    driver.find_element(By.ID, "entity-list").send_keys(Keys.END)
    wait_for(driver, lambda d: inspector_query(d).get("entity") == "CDCartItemModifier", message="End")
    driver.find_element(By.ID, "entity-list").send_keys(Keys.ARROW_UP)
    wait_for(driver, lambda d: inspector_query(d).get("entity") == "CDCartItem", message="ArrowUp")


def test_the_status_bar_says_where_the_model_came_from(driver, server, wait_for, store_server, screenshot):
    driver.get(lab_url(server, entity="Book"))
    line = driver.find_element(By.ID, "model-line")
    wait_for(driver, lambda d: line.get_attribute("data-source") == "live", message="the demo's model")
    assert line.is_displayed() and line.text == "Model: the app’s own"
    # A store without a cached model and no --model: guessed from the tables, and the Lab says so, as a warning.
    base, _ = store_server("restkit-seed/RKSeedDatabase.sqlite")
    driver.get(lab_url(base))
    line = driver.find_element(By.ID, "model-line")
    wait_for(driver, lambda d: line.get_attribute("data-source") == "inferred", message="the guessed model")
    assert line.is_displayed() and "guessed from the tables" in line.text and "is-warning" in line.get_attribute("class")
    assert "--model" in line.get_attribute("title")
    screenshot(driver, "lab-model-guessed")


def test_go_to_page_page_keys_and_counts_grouped_by_locale(driver, wait_for, abstract_store, console_errors, screenshot):
    from selenium.webdriver.common.keys import Keys
    from test_lab import click_row

    base, api = abstract_store
    total = api("/api/entities/GenericAlbum", limit=1)["total"]
    assert total >= 1000, "the store needs a count that is grouped"
    last = (total - 1) // 100 * 100
    driver.get(lab_url(base, entity="GenericAlbum"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the grid")
    # Counts grouped by the browser's locale everywhere: pager, status bar, sidebar, page input.
    assert indicator(driver) == f"1–100 of {total:,}"
    assert driver.find_element(By.ID, "status-text").text.startswith(f"GenericAlbum: {total:,} records")
    assert driver.find_element(By.CSS_SELECTOR, '#entity-list > li[data-entity="GenericAlbum"] .count').text == f"{total:,}"
    page_input = driver.find_element(By.ID, "grid-page-input")
    assert page_input.get_attribute("placeholder") == f"/ {(total + 99) // 100}"

    # Go to page: a number and Enter; past the end it is the last page; text that is no number changes nothing.
    page_input.send_keys("3", Keys.ENTER)
    wait_for(driver, lambda d: indicator(d) == f"201–300 of {total:,}", message="page 3")
    assert query_of(driver)["offset"] == "200"
    page_input.send_keys("999", Keys.ENTER)
    wait_for(driver, lambda d: indicator(d) == f"{last + 1:,}–{total:,} of {total:,}", message="the last page")
    page_input.send_keys("x", Keys.ENTER)
    assert not driver.execute_script("return document.getElementById('grid-page-input').validity.valid")
    page_input.clear()
    page_input.send_keys("3", Keys.ENTER)
    wait_for(driver, lambda d: indicator(d) == f"201–300 of {total:,}", message="page 3 again")

    # PageDown / PageUp turn the page; the selected row's place is kept, so the walk goes on.
    page3 = row_ids(driver)
    click_row(driver, page3[4])
    wait_detail(wait_for, driver, page3[4])
    grid = driver.find_element(By.ID, "grid-scroll")
    grid.send_keys(Keys.PAGE_DOWN)
    page4 = [r["id"] for r in api("/api/entities/GenericAlbum", offset=300)["rows"]]
    wait_for(driver, lambda d: row_ids(d) == page4 and selected_rows(d) == [page4[4]], message="PageDown: page 4, fifth row")
    wait_detail(wait_for, driver, page4[4], "the fifth row of page 4 in the detail")
    assert query_of(driver)["offset"] == "300" and query_of(driver)["id"] == page4[4]
    grid.send_keys(Keys.PAGE_UP)
    wait_for(driver, lambda d: row_ids(d) == page3 and selected_rows(d) == [page3[4]], message="PageUp: page 3, fifth row")
    # On the last page there is no page further: PageDown goes to its last row.
    driver.find_element(By.ID, "grid-last").click()
    last_rows = [r["id"] for r in api("/api/entities/GenericAlbum", offset=last)["rows"]]
    wait_for(driver, lambda d: row_ids(d) == last_rows, message="the last page")
    click_row(driver, last_rows[0])
    wait_detail(wait_for, driver, last_rows[0])
    grid.send_keys(Keys.PAGE_DOWN)
    wait_for(driver, lambda d: selected_rows(d) == [last_rows[-1]], message="the last row")
    assert indicator(driver) == f"{last + 1:,}–{total:,} of {total:,}"

    # Relationship counts are grouped too (the relationships pane's menu and the detail pane).
    trips = next(r for r in api("/api/entities/Folder")["rows"] if r["summary"] == "Trips")
    count = next(r for r in api("/api/object", id=trips["id"])["relationships"] if r["name"] == "childCollections")["count"]
    assert count >= 1000
    driver.get(lab_url(base, entity="Folder", id=trips["id"]))
    wait_detail(wait_for, driver, trips["id"])
    option = Select(driver.find_element(By.ID, "rel-select")).first_selected_option.text
    assert option == f"childCollections → GenericAlbum ({count:,})"
    assert driver.find_element(By.CSS_SELECTOR, '.rel-card[data-rel="childCollections"] .count').text == f"{count:,}"
    screenshot(driver, "lab-grouped-counts")
    from test_inspector import make_url
    driver.get(make_url(base, entity="Folder", id=trips["id"]))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.rel-block[data-rel="childCollections"] .rel-count'),
             message="the Inspector's relationship")
    assert driver.find_element(By.CSS_SELECTOR, '.rel-block[data-rel="childCollections"] .rel-count').text == f"{count:,}"
    assert not console_errors(driver)


def test_the_inspector_sidebar_ellipsises_a_long_entity_name(driver, wait_for, store_server):
    from test_inspector import make_url

    base, _ = store_server("cartkit/coredata/CartStorage_v1.sqlite")
    driver.get(make_url(base, entity="CDCart"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#entity-list .entity-item"), message="the entity list")
    button = driver.find_element(By.CSS_SELECTOR, "#entity-list .entity-item .entity-button")
    assert button.get_attribute("title").startswith("CDCart"), "the full name is the title"
    cut = driver.execute_script("""
        const button = document.querySelector('#entity-list .entity-item .entity-button');
        const name = button.querySelector('.entity-name'), count = button.querySelector('.entity-count');
        name.textContent = 'ICAccountSyncingObjectWithAVeryLongNameThatPhotosReallyUses';
        const s = getComputedStyle(name);
        return {ellipsis: s.textOverflow, height: name.getBoundingClientRect().height, line: parseFloat(s.lineHeight) || 16,
                countInside: count.getBoundingClientRect().right <= button.getBoundingClientRect().right + 1,
                sameLine: Math.abs(count.getBoundingClientRect().top - name.getBoundingClientRect().top) < 8};""")
    assert cut["ellipsis"] == "ellipsis", f"a long entity name is not ellipsised: {cut}"
    assert cut["height"] < cut["line"] * 1.5, f"a long entity name breaks onto a second line: {cut}"
    assert cut["countInside"] and cut["sameLine"], f"the count left its line or its button: {cut}"
