"""Predicates in both views (the UI): the filter panel's builder and text mode, the filter in the URL (Back,
Forward, reload), recent predicates, "Filter by this value", facets and "Copy as Swift" — each checked against
what the API answers for the same where= (/api/entities/:name, …/predicate, …/facets).

On the demo store (every predicate evaluates in memory). The assertions compare with the API rather than with
numbers of the demo, so they also hold on a store file once it evaluates these predicates."""

from __future__ import annotations

import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import _module_call
from test_exports import open_inspector, open_lab

PANEL = "#predicate-panel"


# ------------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------------


def url_where(driver):
    query = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)
    return query.get("where", [""])[0]


def shown_total(driver, indicator):
    """The total the pager shows ("1–100 of 614" → 614, "0 of 0" → 0)."""
    text = driver.find_element(By.ID, indicator).text
    if " of " not in text:
        return None
    return int(text.rsplit(" of ", 1)[1].replace(",", "").replace("\u202f", "").replace("\u00a0", ""))


def wait_total_matches(driver, wait_for, api, entity, indicator, **params):
    """Waits until the URL's where is the expected filter's and the pager shows the API's total for it."""
    def settled(d):
        where = url_where(d)
        if not where:
            return False
        expected = api(f"/api/entities/{entity}", where=where, limit=1, **params)["total"]
        return shown_total(d, indicator) == expected and (where, expected)
    return wait_for(driver, settled, message="the list's total equals the API's for the URL's where=")


def panel(driver):
    return driver.find_element(By.CSS_SELECTOR, PANEL)


def open_panel(driver, wait_for, button):
    driver.find_element(By.ID, button).click()
    wait_for(driver, lambda d: panel(d).is_displayed() and panel(d).get_attribute("data-mode"), message="the filter panel open")


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, f"{PANEL} .pp-row")


def set_row(driver, index, field, op=None, value=None, quantifier=None, options=""):
    if index == 0 and not rows(driver):
        # The builder opens empty when no filter is set: the first condition is added as a person would.
        panel(driver).find_element(By.CSS_SELECTOR, ".pp-add-row").click()
    Select(rows(driver)[index].find_element(By.CSS_SELECTOR, ".pp-field")).select_by_value(field)
    if quantifier:
        Select(rows(driver)[index].find_element(By.CSS_SELECTOR, ".pp-quantifier")).select_by_value(quantifier)
    if op:
        Select(rows(driver)[index].find_element(By.CSS_SELECTOR, ".pp-op")).select_by_value(op)
    for flag in options:
        rows(driver)[index].find_element(By.CSS_SELECTOR, f".pp-options input[data-option='{flag}']").click()
    if value is not None:
        box = rows(driver)[index].find_element(By.CSS_SELECTOR, ".pp-value .pp-input")
        box.clear()
        box.send_keys(value)


def set_input_value(driver, element, value):
    """Sets a date input's value as a person's typing does (the input event), whatever the browser's locale."""
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
                          element, value)


def canonical_shown(driver):
    found = driver.find_elements(By.CSS_SELECTOR, f"{PANEL} .pp-canonical-text")
    return found[0].text if found else None


def chip_text(driver):
    chip = driver.find_element(By.ID, "where-chip")
    return chip.find_element(By.CSS_SELECTOR, ".where-code").text if chip.is_displayed() else None


def text_mode(driver, wait_for):
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-mode[data-mode='text']").click()
    return wait_for(driver, lambda d: d.find_element(By.ID, "pp-text"), message="the text mode")


def type_text(driver, wait_for, text):
    area = text_mode(driver, wait_for) if not driver.find_elements(By.ID, "pp-text") else driver.find_element(By.ID, "pp-text")
    area.send_keys(Keys.CONTROL, "a")
    area.send_keys(Keys.DELETE)
    area.send_keys(text)
    return area


# ------------------------------------------------------------------------------------------------
# The builder
# ------------------------------------------------------------------------------------------------


