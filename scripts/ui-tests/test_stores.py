"""Several stores in one server: the store switcher lists them (grouped by device and app for a
simulator folder), switching shows the other store's entities in the same view, the view tabs and the links keep
the store, records open through /api/stores/<id>/…, and Rescan finds a store added after the server started."""

from __future__ import annotations

import plistlib
import shutil
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import copy_fixture

FIRST = "coredataplus/SampleModel2/SampleModel2_V1.sqlite"
SECOND = "cartkit/coredata/CartStorage_v1.sqlite"

JS_ENTITIES = "return [...document.querySelectorAll('#entity-list > li[data-entity]')].map(li => li.dataset.entity);"


def entity_names(api, path: str) -> list[str]:
    return sorted(entity["name"] for entity in api(path))


def shown_entities(driver) -> list[str]:
    return sorted(driver.execute_script(JS_ENTITIES) or [])


def test_switcher_changes_the_store_and_tabs_keep_it(driver, wait_for, store_servers):
    folder = store_servers.folder("cdb-ui-stores-")
    first = copy_fixture(FIRST, folder)
    second = copy_fixture(SECOND, folder)
    base, api = store_servers.serve(first, ["--store", str(second)])
    stores = api("/api/stores")["stores"]
    assert [store["name"] for store in stores] == [first.name, second.name]
    second_id = stores[1]["id"]
    first_entities = entity_names(api, "/api/entities")
    second_entities = entity_names(api, f"/api/stores/{second_id}/entities")
    assert first_entities != second_entities, "the two fixtures must differ for this test to mean anything"

    driver.get(base + "/")
    wait_for(driver, lambda d: shown_entities(d) == first_entities, message="the first store's entities")
    menu = Select(driver.find_element(By.ID, "store-switcher"))
    assert [option.text for option in menu.options] == [first.name, second.name]
    menu.select_by_value(second_id)
    wait_for(driver, lambda d: f"store={second_id}" in d.current_url and shown_entities(d) == second_entities,
             message="the second store's entities after switching")
    assert Select(driver.find_element(By.ID, "store-switcher")).first_selected_option.get_attribute("value") == second_id

    # A record of the second store opens (its /api/object goes to /api/stores/<id>/object).
    entity = next(e["name"] for e in api(f"/api/stores/{second_id}/entities") if e["count"] > 0)
    driver.find_element(By.CSS_SELECTOR, f'#entity-list > li[data-entity="{entity}"]').click()
    row = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#record-list .record-row[data-id]"),
                   message="the second store's records")[0]
    record_id = row.get_attribute("data-id")
    row.click()
    wait_for(driver, lambda d: f"store={second_id}" in d.current_url and "id=" in d.current_url,
             message="the record's URL keeps the store")

    # The tabs keep the store: the Lab and History show the second store too.
    driver.find_element(By.ID, "tab-lab").click()
    wait_for(driver, lambda d: "/lab" in d.current_url and f"store={second_id}" in d.current_url
             and shown_entities(d) == second_entities, message="the Lab on the second store")
    driver.find_element(By.ID, "tab-history").click()
    wait_for(driver, lambda d: "/history" in d.current_url and f"store={second_id}" in d.current_url,
             message="History on the second store")
    assert record_id.startswith("x-coredata://")


def test_one_store_has_no_switcher(driver, wait_for, store_server):
    base, api = store_server(FIRST)
    driver.get(base + "/")
    wait_for(driver, lambda d: shown_entities(d) == entity_names(api, "/api/entities"), message="the entities")
    assert driver.find_elements(By.ID, "store-switcher") == []
    assert len(api("/api/stores")["stores"]) == 1


def _simulator_app(devices: Path, udid: str, device: str, app_id: str, store: Path, name: str) -> None:
    """A simulator's app container holding `store` as Library/<name>, as CoreSimulator lays it out."""
    (devices / udid).mkdir(parents=True, exist_ok=True)
    with open(devices / udid / "device.plist", "wb") as handle:
        plistlib.dump({"name": device, "runtime": "com.apple.CoreSimulator.SimRuntime.iOS-18-2"}, handle,
                      fmt=plistlib.FMT_BINARY)
    container = devices / udid / "data" / "Containers" / "Data" / "Application" / app_id
    (container / "Library").mkdir(parents=True)
    with open(container / ".com.apple.mobile_container_manager.metadata.plist", "wb") as handle:
        plistlib.dump({"MCMMetadataIdentifier": app_id}, handle, fmt=plistlib.FMT_BINARY)
    shutil.copyfile(store, container / "Library" / name)


def test_simulators_are_grouped_and_rescan_finds_a_new_store(driver, wait_for, store_servers):
    folder = store_servers.folder("cdb-ui-simulators-")
    first = copy_fixture(FIRST, folder)
    devices = folder / "Devices"
    _simulator_app(devices, "UDID-1", "iPhone 16", "com.example.Samples", first, "Samples.sqlite")
    base, api = store_servers.serve_arguments(["simulators", "--root", str(devices)])
    listed = api("/api/stores")
    assert listed["refreshable"] is True
    assert [store["group"] for store in listed["stores"]] == [["iPhone 16 (iOS 18.2)", "com.example.Samples [app]"]]

    driver.get(base + "/")
    wait_for(driver, lambda d: d.find_elements(By.ID, "store-rescan"), message="the Rescan button")
    groups = driver.execute_script("return [...document.querySelectorAll('#store-switcher optgroup')].map(g => g.label);")
    assert groups == ["iPhone 16 (iOS 18.2) ▸ com.example.Samples [app]"]

    second = copy_fixture(SECOND, folder)
    _simulator_app(devices, "UDID-2", "iPad Air", "com.example.Cart", second, "Cart.sqlite")
    driver.find_element(By.ID, "store-rescan").click()
    wait_for(driver, lambda d: len(Select(d.find_element(By.ID, "store-switcher")).options) == 2,
             message="the new store in the menu after Rescan")
    groups = driver.execute_script("return [...document.querySelectorAll('#store-switcher optgroup')].map(g => g.label);")
    assert sorted(groups) == ["iPad Air (iOS 18.2) ▸ com.example.Cart [app]", "iPhone 16 (iOS 18.2) ▸ com.example.Samples [app]"]
