"""No typed edit is lost: whatever the user typed into an open editor is saved by Save, whether they confirmed it
with Enter, Tab or a click elsewhere, or not at all; a value that does not parse holds Save back with its problem;
Discard drops the open editor's text too. In the Inspector's detail and in the Lab's cell editor, each checked
against the API on a fresh writable demo server."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_editing import bar_count, bar_message, detail_attr, oid, open_record, stage_attribute, writable  # noqa: F401
from test_exports import open_lab


def open_editor(driver, wait_for, name):
    """Opens the detail's editor of attribute `name` and selects its text."""
    detail_attr(driver, name).find_element(By.CSS_SELECTOR, ".edit-attr").click()
    field = wait_for(driver, lambda d: detail_attr(d, name).find_element(By.CSS_SELECTOR, ".editor-input"),
                     message=f"the {name} editor")
    field.send_keys(Keys.CONTROL, "a")
    return field


def staged(driver, name):
    return "staged" in detail_attr(driver, name).get_attribute("class")


def test_save_with_an_open_editor_saves_what_was_typed(driver, writable, wait_for, console_errors):
    base, api = writable
    open_record(driver, base, wait_for, "Book", 1)
    driver.find_element(By.ID, "edit-record-btn").click()
    stage_attribute(driver, wait_for, "title", "Typed And Confirmed")
    wait_for(driver, lambda d: staged(d, "title"), message="the title staged with Enter")
    open_editor(driver, wait_for, "pageCount").send_keys("777")  # no Enter
    wait_for(driver, lambda d: bar_count(d) == "1 unsaved change to 1 record, 1 value being typed",
             message="the bar counting the value being typed")
    driver.find_element(By.ID, "edit-save").click()
    wait_for(driver, lambda d: bar_message(d) == "Saved 1 record.", message="the save")
    attrs = api("/api/object", id=oid("Book", 1))["attrs"]
    assert attrs["title"] == "Typed And Confirmed"
    assert attrs["pageCount"] == 777, "the value typed without Enter was saved too"
    assert console_errors(driver) == []


def test_tab_confirms_an_edit(driver, writable, wait_for):
    base, api = writable
    open_record(driver, base, wait_for, "Book", 2)
    driver.find_element(By.ID, "edit-record-btn").click()
    open_editor(driver, wait_for, "pageCount").send_keys("321", Keys.TAB)
    wait_for(driver, lambda d: staged(d, "pageCount"), message="the value staged by Tab")
    assert bar_count(driver) == "1 unsaved change to 1 record"
    driver.find_element(By.ID, "edit-save").click()
    wait_for(driver, lambda d: bar_message(d) == "Saved 1 record.", message="the save")
    assert api("/api/object", id=oid("Book", 2))["attrs"]["pageCount"] == 321


def test_a_click_elsewhere_confirms_an_edit(driver, writable, wait_for):
    base, _ = writable
    open_record(driver, base, wait_for, "Book", 3)
    driver.find_element(By.ID, "edit-record-btn").click()
    open_editor(driver, wait_for, "pageCount").send_keys("654")
    driver.find_element(By.ID, "detail-summary").click()
    wait_for(driver, lambda d: staged(d, "pageCount"), message="the value staged by leaving the field")
    assert detail_attr(driver, "pageCount").text.startswith("654")
    assert bar_count(driver) == "1 unsaved change to 1 record"


def test_a_typed_value_that_does_not_parse_holds_save_back(driver, writable, wait_for):
    base, api = writable
    before = api("/api/object", id=oid("Book", 4))
    open_record(driver, base, wait_for, "Book", 4)
    driver.find_element(By.ID, "edit-record-btn").click()
    stage_attribute(driver, wait_for, "title", "Not Saved Either")
    wait_for(driver, lambda d: staged(d, "title"), message="the title staged")
    open_editor(driver, wait_for, "pageCount").send_keys("seven")
    driver.find_element(By.ID, "edit-save").click()
    wait_for(driver, lambda d: bar_message(d).startswith("Nothing saved"), message="the refusal to save")
    assert "pageCount: a whole number is needed" in bar_message(driver)
    after = api("/api/object", id=oid("Book", 4))
    assert after["version"] == before["version"] and after["attrs"]["title"] == before["attrs"]["title"], \
        "nothing is written while a typed value is unconfirmed"
    # The editor is still open with the text, to be corrected; correcting it and saving saves both.
    field = detail_attr(driver, "pageCount").find_element(By.CSS_SELECTOR, ".editor-input")
    assert field.get_attribute("value") == "seven"
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("70")
    driver.find_element(By.ID, "edit-save").click()
    wait_for(driver, lambda d: bar_message(d) == "Saved 1 record.", message="the save after the correction")
    attrs = api("/api/object", id=oid("Book", 4))["attrs"]
    assert (attrs["title"], attrs["pageCount"]) == ("Not Saved Either", 70)