def test_the_builder_opens_empty_without_a_filter_and_the_text_tab_replaces(driver, server, wait_for, console_errors):
    open_inspector(driver, server, wait_for, entity="Book")
    open_panel(driver, wait_for, "where-btn")
    assert rows(driver) == [], "no half-made condition"
    assert not panel(driver).find_elements(By.CSS_SELECTOR, ".pp-error-message"), "no error before anything is typed"
    assert "No conditions" in panel(driver).text
    set_row(driver, 0, "pageCount", ">", "300")
    wait_for(driver, lambda d: canonical_shown(d) == "pageCount > 300", message="the built condition")
    area = text_mode(driver, wait_for)
    area.send_keys("title == 'Dune'")  # typed over the selected text, as a paste would be
    wait_for(driver, lambda d: canonical_shown(d) == 'title == "Dune"', message="the typed predicate replacing the built one")
    assert console_errors(driver) == []


def test_inspector_builder_with_rows_a_nested_group_a_date_and_a_relationship_filters_as_the_api(driver, server, api, wait_for, console_errors):
    open_inspector(driver, server, wait_for, entity="Book")
    open_panel(driver, wait_for, "where-btn")
    set_row(driver, 0, "pageCount", ">", "300")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-add-row").click()
    set_row(driver, 1, "author.name", "BEGINSWITH", "e", options="cd")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-add-group").click()
    nested = panel(driver).find_element(By.CSS_SELECTOR, ".pp-group .pp-group")
    Select(nested.find_element(By.CSS_SELECTOR, ".pp-group-type")).select_by_value("any")
    set_row(driver, 2, "publishedAt", ">")
    set_input_value(driver, rows(driver)[2].find_element(By.CSS_SELECTOR, ".pp-input"), "2005-06-01T00:00:00")
    nested.find_element(By.CSS_SELECTOR, ".pp-add-row").click()
    set_row(driver, 3, "tags.name", "==", "fiction", quantifier="ANY")
    iso = driver.execute_script("return new Date('2005-06-01T00:00:00').toISOString().replace('.000Z', 'Z')")
    expected_text = (f'pageCount > 300 AND author.name BEGINSWITH[cd] "e" AND '
                     f'(publishedAt > CAST("{iso}", "NSDate") OR ANY tags.name == "fiction")')
    analysed = api("/api/entities/Book/predicate", where=expected_text)
    assert analysed["errors"] == []
    wait_for(driver, lambda d: canonical_shown(d) == analysed["canonical"], message="the builder's canonical text")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-apply").click()
    where, total = wait_total_matches(driver, wait_for, api, "Book", "page-indicator")
    assert where == expected_text
    assert 0 < total < api("/api/entities/Book", limit=1)["total"], "the filter keeps some books, not all"
    wait_for(driver, lambda d: chip_text(d) == analysed["canonical"], message="the chip shows the canonical text")
    assert not panel(driver).is_displayed()
    assert console_errors(driver) == []


def test_lab_builder_with_a_record_picker_an_in_list_and_a_count(driver, server, api, wait_for, act_on):
    open_lab(driver, server, wait_for, entity="Book")
    open_panel(driver, wait_for, "grid-where-btn")
    set_row(driver, 0, "author", "==")
    rows(driver)[0].find_element(By.CSS_SELECTOR, ".pp-picker").click()
    search = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".pp-picker-search"), message="the record picker")
    search.send_keys("zola")
    # The picker answers each keystroke, so its list may be drawn again between finding Zola and clicking it.
    def choose(li):
        chosen = li.get_attribute("data-id")
        li.click()
        return chosen

    zola = act_on(driver, lambda d: next((li for li in d.find_elements(By.CSS_SELECTOR, ".pp-picker-item")
                                          if "Zola" in li.text), None), choose, message="Zola in the picker")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-add-row").click()
    set_row(driver, 1, "pageCount", "IN", "412")
    rows(driver)[1].find_element(By.CSS_SELECTOR, ".pp-list-add").click()
    inputs = rows(driver)[1].find_elements(By.CSS_SELECTOR, ".pp-list .pp-input")
    inputs[1].send_keys("65")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-add-row").click()
    set_row(driver, 2, "tags.@count", ">=", "0")
    expected_text = f'author == "{zola}" AND pageCount IN {{412, 65}} AND tags.@count >= 0'
    wait_for(driver, lambda d: canonical_shown(d) == api("/api/entities/Book/predicate", where=expected_text)["canonical"],
             message="the canonical text of the built predicate")
    # Enter in a value applies, as the Apply button does.
    rows(driver)[2].find_element(By.CSS_SELECTOR, ".pp-input").send_keys(Keys.ENTER)
    where, total = wait_total_matches(driver, wait_for, api, "Book", "grid-page-indicator")
    assert where == expected_text and total >= 0


