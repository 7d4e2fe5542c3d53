"""The Inspector on the moves a person makes in their first ten minutes with a real store: walking a
relationship to its end, landing on a followed record, finding entities, paging to the end, naming records,
copying, and knowing which model is in use. On the demo library and on Apple-written fixture stores."""

from __future__ import annotations

import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_inspector import JS_ENTITY_ITEMS, detail_id, make_url, query_of, row_ids, selected_entity


def open_inspector(driver, base, wait_for, **params):
    driver.get(make_url(base, **params))
    wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0, message="the entity list")
    return driver


def indicator(driver):
    return driver.find_element(By.ID, "page-indicator").text


def zola(api):
    return next(r for r in api("/api/entities/Author")["rows"] if r["summary"] == "Émile Zola")


def test_a_to_many_relationship_opens_as_a_list_paged_to_its_end(driver, server, api, wait_for, console_errors):
    author = zola(api)
    books = next(r for r in api("/api/object", id=author["id"])["relationships"] if r["name"] == "books")
    assert books["count"] > 100, "the demo author needs more books than one page"
    open_inspector(driver, server, wait_for, entity="Author", id=author["id"])
    wait_for(driver, lambda d: detail_id(d) == author["id"], message="Zola's detail")

    more = driver.find_element(By.CSS_SELECTOR, '.rel-block[data-rel="books"] .rel-more')
    assert more.text == f"+{books['count'] - books['included']} more · show all {books['count']} in the list"
    more.find_element(By.CSS_SELECTOR, "a.rel-show-all").click()
    wait_for(driver, lambda d: query_of(d).get("relatedTo") == author["id"] and query_of(d).get("via") == "books",
             message="the scoped list in the URL")
    wait_for(driver, lambda d: selected_entity(d) == "Book", message="Book selected")
    chip = driver.find_element(By.ID, "scope-chip")
    # The chip names the record, not its key.
    wait_for(driver, lambda d: chip.is_displayed() and d.find_element(By.ID, "scope-text").text
             == "Related to Émile Zola (Author) through books", message="the 'related to' chip")
    first_page = api("/api/object/related", id=author["id"], rel="books")
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in first_page["rows"]], message="the first related page")
    assert indicator(driver) == f"1–100 of {books['count']}"

    # The last page is one click away, and holds the last of the author's books.
    driver.find_element(By.ID, "last-btn").click()
    last_offset = (books["count"] - 1) // 100 * 100
    last_page = api("/api/object/related", id=author["id"], rel="books", offset=last_offset)
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in last_page["rows"]], message="the last related page")
    assert indicator(driver) == f"{last_offset + 1}–{books['count']} of {books['count']}"

    # Removing the chip lists every Book again.
    driver.find_element(By.ID, "scope-clear").click()
    every = api("/api/entities/Book")
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in every["rows"]], message="every Book again")
    assert "relatedTo" not in query_of(driver) and not driver.find_element(By.ID, "scope-chip").is_displayed()
    assert not console_errors(driver)


def a_book_on_a_later_page(api):
    """(tag, book, position): a book listed in a tag's detail that sits past the first page of Book (100 rows in
    primary-key order), so landing on it needs the list moved to its page."""
    for tag in api("/api/entities/Tag")["rows"]:
        books = next(r for r in api("/api/object", id=tag["id"])["relationships"] if r["name"] == "books")
        for item in reversed(books["items"]):
            position = api(f"/api/entities/{item['entity']}/position", id=item["id"], limit=100)
            if position["pageOffset"] > 0:
                return tag, item, position
    raise AssertionError("no tag lists a book past the first page of Book")