def test_discard_drops_the_open_editors_text(driver, writable, wait_for):
    base, api = writable
    before = api("/api/object", id=oid("Book", 5))
    open_record(driver, base, wait_for, "Book", 5)
    driver.find_element(By.ID, "edit-record-btn").click()
    open_editor(driver, wait_for, "pageCount").send_keys("111")
    wait_for(driver, lambda d: bar_count(d) == "1 value being typed", message="the bar counting the typing")
    driver.find_element(By.ID, "edit-discard").click()
    wait_for(driver, lambda d: bar_count(d) == "", message="nothing left to save")
    wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#detail tr.attr-row[data-attr='pageCount'] .editor-input"),
             message="the editor closed")
    assert api("/api/object", id=oid("Book", 5))["version"] == before["version"]


def test_the_labs_cell_editor_is_saved_without_enter(driver, writable, wait_for, console_errors):
    base, api = writable
    open_lab(driver, base, wait_for, entity="Book")
    wait_for(driver, lambda d: d.find_elements(By.ID, "new-record-btn"), message="the editing controls")
    selector = f"#grid-body tr[data-id='{oid('Book', 6)}'] td[data-col='pageCount']"
    ActionChains(driver).double_click(driver.find_element(By.CSS_SELECTOR, selector)).perform()
    field = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"{selector} .editor-input"), message="the cell's editor")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("4321")  # no Enter
    wait_for(driver, lambda d: bar_count(d) == "1 value being typed", message="the bar counting the typing")
    driver.find_element(By.ID, "edit-save").click()
    wait_for(driver, lambda d: api("/api/object", id=oid("Book", 6))["attrs"]["pageCount"] == 4321, message="the save")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).text == "4321", message="the grid redrawn")
    assert console_errors(driver) == []


def test_the_labs_cell_editor_checks_an_integers_range_as_it_is_typed(driver, writable, wait_for):
    base, api = writable
    audio = api("/api/entities/AudioBook", limit=1)["rows"][0]["id"]
    open_lab(driver, base, wait_for, entity="AudioBook")
    wait_for(driver, lambda d: d.find_elements(By.ID, "new-record-btn"), message="the editing controls")
    selector = f"#grid-body tr[data-id='{audio}'] td[data-col='durationMinutes']"
    cell = driver.find_element(By.CSS_SELECTOR, selector)
    ActionChains(driver).double_click(cell).perform()
    field = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f"{selector} .editor-input"), message="the cell's editor")
    width = driver.find_element(By.CSS_SELECTOR, selector).rect["width"]
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("40000")  # an Integer 16 holds at most 32,767: said before Enter
    problem = wait_for(driver, lambda d: [p for p in d.find_elements(By.CSS_SELECTOR, f"{selector} .field-error") if p.is_displayed()],
                       message="the range problem as it is typed")[0]
    assert problem.text == "an Integer 16 holds -32,768 to 32,767"
    assert abs(driver.find_element(By.CSS_SELECTOR, selector).rect["width"] - width) < 1, "the message widened the column"
    field.send_keys(Keys.BACKSPACE)  # 4000 fits
    wait_for(driver, lambda d: not [p for p in d.find_elements(By.CSS_SELECTOR, f"{selector} .field-error") if p.is_displayed()],
             message="the problem gone once the value fits")
    field.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: bar_count(d) == "1 unsaved change to 1 record", message="the staged value")