# ------------------------------------------------------------------------------------------------
# Text mode
# ------------------------------------------------------------------------------------------------


def test_text_mode_shows_the_error_at_its_place_then_the_canonical_text_and_goes_back_to_the_builder(driver, server, api, wait_for):
    open_inspector(driver, server, wait_for, entity="Book")
    open_panel(driver, wait_for, "where-btn")
    bad = 'title beginswith[c] "k" && && pageCount > 3'
    type_text(driver, wait_for, bad)
    error = api("/api/entities/Book/predicate", where=bad)["errors"][0]
    shown = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"{PANEL} .pp-error"), message="the inline error")
    assert shown.get_attribute("data-offset") == str(error["offset"])
    assert shown.find_element(By.CSS_SELECTOR, ".pp-error-message").text == error["message"]
    context = shown.find_element(By.CSS_SELECTOR, ".pp-error-context")
    before = driver.execute_script("return arguments[0].firstChild.textContent", context)
    assert before == bad[:error["offset"]], "the mark stands where the server says the error is"
    assert context.find_element(By.CSS_SELECTOR, "mark.pp-error-span").text == bad[error["offset"]:error["offset"] + error["length"]] == "&&"
    assert driver.execute_script("return arguments[0].textContent", context) == bad
    # A condition that does not fit the model: its span is marked.
    wrong = 'pageCount CONTAINS "3"'
    type_text(driver, wait_for, wrong)
    error = api("/api/entities/Book/predicate", where=wrong)["errors"][0]
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"{PANEL} .pp-error-message").text == error["message"],
             message="the model's error")
    assert driver.find_element(By.CSS_SELECTOR, f"{PANEL} .pp-error-span").text == wrong[error["offset"]:error["offset"] + error["length"]]
    # Fixed: the canonical text, and the builder shows the same predicate.
    good = "title beginswith[c] 'k' && author.name != nil"
    type_text(driver, wait_for, good)
    canonical = api("/api/entities/Book/predicate", where=good)["canonical"]
    wait_for(driver, lambda d: canonical_shown(d) == canonical, message="the canonical text")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-mode[data-mode='builder']").click()
    wait_for(driver, lambda d: panel(d).get_attribute("data-mode") == "builder" and len(rows(d)) == 2, message="the builder")
    assert [Select(r.find_element(By.CSS_SELECTOR, ".pp-field")).first_selected_option.get_attribute("value") for r in rows(driver)] == ["title", "author.name"]
    assert [Select(r.find_element(By.CSS_SELECTOR, ".pp-op")).first_selected_option.get_attribute("value") for r in rows(driver)] == ["BEGINSWITH", "notnil"]
    assert rows(driver)[0].find_element(By.CSS_SELECTOR, ".pp-input").get_attribute("value") == "k"
    wait_for(driver, lambda d: canonical_shown(d) == canonical, message="the builder gives the same canonical text")


def test_escaping_quotes_backslashes_controls_and_keyword_names_is_exact(driver, server, api, wait_for):
    open_inspector(driver, server, wait_for, entity="Book")
    value = 'a "quoted" \\ back\nline\ttab\u0001\u202e'
    text = _module_call(driver, "features/predicate/predicate.js", "m.formatTree({keyPath: 'title', op: '==', value: args[0]})", value)
    assert text == 'title == "a \\"quoted\\" \\\\ back\\nline\\ttab\\u{1}\\u{202E}"'
    analysed = api("/api/entities/Book/predicate", where=text)
    assert analysed["tree"] == {"keyPath": "title", "op": "==", "value": value} and analysed["canonical"] == text
    assert _module_call(driver, "features/predicate/predicate.js", "m.keyPathText('in.first.ok')") == "#in.#first.ok"


