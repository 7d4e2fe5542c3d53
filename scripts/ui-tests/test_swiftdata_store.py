"""Both views on a store SwiftData wrote (the everyday moves proved on real stores): the CartKit fixture's store, opened on a
private copy with no model given (the model comes from the store's cache). Records are named by their name-like
attribute by default, "Name by" changes it in both views, the Lab's columns start with that attribute, and both
views say where the model came from. Screenshots under artifacts/."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_inspector import detail_id as inspector_detail_id, make_url, row_ids as inspector_rows
from test_lab import default_columns, headers, lab_url, pane_state, wait_detail

SWIFTDATA = "cartkit/swiftdata/CartKitSwiftData_v1.sqlite"
SUMMARIES = "return [...document.querySelectorAll('#record-list .record-summary')].map(s => s.textContent);"


def test_swiftdata_records_are_named_and_renamed_in_both_views(driver, wait_for, store_server, screenshot, console_errors):
    base, api = store_server(SWIFTDATA)
    entities = {e["name"]: e for e in api("/api/entities")}
    # The one cart has no displayName: an attribute that no record fills in names none, so no default attribute.
    assert entities["CartModel"]["summaryAttribute"] is None
    assert entities["CartItemModifierModel"]["summaryAttribute"] == "name"
    # No name-like attribute: the line's own id, never `productId` (the product it points at) nor a currency code.
    assert entities["CartItemModel"]["summaryAttribute"] == "id"
    cart = api("/api/entities/CartModel")["rows"][0]
    # The one cart has no displayName: it is named by its entity and key, never by another attribute's value.
    assert cart["attrs"]["displayName"] is None and cart["summary"] == "CartModel p1"

    # The Inspector: the default name, and the menu says which attribute names records by default.
    driver.get(make_url(base, entity="CartModel", id=cart["id"]))
    wait_for(driver, lambda d: inspector_rows(d) == [cart["id"]] and inspector_detail_id(d) == cart["id"], message="the cart")
    assert driver.execute_script(SUMMARIES) == ["CartModel p1"]
    assert driver.find_element(By.ID, "detail-summary").text == "CartModel p1"
    menu = Select(driver.find_element(By.ID, "display-attr"))
    assert menu.first_selected_option.text == "Name: default"
    # Name by another attribute: the list and the detail follow.
    menu.select_by_value("storeId")
    store_id = cart["attrs"]["storeId"]
    wait_for(driver, lambda d: d.execute_script(SUMMARIES) == [store_id], message="the cart named by its storeId")
    assert driver.find_element(By.ID, "detail-summary").text == store_id
    screenshot(driver, "swiftdata-inspector-name-by")

    # The Lab names it the same way (one choice per store, in the browser), its columns start with the display
    # attribute, and it can go back to the default.
    driver.get(lab_url(base, entity="CartModel", id=cart["id"]))
    wait_detail(wait_for, driver, cart["id"])
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".detail-heading").text == store_id, message="the Lab's name")
    assert headers(driver) == default_columns(entities["CartModel"])
    # The whole order: no display attribute to put first, so the model's order, the identifiers (its own and the
    # foreign ones) after them, the bytes last.
    assert headers(driver) == ["context", "createdAt", "displayName", "maxItemCount", "minSubtotalAmount",
                               "minSubtotalCurrencyCode", "status", "storeImageURLString", "updatedAt",
                               "id", "profileId", "storeId", "metadataJSON"]
    # The empty CartItemModel's grid starts with its display attribute too; the foreign productId is with the IDs.
    driver.find_element(By.CSS_SELECTOR, '#entity-list > li[data-entity="CartItemModel"]').click()
    wait_for(driver, lambda d: headers(d) == default_columns(entities["CartItemModel"]), message="the CartItemModel grid")
    assert headers(driver) == ["id", "availableStock", "imageURLString", "quantity", "totalPriceAmount",
                               "totalPriceCurrencyCode", "unitPriceAmount", "unitPriceCurrencyCode", "productId"]
    driver.back()
    wait_detail(wait_for, driver, cart["id"])
    Select(driver.find_element(By.ID, "detail-name-by")).select_by_value("")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".detail-heading").text == "CartModel p1", message="the default")
    screenshot(driver, "swiftdata-lab")
    assert not console_errors(driver)


def test_both_views_say_the_swiftdata_model_came_from_the_store(driver, wait_for, store_server):
    base, api = store_server(SWIFTDATA)
    model = api("/api/health")["model"]
    assert model == {"source": "store-cache", "name": "1.0.0"}
    driver.get(make_url(base, entity="CartModel"))
    line = driver.find_element(By.ID, "model-line")
    wait_for(driver, lambda d: line.get_attribute("data-source") == "store-cache", message="the Inspector's model line")
    assert line.text == "Model: the store's cached model “1.0.0”"
    assert "is-warning" not in line.get_attribute("class")
    driver.get(lab_url(base, entity="CartModel"))
    wait_for(driver, lambda d: pane_state(d, "pane-grid") == "ready", message="the Lab")
    lab_line = driver.find_element(By.ID, "model-line")
    wait_for(driver, lambda d: lab_line.get_attribute("data-source") == "store-cache", message="the Lab's model line")
    assert lab_line.is_displayed() and lab_line.text == "Model: the store's cached model “1.0.0”"
    assert "is-warning" not in lab_line.get_attribute("class")
