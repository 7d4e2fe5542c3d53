"""Every control of the top bar is on screen at the sizes people use: 1024×700 and 1440×900, in every view, with one
store and with several (the store switcher), with writes off and on (+ New, Delete…). The bar wraps onto a second
row rather than push controls past the right edge, where the page does not scroll to them. Each control's box is
measured against the viewport, and the page must not be wider than the window."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from conftest import copy_fixture
from test_exports import open_inspector, open_lab

SIZES = [(1024, 700), (1440, 900)]

# Every control in the top bar and in the Lab's grid toolbar, with its box, and the page's width.
MEASURE = """
const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
const controls = document.querySelectorAll(
  'header.topbar :is(button, select, input, a, label), [role=toolbar] :is(button, select, input)');
const outside = [];
let measured = 0;
for (const control of controls) {
  const box = control.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;  // hidden (display: none)
  measured += 1;
  if (box.left < 0 || box.top < 0 || box.right > width + 0.5 || box.bottom > height + 0.5) {
    outside.push(`${control.id || control.textContent.trim() || control.className}: ${Math.round(box.left)}…${Math.round(box.right)} × ${Math.round(box.top)}…${Math.round(box.bottom)}`);
  }
}
return {width, scrollWidth: document.documentElement.scrollWidth, measured, outside};
"""


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def assert_fits(driver, wait_for, view, size, controls_expected, minimum=8):
    """Waits until the view's late controls are drawn (`controls_expected`: ids), then measures (at least `minimum`
    controls, so a page that failed to draw cannot pass)."""
    for control in controls_expected:
        wait_for(driver, lambda d: d.find_elements(By.ID, control), message=f"{control} in the {view}")
    result = driver.execute_script(MEASURE)
    assert result["measured"] >= minimum, f"too few controls measured in the {view}: {result}"
    assert result["outside"] == [], f"{view} at {size}: controls off screen: {result['outside']}"
    assert result["scrollWidth"] <= result["width"], f"{view} at {size}: the page is {result['scrollWidth']} px wide"


@pytest.fixture
def several_stores_writable(store_servers):
    folder = store_servers.folder("cdb-ui-topbar-")
    first = copy_fixture("cartkit/coredata/CartStorage_v1.sqlite", folder)
    second = copy_fixture("apple-notes-13/NoteStore.sqlite", folder)
    base, _ = store_servers.serve_arguments(["--writable", "--store", str(first), "--store", str(second)])
    return base


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_one_read_only_store(driver, server, wait_for, size):
    set_viewport(driver, *size)
    open_inspector(driver, server, wait_for, entity="Book")
    assert_fits(driver, wait_for, "Inspector", size, ["refresh-btn"])
    open_lab(driver, server, wait_for, entity="Book")
    assert_fits(driver, wait_for, "Lab", size, ["refresh-btn", "grid-export-btn"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_several_stores_with_writes_on(driver, several_stores_writable, wait_for, size):
    base = several_stores_writable
    set_viewport(driver, *size)
    open_inspector(driver, base, wait_for, entity="CDCart")
    assert_fits(driver, wait_for, "Inspector", size, ["store-switcher", "new-record-btn"])
    open_lab(driver, base, wait_for, entity="CDCart")
    assert_fits(driver, wait_for, "Lab", size, ["store-switcher", "new-record-btn", "delete-record-btn"])
    for view in ("history", "model"):
        driver.get(f"{base}/{view}")
        assert_fits(driver, wait_for, view, size, ["store-switcher"], minimum=5)  # view tabs and the switcher