# ------------------------------------------------------------------------------------------------
# The URL: Back, Forward, reload; recent predicates
# ------------------------------------------------------------------------------------------------


def apply_text(driver, wait_for, button, text):
    open_panel(driver, wait_for, button)
    type_text(driver, wait_for, text)
    wait_for(driver, lambda d: canonical_shown(d) is not None, message="the text checked")
    panel(driver).find_element(By.CSS_SELECTOR, ".pp-apply").click()
    wait_for(driver, lambda d: url_where(d) == text, message=f"where={text} in the URL")


def test_back_forward_and_reload_keep_the_filter_in_both_views(driver, server, api, wait_for):
    for opener, button, indicator in ((open_inspector, "where-btn", "page-indicator"), (open_lab, "grid-where-btn", "grid-page-indicator")):
        opener(driver, server, wait_for, entity="Book")
        first, second = "pageCount > 500", "pageCount > 500 AND rating >= 4"
        apply_text(driver, wait_for, button, first)
        wait_total_matches(driver, wait_for, api, "Book", indicator)
        apply_text(driver, wait_for, button, second)
        wait_total_matches(driver, wait_for, api, "Book", indicator)
        driver.back()
        wait_for(driver, lambda d: url_where(d) == first, message="Back: the first filter")
        wait_total_matches(driver, wait_for, api, "Book", indicator)
        wait_for(driver, lambda d: chip_text(d) == api("/api/entities/Book/predicate", where=first)["canonical"], message="the chip follows Back")
        driver.forward()
        wait_for(driver, lambda d: url_where(d) == second, message="Forward: the second filter")
        wait_total_matches(driver, wait_for, api, "Book", indicator)
        driver.refresh()
        wait_for(driver, lambda d: chip_text(d) == api("/api/entities/Book/predicate", where=second)["canonical"], message="the chip after a reload")
        wait_total_matches(driver, wait_for, api, "Book", indicator)
        # The chip's × clears it.
        driver.find_element(By.CSS_SELECTOR, "#where-chip .where-clear").click()
        wait_for(driver, lambda d: url_where(d) == "" and shown_total(d, indicator) == api("/api/entities/Book", limit=1)["total"],
                 message="no filter")
        assert not driver.find_element(By.ID, "where-chip").is_displayed()


def test_recent_predicates_are_offered_per_entity_and_apply(driver, server, api, wait_for):
    open_lab(driver, server, wait_for, entity="Book")
    apply_text(driver, wait_for, "grid-where-btn", "rating < 2")
    apply_text(driver, wait_for, "grid-where-btn", "inPrint == FALSE")
    open_panel(driver, wait_for, "grid-where-btn")
    recent = [b.text for b in panel(driver).find_elements(By.CSS_SELECTOR, ".pp-recent-item")]
    assert recent == ["inPrint == FALSE", "rating < 2"]
    panel(driver).find_elements(By.CSS_SELECTOR, ".pp-recent-item")[1].click()
    wait_for(driver, lambda d: url_where(d) == "rating < 2", message="the recent predicate applied")
    wait_total_matches(driver, wait_for, api, "Book", "grid-page-indicator")
    # Another entity has its own list; the Inspector (same store) offers Book's.
    driver.find_element(By.CSS_SELECTOR, "#entity-list li[data-entity='Tag']").click()
    wait_for(driver, lambda d: "entity=Tag" in d.current_url and d.find_element(By.ID, "grid-where-btn").is_enabled(), message="Tag")
    open_panel(driver, wait_for, "grid-where-btn")
    assert panel(driver).find_elements(By.CSS_SELECTOR, ".pp-recent-item") == []
    open_inspector(driver, server, wait_for, entity="Book")
    open_panel(driver, wait_for, "where-btn")
    assert [b.text for b in panel(driver).find_elements(By.CSS_SELECTOR, ".pp-recent-item")] == ["rating < 2", "inPrint == FALSE"]