def test_following_a_relationship_lands_on_the_page_that_holds_the_record(driver, server, api, wait_for):
    tag, item, position = a_book_on_a_later_page(api)
    total = api(f"/api/entities/{item['entity']}", limit=1)["total"]
    open_inspector(driver, server, wait_for, entity="Tag", id=tag["id"])
    wait_for(driver, lambda d: detail_id(d) == tag["id"], message="the tag's detail")
    driver.find_element(By.CSS_SELECTOR, f'.rel-block[data-rel="books"] a.rel-item[data-id="{item["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == item["id"], message="the book's detail")
    wait_for(driver, lambda d: selected_entity(d) == item["entity"], message="its concrete entity selected")
    wait_for(driver, lambda d: item["id"] in row_ids(d), message="the book in the list")
    # The list is on the book's page, not the first one: the URL, the pager and the rows say so.
    offset = position["pageOffset"]
    assert query_of(driver) == {"entity": item["entity"], "id": item["id"], "offset": str(offset)}
    assert indicator(driver) == f"{offset + 1:,}–{min(offset + 100, total):,} of {total:,}"
    page = api(f"/api/entities/{item['entity']}", offset=offset)
    assert row_ids(driver) == [r["id"] for r in page["rows"]]
    row = driver.find_element(By.CSS_SELECTOR, f'.record-row[data-id="{item["id"]}"]')
    assert row.get_attribute("aria-selected") == "true"
    # The in-app Back button returns to the tag; Forward to the book again, on its page.
    driver.find_element(By.ID, "nav-back").click()
    wait_for(driver, lambda d: detail_id(d) == tag["id"] and selected_entity(d) == "Tag", message="the tag after Back")
    driver.find_element(By.ID, "nav-forward").click()
    wait_for(driver, lambda d: detail_id(d) == item["id"] and query_of(d).get("offset") == str(offset), message="the book after Forward")


def family_albums(api):
    """The synthetic store's folder "Family", an Album and a SmartAlbum among its childCollections (GenericAlbum,
    abstract), the Album's page offset in the Album list (it is past the first page), and how many Albums there are."""
    family = next(r for r in api("/api/entities/Folder")["rows"] if r["summary"] == "Family")
    items = next(r for r in api("/api/object", id=family["id"])["relationships"] if r["name"] == "childCollections")["items"]
    album = next(i for i in items if i["entity"] == "Album")
    smart = next(i for i in items if i["entity"] == "SmartAlbum")
    offset = api("/api/entities/Album/position", id=album["id"], limit=100)["pageOffset"]
    assert offset == 200, "Album p251 is the 201st Album"
    return family, album, smart, offset, api("/api/entities/Album", limit=1)["total"]


def filter_and_hide_empty_on_cartkit(driver, wait_for, names):
    """Either view's sidebar on the Core Data CartKit store: "Hide empty", the filter box, and a reload that keeps
    the first and forgets the second. `names(driver)` lists the entities shown."""
    assert names(driver) == ["CDCart", "CDCartItem", "CDCartItemModifier"]
    driver.find_element(By.ID, "hide-empty").click()
    wait_for(driver, lambda d: names(d) == ["CDCart", "CDCartItem"], message="the empty entity hidden")
    driver.find_element(By.ID, "entity-filter").send_keys("item")
    wait_for(driver, lambda d: names(d) == ["CDCartItem"], message="filtered by name")
    driver.refresh()
    # "Hide empty" is remembered (one choice for both views); the filter text is not.
    wait_for(driver, lambda d: names(d) == ["CDCart", "CDCartItem"], message="hide-empty remembered")
    assert driver.find_element(By.ID, "hide-empty").is_selected()


def test_following_a_relationship_into_an_abstract_entity_lands_on_the_concrete_record(driver, wait_for, abstract_store,
                                                                                       console_errors, screenshot):
    # Folder → childCollections → GenericAlbum (abstract): its items are Albums and SmartAlbums.
    base, api = abstract_store
    family, album, smart, offset, albums = family_albums(api)

    open_inspector(driver, base, wait_for, entity="Folder", id=family["id"])
    wait_for(driver, lambda d: detail_id(d) == family["id"], message="the folder's detail")
    block = driver.find_element(By.CSS_SELECTOR, '.rel-block[data-rel="childCollections"]')
    assert block.get_attribute("data-destination") == "GenericAlbum"
    block.find_element(By.CSS_SELECTOR, f'a.rel-item[data-id="{album["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == album["id"], message="the album's detail")
    wait_for(driver, lambda d: selected_entity(d) == "Album", message="the concrete entity selected, not GenericAlbum")
    wait_for(driver, lambda d: album["id"] in row_ids(d), message="the album on its page")
    assert query_of(driver) == {"entity": "Album", "id": album["id"], "offset": str(offset)}
    assert indicator(driver) == f"{offset + 1:,}–{min(offset + 100, albums):,} of {albums:,}"
    for status in ("records-status", "detail-status"):
        assert driver.find_element(By.ID, status).get_attribute("data-kind") != "error"
    screenshot(driver, "inspector-walking-abstract-destination")

    # A SmartAlbum from the same folder: its own entity, found on its own page.
    driver.find_element(By.ID, "nav-back").click()
    wait_for(driver, lambda d: detail_id(d) == family["id"], message="the folder again")
    smart_offset = api("/api/entities/SmartAlbum/position", id=smart["id"], limit=100)["pageOffset"]
    driver.find_element(By.CSS_SELECTOR, f'.rel-block[data-rel="childCollections"] a.rel-item[data-id="{smart["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == smart["id"] and selected_entity(d) == "SmartAlbum", message="the smart album")
    wait_for(driver, lambda d: smart["id"] in row_ids(d), message="the smart album in its list")
    assert query_of(driver).get("offset", "0") == str(smart_offset)

    # The destination link opens the abstract entity's own list: every album, no 404.
    driver.find_element(By.ID, "nav-back").click()
    wait_for(driver, lambda d: detail_id(d) == family["id"], message="the folder again")
    driver.find_element(By.CSS_SELECTOR, '.rel-block[data-rel="childCollections"] a.rel-destination-link').click()
    every = api("/api/entities/GenericAlbum")
    wait_for(driver, lambda d: selected_entity(d) == "GenericAlbum" and row_ids(d) == [r["id"] for r in every["rows"]],
             message="the GenericAlbum list")
    assert indicator(driver) == f"1–100 of {every['total']:,}"
    assert not console_errors(driver)


def test_paging_first_last_go_to_and_page_keys(driver, server, api, wait_for):
    total = api("/api/entities/Book", limit=1)["total"]
    open_inspector(driver, server, wait_for, entity="Book")
    wait_for(driver, lambda d: indicator(d) == f"1–100 of {total:,}", message="page 1")
    driver.find_element(By.ID, "last-btn").click()
    last = (total - 1) // 100 * 100
    wait_for(driver, lambda d: indicator(d) == f"{last + 1:,}–{total:,} of {total:,}", message="the last page")
    assert driver.find_element(By.ID, "last-btn").get_attribute("disabled") == "true"
    driver.find_element(By.ID, "first-btn").click()
    wait_for(driver, lambda d: indicator(d) == f"1–100 of {total:,}", message="back to page 1")
    page_input = driver.find_element(By.ID, "page-input")
    # The box shows its whole placeholder ("page"; it was cut to "pag"): its content box is wider than the text.
    room, needed = driver.execute_script("""
        const input = document.getElementById('page-input'), style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d');
        context.font = `${style.fontSize} ${style.fontFamily}`;
        return [input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                context.measureText(input.placeholder).width];""")
    assert room >= needed, f"the page box has {room:.1f} px for a {needed:.1f} px placeholder"
    page_input.send_keys("3", Keys.ENTER)
    wait_for(driver, lambda d: indicator(d) == f"201–300 of {total:,}", message="page 3")
    assert query_of(driver)["offset"] == "200"
    # PageDown / PageUp in the list move by a page.
    driver.find_element(By.ID, "record-list").send_keys(Keys.PAGE_DOWN)
    wait_for(driver, lambda d: indicator(d) == f"301–400 of {total:,}", message="PageDown")
    driver.find_element(By.ID, "record-list").send_keys(Keys.PAGE_UP)
    wait_for(driver, lambda d: indicator(d) == f"201–300 of {total:,}", message="PageUp")
    # On the last page PageDown stays there (it once went back to an unaligned page: 515–614 of 614).
    driver.find_element(By.ID, "last-btn").click()
    wait_for(driver, lambda d: indicator(d) == f"{last + 1:,}–{total:,} of {total:,}", message="the last page")
    driver.find_element(By.ID, "record-list").send_keys(Keys.PAGE_DOWN, Keys.PAGE_UP)
    wait_for(driver, lambda d: indicator(d) == f"{last - 99:,}–{last:,} of {total:,}", message="PageDown then PageUp from the last page")


def test_rows_show_the_sorted_value_and_the_chosen_name(driver, server, api, wait_for):
    page = api("/api/entities/Book", sort="pageCount", order="desc", limit=25)
    open_inspector(driver, server, wait_for, entity="Book", sort="pageCount", order="desc", limit=25)
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in page["rows"]], message="the sorted page")
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#record-list .record-row')].map(li => li.querySelector('.record-sort-value').textContent);")
    assert shown == [str(r["attrs"]["pageCount"]) for r in page["rows"]]

    # Name the books by their summary: rows and the detail follow, the choice survives a reload.
    Select(driver.find_element(By.ID, "display-attr")).select_by_value("summary")
    expected = [r["attrs"]["summary"] or r["summary"] for r in page["rows"]]
    summaries = "return [...document.querySelectorAll('#record-list .record-summary')].map(s => s.textContent);"
    wait_for(driver, lambda d: d.execute_script(summaries) == expected, message="rows named by summary")
    driver.refresh()
    wait_for(driver, lambda d: d.execute_script(summaries) == expected, message="the choice remembered")
    assert Select(driver.find_element(By.ID, "display-attr")).first_selected_option.get_attribute("value") == "summary"
    Select(driver.find_element(By.ID, "display-attr")).select_by_value("")
    wait_for(driver, lambda d: d.execute_script(summaries) == [r["summary"] for r in page["rows"]], message="default names")


#: Installed before the page's own scripts: /api/health is answered only once the record list has rows, so the
#: list is drawn before the store (the key of the "Name by" choices) is known — the order a slow health check gives.
HOLD_HEALTH_UNTIL_ROWS = """
(() => {
  const realFetch = window.fetch.bind(window);
  const rowsDrawn = () => new Promise((resolve) => {
    const check = () => document.querySelector('#record-list .record-row') ? resolve() : requestAnimationFrame(check);
    check();
  });
  window.fetch = async (input, init) => {
    if (String(input).includes('/api/health')) {
      await rowsDrawn();
      window.__healthHeldUntilRows = true;
    }
    return realFetch(input, init);
  };
})();
"""


def test_the_chosen_name_applies_when_the_store_is_known_after_the_list_is_drawn(driver, server, api, wait_for):
    page = api("/api/entities/Book", sort="pageCount", order="desc", limit=25)
    open_inspector(driver, server, wait_for, entity="Book", sort="pageCount", order="desc", limit=25)
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in page["rows"]], message="the sorted page")
    Select(driver.find_element(By.ID, "display-attr")).select_by_value("summary")
    summaries = "return [...document.querySelectorAll('#record-list .record-summary')].map(s => s.textContent);"
    expected = [r["attrs"]["summary"] or r["summary"] for r in page["rows"]]
    wait_for(driver, lambda d: d.execute_script(summaries) == expected, message="rows named by summary")

    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_HEALTH_UNTIL_ROWS})
    driver.refresh()
    wait_for(driver, lambda d: d.execute_script("return window.__healthHeldUntilRows === true"),
             message="the health check answered after the rows were drawn")
    wait_for(driver, lambda d: d.execute_script(summaries) == expected, message="the remembered choice, once the store is known")
    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_search_finds_a_record_by_id_and_slash_focuses_search(driver, server, api, wait_for):
    target = api("/api/entities/Book", offset=300, limit=1)["rows"][0]
    open_inspector(driver, server, wait_for, entity="Book")
    wait_for(driver, lambda d: len(row_ids(d)) == 100, message="page 1")
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    wait_for(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "search-input", message="search focused")
    short = target["id"].rsplit("/", 1)[1]
    driver.switch_to.active_element.send_keys(short, Keys.ENTER)
    wait_for(driver, lambda d: row_ids(d) == [target["id"]], message=f"the record {short}")
    assert indicator(driver) == "1–1 of 1"