# ------------------------------------------------------------------------------------------------
# Filter by this value
# ------------------------------------------------------------------------------------------------


def test_lab_cell_menu_filters_by_the_value_and_ands_it(driver, server, api, wait_for):
    open_lab(driver, server, wait_for, entity="Book", where="pageCount > 100")
    wait_total_matches(driver, wait_for, api, "Book", "grid-page-indicator")
    cell = driver.find_element(By.CSS_SELECTOR, "#grid-body tr[data-id] td[data-col='rating']")
    row_id = cell.find_element(By.XPATH, "..").get_attribute("data-id")
    rating = next(r for r in api("/api/entities/Book", where="pageCount > 100", limit=100)["rows"] if r["id"] == row_id)["attrs"]["rating"]
    from selenium.webdriver import ActionChains
    ActionChains(driver).context_click(cell).perform()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".cdb-popover [data-action='filter-value']"), message="the menu").click()
    expected = f"pageCount > 100 AND rating == {'NIL' if rating is None else rating}"
    wait_for(driver, lambda d: url_where(d) == expected, message=expected)
    wait_total_matches(driver, wait_for, api, "Book", "grid-page-indicator")
    assert shown_total(driver, "grid-page-indicator") >= 1


def test_inspector_row_menu_filters_by_the_values_the_row_shows(driver, server, api, wait_for, console_errors):
    # A row shows its sorted attribute's value and its display attribute; its menu filters by either, ANDed.
    from selenium.webdriver import ActionChains
    where = "pageCount > 100"
    open_inspector(driver, server, wait_for, entity="Book", where=where, sort="pageCount", order="desc")
    wait_total_matches(driver, wait_for, api, "Book", "page-indicator", sort="pageCount", order="desc")
    Select(driver.find_element(By.ID, "display-attr")).select_by_value("title")
    book = api("/api/entities/Book", where=where, sort="pageCount", order="desc", limit=1)["rows"][0]
    row = f'#record-list .record-row[data-id="{book["id"]}"]'
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"{row} .record-summary").text == book["attrs"]["title"].strip(),
             message="the row named by its title")
    ActionChains(driver).context_click(driver.find_element(By.CSS_SELECTOR, row)).perform()
    items = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#row-menu [data-action='filter-value']"), message="the menu")
    assert [i.get_attribute("data-attr") for i in items] == ["pageCount", "title"]
    driver.find_element(By.CSS_SELECTOR, "#row-menu [data-action='filter-value'][data-attr='pageCount']").click()
    expected = f"{where} AND pageCount == {book['attrs']['pageCount']}"
    wait_for(driver, lambda d: url_where(d) == expected, message=expected)
    wait_total_matches(driver, wait_for, api, "Book", "page-indicator", sort="pageCount", order="desc")
    ActionChains(driver).context_click(wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, row), message="the row again")).perform()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#row-menu [data-action='filter-value'][data-attr='title']"), message="the menu").click()
    expected = f'{expected} AND title == {_module_call(driver, "features/predicate/predicate.js", "m.quote(args[0])", book["attrs"]["title"])}'
    wait_for(driver, lambda d: url_where(d) == expected, message=expected)
    _, total = wait_total_matches(driver, wait_for, api, "Book", "page-indicator", sort="pageCount", order="desc")
    assert total >= 1
    assert console_errors(driver) == []


def test_inspector_detail_filters_by_a_value_and_by_nil(driver, server, api, wait_for):
    book = api("/api/entities/Book", where="summary == nil", limit=1)["rows"][0]
    open_inspector(driver, server, wait_for, entity="Book", id=book["id"])
    wait_for(driver, lambda d: d.find_element(By.ID, "detail").get_attribute("data-id") == book["id"], message="the detail")
    driver.find_element(By.CSS_SELECTOR, "#attr-table tr[data-attr='title'] .filter-value").click()
    expected = f'title == {_module_call(driver, "features/predicate/predicate.js", "m.quote(args[0])", book["attrs"]["title"])}'
    wait_for(driver, lambda d: url_where(d) == expected, message=expected)
    wait_total_matches(driver, wait_for, api, "Book", "page-indicator")
    wait_for(driver, lambda d: d.find_element(By.ID, "detail").get_attribute("data-id") == book["id"], message="the detail still shown")
    driver.find_element(By.CSS_SELECTOR, "#attr-table tr[data-attr='summary'] .filter-value").click()
    wait_for(driver, lambda d: url_where(d) == f"{expected} AND summary == NIL", message="ANDed with == NIL")
    wait_total_matches(driver, wait_for, api, "Book", "page-indicator")


# ------------------------------------------------------------------------------------------------
# Facets
# ------------------------------------------------------------------------------------------------


def facet_values(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#facet-panel .fc-value')].map(b => "
        "[b.querySelector('.fc-value-text').textContent, Number(b.dataset.count), b.dataset.nil === 'true'])")


def test_lab_column_facets_equal_the_api_and_a_value_filters_the_grid(driver, server, api, wait_for):
    open_lab(driver, server, wait_for, entity="Book", where="pageCount > 100")
    header = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#grid-head-row th[data-col='rating']"), message="the rating column")
    from selenium.webdriver import ActionChains
    ActionChains(driver).context_click(header).perform()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".cdb-popover [data-action='facets']"), message="Facets…").click()
    wait_for(driver, lambda d: d.find_element(By.ID, "facet-panel").get_attribute("data-state") == "ready", message="the facets")
    facets = api("/api/entities/Book/facets", attr="rating", where="pageCount > 100")
    expected = [[str(t["value"]), t["count"], False] for t in facets["top"]] + ([["nil", facets["nulls"], True]] if facets["nulls"] else [])
    assert facet_values(driver) == expected
    summary = driver.find_element(By.CSS_SELECTOR, "#facet-panel .fc-summary").text
    assert summary.startswith(f"{facets['total']:,} records · {facets['nulls']:,} nil")
    bars = driver.find_elements(By.CSS_SELECTOR, "#facet-panel svg.fc-histogram rect.fc-bar")
    assert [int(b.get_attribute("data-count")) for b in bars] == [h["count"] for h in facets["histogram"]]
    top = facets["top"][0]
    driver.find_elements(By.CSS_SELECTOR, "#facet-panel .fc-value")[0].click()
    wait_for(driver, lambda d: url_where(d) == f"pageCount > 100 AND rating == {top['value']}", message="the value's condition")
    wait_for(driver, lambda d: shown_total(d, "grid-page-indicator") == top["count"], message="the grid holds the value's count")


def test_inspector_detail_facet_button_opens_the_attributes_facets(driver, server, api, wait_for, console_errors):
    # The ▥ beside a value in the detail opens the facet panel on that attribute, for the list's filter.
    where = "pageCount > 100"
    book = api("/api/entities/Book", where=where, limit=1)["rows"][0]
    open_inspector(driver, server, wait_for, entity="Book", id=book["id"], where=where)
    wait_for(driver, lambda d: d.find_element(By.ID, "detail").get_attribute("data-id") == book["id"], message="the detail")
    driver.find_element(By.CSS_SELECTOR, "#attr-table tr[data-attr='rating'] .facet-attr").click()
    wait_for(driver, lambda d: d.find_element(By.ID, "facet-panel").get_attribute("data-state") == "ready"
             and d.find_element(By.ID, "facet-panel").get_attribute("data-attr") == "rating", message="rating's facets")
    facets = api("/api/entities/Book/facets", attr="rating", where=where)
    expected = [[str(t["value"]), t["count"], False] for t in facets["top"]] + ([["nil", facets["nulls"], True]] if facets["nulls"] else [])
    assert facet_values(driver) == expected
    assert console_errors(driver) == []