def test_copy_buttons_and_favicon(driver, server, api, wait_for):
    row = api("/api/entities/Book", limit=1)["rows"][0]
    open_inspector(driver, server, wait_for, entity="Book", id=row["id"])
    wait_for(driver, lambda d: detail_id(d) == row["id"], message="the detail")
    button = driver.find_element(By.ID, "copy-id-btn")
    assert button.get_attribute("data-copy") == row["id"]
    button.click()
    wait_for(driver, lambda d: button.get_attribute("data-copied") == "true", message="the ID copied")
    # The copied text is the ID: paste it into the search box.
    search = driver.find_element(By.ID, "search-input")
    search.send_keys(Keys.CONTROL, "v")
    wait_for(driver, lambda d: search.get_attribute("value") == row["id"], message="the ID pasted")
    with urllib.request.urlopen(f"{server}/favicon.ico") as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("image/svg+xml")


def test_model_line_says_where_the_model_came_from(driver, server, wait_for, store_server):
    open_inspector(driver, server, wait_for)
    line = driver.find_element(By.ID, "model-line")
    wait_for(driver, lambda d: line.get_attribute("data-source") == "live", message="the demo's model")
    # A store without a cached model and no --model: guessed from the tables, and the view says so.
    base, _ = store_server("restkit-seed/RKSeedDatabase.sqlite")
    open_inspector(driver, base, wait_for)
    line = driver.find_element(By.ID, "model-line")
    wait_for(driver, lambda d: line.get_attribute("data-source") == "inferred", message="the guessed model")
    assert "guessed from the tables" in line.text and "is-warning" in line.get_attribute("class")