def test_inspector_histogram_bar_filters_its_range(driver, server, api, wait_for):
    open_inspector(driver, server, wait_for, entity="Book")
    driver.find_element(By.ID, "facets-btn").click()
    choice = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#facet-panel select.fc-attr"), message="the facet panel")
    Select(choice).select_by_value("pageCount")
    wait_for(driver, lambda d: d.find_element(By.ID, "facet-panel").get_attribute("data-state") == "ready"
             and d.find_element(By.ID, "facet-panel").get_attribute("data-attr") == "pageCount", message="pageCount's facets")
    facets = api("/api/entities/Book/facets", attr="pageCount")
    bars = driver.find_elements(By.CSS_SELECTOR, "#facet-panel svg.fc-histogram rect.fc-bar")
    assert [int(b.get_attribute("data-count")) for b in bars] == [h["count"] for h in facets["histogram"]]
    third = facets["histogram"][2]
    bars[2].click()
    wait_for(driver, lambda d: url_where(d) == f"pageCount BETWEEN {{{third['from']}, {third['to'] - 1}}}", message="the bar's range")
    wait_for(driver, lambda d: shown_total(d, "page-indicator") == third["count"], message="the list holds the bar's count")


# ------------------------------------------------------------------------------------------------
# Copy as Swift
# ------------------------------------------------------------------------------------------------


def test_copy_as_swift_shows_the_code_the_api_writes_in_both_views(driver, server, api, wait_for):
    where = 'title BEGINSWITH[c] "t" AND pageCount > 100'
    for opener, button, params in ((open_inspector, "swift-btn", {"sort": "title", "limit": 50}),
                                   (open_lab, "grid-swift-btn", {"sort": "pageCount", "order": "desc", "limit": 25})):
        opener(driver, server, wait_for, entity="Book", where=where, **params)
        driver.find_element(By.ID, button).click()
        wait_for(driver, lambda d: d.find_element(By.ID, "swift-panel").get_attribute("data-state") == "ready", message="the Swift panel")
        expected = api("/api/entities/Book/predicate", where=where, offset=0, **params)["swift"]
        code = driver.find_element(By.CSS_SELECTOR, "#swift-panel pre.sw-code[data-kind='coredata']")
        assert driver.execute_script("return arguments[0].textContent", code) == expected["coreData"]
        assert driver.find_element(By.CSS_SELECTOR, "#swift-panel .sw-copy[data-kind='coredata']").get_attribute("data-copy") == expected["coreData"]
        assert expected.get("swiftData") is None
        assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#swift-panel .sw-unavailable li")] == expected["swiftDataUnavailable"]
        driver.find_element(By.CSS_SELECTOR, "#swift-panel .sw-close").send_keys(Keys.ESCAPE)
        wait_for(driver, lambda d: not d.find_element(By.ID, "swift-panel").is_displayed(), message="Escape closes it")
        # A view #Predicate can say has its FetchDescriptor.
        opener(driver, server, wait_for, entity="Book", where="pageCount > 100", **params)
        driver.find_element(By.ID, button).click()
        wait_for(driver, lambda d: d.find_element(By.ID, "swift-panel").get_attribute("data-state") == "ready", message="the Swift panel")
        swift_data = api("/api/entities/Book/predicate", where="pageCount > 100", offset=0, **params)["swift"]["swiftData"]
        code = driver.find_element(By.CSS_SELECTOR, "#swift-panel pre.sw-code[data-kind='swiftdata']")
        assert swift_data and driver.execute_script("return arguments[0].textContent", code) == swift_data


def test_the_active_filter_opens_in_the_builder(driver, server, wait_for):
    open_lab(driver, server, wait_for, entity="Book", where="pageCount > 500 AND ANY tags.name ==[c] 'fiction'")
    open_panel(driver, wait_for, "grid-where-btn")
    assert panel(driver).get_attribute("data-mode") == "builder"
    fields = [Select(r.find_element(By.CSS_SELECTOR, ".pp-field")).first_selected_option.get_attribute("value") for r in rows(driver)]
    assert fields == ["pageCount", "tags.name"]
    assert Select(rows(driver)[1].find_element(By.CSS_SELECTOR, ".pp-quantifier")).first_selected_option.text == "ANY"
    assert rows(driver)[0].find_element(By.CSS_SELECTOR, ".pp-input").get_attribute("value") == "500"
    assert rows(driver)[1].find_element(By.CSS_SELECTOR, ".pp-options input[data-option='c']").is_selected()
    # Escape closes it and gives focus back to its button.
    rows(driver)[0].find_element(By.CSS_SELECTOR, ".pp-input").send_keys(Keys.ESCAPE)
    wait_for(driver, lambda d: not panel(d).is_displayed(), message="Escape closes the panel")
    assert driver.switch_to.active_element.get_attribute("id") == "grid-where-btn"


def test_a_filter_the_server_refuses_stays_on_screen_with_its_reason_and_clears(driver, server, api, wait_for):
    bad = 'pageCount CONTAINS "3"'
    status, body = api.status("/api/entities/Book", where=bad)
    assert status == 400
    driver.get(f"{server}/?entity=Book&where={urllib.parse.quote(bad)}")
    wait_for(driver, lambda d: d.find_element(By.ID, "records-status").get_attribute("data-kind") == "error", message="the list's error")
    assert body["error"] in driver.find_element(By.ID, "records-status").text
    message = api("/api/entities/Book/predicate", where=bad)["errors"][0]["message"]
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#where-chip .where-bad").text == f"⚠ {message}", message="the chip says why")
    driver.find_element(By.CSS_SELECTOR, "#where-chip .where-clear").click()
    wait_for(driver, lambda d: url_where(d) == "" and shown_total(d, "page-indicator") == api("/api/entities/Book", limit=1)["total"],
             message="the filter cleared")


STORE_FILE = "wibosco-revised/CoreDataMigration_Example_3.sqlite"


def test_filters_on_a_store_file_through_a_to_one_path_and_a_to_many_quantifier(driver, api, wait_for, store_server):
    """The same panel on a Core Data store file (BrowserSQLite compiles the predicate to SQL): a to-one key path and
    a number in the Inspector, ANY over a to-many relationship and @count in the Lab; each list's total equals the
    API's for the URL's where=, which equals the count of the records the API lists."""
    base, file_api = store_server(STORE_FILE)
    sections = "index >= 1 AND post.hexColor != nil"
    open_inspector(driver, base, wait_for, entity="Section")
    apply_text(driver, wait_for, "where-btn", sections)
    _, total = wait_total_matches(driver, wait_for, file_api, "Section", "page-indicator")
    listed = file_api("/api/entities/Section", where=sections, limit=500)["rows"]
    assert total == len(listed) > 0
    assert all(row["attrs"]["index"] >= 1 for row in listed)

    posts = 'ANY sections.title != nil AND sections.@count >= 1'
    open_lab(driver, base, wait_for, entity="Post")
    apply_text(driver, wait_for, "grid-where-btn", posts)
    _, total = wait_total_matches(driver, wait_for, file_api, "Post", "grid-page-indicator")
    assert 0 < total <= file_api("/api/entities/Post", limit=1)["total"]
    assert chip_text(driver) == file_api("/api/entities/Post/predicate", where=posts)["canonical"]


def test_the_facets_button_opens_on_an_attribute_worth_faceting(driver, server, wait_for, store_server):
    # Book's first facetable attribute by name is its UUID `identifier` (a facet of 1s); the button opens on a
    # grouping attribute instead — the Boolean inPrint — and on the list's sort attribute when there is one.
    def opened(base, **params):
        open_inspector(driver, base, wait_for, **params)
        driver.find_element(By.ID, "facets-btn").click()
        wait_for(driver, lambda d: d.find_element(By.ID, "facet-panel").get_attribute("data-state") == "ready",
                 message="the facet panel")
        return driver.find_element(By.ID, "facet-panel").get_attribute("data-attr")

    assert opened(server, entity="Book") == "inPrint"
    assert opened(server, entity="Book", sort="pageCount") == "pageCount"
    base, _ = store_server("cartkit/coredata/CartStorage_v1.sqlite")
    assert opened(base, entity="CDCart") not in ("id", "profileId", "storeId", "storeImageURL")