def test_sidebar_filter_hide_empty_and_abstract_parents_on_real_stores(driver, wait_for, store_server, screenshot):
    base, api = store_server("cartkit/coredata/CartStorage_v1.sqlite")
    open_inspector(driver, base, wait_for)
    filter_and_hide_empty_on_cartkit(driver, wait_for, lambda d: [i["name"] for i in d.execute_script(JS_ENTITY_ITEMS)])

    # An abstract parent (SampleModel2: Writer ⊃ Author) is listed, marked, and lists its sub-entities' records.
    base, api = store_server("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
    open_inspector(driver, base, wait_for)
    driver.find_element(By.ID, "hide-empty").click() if driver.find_element(By.ID, "hide-empty").is_selected() else None
    writer = driver.find_element(By.CSS_SELECTOR, '#entity-list [data-entity="Writer"]')
    assert writer.get_attribute("data-abstract") == "true"
    depth = driver.find_element(By.CSS_SELECTOR, '#entity-list [data-entity="Author"]').get_attribute("data-depth")
    assert depth == "1"
    writer.click()
    authors = api("/api/entities/Writer")
    wait_for(driver, lambda d: row_ids(d) == [r["id"] for r in authors["rows"]], message="the Writer list")
    assert driver.find_element(By.ID, "records-status").get_attribute("data-kind") != "error"
    screenshot(driver, "inspector-abstract-writer")


def test_following_a_to_one_into_a_sub_entity_selects_the_concrete_entity(driver, wait_for, store_server):
    # SampleModel2: Page.book points at a Book or its sub-entity GraphicNovel (ZPAGE.Z1_BOOK says which).
    base, api = store_server("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
    novel = api("/api/entities/GraphicNovel")["rows"][0]
    page = api("/api/object/related", id=novel["id"], rel="pages", limit=1)["rows"][0]
    open_inspector(driver, base, wait_for, entity="Page", id=page["id"])
    wait_for(driver, lambda d: detail_id(d) == page["id"], message="the page's detail")
    driver.find_element(By.CSS_SELECTOR, f'.rel-block[data-rel="book"] a.rel-item[data-id="{novel["id"]}"]').click()
    wait_for(driver, lambda d: detail_id(d) == novel["id"], message="the novel's detail")
    wait_for(driver, lambda d: selected_entity(d) == "GraphicNovel", message="GraphicNovel selected, not Book")
    wait_for(driver, lambda d: novel["id"] in row_ids(d), message="the novel in the list")


def test_a_malformed_id_in_the_url_is_an_error_message_not_a_blank_page(driver, server, wait_for, console_errors):
    # /?id=x/%25ZZ/p1: the id's entity part is not valid percent-encoding; the page still renders and says why.
    driver.get(f"{server}/?id=x/%25ZZ/p1")
    wait_for(driver, lambda d: len(d.execute_script(JS_ENTITY_ITEMS)) > 0, message="the entity list")
    status = driver.find_element(By.ID, "detail-status")
    wait_for(driver, lambda d: status.get_attribute("data-kind") == "error" and "Malformed id" in status.text,
             message="the server's 400 in the detail pane")
    assert not console_errors(driver)


def test_a_link_with_only_an_id_opens_the_list_on_the_records_page_with_it_selected(driver, server, api, wait_for, console_errors):
    book = api("/api/entities/Book", limit=1, offset=299)["rows"][0]
    position = api("/api/entities/Book/position", id=book["id"], limit=100)
    assert position["pageOffset"] == 200
    driver.get(make_url(server, id=book["id"]))
    wait_for(driver, lambda d: query_of(d).get("offset") == "200", message="the list opened on the record's page")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#record-list li[data-id='{book['id']}'][aria-selected='true']"),
             message="the record selected in its list")
    assert query_of(driver).get("entity") == "Book"
    assert detail_id(driver) == book["id"]
    assert console_errors(driver) == []
